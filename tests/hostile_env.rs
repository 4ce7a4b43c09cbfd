//! The environment turns hostile: a second run on the same results file, Ctrl-C, SIGKILL, a
//! full disk. Nothing finished is lost, no engine is left running, and every interruption says
//! how to resume.

use crate::common;

use common::{temp_dir, text, wait_for};

use std::path::Path;
use std::process::{Child, Command, Stdio};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

/// A slow match (each move takes `move_ms`), logged, in `dir`.
fn slow_match(move_ms: u32, extra: &str) -> Vec<String> {
    let mut w: Vec<String> = format!(
        "match --rounds 50 --maxmoves 6 --concurrency 2 --quiet --results r.json --log uci.log \
         {extra} --engine cmd={FAULTY} name=a --engine cmd={FAULTY} name=b --each tc=inf nodes=10"
    )
    .split_whitespace()
    .map(str::to_owned)
    .collect();
    w.push(format!("args=--move-ms {move_ms}"));
    w
}

fn spawn(dir: &Path, args: &[String]) -> Child {
    Command::new(HARNESS)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn journal_lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("r.json.games.jsonl"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

/// The engine processes the log names (`name#pid`).
fn engine_pids(dir: &Path) -> Vec<u32> {
    let log = std::fs::read_to_string(dir.join("uci.log")).unwrap_or_default();
    let mut pids: Vec<u32> = log
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .filter_map(|who| who.rsplit_once('#'))
        .filter_map(|(_, pid)| pid.parse().ok())
        .collect();
    pids.sort();
    pids.dedup();
    pids
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !s.rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

fn all_gone(pids: &[u32]) {
    wait_for("every engine to exit", || !pids.iter().any(|&p| alive(p)));
}

#[test]
fn a_second_run_on_the_same_results_file_is_refused() {
    let dir = temp_dir("hostile", "lock");
    let mut first = spawn(&dir, &slow_match(20, ""));
    wait_for("the first game", || journal_lines(&dir) >= 1);
    let second = Command::new(HARNESS)
        .args(slow_match(20, ""))
        .current_dir(&dir)
        .output()
        .unwrap();
    let t = text(&second);
    assert_eq!(second.status.code(), Some(2), "{t}");
    assert!(t.contains("r.json is in use by another run (pid "), "{t}");
    assert!(t.contains("harness match "), "the run holding it: {t}");
    // Resuming it while it runs is refused the same way.
    let resume = Command::new(HARNESS)
        .args(["match", "--resume", "r.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        text(&resume).contains("in use by another run"),
        "{}",
        text(&resume)
    );
    first.kill().unwrap();
    first.wait().unwrap();
    // The journal is whole: every line parses.
    let journal = std::fs::read_to_string(dir.join("r.json.games.jsonl")).unwrap();
    for line in journal.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ctrl_c_stops_in_order_reports_and_says_how_to_resume() {
    let dir = temp_dir("hostile", "sigint");
    let child = spawn(&dir, &slow_match(30, ""));
    wait_for("three games", || journal_lines(&dir) >= 3);
    let pids = engine_pids(&dir);
    assert!(pids.len() >= 4, "{pids:?}");
    common::interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(130), "{t}");
    assert!(t.contains("Results of a vs b"), "the interim report: {t}");
    assert!(t.contains("Stopped: interrupted (Ctrl-C)"), "{t}");
    assert!(
        t.contains("To continue: harness match --resume r.json"),
        "{t}"
    );
    all_gone(&engine_pids(&dir));
    assert!(
        !dir.join("r.json.lock").exists(),
        "the lock goes with the run"
    );
    // Nothing is lost or doubled: the resume plays exactly the missing games.
    let played = journal_lines(&dir);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(summary["finished"].as_u64().unwrap() as usize, played);
    let resumed = Command::new(HARNESS)
        .args(["match", "--resume", "r.json", "--quiet"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    let journal = std::fs::read_to_string(dir.join("r.json.games.jsonl")).unwrap();
    let mut ids: Vec<u64> = common::journal_game_ids(&journal);
    ids.sort();
    assert_eq!(ids, (0..100).collect::<Vec<u64>>());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_harness_killed_with_sigkill_leaves_no_engine_running_even_a_hung_one() {
    let dir = temp_dir("hostile", "sigkill");
    // b hangs in its second search and ignores everything: only a kill ends it.
    let mut child = Command::new(HARNESS)
        .args(
            format!(
                "match --each tc=inf nodes=10 --rounds 50 --quiet --results r.json --log uci.log \
                 --engine cmd={FAULTY} name=a --engine cmd={FAULTY} name=b"
            )
            .split_whitespace(),
        )
        .arg("args=--hang-after 1")
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Both engines of the first game are up and b has been asked for its second move.
    wait_for("b's second search", || {
        std::fs::read_to_string(dir.join("uci.log"))
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains(" b#") && l.contains(" > go "))
            .count()
            >= 2
    });
    // The engines that started and quit before the first game are gone already; a and b play.
    let pids: Vec<u32> = engine_pids(&dir)
        .into_iter()
        .filter(|&p| alive(p))
        .collect();
    assert_eq!(pids.len(), 2, "{pids:?}");
    child.kill().unwrap(); // SIGKILL: no handler runs
    child.wait().unwrap();
    all_gone(&pids);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_full_disk_stops_the_run_with_a_clear_error_and_keeps_the_results() {
    let dir = temp_dir("hostile", "full");
    let out = Command::new(HARNESS)
        .args(slow_match(0, "--pgnout /dev/full"))
        .current_dir(&dir)
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(t.contains("writing the PGN file"), "{t}");
    assert!(t.contains("No space left on device"), "{t}");
    all_gone(&engine_pids(&dir));
    std::fs::remove_dir_all(&dir).ok();
}
