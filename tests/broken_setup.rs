//! `harness match` / `harness sprt` given a broken setup, as a new user would give it: no verdict
//! from engines that cannot start or fault game after game, no silent start-position games, no
//! merged names, no overwritten results, and a log that explains every fault.

use crate::common;

use common::{temp_dir, text};

use std::path::PathBuf;
use std::process::{Command, Output};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

/// Runs the harness in `dir` with `words`; `ARGS:a b c` becomes one word `args=a b c`.
fn harness(dir: &PathBuf, words: &str) -> Output {
    let args: Vec<String> = words
        .split_whitespace()
        .map(|w| match w.strip_prefix("ARGS:") {
            Some(a) => format!("args={}", a.replace(',', " ")),
            None => w.replace("FAULTY", FAULTY),
        })
        .collect();
    Command::new(HARNESS)
        .args(&args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn a_base_that_cannot_start_gives_no_verdict_and_plays_no_game() {
    let dir = temp_dir("broken", "false");
    let out = harness(
        &dir,
        "sprt --dev FAULTY --base /bin/false --each nodes=2000 --elo0 0 --elo1 5 --recover --quiet",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "{t}");
    assert!(
        t.contains("engine base (`/bin/false`) failed to start: engine crashed (exit status: 1)"),
        "{t}"
    );
    assert!(t.contains("SPRT: no verdict"), "{t}");
    assert!(!t.contains("accepted"), "{t}");
    assert!(t.contains("Finished 0 of"), "{t}");
    assert!(
        common::files_in(&dir).is_empty(),
        "nothing written (no results, no lock) for a broken setup: {:?}",
        common::files_in(&dir)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_dev_that_dies_before_uciok_is_named_with_its_stderr() {
    let dir = temp_dir("broken", "uciok");
    let out = harness(
        &dir,
        "sprt --engine cmd=FAULTY name=dev ARGS:--exit-before-uciok,9 --engine cmd=FAULTY name=base \
         --each nodes=2000 --quiet",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "{t}");
    assert!(t.contains("engine dev ("), "{t}");
    assert!(t.contains("--exit-before-uciok 9"), "the command line: {t}");
    assert!(t.contains("exit status: 9"), "{t}");
    assert!(
        t.contains("stderr: faulty-engine: cannot load its network"),
        "{t}"
    );
    // One that never answers `uci` at all: a timeout, named the same way.
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=mute ARGS:--no-uciok \
         --each nodes=100 --startup-ms 300 --results m.json --quiet",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "{t}");
    assert!(
        t.contains("engine mute (") && t.contains("timed out waiting for uciok"),
        "{t}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_base_that_crashes_at_its_first_move_every_game_gives_no_verdict() {
    let dir = temp_dir("broken", "crash");
    let out = harness(
        &dir,
        "sprt --engine cmd=FAULTY name=dev --engine cmd=FAULTY name=base ARGS:--crash-after,0 \
         --each nodes=2000 --recover --quiet --results sprt.json",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "{t}");
    assert!(t.contains("base faulted in 3 games in a row"), "{t}");
    assert!(t.contains("SPRT: no verdict"), "{t}");
    // Its stderr is shown with the fault, and the results file says why it stopped.
    assert!(t.contains("crashing on purpose"), "{t}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sprt.json")).unwrap()).unwrap();
    assert_eq!(summary["decision"], serde_json::Value::Null);
    assert!(summary["stopped"]
        .as_str()
        .unwrap()
        .contains("3 games in a row"));
    assert_eq!(summary["faults"][1]["engine"], "base");
    assert!(summary["faults"][1]["crashes"].as_u64().unwrap() >= 3);
    assert_eq!(summary["fault_rules"]["max_consecutive"], 3);
    assert!(
        t.contains("harness sprt --resume sprt.json"),
        "how to go on: {t}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_match_anywhere_uses_the_built_in_book_and_names_the_line() {
    let dir = temp_dir("broken", "book");
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b --each nodes=10 \
         --rounds 3 --pgnout g.pgn --quiet --seed 5 --maxmoves 20",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    let openings: Vec<&str> = pgn.lines().filter(|l| l.starts_with("[Opening ")).collect();
    assert_eq!(openings.len(), 6, "{pgn}");
    assert!(
        openings[0].starts_with("[Opening \"suites/openings.epd line "),
        "{}",
        openings[0]
    );
    assert_eq!(
        pgn.matches("[FEN ").count(),
        6,
        "book positions, not the start"
    );
    let fens: std::collections::HashSet<&str> =
        pgn.lines().filter(|l| l.starts_with("[FEN ")).collect();
    assert_eq!(fens.len(), 3, "three rounds, three openings");
    // The start position only when asked for.
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b --each nodes=10 \
         --openings startpos --pgnout s.pgn --results s.json --quiet --maxmoves 20",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let pgn = std::fs::read_to_string(dir.join("s.pgn")).unwrap();
    assert!(
        !pgn.contains("[FEN ") && !pgn.contains("[Opening "),
        "{pgn}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn repeated_openings_with_node_limits_are_warned_about_and_counted() {
    let dir = temp_dir("broken", "repeat");
    std::fs::write(
        dir.join("one.epd"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n",
    )
    .unwrap();
    // The faulty engine plays the same moves from the same position with the same seed.
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b --each nodes=10 \
         ARGS:--deterministic --rounds 3 --openings file=one.epd --maxmoves 15 --quiet",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains("3 rounds need 3 openings, but one.epd has 1"),
        "{t}"
    );
    assert!(t.contains("not independent"), "{t}");
    assert!(
        t.contains("Warning: 4 games repeated an earlier game move for move"),
        "{t}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn same_names_and_an_existing_results_file_are_refused() {
    let dir = temp_dir("broken", "names");
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY --engine cmd=FAULTY --each nodes=10 --quiet",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(t.contains("two engines are named `faulty-engine`"), "{t}");
    let run = "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b --each nodes=10 \
               --maxmoves 10 --quiet --results match.json";
    assert_eq!(harness(&dir, run).status.code(), Some(0));
    let before = std::fs::read_to_string(dir.join("match.json")).unwrap();
    let journal = std::fs::read_to_string(dir.join("match.json.games.jsonl")).unwrap();
    let out = harness(&dir, run);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("match.json already holds the results of a run")
            && t.contains("--resume match.json"),
        "{t}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("match.json")).unwrap(),
        before
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("match.json.games.jsonl")).unwrap(),
        journal
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_log_holds_every_line_both_ways_and_stderr() {
    let dir = temp_dir("broken", "log");
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=a ARGS:--stderr-flood,2 --engine cmd=FAULTY name=b \
         --each tc=inf nodes=10 --maxmoves 10 --log uci.log --quiet",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let log = std::fs::read_to_string(dir.join("uci.log")).unwrap();
    for needle in [
        " > uci",
        " < uciok",
        " > isready",
        " < readyok",
        " > go nodes 10",
        " < bestmove ",
        " ! faulty-engine: debug noise 1",
    ] {
        assert!(log.contains(needle), "`{needle}` missing from the log");
    }
    assert!(log.lines().any(|l| l.contains(" a#")) && log.lines().any(|l| l.contains(" b#")));
    // Every line starts with a UTC timestamp.
    assert!(log
        .lines()
        .all(|l| l.len() > 24 && &l[4..5] == "-" && &l[23..24] == "Z"));
    std::fs::remove_dir_all(&dir).ok();
}
