//! Perft against published node counts, read from `tests/data/known.perft`.

use sable::board::Board;
use sable::movegen::perft;

/// Parses `FEN ;D1 n ;D2 n ...` lines, skipping comments and blank lines.
fn cases(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let p = p.trim();
                    let (d, n) = p[1..].split_once(' ').expect("';Dn count' field");
                    (d.trim().parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

#[test]
fn known_perft_counts() {
    let text = include_str!("data/known.perft");
    let cases = cases(text);
    assert!(
        cases.len() >= 20,
        "data file should hold the standard positions"
    );
    let mut failures = Vec::new();
    for (fen, counts) in &cases {
        let mut board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for &(depth, expected) in counts {
            let got = perft(&mut board, depth);
            if got != expected {
                failures.push(format!(
                    "{fen} depth {depth}: expected {expected}, got {got}"
                ));
            }
        }
        assert_eq!(
            board.to_fen(),
            Board::from_fen(fen).unwrap().to_fen(),
            "perft restores the board"
        );
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
#[ignore = "deep perft (several seconds); run in CI with --include-ignored"]
fn deep_perft_counts() {
    let deep = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            6,
            119_060_324u64,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
            193_690_690,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            5,
            15_833_292,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            5,
            89_941_194,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            5,
            164_075_551,
        ),
    ];
    for (fen, depth, expected) in deep {
        let mut board = Board::from_fen(fen).unwrap();
        assert_eq!(perft(&mut board, depth), expected, "{fen} depth {depth}");
    }
}
