//! The faulty test engine speaks enough UCI to play, and its fault flags work.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn converse(flags: &[&str], input: &str) -> (Vec<String>, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_faulty-engine"))
        .args(flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let lines = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    (lines, child.wait().unwrap().code())
}

#[test]
fn plays_the_only_legal_move_and_quits() {
    // Black to move: Ka8 next to an unprotected Rb7; taking it is the only legal move.
    let input = "uci\nisready\nposition fen k7/1R6/8/8/8/8/8/7K b - - 0 1\ngo movetime 10\nquit\n";
    let (lines, code) = converse(&[], input);
    assert!(lines.contains(&"uciok".to_owned()));
    assert!(lines.contains(&"readyok".to_owned()));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove a8b7"));
    assert_eq!(code, Some(0));
}

#[test]
fn crash_flag_exits_with_status_3() {
    let (lines, code) = converse(&["--crash-after", "0"], "uci\nposition startpos\ngo\n");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    assert_eq!(code, Some(3));
}

#[test]
fn illegal_flag_sends_an_illegal_move() {
    let (lines, _) = converse(
        &["--illegal-after", "0"],
        "position startpos moves e2e4\ngo\nquit\n",
    );
    assert_eq!(lines.last().map(String::as_str), Some("bestmove a1a1"));
}
