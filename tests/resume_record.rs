//! Resume from a run's record, and from results files of the previous format (version 1: the
//! run stored as its command-line words), built here as that version wrote them.

use crate::common;

use common::{temp_dir, text};
use std::path::Path;
use std::process::{Command, Output};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

fn harness(args: &[&str]) -> Output {
    Command::new(HARNESS).args(args).output().unwrap()
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The ids of the games in the journal beside `results`, sorted.
fn journal_ids(results: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(format!("{}.games.jsonl", results.display())).unwrap();
    let mut ids: Vec<u64> = common::journal_game_ids(&text);
    ids.sort_unstable();
    ids
}

/// A results file as version 1 wrote it: its `args` are the words after the subcommand, its
/// games none yet (the run was killed before its first game was journaled).
fn version_1_file(path: &Path, words: &[String], engines: &[&str], scheduled: u64) {
    let file = serde_json::json!({
        "version": 1,
        "args": words,
        "engines": engines,
        "scheduled": scheduled,
        "finished": 0,
        "pairings": [],
        "decision": null,
        "stopped": null,
        "faults": [],
        "fault_rules": {"max_consecutive": 3, "max_share": 0.02},
        "repeated_games": 0,
        "ratings": null
    });
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
}

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn a_version_1_match_file_resumes_and_is_rewritten_with_its_record() {
    let dir = temp_dir("record", "v1-match");
    let results = dir.join("old.json");
    let pgn = dir.join("old.pgn");
    let cmd = format!("cmd={FAULTY}");
    let (pgn_s, results_s) = (pgn.display().to_string(), results.display().to_string());
    // The engines' words in an order only the occurrences can group (name= before cmd=).
    let words = owned(&[
        "--engine",
        "name=a",
        &cmd,
        "--engine",
        "name=b",
        &cmd,
        "--each",
        "tc=inf",
        "nodes=10",
        "--maxmoves",
        "10",
        "--rounds",
        "3",
        "--pgnout",
        &pgn_s,
        "--results",
        &results_s,
        "--quiet",
    ]);
    version_1_file(&results, &words, &["a", "b"], 6);
    let out = harness(&["match", "--resume", &results_s, "--quiet"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("Finished 6 of 6 games"),
        "{}",
        text(&out)
    );
    assert_eq!(journal_ids(&results), (0..6).collect::<Vec<_>>());
    let file = json(&results);
    assert_eq!(file["version"], 2);
    assert!(
        file.get("args").is_none(),
        "the words are not written again"
    );
    let record = &file["record"];
    assert_eq!(record["rounds"], 3);
    assert_eq!(record["engines"][1]["spec"]["name"], "b");
    assert_eq!(record["engines"][0]["limits"]["nodes"], 10);
    assert_eq!(record["adjudication"]["maxmoves"], 10);
    assert_eq!(record["pgn_out"].as_str(), Some(pgn_s.as_str()));
    // Converted once: extended from its record now, by a second resume.
    let out = harness(&["match", "--resume", &results_s, "--rounds", "4", "--quiet"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(journal_ids(&results), (0..8).collect::<Vec<_>>());
    assert_eq!(json(&results)["record"]["rounds"], 4);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_version_1_sprt_file_resumes_with_its_own_bounds() {
    let dir = temp_dir("record", "v1-sprt");
    let results = dir.join("old.json");
    let results_s = results.display().to_string();
    let (weak, strong) = (format!("cmd={FAULTY}"), format!("cmd={FAULTY}"));
    let words = owned(&[
        "--engine",
        &weak,
        "name=weak",
        "args=--illegal-rate 10",
        "--engine",
        &strong,
        "name=strong",
        "--each",
        "tc=5+0.05",
        "--recover",
        "--elo0",
        "0",
        "--elo1",
        "10",
        "--model",
        "logistic",
        "--max-fault-share",
        "100",
        "--max-consecutive-faults",
        "0",
        "--concurrency",
        "2",
        "--results",
        &results_s,
        "--quiet",
    ]);
    version_1_file(&results, &words, &["weak", "strong"], 200_000);
    // A match cannot take it: it is an SPRT's, and says so.
    let out = harness(&["sprt", "--resume", &results_s, "--quiet"]);
    assert_eq!(out.status.code(), Some(1), "H0 accepted: {}", text(&out));
    // The stored logistic [0, 10], not the defaults (normalized [0, 5]).
    assert!(text(&out).contains("[0.00, 10.00]"), "{}", text(&out));
    let sprt = &json(&results)["record"]["sprt"];
    assert_eq!(
        (sprt["elo1"].as_f64(), sprt["model"].as_str()),
        (Some(10.0), Some("logistic"))
    );
    let out = harness(&["match", "--resume", &results_s, "--quiet"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("harness sprt --resume"),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn files_without_a_run_to_resume_are_refused_with_the_reason() {
    let dir = temp_dir("record", "refused");
    let results = dir.join("r.json");
    let results_s = results.display().to_string();
    // Version 1 words that no longer parse.
    version_1_file(&results, &owned(&["--colour", "red"]), &["a", "b"], 2);
    let out = harness(&["match", "--resume", &results_s]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains("version 1") && t.contains("does not parse"),
        "{t}"
    );
    assert!(t.contains("new --results file"), "{t}");
    // Neither a record nor words.
    version_1_file(&results, &[], &["a", "b"], 2);
    let out = harness(&["match", "--resume", &results_s]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(t.contains("holds no record of its run"), "{t}");
    // From a newer harness.
    let mut file = json(&results);
    file["version"] = 99.into();
    std::fs::write(&results, file.to_string()).unwrap();
    let out = harness(&["sprt", "--resume", &results_s]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("version 99, newer than this harness reads"),
        "{t}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
