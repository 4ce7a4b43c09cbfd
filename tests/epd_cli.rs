//! `harness epd` end to end with the faulty test engine: crashes and hangs cost one position,
//! the run goes on; CSV, baseline regression exit code, malformed lines.

use crate::common;

use common::FORCED;
use std::path::PathBuf;
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("epd-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .arg("epd")
        .args(args)
        .output()
        .unwrap()
}

fn faulty(flags: &str) -> String {
    format!("{} {flags}", env!("CARGO_BIN_EXE_faulty-engine"))
}

/// The solved and total counts of the summary line that starts with `name`.
fn solved(out: &str, name: &str) -> (usize, usize) {
    let line = out
        .lines()
        .find(|l| l.starts_with(name))
        .expect("summary line");
    let words: Vec<&str> = line.split_whitespace().collect();
    (words[1].parse().unwrap(), words[3].parse().unwrap())
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn crashes_and_hangs_cost_one_position_each_and_the_run_goes_on() {
    let dir = temp_dir("faults");
    let suite = dir.join("forced.epd");
    std::fs::write(&suite, FORCED).unwrap();
    let csv = dir.join("out.csv");
    let engine = faulty("--crash-after 2");
    let args = [
        suite.to_str().unwrap(),
        "--engine",
        &engine,
        "--movetime",
        "10",
    ];
    let o = harness(&[&args[..], &["--csv", csv.to_str().unwrap()]].concat());
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    // Every third search of a process crashes: positions 3 and 6 with one engine process.
    assert_eq!(solved(&out, "forced"), (4, 6), "{out}");
    assert_eq!(out.matches("[crashed").count(), 2, "{out}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 7);
    assert!(
        rows.lines().nth(1).unwrap().starts_with("forced,f1,1,"),
        "{rows}"
    );

    let engine = faulty("--hang-after 1");
    let o = harness(&[
        suite.to_str().unwrap(),
        "--engine",
        &engine,
        "--movetime",
        "10",
        "--hang-timeout",
        "1",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    // Each fresh process answers its first search, then hangs on the next: f2, f4, f6 hang.
    assert_eq!(out.matches("[hung]").count(), 3, "{out}");
    assert!(
        out.contains("FAIL forced f6: expected bm Kxb7, played - [hung]"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn baseline_regression_sets_exit_code_1_within_tolerance_0() {
    let dir = temp_dir("baseline");
    let suite = dir.join("forced.epd");
    std::fs::write(&suite, FORCED).unwrap();
    let good = dir.join("good.csv");
    let engine = faulty("");
    let s = suite.to_str().unwrap();
    let o = harness(&[
        s,
        "--engine",
        &engine,
        "--nodes",
        "1",
        "--csv",
        good.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Now an engine answering illegal moves from its 5th search on loses f5 and f6.
    let bad = faulty("--illegal-after 4");
    let base = ["--baseline", good.to_str().unwrap()];
    let o = harness(&[&[s, "--engine", &bad, "--nodes", "1"][..], &base].concat());
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("newly failed: forced f5") && out.contains("REGRESSION"),
        "{out}"
    );
    assert!(out.contains("[illegal move a1a1]"), "{out}");
    let o = harness(
        &[
            &[s, "--engine", &bad, "--nodes", "1", "--tolerance", "2"][..],
            &base,
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unreadable_lines_are_skipped_by_default_and_stop_a_strict_run() {
    let dir = temp_dir("bad");
    let suite = dir.join("bad.epd");
    std::fs::write(
        &suite,
        format!("{FORCED}k7/1R6/8/8/8/8/8/7K b - - bm Ka7;\n"),
    )
    .unwrap();
    let engine = faulty("");
    let s = suite.to_str().unwrap();
    // By default: a warning naming file, line and cause, the run goes on, the count at the end
    // points at --strict.
    let o = harness(&[s, "--engine", &engine, "--nodes", "1"]);
    let (out, err) = (stdout(&o), String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        err.contains("warning: skipped ") && err.contains("bad.epd:7: bm operation: 'Ka7'"),
        "{err}"
    );
    assert!(
        out.contains("Skipped 1 unreadable line (") && out.contains("--strict"),
        "{out}"
    );
    assert_eq!(solved(&out, "bad"), (6, 6), "{out}");
    // --strict: exit 2 at the first such line, and the message names the default.
    let o = harness(&[s, "--engine", &engine, "--nodes", "1", "--strict"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bad.epd:7: bm operation: 'Ka7': illegal san")
            && err.contains("without it such lines are skipped"),
        "{err}"
    );
    assert!(
        !stdout(&o).contains("Total"),
        "no engine ran: {}",
        stdout(&o)
    );
    // An engine that cannot start is an error, not a run of failures.
    let o = harness(&[s, "--engine", "/nonexistent/engine"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_baseline_is_reported_before_any_engine_starts() {
    let dir = temp_dir("nobase");
    let suite = dir.join("forced.epd");
    std::fs::write(&suite, FORCED).unwrap();
    let missing = dir.join("old.csv");
    // The engine cannot start either: the baseline's error coming first shows the order.
    let o = harness(&[
        suite.to_str().unwrap(),
        "--engine",
        "/nonexistent/engine",
        "--baseline",
        missing.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--baseline") && err.contains("old.csv") && !err.contains("nonexistent"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
