//! Hostile input for the engine's readers: FEN strings, weights files and UCI command lines.
//! Valid text with random edits, and garbage. Nothing may panic; a whole UCI session of mangled
//! commands must leave the engine answering `isready` and leaving on `quit`.
//! `PROPTEST_CASES` sets the number of cases (256 by default; `.ci/run` runs more).

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use sable::board::Board;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/8/8/8/4K2R w K - 99 80",
];

const UCI_LINES: &[&str] = &[
    "position startpos moves e2e4 e7e5 g1f3",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1",
    "go depth 2",
    "go nodes 500",
    "go wtime 200 btime 200 winc 10 binc 10 movestogo 3",
    "setoption name Hash value 2",
    "setoption name Move Overhead value 30",
    "setoption name SyzygyPath value /nonexistent/syzygy:/tmp",
    "setoption name SyzygyProbeLimit value 5",
    "ucinewgame",
    "isready",
    "d",
    "eval",
    "stop",
];

/// Text with 0 to 6 random edits (insert, delete, replace a character).
fn mangle(text: &str, edits: &[(u16, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, op, c) in edits {
        let i = at as usize % chars.len().max(1);
        match op {
            0 => chars.insert(i.min(chars.len()), c),
            1 if !chars.is_empty() => {
                chars.remove(i.min(chars.len() - 1));
            }
            _ if !chars.is_empty() => {
                let last = chars.len() - 1;
                chars[i.min(last)] = c;
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn edits() -> impl Strategy<Value = Vec<(u16, u8, char)>> {
    prop::collection::vec(
        (
            any::<u16>(),
            0u8..3,
            prop_oneof![
                any::<char>(),
                prop::sample::select(vec![' ', '/', '-', '1', '8', '9', 'k', 'q', 'K', 'w']),
            ],
        ),
        0..6,
    )
}

proptest! {
    #[test]
    fn fens_parse_or_fail_and_what_parses_round_trips(i in 0..FENS.len(), e in edits()) {
        let fen = mangle(FENS[i], &e);
        if let Ok(board) = Board::from_fen(&fen) {
            let again = Board::from_fen(&board.to_fen()).expect("our own FEN reads back");
            prop_assert_eq!(again.to_fen(), board.to_fen());
            // A legal-looking position has a move list and a perft that do not panic.
            let mut b = board.clone();
            let _ = sable::movegen::perft(&mut b, 2);
        }
    }

    #[test]
    fn weights_files_parse_or_fail(cut in any::<u16>(), e in edits()) {
        let text = sable::eval::Params::default().to_json();
        let n = text.chars().count();
        let keep = (cut as usize % (n + 1)).max(n.saturating_sub(200));
        let text: String = text.chars().take(keep).collect();
        let _ = sable::eval::Params::from_json(&mangle(&text, &e));
    }
}

#[test]
fn a_session_of_mangled_commands_leaves_the_engine_answering() {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(256);
    let mut runner = TestRunner::new(Config::with_cases(cases));
    let strategy = (0..UCI_LINES.len(), edits());
    let mut lines = Vec::new();
    for _ in 0..cases {
        let (i, e) = strategy.new_tree(&mut runner).unwrap().current();
        lines.push(mangle(UCI_LINES[i], &e));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    for (n, line) in lines.iter().enumerate() {
        // Every mangled line is followed by `stop`, so a search it started ends at once.
        writeln!(stdin, "{line}\nstop").unwrap();
        if n % 16 == 15 || n + 1 == lines.len() {
            writeln!(stdin, "isready").unwrap();
            stdin.flush().unwrap();
            loop {
                match rx.recv_timeout(Duration::from_secs(20)) {
                    Ok(l) if l == "readyok" => break,
                    Ok(_) => {}
                    Err(e) => panic!("no readyok after {:?}: {e}", &lines[..=n]),
                }
            }
        }
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}
