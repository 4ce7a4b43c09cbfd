//! Fixed benchmark: positions searched to a fixed depth; the node count is the search signature.
//!
//! Each position starts from a cleared searcher, so the count depends only on the search code
//! and the evaluation, never on what ran before. OpenBench parses the last line,
//! `N nodes M nps`.

use crate::board::Board;
use crate::search::{Limits, NoReport, Searcher};
use crate::tablebase::Tablebases;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Depth of `sable bench` without an argument.
pub const DEFAULT_DEPTH: i32 = 10;

/// Hash size used by the benchmark, in MB.
pub const BENCH_HASH_MB: usize = 16;

/// Openings, middlegames, endgames, mates and stalemates, with both sides to move.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18",
    "4k2r/1pb2ppp/1p2p3/1R1p4/3P4/2r1PN2/P4PPP/1R4K1 b - - 3 22",
    "3q2k1/pb3p1p/4pbp1/2r5/PpN2N2/1P2P2P/5PP1/Q2R2K1 b - - 4 26",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 3 54",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
    "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
    "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
    "8/pp2r1k1/2p1p3/3pP2p/1P1P1P1P/P5KR/8/8 w - - 0 1",
    "8/3p4/p1bk3p/Pp6/1Kp1PpPp/2P2P1P/2P5/5B2 b - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "6k1/4pp1p/3p2p1/P1pPb3/R7/1r2P1PP/3B1P2/6K1 w - - 0 1",
    "8/3p3B/5p2/5P2/p7/PP5b/k7/6K1 w - - 0 1",
    "5rk1/q6p/2p3bR/1pPp1rP1/1P1Pp3/P3B1Q1/1K3P2/R7 w - - 93 90",
    "4rrk1/1p1nq3/p7/2p1P1pp/3P2bp/3Q1Bn1/PPPB4/1K2R1NR w - - 40 21",
    "r3k2r/3nnpbp/q2pp1p1/p7/Pp1PPPP1/4BNN1/1P5P/R2Q1RK1 w kq - 0 16",
    "3Qb1k1/1r2ppb1/pN1n2q1/Pp1Pp1Pr/4P2p/4BP2/4B1R1/1R5K b - - 11 40",
    "4k3/3q1r2/1N2r1b1/3ppN2/2nPP3/1B1R2n1/2R1Q3/3K4 w - - 5 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
    "8/8/1P6/5pr1/8/4R3/7k/2K5 w - - 0 1",
    "8/2p4P/8/kr6/6R1/8/8/1K6 w - - 0 1",
    "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
    "8/R7/2q5/8/6k1/8/1P5p/K6R w - - 0 124",
    "6k1/3b3r/1p1p4/p1n2p2/1PPNpP1q/P3Q1p1/1R1RB1P1/5K2 b - - 0 1",
    "r2r1n2/pp2bk2/2p1p2p/3q4/3PN1QP/2P3R1/P4PP1/5RK1 w - - 0 1",
    "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",
    "7k/7P/6K1/8/3B4/8/8/8 b - - 0 1",
    "7K/7P/7k/8/6q1/8/8/8 w - - 0 1",
];

/// Totals of one benchmark run.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    /// Nodes over all positions: the search signature.
    pub nodes: u64,
    /// Wall time of the searches.
    pub elapsed: Duration,
    /// Successful tablebase probes (0 without tables).
    pub tbhits: u64,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1000 / self.elapsed.as_millis().max(1)) as u64
    }
}

/// Search every position to `depth` from a cleared searcher; `progress` is called after each
/// position with (index, fen, nodes of that position).
pub fn run(depth: i32, progress: impl FnMut(usize, &str, u64)) -> BenchResult {
    run_with(depth, None, progress)
}

/// [`run`] with Syzygy tables (the signature is [`run`]'s, without tables; with them the
/// endgame positions search differently, so this is for measuring the cost of the tables).
pub fn run_with(
    depth: i32,
    tables: Option<Arc<Tablebases>>,
    mut progress: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let mut searcher = Searcher::new(BENCH_HASH_MB);
    searcher.set_tablebases(tables);
    let mut nodes = 0;
    let mut tbhits = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(mut board) = Board::from_fen(fen) else {
            continue;
        };
        searcher.clear();
        let r = searcher.search(&mut board, &Limits::depth(depth), &mut NoReport);
        nodes += r.nodes;
        tbhits += r.tbhits;
        progress(i, fen, r.nodes);
    }
    BenchResult {
        nodes,
        elapsed: start.elapsed(),
        tbhits,
    }
}

/// `sable bench [depth [SYZYGY_PATH]]`: run and print `N nodes M nps` last. Returns the exit
/// code. With a Syzygy path the tables are probed as in a game (for measuring their cost; the
/// node count is then no signature).
pub fn main(args: &[String]) -> i32 {
    let depth = match args.first() {
        None => DEFAULT_DEPTH,
        Some(d) => match d.parse::<i32>() {
            Ok(d) if (1..=64).contains(&d) => d,
            _ => {
                eprintln!("sable bench: depth must be a number in 1..=64, got '{d}'");
                return 2;
            }
        },
    };
    let tables = match args.get(1) {
        None => None,
        Some(path) => {
            let (tables, problems) = Tablebases::open(path);
            for p in &problems {
                eprintln!("sable bench: {p}");
            }
            let Some(tables) = tables else {
                eprintln!("sable bench: no Syzygy table found in '{path}'");
                return 2;
            };
            eprintln!("sable bench: {}", tables.summary());
            Some(Arc::new(tables))
        }
    };
    let r = run_with(depth, tables, |i, fen, n| {
        eprintln!(
            "position {:>2}/{}: {n:>10} nodes  {fen}",
            i + 1,
            POSITIONS.len()
        );
    });
    eprintln!(
        "bench depth {depth}: {} ms, {} tbhits",
        r.elapsed.as_millis(),
        r.tbhits
    );
    println!("{} nodes {} nps", r.nodes, r.nps());
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_fen_parses() {
        for fen in POSITIONS {
            assert!(Board::from_fen(fen).is_ok(), "{fen}");
        }
        assert!(POSITIONS.len() >= 30);
    }

    /// The committed search signature, the number `Bench:` lines in commit messages carry.
    const SIGNATURE: &str = include_str!("../../suites/bench.txt");

    /// About a second in a release build (the README's `cargo test --release`); a debug build
    /// takes many times that, so it runs there only with `--ignored`.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "slow in a debug build: run with --release")]
    fn signature_matches_suites_bench_txt() {
        let want: u64 = SIGNATURE
            .trim()
            .parse()
            .expect("suites/bench.txt holds a number");
        let got = run(DEFAULT_DEPTH, |_, _, _| {}).nodes;
        // Any change to search or evaluation (a piece weight, the null-move reduction, a
        // pruning margin) moves this count; a change that means to must update the file.
        assert_eq!(
            got, want,
            "bench signature changed: if that is intended, write {got} to suites/bench.txt \
             and say `Bench: {got}` in the commit message"
        );
    }
}
