//! The crash test of a run's files: a node-limited match between two sable engines (`harness
//! engine`, the engine's library behind the harness's own binary), killed with SIGKILL at
//! random moments many times and resumed after each kill, ends with every game exactly once
//! in the journal and in the PGN; the PGN is read back by a separate parser (pgn-reader), and no
//! engine process outlives the harness that started it.

use crate::common;

use common::{temp_dir, text};
use sable::rng::Rng;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");

/// Kills in all (each at a random moment of a resumed run).
const KILLS: usize = 12;
/// Rounds of the match: game pairs.
const ROUNDS: u64 = 40;

/// The ids of the journal's games (a last line cut short by a kill is not a game yet).
fn journal_ids(results: &Path) -> Vec<u64> {
    let text =
        std::fs::read_to_string(format!("{}.games.jsonl", results.display())).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|g| g["id"].as_u64().expect("a game has an id"))
        .collect()
}

/// The processes whose working directory is `dir`: the engines of this test, which run there.
fn processes_in(dir: &Path) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd == dir))
        .collect()
}

fn start(args: &[String]) -> Child {
    Command::new(HARNESS)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits until no process runs in `dir` (at most 10 s).
fn no_engine_left(dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = processes_in(dir);
        if left.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "engine processes left running after the harness died: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_match_killed_at_random_moments_and_resumed_keeps_every_game_once() {
    let dir = temp_dir("crash", "resume");
    let engines: PathBuf = dir.join("engines");
    std::fs::create_dir_all(&engines).unwrap();
    let engines = engines.canonicalize().unwrap();
    let (results, pgn) = (dir.join("r.json"), dir.join("r.pgn"));
    let new_run: Vec<String> = [
        "match".to_owned(),
        "--engine".into(),
        format!("cmd={HARNESS}"),
        "args=engine".into(),
        "name=a".into(),
        "--engine".into(),
        format!("cmd={HARNESS}"),
        "args=engine".into(),
        "name=b".into(),
        "--each".into(),
        "tc=inf".into(),
        "nodes=2000".into(),
        "option.Hash=1".into(),
        format!("dir={}", engines.display()),
        "--maxmoves".into(),
        "40".into(),
        "--rounds".into(),
        ROUNDS.to_string(),
        "--concurrency".into(),
        "2".into(),
        "--pgnout".into(),
        pgn.display().to_string(),
        "--results".into(),
        results.display().to_string(),
        "--quiet".into(),
    ]
    .into();
    let resume: Vec<String> = [
        "match",
        "--resume",
        &results.display().to_string(),
        "--quiet",
    ]
    .map(str::to_owned)
    .into();
    let mut rng = Rng::from_seed(51);
    let mut kills = 0;
    let began = Instant::now();
    let mut child = start(&new_run);
    // Kill at a random moment, then resume; a run that finishes before its moment ends the
    // kills early (the match is done).
    while kills < KILLS {
        let moment = Duration::from_millis(30 + rng.below(400) as u64);
        std::thread::sleep(moment);
        if child.try_wait().unwrap().is_some() {
            break;
        }
        child.kill().unwrap(); // SIGKILL: no handler runs, no file is closed cleanly.
        child.wait().unwrap();
        kills += 1;
        no_engine_left(&engines);
        // Killed before its engines started, a run has recorded nothing: it starts again.
        child = start(if results.exists() { &resume } else { &new_run });
    }
    let status = child.wait().unwrap();
    // The run killed last may have been killed before it wrote its results file: the final
    // resume below is then what plays the rest.
    let last = Command::new(HARNESS).args(&resume).output().unwrap();
    assert!(
        status.success() || last.status.success(),
        "the match did not finish: {}",
        text(&last)
    );
    assert!(last.status.success(), "{}", text(&last));
    println!(
        "{kills} kills, {:.1} s in all",
        began.elapsed().as_secs_f64()
    );
    assert!(
        kills >= KILLS / 2,
        "only {kills} kills before the match ended"
    );
    no_engine_left(&engines);

    let mut ids = journal_ids(&results);
    ids.sort_unstable();
    assert_eq!(
        ids,
        (0..2 * ROUNDS).collect::<Vec<_>>(),
        "every game exactly once"
    );
    let games = common::pgn_games(&pgn);
    assert_eq!(games.len() as u64, 2 * ROUNDS, "every game once in the PGN");
    for (moves, outcome) in &games {
        assert!(*moves > 0, "a game with moves");
        assert!(outcome.is_some(), "a game with its result");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The moment the random kills rarely hit, made on purpose: a game in the PGN but not in the
/// journal, and half of another game after it (a kill between the two writes, then one in the
/// middle of a PGN write). The resume cuts both and plays the game again: two games in the PGN.
#[test]
fn a_game_written_but_not_journaled_is_not_kept_twice() {
    let dir = temp_dir("crash", "window");
    let (results, pgn) = (dir.join("r.json"), dir.join("r.pgn"));
    let faulty = env!("CARGO_BIN_EXE_faulty-engine");
    let run = |extra: &[&str]| {
        let mut args: Vec<String> = ["match", "--quiet"].map(str::to_owned).into();
        args.extend(extra.iter().map(|s| s.to_string()));
        Command::new(HARNESS).args(&args).output().unwrap()
    };
    let (results_s, pgn_s) = (results.display().to_string(), pgn.display().to_string());
    let a = format!("cmd={faulty}");
    let out = run(&[
        "--engine",
        &a,
        "name=a",
        "--engine",
        &a,
        "name=b",
        "--each",
        "tc=inf",
        "nodes=10",
        "--maxmoves",
        "10",
        "--rounds",
        "1",
        "--pgnout",
        &pgn_s,
        "--results",
        &results_s,
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let journal = PathBuf::from(format!("{results_s}.games.jsonl"));
    let lines: Vec<String> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), 2);
    std::fs::write(&journal, format!("{}\n", lines[0])).unwrap();
    let mut text_pgn = std::fs::read_to_string(&pgn).unwrap();
    text_pgn.push_str("[Event \"Sable match\"]\n[Site \"");
    std::fs::write(&pgn, text_pgn).unwrap();
    let out = run(&["--resume", &results_s]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("cut back by"), "{}", text(&out));
    assert_eq!(journal_ids(&results), [0, 1]);
    let games = common::pgn_games(&pgn);
    assert!(
        games.iter().all(|(_, outcome)| outcome.is_some()),
        "whole games"
    );
    assert_eq!(games.len(), 2);
    std::fs::remove_dir_all(&dir).ok();
}
