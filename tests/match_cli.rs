//! `harness match` / `harness sprt` end to end with the faulty engine: PGN that pgn-reader reads
//! back, JSON results, resume after a kill, SPRT exit codes.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sable-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

fn harness(args: &[String]) -> std::process::Output {
    Command::new(HARNESS).args(args).output().unwrap()
}

fn journal(results: &Path) -> Vec<serde_json::Value> {
    let text =
        std::fs::read_to_string(format!("{}.games.jsonl", results.display())).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn match_writes_pgn_that_reads_back_and_json_results() {
    let dir = temp_dir("pgn");
    let (pgn, results, book) = (
        dir.join("games.pgn"),
        dir.join("r.json"),
        dir.join("book.epd"),
    );
    std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nrnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n").unwrap();
    let mut args = words(&format!(
        "match --engine cmd={FAULTY} name=A --engine cmd={FAULTY} name=B args=--illegal-after=2 --each tc=5+0.05 \
         --rounds 3 --concurrency 2 --quiet --seed 3 --pgnout {} --results {} --openings file={} order=random \
         --max-consecutive-faults 0 --max-fault-share 100",
        pgn.display(), results.display(), book.display()
    ));
    // args= takes the faulty engine's own flags, space separated: pass them as one word.
    let i = args
        .iter()
        .position(|a| a == "args=--illegal-after=2")
        .unwrap();
    args[i] = "args=--illegal-after 2".into();
    let out = harness(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("Games: 6, Wins: 6, Losses: 0, Draws: 0"),
        "{stdout}"
    );
    assert!(stdout.contains("Ptnml(0-2): [0, 0, 0, 0, 3]"), "{stdout}");
    assert!(
        stdout.contains("B: 0 crashes, 0 time losses, 6 illegal moves"),
        "{stdout}"
    );

    let games = common::pgn_games(&pgn);
    assert_eq!(games.len(), 6);
    for (_, result) in &games {
        assert!(matches!(result.as_deref(), Some("1-0") | Some("0-1")));
    }
    let journal_plies: u64 = journal(&results)
        .iter()
        .map(|g| g["plies"].as_u64().unwrap())
        .sum();
    assert_eq!(games.iter().map(|g| g.0 as u64).sum::<u64>(), journal_plies);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"rules infraction\"]").count(),
        6
    );
    assert_eq!(text.matches("[TimeControl \"5+0.05\"]").count(), 6);
    // The comment names the move and the position it was sent in.
    assert_eq!(
        text.matches("makes an illegal move a1a1 in ").count(),
        6,
        "{text}"
    );

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(summary["finished"], 6);
    assert_eq!(summary["pairings"][0]["wld"], serde_json::json!([6, 0, 0]));
    assert_eq!(journal(&results).len(), 6);
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs the harness with `args` and kills it once its journal beside `results` holds `games`
/// games (it must still be running then).
fn kill_after(args: &[String], results: &Path, games: usize) {
    let mut child = Command::new(HARNESS)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while journal(results).len() < games {
        assert!(start.elapsed() < Duration::from_secs(60), "no progress");
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_killed_match_resumes_without_losing_or_repeating_games() {
    let dir = temp_dir("resume");
    let results = dir.join("r.json");
    let args = words(&format!(
        "match --engine cmd={FAULTY} name=A args=--move-ms --engine cmd={FAULTY} name=B --each tc=10+0.1 \
         --rounds 40 --concurrency 2 --quiet --results {}",
        results.display()
    ));
    let mut args = args;
    let i = args.iter().position(|a| a == "args=--move-ms").unwrap();
    args[i] = "args=--move-ms 1".into();
    kill_after(&args, &results, 5);
    let before = journal(&results).len();
    assert!(before < 80, "killed early");

    let out = harness(&words(&format!(
        "match --resume {} --quiet",
        results.display()
    )));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Finished 80 of 80 games"), "{stdout}");
    let games = journal(&results);
    assert_eq!(games.len(), 80);
    let mut ids: Vec<u64> = games.iter().map(|g| g["id"].as_u64().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, (0..80).collect::<Vec<_>>(), "every game exactly once");
    for pair in 0..40u64 {
        assert_eq!(
            games.iter().filter(|g| g["pair"] == pair).count(),
            2,
            "pair {pair}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_finished_match_is_extended_by_resuming_with_more_rounds() {
    let dir = temp_dir("extend");
    let results = dir.join("r.json");
    let mut args = words(&format!(
        "match --engine cmd={FAULTY} name=A args=-- --engine cmd={FAULTY} name=B --each tc=10+0.1 \
         --rounds 3 --quiet --results {}",
        results.display()
    ));
    let i = args.iter().position(|a| a == "args=--").unwrap();
    args[i] = "args=--move-ms 1".into();
    let run = |args: &[String]| {
        let out = harness(args);
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    };
    let (ok, text) = run(&args);
    assert!(ok && text.contains("Finished 6 of 6 games"), "{text}");
    let first = journal(&results);

    let resume = |extra: &str| {
        words(&format!(
            "match --resume {} --quiet {extra}",
            results.display()
        ))
    };
    let (ok, text) = run(&resume("--rounds 5"));
    assert!(ok && text.contains("Finished 10 of 10 games"), "{text}");
    let games = journal(&results);
    assert_eq!(
        games[..6],
        first[..],
        "the games already played stay as they were"
    );
    let mut ids: Vec<u64> = games.iter().map(|g| g["id"].as_u64().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, (0..10).collect::<Vec<_>>(), "every game exactly once");

    // The results file remembers the new length, and a run is never shortened.
    let (ok, text) = run(&resume(""));
    assert!(ok && text.contains("Finished 10 of 10 games"), "{text}");
    let (ok, text) = run(&resume("--rounds 4"));
    assert!(!ok && text.contains("not shorten"), "{text}");
    assert_eq!(journal(&results).len(), 10);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sprt_stops_with_h0_and_draws_the_chart() {
    // "weak" sends an illegal move with probability 1 % per move: it loses most games and draws
    // the rest, so the SPRT must find it worse (H0) within a few hundred games.
    let dir = temp_dir("sprt");
    let (results, plot) = (dir.join("s.json"), dir.join("s.svg"));
    let mut args = words(&format!(
        "sprt --engine cmd={FAULTY} name=weak ARGS --engine cmd={FAULTY} name=strong --each tc=5+0.05 \
         --concurrency 2 --quiet --recover --elo0 0 --elo1 10 --model logistic --results {} --plot {} \
         --max-fault-share 100 --max-consecutive-faults 0",
        results.display(),
        plot.display()
    ));
    let i = args.iter().position(|a| a == "ARGS").unwrap();
    args[i] = "args=--illegal-rate 10".into();
    let out = harness(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "H0 accepted: {stdout}");
    assert!(stdout.contains("SPRT: H0 accepted"), "{stdout}");
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_killed_sprt_resumes_with_its_own_bounds() {
    let dir = temp_dir("sprt-resume");
    let results = dir.join("s.json");
    let mut args = words(&format!(
        "sprt --engine cmd={FAULTY} name=weak ARGS --engine cmd={FAULTY} name=strong --each tc=5+0.05 \
         --concurrency 2 --quiet --recover --elo0 0 --elo1 10 --model logistic --results {} --plot {} \
         --max-fault-share 100 --max-consecutive-faults 0",
        results.display(),
        dir.join("s.svg").display()
    ));
    let i = args.iter().position(|a| a == "ARGS").unwrap();
    args[i] = "args=--illegal-rate 10".into();
    kill_after(&args, &results, 4);
    let before = journal(&results).len();

    let out = harness(&words(&format!(
        "sprt --resume {} --quiet",
        results.display()
    )));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "H0 accepted: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // the stored logistic [0, 10] bounds, not the defaults (normalized [0, 5])
    assert!(stdout.contains("[0.00, 10.00]"), "{stdout}");
    let games = journal(&results);
    assert!(games.len() > before);
    let mut ids: Vec<u64> = games.iter().map(|g| g["id"].as_u64().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), games.len(), "no game twice");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_command_lines_fail_with_clear_errors() {
    // An engine that is not there cannot start: no verdict (exit code 4), as the README says.
    let out = harness(&words(
        "match --engine cmd=/no/such/engine name=a --engine cmd=/no/such/engine name=b --each tc=1",
    ));
    assert_eq!(out.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("engine a cannot start: its program `/no/such/engine` does not exist"));
    let out = harness(&words(&format!(
        "match --engine cmd={FAULTY} --engine cmd={FAULTY} --each tc=fast"
    )));
    assert!(String::from_utf8_lossy(&out.stderr).contains("malformed time control"));
    let out = harness(&words(&format!("match --engine cmd={FAULTY} --engine cmd={FAULTY} --each tc=1 --openings file=/no/book.epd")));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/book.epd"));
}
