//! `sable tbprobe PATH`: probes the Syzygy tables in PATH (folders separated by `:`) for each
//! FEN read from standard input, through the engine's own board and conversion, and prints one
//! line per FEN: `wdl W dtz D` (WDL -2..2 as if just after a capture or pawn move, DTZ in plies
//! from the side to move's view, `none` where the tables cannot tell; ` rounded` when the table
//! stores the DTZ halved). The agreement test (scripts/tb-agree.py) compares these lines with
//! python-chess's independent prober.

use sable::board::Board;
use sable::tablebase::Tablebases;
use std::io::BufRead;

const USAGE: &str = "usage: sable tbprobe PATH < fens.txt   (PATH: Syzygy folders separated by ':'; one FEN a line on stdin)";

/// Runs the command; returns the process exit code: 0, 1 when some input line was bad (each is
/// named on stderr and answered with an `error` line), 2 on bad arguments or no tables.
pub fn run(args: &[String]) -> i32 {
    let [path] = args else {
        eprintln!("{USAGE}");
        return 2;
    };
    sable::attacks::init();
    let (tables, problems) = Tablebases::open(path);
    for p in &problems {
        eprintln!("sable tbprobe: {p}");
    }
    let Some(mut tables) = tables else {
        eprintln!("sable tbprobe: no Syzygy table found in '{path}'");
        return 2;
    };
    tables.set_problem_sink(Box::new(|m| eprintln!("sable tbprobe: {m}")));
    eprintln!("sable tbprobe: {}", tables.summary());
    let mut code = 0;
    let stdin = std::io::stdin();
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("sable tbprobe: stdin line {}: {e}", i + 1);
                println!("error unreadable line");
                code = 1;
                continue;
            }
        };
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        match Board::from_fen(fen) {
            Ok(board) => {
                let wdl = tables
                    .probe_wdl(&board)
                    .map_or("none".to_string(), |w| (w as i32).to_string());
                let dtz = tables.probe_dtz(&board).map_or("none".to_string(), |d| {
                    format!("{}{}", d.plies, if d.rounded { " rounded" } else { "" })
                });
                println!("wdl {wdl} dtz {dtz}");
            }
            Err(e) => {
                eprintln!("sable tbprobe: stdin line {}: bad FEN '{fen}': {e}", i + 1);
                println!("error bad FEN");
                code = 1;
            }
        }
    }
    code
}
