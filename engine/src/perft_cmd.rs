//! `sable perft DEPTH [FEN]`: divide per root move, total nodes, time and speed.

use sable::board::Board;
use sable::movegen;
use std::time::Instant;

const USAGE: &str =
    "usage: sable perft DEPTH [FEN]   (DEPTH 1..=15; FEN defaults to the start position; Chess960 FENs in X-FEN or Shredder-FEN)";

/// Runs the command; returns the process exit code (2 on bad arguments).
pub fn run(args: &[String]) -> i32 {
    let Some(depth) = args
        .first()
        .and_then(|d| d.parse::<u32>().ok())
        .filter(|d| (1..=15).contains(d))
    else {
        eprintln!("{USAGE}");
        return 2;
    };
    let mut board = if args.len() > 1 {
        match Board::from_fen(&args[1..].join(" ")) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("bad FEN: {e}");
                return 2;
            }
        }
    } else {
        Board::startpos()
    };
    sable::attacks::init();
    let start = Instant::now();
    // Castling as king takes rook when the FEN has Chess960 castling rights.
    let chess960 = board.is_chess960();
    let split = movegen::divide(&mut board, depth);
    let elapsed = start.elapsed();
    let total: u64 = split.iter().map(|(_, n)| n).sum();
    for (m, n) in &split {
        println!("{}: {n}", board.move_to_uci(*m, chess960));
    }
    let secs = elapsed.as_secs_f64();
    println!();
    println!("Nodes searched: {total}");
    println!("Time: {:.3} s", secs);
    println!("Nps: {:.0}", total as f64 / secs.max(1e-9));
    0
}
