//! Lazy SMP through the library: every thread count returns a legal move, `go nodes` limits the
//! total over all threads, `stop` reaches every thread at once, and one thread is exactly the
//! single-threaded searcher.

use crate::common;

use sable::board::Board;
use sable::search::{Limits, NoReport, Searcher, ThreadPool};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
];

fn pool(threads: usize) -> ThreadPool {
    let mut p = ThreadPool::new(8);
    p.set_threads(threads);
    p
}

fn assert_legal(fen: &str, result: &sable::search::SearchResult) {
    let board = Board::from_fen(fen).unwrap();
    assert!(
        board.legal_moves().iter().any(|&m| m == result.best_move),
        "{} is not legal in {fen}",
        result.best_move
    );
    // The PV starts with the move played (a helper's PV when its result was chosen).
    assert_eq!(result.pv.first(), Some(&result.best_move), "{fen}");
}

#[test]
fn two_and_four_threads_return_legal_moves() {
    for threads in [2, 4] {
        let mut p = pool(threads);
        for fen in FENS {
            for limits in [Limits::depth(8), Limits::nodes(30_000)] {
                let mut board = Board::from_fen(fen).unwrap();
                let r = p.search(&mut board, &limits, &mut NoReport);
                assert_legal(fen, &r);
                assert_eq!(board.to_fen(), Board::from_fen(fen).unwrap().to_fen());
            }
        }
    }
}

#[test]
fn a_position_without_moves_returns_the_null_move_with_threads() {
    let mut p = pool(3);
    let mut board = Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let r = p.search(&mut board, &Limits::depth(5), &mut NoReport);
    assert!(r.best_move.is_null());
}

#[test]
fn go_nodes_limits_the_total_over_all_threads() {
    for threads in [2, 4] {
        let mut p = pool(threads);
        for (i, fen) in FENS.iter().enumerate() {
            let n = [5_000u64, 50_000, 200_000][i % 3];
            let mut board = Board::from_fen(fen).unwrap();
            let r = p.search(&mut board, &Limits::nodes(n), &mut NoReport);
            assert_legal(fen, &r);
            // Each other thread may be up to 64 nodes past its last addition to the total when
            // one thread sees the limit reached.
            assert!(
                r.nodes >= n && r.nodes <= n + 64 * threads as u64 + 50,
                "{threads} threads, go nodes {n}: {} nodes",
                r.nodes
            );
        }
    }
}

#[test]
fn depth_limited_searches_reach_the_depth_with_threads() {
    let mut p = pool(4);
    for fen in FENS {
        let mut board = Board::from_fen(fen).unwrap();
        let r = p.search(&mut board, &Limits::depth(9), &mut NoReport);
        assert_eq!(r.depth, 9, "{fen}");
        assert_legal(fen, &r);
    }
}

/// The time from raising the stop flag to the search's return is mostly the scheduler's on a
/// loaded machine (four search threads on two cores besides the other tests): the fastest of
/// five stops must take under 100 ms and every one under a second.
#[test]
fn stop_reaches_all_four_threads_within_100_ms() {
    let mut p = pool(4);
    let stop = p.stop_flag();
    let mut waits = Vec::new();
    for fen in FENS {
        stop.store(false, Ordering::SeqCst);
        let mut board = Board::from_fen(fen).unwrap();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let (r, waited) = std::thread::scope(|s| {
            let search = s.spawn(|| p.search(&mut board, &limits, &mut NoReport));
            std::thread::sleep(Duration::from_millis(300));
            let t = Instant::now();
            stop.store(true, Ordering::SeqCst);
            let r = search.join().unwrap();
            (r, t.elapsed())
        });
        assert!(waited < Duration::from_secs(1), "{fen}: {waited:?}");
        assert_legal(fen, &r);
        waits.push(waited);
    }
    let fastest = waits.iter().min().unwrap();
    assert!(*fastest < Duration::from_millis(100), "{waits:?}");
}

#[test]
fn one_thread_is_the_single_threaded_searcher() {
    let mut p = pool(1);
    let mut s = Searcher::new(8);
    for fen in FENS {
        for d in [6, 9] {
            let mut b1 = Board::from_fen(fen).unwrap();
            let mut b2 = b1.clone();
            let a = p.search(&mut b1, &Limits::depth(d), &mut NoReport);
            let b = s.search(&mut b2, &Limits::depth(d), &mut NoReport);
            assert_eq!(a, b, "{fen} depth {d}");
        }
    }
    // Back to one thread after four: still the same.
    p.set_threads(4);
    p.set_threads(1);
    p.clear();
    s.clear();
    let mut b1 = Board::from_fen(FENS[1]).unwrap();
    let mut b2 = b1.clone();
    let a = p.search(&mut b1, &Limits::nodes(20_000), &mut NoReport);
    let b = s.search(&mut b2, &Limits::nodes(20_000), &mut NoReport);
    assert_eq!(a, b);
    assert_eq!(a.nodes, 20_000);
}

#[test]
fn random_positions_with_threads_at_tiny_limits() {
    let mut p = pool(2);
    for fen in common::random_positions(40, 7) {
        let mut board = Board::from_fen(&fen).unwrap();
        if board.legal_moves().is_empty() {
            continue;
        }
        let r = p.search(&mut board, &Limits::nodes(500), &mut NoReport);
        assert_legal(&fen, &r);
    }
}
