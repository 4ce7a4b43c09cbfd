//! The commands that run one engine over many positions (`epd`, `suite-gen`, `label`) take the
//! engine in `harness match`'s words (`cmd=... args=... option.X=...`) as well as in the older
//! form ("program args" and `--option`), and share one engine pool: a crash costs one position,
//! an engine that fails on every position ends the run with an error naming it.

use crate::common;

use common::{temp_dir, text, FORCED};
use std::path::Path;
use std::process::{Command, Output};

const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .output()
        .unwrap()
}

fn suite(dir: &Path) -> String {
    let path = dir.join("forced.epd");
    std::fs::write(&path, FORCED).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The lines of an `epd` run that say how each position went.
fn verdicts(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.starts_with("FAIL") || l.starts_with("forced"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn epd_takes_the_match_words_and_the_older_form_alike() {
    let dir = temp_dir("words", "epd");
    let s = suite(&dir);
    let cmd = format!("cmd={FAULTY}");
    let old = harness(&[
        "epd",
        &s,
        "--engine",
        &format!("{FAULTY} --crash-after 2"),
        "--option",
        "Hash=8",
        "--movetime",
        "10",
    ]);
    // The suite after the engine's words is still the suite.
    let new = harness(&[
        "epd",
        "--engine",
        &cmd,
        "args=--crash-after 2",
        "option.Hash=8",
        &s,
        "--movetime",
        "10",
    ]);
    assert_eq!(old.status.code(), Some(0), "{}", text(&old));
    assert_eq!(new.status.code(), Some(0), "{}", text(&new));
    // Every third search crashes (one process): f3 and f6, in both forms.
    assert_eq!(verdicts(&old), verdicts(&new));
    assert_eq!(
        String::from_utf8_lossy(&new.stdout)
            .matches("[crashed")
            .count(),
        2,
        "{}",
        text(&new)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_engine_word_is_a_clear_error_before_anything_runs() {
    let dir = temp_dir("words", "bad");
    let s = suite(&dir);
    let cmd = format!("cmd={FAULTY}");
    let out = dir.join("out.epd");
    for args in [
        vec!["epd", &s, "--engine", &cmd, "hash=16"],
        vec![
            "suite-gen",
            "--random-playouts",
            "1",
            "--oracle",
            &cmd,
            "hash=16",
        ],
    ] {
        let args = [&args[..], &["--out", out.to_str().unwrap()]].concat();
        let args: Vec<&str> = match args[0] {
            // epd writes no --out.
            "epd" => args[..args.len() - 2].to_vec(),
            _ => args,
        };
        let o = harness(&args);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let t = text(&o);
        assert!(
            t.contains("unknown engine setting `hash`")
                && t.contains("did you mean `option.Hash=16`?"),
            "{t}"
        );
    }
    let o = harness(&["epd", &s, "--engine", &cmd, "nodes=10"]);
    assert!(
        text(&o).contains("`nodes=10` is a search limit of `harness match`"),
        "{}",
        text(&o)
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_that_fails_on_every_position_ends_the_run_with_an_error() {
    let dir = temp_dir("words", "abandon");
    let s = suite(&dir);
    let o = harness(&[
        "epd",
        &s,
        "--engine",
        &format!("cmd={FAULTY}"),
        "args=--crash-after 0",
        "--movetime",
        "10",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("faulty-engine --crash-after 0` failed 3 times in a row, the last on forced f3: engine crashed")
            && t.contains("run abandoned"),
        "{t}"
    );
    let out = dir.join("gen.epd");
    let o = harness(&[
        "suite-gen",
        "--random-playouts",
        "2",
        "--oracle",
        &format!("{FAULTY} --crash-after 0"),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("run abandoned"), "{}", text(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn suite_gen_lists_the_positions_its_oracle_failed_on_and_goes_on() {
    let dir = temp_dir("words", "suite-gen");
    let out = dir.join("gen.epd");
    let o = harness(&[
        "suite-gen",
        "--random-playouts",
        "1",
        "--playout-plies",
        "9",
        "--skip-plies",
        "0",
        "--oracle",
        &format!("cmd={FAULTY}"),
        "args=--crash-after 2",
        "--depth",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    // Nine candidates, one oracle process crashing on every third search: plies 2, 5 and 8.
    assert!(t.contains("9 distinct candidate positions"), "{t}");
    assert!(t.contains("(3 not analysed"), "{t}");
    for ply in [2, 5, 8] {
        assert!(
            t.contains(&format!("not analysed: playout 1 ply {ply} (")),
            "ply {ply}: {t}"
        );
    }
    assert!(t.contains("engine Faulty: engine crashed"), "{t}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn label_takes_the_match_words_and_lists_what_failed() {
    let dir = temp_dir("words", "label");
    let input = dir.join("in.csv");
    let sample =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.csv")).unwrap();
    let lines: Vec<&str> = sample
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(6)
        .collect();
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let out = dir.join("out.csv");
    let o = harness(&[
        "label",
        "--engine",
        &format!("cmd={FAULTY}"),
        "args=--crash-after 2",
        "option.Hash=8",
        input.to_str().unwrap(),
        "--concurrency",
        "1",
        "--nodes",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(
        t.contains("6 positions labelled (0 from the tables; 2 without a score"),
        "{t}"
    );
    for n in [3, 6] {
        assert!(t.contains(&format!("no score: position {n} (")), "{n}: {t}");
    }
    let scored: Vec<bool> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| !l.ends_with(','))
        .collect();
    assert_eq!(scored, [true, true, false, true, true, false]);
    std::fs::remove_dir_all(&dir).ok();
}
