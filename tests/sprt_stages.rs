//! `harness sprt --stc ... --ltc ...` end to end with the faulty engine made weaker by a UCI
//! option (`--optimum Skill=T`: it resigns a move with probability |Skill - T| / 1000), so each
//! stage's `option.Skill=` decides who is stronger in that stage: the short stage accepts and the
//! long one runs, the short stage rejects and the long one never starts, and a run killed in
//! the middle of the long stage resumes from its file.

use crate::common;

use common::{temp_dir, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

/// dev is at its optimum at Skill=0, base at Skill=400.
fn args(dir: &Path, stc: &str, ltc: &str) -> Vec<String> {
    let mut a: Vec<String> = vec!["sprt".into(), "--engine".into(), format!("cmd={FAULTY}")];
    a.extend(["name=dev".into(), "args=--optimum Skill=0".into()]);
    a.extend([
        "--engine".into(),
        format!("cmd={FAULTY}"),
        "name=base".into(),
    ]);
    a.push("args=--optimum Skill=400".into());
    for w in "--each tc=inf nodes=1 --resign movecount=1 score=900 --maxmoves 60 --model logistic \
              --concurrency 2 --quiet --seed 5"
        .split_whitespace()
    {
        a.push(w.into());
    }
    a.extend(["--results".into(), dir.join("s.json").display().to_string()]);
    a.extend(["--plot".into(), dir.join("s.svg").display().to_string()]);
    a.extend(["--stc".into(), stc.into(), "--ltc".into(), ltc.into()]);
    a
}

fn harness(args: &[String]) -> Output {
    Command::new(HARNESS).args(args).output().unwrap()
}

fn journal(results: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(format!("{}.games.jsonl", results.display()))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn files(dir: &Path) -> (PathBuf, PathBuf) {
    (dir.join("s.stc.json"), dir.join("s.ltc.json"))
}

#[test]
fn the_short_stage_accepts_and_the_long_stage_runs() {
    let dir = temp_dir("stages", "accept");
    let out = harness(&args(
        &dir,
        "option.Skill=0 elo0=0 elo1=100",
        "option.Skill=0 elo0=0 elo1=60 alpha=0.01",
    ));
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    let (stc, ltc) = files(&dir);
    assert!(
        !journal(&stc).is_empty() && !journal(&ltc).is_empty(),
        "{all}"
    );
    assert!(
        all.contains("Two-stage result: H1 accepted at both stages"),
        "{all}"
    );
    // Each stage with its own bounds: the LTC's alpha of 0.01 gives an upper bound ln(95).
    assert!(
        all.contains("[0.00, 100.00]") && all.contains("[0.00, 60.00]"),
        "{all}"
    );
    assert!(all.contains("4.55]"), "{all}");
    for f in [&stc, &ltc] {
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        assert_eq!(summary["decision"], "H1 accepted", "{}", f.display());
    }
    assert!(dir.join("s.stc.svg").exists() && dir.join("s.ltc.svg").exists());
    one_set_of_figures(&all, &stc, "STC");
    one_set_of_figures(&all, &ltc, "LTC");
    std::fs::remove_dir_all(&dir).ok();
}

/// The closing table's games, Elo and LLR of a stage are the stage's results file's (which
/// counts the games in flight when it decided), to the table's digits.
fn one_set_of_figures(all: &str, results: &Path, stage: &str) {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(results).unwrap()).unwrap();
    let pairing = &json["pairings"][0];
    let line = all
        .lines()
        .rev()
        .find(|l| l.starts_with(stage) && l.contains("+/-"))
        .unwrap_or_else(|| panic!("no {stage} line in the closing table: {all}"));
    let games = json["finished"].as_u64().unwrap();
    let elo = pairing["elo"][0].as_f64().unwrap();
    let error = pairing["elo"][1].as_f64().unwrap();
    let llr = pairing["llr"].as_f64().unwrap();
    let want = format!(" {games}  ");
    assert!(line.contains(&want), "games {games}: {line}");
    let want = format!("{elo:.1} +/- {error:.1}");
    assert!(line.contains(&want), "Elo {want}: {line}");
    let want = format!("{llr:.2} [");
    assert!(line.contains(&want), "LLR {want}: {line}");
}

#[test]
fn the_short_stage_rejects_and_the_long_stage_never_starts() {
    let dir = temp_dir("stages", "reject");
    // Skill=400 puts base at its optimum and dev 400 from its own.
    let out = harness(&args(
        &dir,
        "option.Skill=400 elo0=0 elo1=100",
        "option.Skill=0 elo0=0 elo1=60",
    ));
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    let (stc, ltc) = files(&dir);
    assert!(!journal(&stc).is_empty());
    assert!(!ltc.exists(), "the long stage must not start");
    assert!(all.contains("H0 accepted at STC; LTC not run"), "{all}");
    assert!(all.contains("not run: STC did not accept H1"), "{all}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_killed_in_the_long_stage_resumes_there() {
    let dir = temp_dir("stages", "resume");
    // In the long stage both engines are 200 from their optimum: equal, so no early decision;
    // it ends after its 40 rounds unless the LLR gets there first.
    let a = args(
        &dir,
        "option.Skill=0 elo0=0 elo1=100",
        "option.Skill=200 elo0=0 elo1=5 rounds=40",
    );
    let (stc, ltc) = files(&dir);
    let mut child = Command::new(HARNESS)
        .args(&a)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while journal(&ltc).len() < 6 {
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before the kill"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let stc_games = journal(&stc).len();
    let before = journal(&ltc).len();
    assert!(before < 80, "killed early");

    let out = harness(&[
        "sprt".into(),
        "--resume".into(),
        ltc.display().to_string(),
        "--quiet".into(),
    ]);
    let all = text(&out);
    assert!(matches!(out.status.code(), Some(0 | 1 | 3)), "{all}");
    assert_eq!(
        journal(&stc).len(),
        stc_games,
        "the decided stage plays nothing: {all}"
    );
    let games = journal(&ltc);
    assert!(games.len() > before, "{all}");
    let mut ids: Vec<u64> = games.iter().map(|g| g["id"].as_u64().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), games.len(), "no game twice");
    assert!(
        all.contains("at LTC (STC accepted H1)") || all.contains("both stages"),
        "{all}"
    );
    // Resuming by the other file gives the same, decided or stopped, pipeline without a game.
    let out = harness(&[
        "sprt".into(),
        "--resume".into(),
        stc.display().to_string(),
        "--quiet".into(),
    ]);
    assert_eq!(journal(&ltc).len(), games.len(), "{}", text(&out));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_second_run_without_results_takes_numbered_names_as_a_one_stage_run_does() {
    let dir = temp_dir("stages", "numbered");
    // The same command without --results/--plot, run twice in one folder.
    let mut a = args(
        &dir,
        "option.Skill=400 elo0=0 elo1=100",
        "option.Skill=0 elo0=0 elo1=60",
    );
    let at = a.iter().position(|w| w == "--results").unwrap();
    a.drain(at..at + 4);
    let run = || {
        Command::new(HARNESS)
            .args(&a)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let first = run();
    assert_eq!(first.status.code(), Some(1), "{}", text(&first));
    let before = std::fs::read(dir.join("sprt.stc.json.games.jsonl")).unwrap();
    let second = run();
    let all = text(&second);
    assert_eq!(second.status.code(), Some(1), "{all}");
    assert!(
        all.contains("note: sprt.stc.json is taken by an earlier run")
            && all.contains("--resume sprt.stc.json")
            && all.contains("this run writes sprt-2.stc.json and sprt-2.ltc.json"),
        "{all}"
    );
    assert!(!journal(&dir.join("sprt-2.stc.json")).is_empty(), "{all}");
    // The first run's files are as it left them.
    let after = std::fs::read(dir.join("sprt.stc.json.games.jsonl")).unwrap();
    assert!(!before.is_empty() && before == after, "{all}");
    std::fs::remove_dir_all(&dir).ok();
}
