//! No pass without work: every command whose input yields nothing to do exits non-zero and
//! says what was empty and why (a CI gate on an unreadable suite must fail, not report
//! `0 / 0`). Files with some good lines keep the skip-with-warning default (tested beside
//! each command); here each input holds nothing usable.

use crate::common;

use common::{temp_dir, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

fn harness(args: &[&str]) -> Output {
    Command::new(HARNESS).args(args).output().unwrap()
}

fn file(dir: &Path, name: &str, content: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Fails unless `out` failed (non-zero, not a crash) with every one of `words` in its stderr.
fn refused(out: &Output, words: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(c) if c != 0),
        "exit {:?}: {}",
        out.status.code(),
        text(out)
    );
    for w in words {
        assert!(err.contains(w), "`{w}` not in stderr: {}", text(out));
    }
}

/// Lines none of which is a position (for every reader of positions).
const UNREADABLE: &str = "not a position\nrnbqkbnr/pppppppp/8 w\n# a comment\n\n";

/// A PGN file with no game in it.
const NO_GAMES: &str = "% just a comment line, no tags, no moves\n\n";

#[test]
fn epd_suite_without_a_readable_position() {
    let dir = temp_dir("empty", "epd");
    let suite = file(&dir, "bad.epd", UNREADABLE);
    let out = harness(&["epd", s(&suite), "--engine", &format!("cmd={FAULTY}")]);
    refused(
        &out,
        &["bad.epd", "no readable position", "2 lines skipped"],
    );
    let empty = file(&dir, "empty.epd", "");
    let out = harness(&["epd", s(&empty), "--engine", &format!("cmd={FAULTY}")]);
    refused(&out, &["empty.epd", "no position"]);
}

#[test]
fn perft_suite_without_a_position() {
    let dir = temp_dir("empty", "perft");
    let empty = file(&dir, "empty.epd", "# nothing here\n\n");
    refused(
        &harness(&["perft", s(&empty)]),
        &["empty.epd", "no position"],
    );
}

#[test]
fn ratings_pgn_without_games() {
    let dir = temp_dir("empty", "ratings");
    let pgn = file(&dir, "none.pgn", NO_GAMES);
    refused(
        &harness(&["ratings", s(&pgn)]),
        &["none.pgn", "no finished games"],
    );
}

#[test]
fn extract_pgn_without_games() {
    let dir = temp_dir("empty", "extract");
    let pgn = file(&dir, "none.pgn", NO_GAMES);
    let out = dir.join("out.csv");
    refused(
        &harness(&["extract", s(&pgn), "--out", s(&out)]),
        &["none.pgn", "no games"],
    );
}

#[test]
fn suite_gen_pgn_without_games() {
    let dir = temp_dir("empty", "suitegen");
    let pgn = file(&dir, "none.pgn", NO_GAMES);
    let out = dir.join("out.epd");
    refused(
        &harness(&[
            "suite-gen",
            "--pgn",
            s(&pgn),
            "--oracle",
            &format!("cmd={FAULTY}"),
            "--out",
            s(&out),
        ]),
        &["none.pgn", "no candidate positions", "no games"],
    );
}

#[test]
fn tune_dataset_without_a_position() {
    let dir = temp_dir("empty", "tune");
    let data = file(&dir, "bad.csv", "fen,result\nnot a fen,1.0\n");
    let out = dir.join("w.json");
    let args = ["tune", s(&data), "--epochs", "1", "--out", s(&out)];
    refused(&harness(&args), &["bad.csv"]);
    let mut skipping = args.to_vec();
    skipping.push("--skip-bad");
    refused(&harness(&skipping), &["bad.csv", "no position"]);
    let empty = file(&dir, "empty.csv", "");
    let args = ["tune", s(&empty), "--epochs", "1", "--out", s(&out)];
    refused(&harness(&args), &["empty.csv", "no position"]);
}

#[test]
fn label_dataset_without_a_position() {
    let dir = temp_dir("empty", "label");
    let empty = file(&dir, "empty.csv", "");
    let out = dir.join("labels.csv");
    refused(
        &harness(&[
            "label",
            s(&empty),
            "--engine",
            &format!("cmd={FAULTY}"),
            "--out",
            s(&out),
        ]),
        &["empty.csv", "no position"],
    );
}

#[test]
fn datagen_book_without_an_opening() {
    let dir = temp_dir("empty", "datagen");
    let book = file(&dir, "book.epd", "# only a comment\n\n");
    let out = dir.join("data.csv");
    refused(
        &harness(&[
            "datagen",
            "--book",
            s(&book),
            "--out",
            s(&out),
            "--positions",
            "10",
        ]),
        &["book.epd", "no positions"],
    );
}

#[test]
fn match_book_without_an_opening() {
    let dir = temp_dir("empty", "book");
    let book = file(&dir, "book.epd", "# only a comment\n");
    let engine = format!("cmd={FAULTY}");
    refused(
        &harness(&[
            "match",
            "--engine",
            &engine,
            "name=a",
            "--engine",
            &engine,
            "name=b",
            "--each",
            "tc=inf",
            "nodes=1",
            "--openings",
            &format!("file={}", s(&book)),
            "--rounds",
            "1",
        ]),
        &["book.epd"],
    );
}

#[test]
fn book_that_would_hold_no_opening() {
    let dir = temp_dir("empty", "bookgen");
    let out = dir.join("book.epd");
    refused(
        &harness(&[
            "book",
            "--count",
            "0",
            "--engine",
            &format!("cmd={FAULTY}"),
            "--out",
            s(&out),
        ]),
        &["--count 0"],
    );
}

#[test]
fn tablebase_folder_without_tables() {
    let dir = temp_dir("empty", "tb");
    let empty = dir.join("tables");
    std::fs::create_dir_all(&empty).unwrap();
    let fen = "8/8/8/8/8/k7/8/1K5Q w - - 0 1";
    refused(
        &harness(&["tb", "probe", "--tb", s(&empty), fen]),
        &["no Syzygy tables"],
    );
    let out = dir.join("data.csv");
    refused(
        &harness(&[
            "datagen",
            "--tb",
            s(&empty),
            "--out",
            s(&out),
            "--positions",
            "10",
        ]),
        &["no Syzygy tables"],
    );
}
