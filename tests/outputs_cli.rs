//! The one rule for output files (`plumbing::output`), command by command: a file the user
//! names that exists is refused before any work (exit 2, saying to add `--force` or to name
//! another file) and left as it was; `--force` replaces it; a default name that is taken moves
//! to a numbered one with a `note:`.

use crate::common;

use common::{temp_dir, text, FORCED};
use std::path::Path;
use std::process::{Command, Output};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

fn harness_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(HARNESS)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Two finished games between two named engines.
const PGN: &str = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
                   [White \"b\"]\n[Black \"a\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n";

/// Runs `args` with `taken` holding "old": refused (exit 2, nothing else run, the file kept);
/// then with `--force`: exit 0 and the file replaced.
fn refused_then_forced(dir: &Path, taken: &str, flag: &str, args: &[&str], forced_runs: bool) {
    let path = dir.join(taken);
    std::fs::write(&path, "old").unwrap();
    let out = harness_in(dir, args);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {all}");
    assert!(
        all.contains(&format!("{taken} exists already"))
            && all.contains("Add --force to replace it")
            && all.contains(&format!("give {flag} another file name")),
        "{args:?}: {all}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old", "{args:?}");
    if forced_runs {
        let out = harness_in(dir, &[args, &["--force"]].concat());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?} --force: {}",
            text(&out)
        );
        assert_ne!(std::fs::read_to_string(&path).unwrap(), "old", "{args:?}");
    }
}

#[test]
fn a_named_output_that_exists_is_refused_before_any_work_unless_forced() {
    let dir = temp_dir("outputs", "named");
    std::fs::write(dir.join("forced.epd"), FORCED).unwrap();
    std::fs::write(dir.join("games.pgn"), PGN).unwrap();
    let engine = format!("cmd={FAULTY}");
    let epd = ["epd", "forced.epd", "--nodes", "1", "--engine", &engine];
    refused_then_forced(
        &dir,
        "bk.csv",
        "--csv",
        &[&epd[..], &["--csv", "bk.csv"]].concat(),
        true,
    );
    let ratings = ["ratings", "games.pgn"];
    for (file, flag) in [("list.csv", "--csv"), ("list.json", "--json")] {
        refused_then_forced(
            &dir,
            file,
            flag,
            &[&ratings[..], &[flag, file]].concat(),
            true,
        );
    }
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.csv");
    let tune = ["tune", sample, "--init", "material", "--epochs", "0"];
    refused_then_forced(
        &dir,
        "w.json",
        "--out",
        &[&tune[..], &["-o", "w.json"]].concat(),
        true,
    );
    // The loss curve's picture and its CSV are one output: either taken refuses both.
    let curve = [&tune[..], &["-o", "w2.json", "--curve", "loss.svg"]].concat();
    refused_then_forced(&dir, "loss.csv", "--curve", &curve, false);
    let book = [
        "book", "--count", "1", "--depth", "1", "--engine", &engine, "--out", "b.epd",
    ];
    refused_then_forced(&dir, "b.epd", "--out", &book, true);
    let suite_gen = [
        "suite-gen",
        "--random-playouts",
        "1",
        "--oracle",
        &engine,
        "--out",
        "s.epd",
    ];
    refused_then_forced(&dir, "s.epd", "--out", &suite_gen, false);
    refused_then_forced(
        &dir,
        "c.json",
        "--json",
        &["check", "--json", "c.json"],
        false,
    );
    // The pictures of a new SPRT (one stage or two) and of a new SPSA run.
    let two = [
        "--engine", &engine, "--engine", &engine, "--each", "nodes=1",
    ];
    let sprt = [&["sprt", "--plot", "p.svg"], &two[..]].concat();
    refused_then_forced(&dir, "p.svg", "--plot", &sprt, false);
    let staged = [
        &sprt[..],
        &[
            "--stc",
            "nodes=1 elo0=0 elo1=5",
            "--ltc",
            "nodes=2 elo0=0 elo1=5",
        ],
    ]
    .concat();
    refused_then_forced(&dir, "p.ltc.svg", "--plot", &staged, false);
    let spsa = ["spsa", "--engine", &engine, "--plot", "q.svg"];
    refused_then_forced(&dir, "q.svg", "--plot", &spsa, false);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_taken_default_name_moves_to_a_numbered_one_with_a_note() {
    let dir = temp_dir("outputs", "default");
    std::fs::create_dir_all(dir.join("suites")).unwrap();
    std::fs::write(dir.join("suites/openings.epd"), "old").unwrap();
    let engine = format!("cmd={FAULTY}");
    let out = harness_in(
        &dir,
        &["book", "--count", "1", "--depth", "1", "--engine", &engine],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(
        all.contains(
            "note: suites/openings.epd exists already and is kept; this run writes \
             suites/openings-2.epd"
        ),
        "{all}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("suites/openings.epd")).unwrap(),
        "old"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("suites/openings-2.epd"))
            .unwrap()
            .lines()
            .count(),
        1
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_reader_that_goes_away_ends_the_printing_not_the_command() {
    use std::process::Stdio;
    // `harness tune data.csv | head -1`: the pipes are closed before the first line, yet the
    // tune finishes and writes its files, without a panic.
    let dir = temp_dir("outputs", "closed-pipe");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.csv");
    let mut child = Command::new(HARNESS)
        .args([
            "tune", sample, "--epochs", "3", "-o", "t.json", "--curve", "c.csv",
        ])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert!(std::fs::read_to_string(dir.join("t.json"))
        .unwrap()
        .contains("\"weights\""));
    assert!(dir.join("c.csv").exists());
    std::fs::remove_dir_all(&dir).ok();
}
