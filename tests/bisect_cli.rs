//! `harness bisect` end to end on a git history made for it in a temporary folder: each commit
//! holds an EvalFile (sable's weights as JSON), a wrapper script that runs sable (`harness
//! engine`, the same library as the `sable` binary, so no second build is needed) and a build
//! script. One commit values the queen as a pawn (a halved queen is only about 60 Elo weaker at
//! these node counts: too close to tell from a one-centipawn change in a few games); the
//! others change a weight by one centipawn,
//! change only text (same `Bench:` line as their parent), or break the build.

use crate::common;

use common::{temp_dir, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(repo)
        .args([
            "-c",
            "user.name=Bisect Test",
            "-c",
            "user.email=bisect@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The history, as (subject, files changed, Bench) oldest first; returns each commit's hash.
struct History {
    repo: PathBuf,
    weights: serde_json::Value,
}

impl History {
    fn new(dir: &Path) -> History {
        let repo = dir.join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        git(&repo, &["init", "-q"]);
        let weights: serde_json::Value =
            serde_json::from_str(&sable::eval::Params::default().to_json()).unwrap();
        History { repo, weights }
    }

    fn write(&self, name: &str, content: &str) {
        std::fs::write(self.repo.join(name), content).unwrap();
    }

    /// Adds `delta` to both phases of weight `name`, or multiplies them by `factor`.
    fn change_weight(&mut self, name: &str, f: impl Fn(i64) -> i64) {
        let w = &mut self.weights["weights"][name];
        let pair: Vec<i64> = w
            .as_array()
            .unwrap()
            .iter()
            .map(|v| f(v.as_i64().unwrap()))
            .collect();
        *w = serde_json::json!(pair);
        let text = serde_json::to_string_pretty(&self.weights).unwrap();
        self.write("weights.json", &text);
    }

    fn commit(&self, subject: &str, bench: u64) -> String {
        git(&self.repo, &["add", "-A"]);
        let msg = format!("{subject}\n\nBench: {bench}");
        git(&self.repo, &["commit", "-q", "-m", &msg]);
        git(&self.repo, &["rev-parse", "HEAD"])
    }
}

const BUILD: &str = "set -e\ntest -s weights.json\nchmod +x engine.sh\n";
const BROKEN_BUILD: &str = "echo 'build.sh: error: broken on purpose' >&2\nexit 1\n";
/// The functional test of the `--test` run: the queen is worth at least 600 in the middlegame,
/// the test runs in the worktree of the commit it was given, and the engine was built.
const TEST: &str = "test \"$(git rev-parse HEAD)\" = \"$BISECT_COMMIT\" || exit 2\n\
                    test -x \"$BISECT_ENGINE\" || exit 3\n\
                    q=$(grep -A1 '\"material.queen\"' weights.json | tr -dc '0-9,' | cut -d, -f1)\n\
                    test \"$q\" -ge 600\n";

/// good, then: text only, a tweak, text, the queen worth a pawn, text (its test says
/// 125), a broken
/// build, the build mended, a tweak, text. Returns the hashes, good first.
fn make_history(dir: &Path) -> (PathBuf, Vec<String>) {
    let mut h = History::new(dir);
    h.write(
        "engine.sh",
        &format!("#!/bin/sh\nexec '{HARNESS}' engine \"$@\"\n"),
    );
    h.write("build.sh", BUILD);
    h.write("test.sh", TEST);
    h.write("README", "An engine.\n");
    h.change_weight("material.queen", |v| v);
    let mut c = vec![h.commit("good: sable's weights", 100)];
    h.write("README", "An engine, tested.\n");
    c.push(h.commit("docs: say it is tested", 100));
    h.change_weight("pst.knight.a1", |v| v + 1);
    c.push(h.commit("eval: knight on a1 +1", 102));
    h.write("README", "An engine, tested twice.\n");
    c.push(h.commit("docs: twice", 102));
    h.change_weight("material.queen", |_| 100);
    c.push(h.commit("eval: the queen is worth a pawn", 104));
    h.write("test.sh", "exit 125\n");
    c.push(h.commit("docs: a test that cannot run here", 104));
    h.write("test.sh", TEST);
    h.write("build.sh", BROKEN_BUILD);
    h.change_weight("pst.knight.b1", |v| v + 1);
    c.push(h.commit("build: break it", 106));
    h.write("build.sh", BUILD);
    h.change_weight("pst.knight.c1", |v| v + 1);
    c.push(h.commit("build: mend it, knight on c1 +1", 107));
    h.change_weight("pst.knight.d1", |v| v + 1);
    c.push(h.commit("eval: knight on d1 +1", 108));
    h.write("README", "An engine, tested thrice.\n");
    c.push(h.commit("docs: thrice", 108));
    (h.repo, c)
}

fn bisect(repo: &Path, args: &[String]) -> Output {
    Command::new(HARNESS)
        .current_dir(repo)
        .arg("bisect")
        .args(args)
        .output()
        .unwrap()
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

fn state(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("bisect.json")).unwrap()).unwrap()
}

/// Verdict and reason of each recorded step, by commit hash.
fn steps(state: &serde_json::Value) -> Vec<(String, String, String)> {
    state["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["commit"].as_str().unwrap().to_owned(),
                s["verdict"].as_str().unwrap().to_owned(),
                s["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The games bisection of the tests: node-limited games (fast and repeatable), bounds that fit a
/// queen valued as a pawn (about -470 Elo), the build script, the engine run in its worktree.
fn games_args(c: &[String], out_dir: &Path) -> Vec<String> {
    let mut args = words(&format!(
        "--good {} --bad {} --build BUILD --engine-path engine.sh \
         --elo0 -200 --elo1 0 --model logistic --max-error 0.2 \
         --each tc=inf nodes=600 option.Hash=4 option.EvalFile=weights.json \
         --maxmoves 80 --concurrency 2 --quiet --dir {}",
        c[0],
        c[9],
        out_dir.display()
    ));
    // The build command is one word with a space in it.
    let i = args.iter().position(|w| w == "BUILD").unwrap();
    args[i] = "sh build.sh".into();
    args
}

/// The journal of the SPRT of commit `hash`.
fn journal(out_dir: &Path, hash: &str) -> String {
    std::fs::read_to_string(out_dir.join(format!("sprt-{}.json.games.jsonl", &hash[..12])))
        .unwrap_or_default()
}

#[test]
fn bisect_names_the_weakening_commit_with_fewer_games_than_testing_each() {
    let dir = temp_dir("bisect", "games");
    let (repo, c) = make_history(&dir);
    let out_dir = dir.join("out");
    let args = games_args(&c, &out_dir);
    let start = std::time::Instant::now();
    let out = bisect(&repo, &args);
    let log = text(&out);
    println!("{log}");
    println!("first run: {:.1} s", start.elapsed().as_secs_f64());
    assert_eq!(out.status.code(), Some(0), "{log}");
    // The statistics are said before anything runs.
    let header = log.split("[1/").next().unwrap();
    assert!(header.contains("at most 4 SPRTs"), "{header}");
    assert!(header.contains("alpha = beta = 0.0500"), "{header}");
    assert!(header.contains("4 x 0.0500 = 0.200"), "{header}");
    // Text-only commits are skipped for their Bench, named with the commit they play like.
    for (i, like) in [
        (1, "good".to_owned()),
        (3, c[2][..12].to_owned()),
        (5, c[4][..12].to_owned()),
    ] {
        let line = log.lines().find(|l| l.contains(&c[i][..12])).unwrap();
        assert!(line.contains(&format!("plays as {like}")), "{line}");
    }
    assert!(log.contains(&format!(
        "First bad commit: {}\n  eval: the queen is worth a pawn",
        c[4]
    )));
    let across = log
        .lines()
        .find_map(|l| l.trim().strip_prefix("Elo across it: "))
        .unwrap();
    let elo: f64 = across.split_whitespace().next().unwrap().parse().unwrap();
    assert!(elo < -100.0, "{across}");

    let recorded = steps(&state(&out_dir));
    let verdict = |i: usize| {
        recorded
            .iter()
            .find(|s| s.0 == c[i])
            .map(|s| (s.1.as_str(), s.2.as_str()))
    };
    assert_eq!(verdict(9).unwrap().0, "bad", "bad is confirmed first");
    assert_eq!(recorded[0].0, c[9]);
    let (v, why) = verdict(6).unwrap();
    assert_eq!(v, "skip");
    assert!(
        why.contains("does not build") && why.contains("broken on purpose"),
        "{why}"
    );
    assert_eq!(verdict(4).unwrap().0, "bad");
    assert_eq!(verdict(2).unwrap().0, "good");
    for i in [1, 3, 5, 7, 8] {
        assert!(
            verdict(i).is_none(),
            "commit {i} needs no step: {recorded:?}"
        );
    }
    // Fewer games than an SPRT of every commit: each of those would play at least as many games
    // as the shortest SPRT here.
    let games: Vec<u64> = state(&out_dir)["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["evidence"]["games"].as_u64())
        .collect();
    let total: u64 = games.iter().sum();
    let linear = 9 * games.iter().min().unwrap();
    println!(
        "bisect: {total} games in {} SPRTs; an SPRT of each of the 9 commits: at least {linear}",
        games.len()
    );
    assert_eq!(games.len(), 3);
    assert!(total < linear, "{total} games, linear at least {linear}");
    assert!(log.contains(&format!("Games: {total} in 3 SPRTs")), "{log}");

    // A rerun reuses every finished step: no build, no game, the same answer.
    let journals: Vec<String> = [9, 4, 2].map(|i| journal(&out_dir, &c[i])).to_vec();
    let again = bisect(&repo, &args);
    let log2 = text(&again);
    assert_eq!(again.status.code(), Some(0), "{log2}");
    assert_eq!(log2.matches("[recorded]").count(), 4, "{log2}");
    assert!(
        log2.contains(&format!("First bad commit: {}", c[4])),
        "{log2}"
    );
    // Without its last two steps in bisect.json, a rerun resumes their SPRTs from their results
    // files: finished, they play no game and give the same evidence.
    let full = state(&out_dir);
    let mut cut = full.clone();
    cut["steps"].as_array_mut().unwrap().truncate(2);
    std::fs::write(out_dir.join("bisect.json"), cut.to_string()).unwrap();
    let third = bisect(&repo, &args);
    let log3 = text(&third);
    assert_eq!(third.status.code(), Some(0), "{log3}");
    assert_eq!(log3.matches("[recorded]").count(), 2, "{log3}");
    assert_eq!(state(&out_dir)["steps"], full["steps"]);
    assert_eq!(
        [9, 4, 2].map(|i| journal(&out_dir, &c[i])).to_vec(),
        journals
    );
    // Other settings are refused rather than mixed with these verdicts.
    let mut other = args.clone();
    let i = other.iter().position(|w| w == "-200").unwrap();
    other[i] = "-150".into();
    let refused = bisect(&repo, &other);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused).contains("other settings"),
        "{}",
        text(&refused)
    );
}

#[test]
fn bisect_test_mode_uses_exit_codes_and_no_games() {
    let dir = temp_dir("bisect", "test");
    let (repo, c) = make_history(&dir);
    let out_dir = dir.join("out");
    let args = vec![
        "--good".into(),
        c[0].clone(),
        "--bad".into(),
        c[9].clone(),
        "--test".into(),
        "sh test.sh".into(),
        "--build".into(),
        "sh build.sh".into(),
        "--engine-path".into(),
        "engine.sh".into(),
        "--quiet".into(),
        "--dir".into(),
        out_dir.display().to_string(),
    ];
    let out = bisect(&repo, &args);
    let log = text(&out);
    println!("{log}");
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(
        log.contains(&format!(
            "First bad commit: {}\n  eval: the queen is worth a pawn",
            c[4]
        )),
        "{log}"
    );
    let recorded = steps(&state(&out_dir));
    let verdict = |i: usize| recorded.iter().find(|s| s.0 == c[i]).map(|s| s.1.as_str());
    // Good passes and bad fails first; 125 skips; every commit is a candidate (no Bench skip).
    assert_eq!(recorded[0].0, c[0]);
    assert_eq!(verdict(0), Some("good"));
    assert_eq!(verdict(9), Some("bad"));
    assert_eq!(verdict(5), Some("skip"));
    assert_eq!(verdict(4), Some("bad"));
    assert_eq!(verdict(3), Some("good"));
    assert!(
        recorded.len() < c.len(),
        "{} runs for {} commits",
        recorded.len(),
        c.len()
    );
    let files: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        files.iter().all(|f| !f.starts_with("sprt-")),
        "no games: {files:?}"
    );
    assert!(log.contains("no games"), "{log}");
    // The worktrees are gone once the search is over.
    let trees = git(&repo, &["worktree", "list"]);
    assert_eq!(trees.lines().count(), 1, "{trees}");
}

#[test]
fn bisect_refuses_bad_ranges_and_engine_options() {
    let dir = temp_dir("bisect", "refuse");
    let (repo, c) = make_history(&dir);
    let run = |extra: &str| {
        let out = bisect(&repo, &words(extra));
        (out.status.code(), text(&out))
    };
    let (code, log) = run(&format!("--good {} --bad {} --test true", c[3], c[1]));
    assert_eq!(code, Some(2));
    assert!(log.contains("is not an ancestor"), "{log}");
    let (code, log) = run(&format!("--good nope --bad {} --test true", c[1]));
    assert_eq!(code, Some(2));
    assert!(log.contains("--good nope: not a commit"), "{log}");
    let (code, log) = run(&format!("--good {} --bad {} --dev x", c[0], c[1]));
    assert_eq!(code, Some(2));
    assert!(log.contains("leave out --dev"), "{log}");
    let (code, log) = run(&format!("--good {} --bad {} --build none", c[0], c[1]));
    assert_eq!(code, Some(2));
    assert!(log.contains("--build none goes only with --test"), "{log}");
}

#[test]
fn bisect_help_lists_only_the_options_it_takes() {
    let out = Command::new(HARNESS)
        .args(["bisect", "--help"])
        .output()
        .unwrap();
    let help = text(&out);
    assert_eq!(out.status.code(), Some(0), "{help}");
    let options: Vec<&str> = help
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("--"))
        .filter_map(|l| l.split([' ', '=']).next())
        .collect();
    for refused in ["engine", "dev", "base", "results", "resume"] {
        assert!(!options.contains(&refused), "--{refused} listed: {help}");
    }
    for taken in ["good", "bad", "test", "each", "rounds", "concurrency"] {
        assert!(options.contains(&taken), "--{taken} missing: {help}");
    }
}

#[test]
fn bisect_resumes_after_ctrl_c() {
    let dir = temp_dir("bisect", "ctrl-c");
    let (repo, c) = make_history(&dir);
    let out_dir = dir.join("out");
    let args = games_args(&c, &out_dir);
    let child = Command::new(HARNESS)
        .current_dir(&repo)
        .arg("bisect")
        .args(&args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Ctrl-C once the first SPRT (bad against good) has finished a game.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while journal(&out_dir, &c[9]).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: kill(2) on the child's own pid; no memory is touched.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let log = text(&out);
    println!("{log}");
    assert_eq!(out.status.code(), Some(130), "{log}");
    assert!(
        log.contains("Interrupted") && log.contains("the same command continues"),
        "{log}"
    );
    let before = steps(&state(&out_dir)).len();
    // The same command finishes the search, resuming the SPRT that was stopped.
    let again = bisect(&repo, &args);
    let log2 = text(&again);
    println!("{log2}");
    assert_eq!(again.status.code(), Some(0), "{log2}");
    assert_eq!(log2.matches("[recorded]").count(), before, "{log2}");
    assert!(
        log2.contains(&format!("First bad commit: {}", c[4])),
        "{log2}"
    );
    // Every game of every SPRT was recorded once: the stopped games were replayed, not doubled.
    for i in [9, 4, 2] {
        let ids: Vec<u64> = common::journal_game_ids(&journal(&out_dir, &c[i]));
        let unique: std::collections::HashSet<_> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "commit {i}: {ids:?}");
    }
}

#[test]
fn bisect_continues_an_undecided_sprt_with_more_rounds() {
    let dir = temp_dir("bisect", "rounds");
    let (repo, c) = make_history(&dir);
    let out_dir = dir.join("out");
    let mut args = games_args(&c, &out_dir);
    args.extend(words("--rounds 1"));
    // One pair cannot reach the bounds: the search stops, recording nothing for that SPRT.
    let out = bisect(&repo, &args);
    let log = text(&out);
    assert_eq!(out.status.code(), Some(3), "{log}");
    assert!(log.contains("no decision after 2 games"), "{log}");
    assert!(steps(&state(&out_dir)).is_empty());
    assert_eq!(journal(&out_dir, &c[9]).lines().count(), 2);
    // More rounds continue that SPRT from its two games (a changed --rounds is allowed).
    let n = args.len();
    args[n - 1] = "100".into();
    let out = bisect(&repo, &args);
    let log = text(&out);
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(
        log.contains(&format!("First bad commit: {}", c[4])),
        "{log}"
    );
    // Its games: the two of the first run and the rest, each once, all counted in its step.
    let ids: Vec<u64> = common::journal_game_ids(&journal(&out_dir, &c[9]));
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    assert!(ids.contains(&0) && ids.contains(&1), "{ids:?}");
    let verify = &state(&out_dir)["steps"][0];
    assert_eq!(verify["commit"].as_str(), Some(c[9].as_str()));
    assert_eq!(verify["evidence"]["games"].as_u64(), Some(ids.len() as u64));
}

#[test]
fn bisect_names_every_candidate_when_only_skipped_commits_are_left() {
    let dir = temp_dir("bisect", "ambiguous");
    let (repo, c) = make_history(&dir);
    let out_dir = dir.join("out");
    // The commit before the weakening cannot be tested either (exit 125).
    let test = format!("test \"$BISECT_COMMIT\" = {} && exit 125; sh test.sh", c[3]);
    let args = vec![
        "--good".into(),
        c[0].clone(),
        "--bad".into(),
        c[9].clone(),
        "--test".into(),
        test,
        "--build".into(),
        "sh build.sh".into(),
        "--engine-path".into(),
        "engine.sh".into(),
        "--quiet".into(),
        "--dir".into(),
        out_dir.display().to_string(),
    ];
    let out = bisect(&repo, &args);
    let log = text(&out);
    println!("{log}");
    assert_eq!(out.status.code(), Some(5), "{log}");
    let list = log.split("is one of\n").nth(1).expect(&log);
    let listed: Vec<&str> = list
        .lines()
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(listed, [c[3].as_str(), c[4].as_str()], "{log}");
    assert!(log.contains(&format!("after {}", &c[2][..12])), "{log}");
}

#[test]
fn bisect_follows_the_first_parent_line_and_names_a_merge() {
    let dir = temp_dir("bisect", "merge");
    let (repo, c) = make_history(&dir);
    let main = git(&repo, &["rev-parse", "--abbrev-ref", "HEAD"]);
    git(&repo, &["checkout", "-q", "-b", "side", &c[0]]);
    std::fs::write(repo.join("side.txt"), "a side branch\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "side: a file\n\nBench: 100"]);
    let side = git(&repo, &["rev-parse", "HEAD"]);
    git(&repo, &["checkout", "-q", &main]);
    git(
        &repo,
        &[
            "merge",
            "-q",
            "--no-ff",
            "side",
            "-m",
            "Merge side\n\nBench: 109",
        ],
    );
    let merge = git(&repo, &["rev-parse", "HEAD"]);
    let out_dir = dir.join("out");
    // The side commit is an ancestor of the merge, but not on its first-parent line.
    let refused = bisect(
        &repo,
        &words(&format!("--good {side} --bad {merge} --test true")),
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused).contains("not on --bad's first-parent line"),
        "{}",
        text(&refused)
    );
    // Everything passes but the merge: the merge is the answer, with the way into its branch.
    let test = format!("test \"$BISECT_COMMIT\" != {merge}");
    let args = vec![
        "--good".into(),
        c[0].clone(),
        "--bad".into(),
        merge.clone(),
        "--test".into(),
        test,
        "--dir".into(),
        out_dir.display().to_string(),
    ];
    let out = bisect(&repo, &args);
    let log = text(&out);
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(log.contains("Bisecting 10 commits"), "{log}");
    assert!(log.contains(&format!("First bad commit: {merge}")), "{log}");
    assert!(
        log.contains("It is a merge: bisect its branch with --good $(git merge-base"),
        "{log}"
    );
    let recorded = steps(&state(&out_dir));
    assert!(
        recorded.iter().all(|s| s.0 != side),
        "the side commit is not on the line"
    );
}

/// A bisection step's results file records its run as data (the commit's engine against good,
/// the step's SPRT), so `harness sprt --resume` continues it on its own, with the step's
/// bounds, and every game is played once.
#[test]
fn a_bisect_steps_results_file_resumes_with_sprt() {
    let dir = temp_dir("bisect", "step-resume");
    let (repo, c) = make_history(&dir);
    let out_dir = dir.join("out");
    let mut args = games_args(&c, &out_dir);
    args.extend(words("--rounds 1"));
    let out = bisect(&repo, &args);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    assert_eq!(journal(&out_dir, &c[9]).lines().count(), 2);
    let results = out_dir.join(format!("sprt-{}.json", &c[9][..12]));
    let out = Command::new(HARNESS)
        .current_dir(&repo)
        .args(["sprt", "--resume"])
        .arg(&results)
        .args(["--rounds", "100", "--quiet"])
        .output()
        .unwrap();
    let log = text(&out);
    // The queen valued as a pawn is weaker: H0 (exit code 1), on the step's logistic
    // [-200, 0], not sprt's defaults (normalized [0, 5]).
    assert_eq!(out.status.code(), Some(1), "{log}");
    assert!(log.contains("[-200.00, 0.00]"), "{log}");
    let ids: Vec<u64> = common::journal_game_ids(&journal(&out_dir, &c[9]));
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    assert!(
        ids.len() > 2 && ids.contains(&0) && ids.contains(&1),
        "{ids:?}"
    );
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(file["decision"].as_str(), Some("H0 accepted"));
    assert_eq!(file["record"]["engines"][1]["spec"]["name"], "good");
}
