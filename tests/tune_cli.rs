//! `harness tune` end to end on the shipped sample: the streaming loader's validation split,
//! full batches and mini-batches, the weights file it writes, and a malformed line's error.

use std::path::PathBuf;
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tune-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .arg("tune")
        .args(args)
        .output()
        .unwrap()
}

fn sample() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.csv").to_string()
}

/// The number after `label` on the line that starts with it.
fn figure(text: &str, label: &str) -> f64 {
    let line = text.lines().find(|l| l.starts_with(label)).expect(label);
    line[label.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn full_batch_and_mini_batch_both_lower_the_training_loss() {
    let dir = temp_dir("batches");
    for batch in ["0", "1000"] {
        let out = dir.join(format!("w{batch}.json"));
        let o = tune(&[
            &sample(),
            "--epochs",
            "15",
            "--threads",
            "2",
            "--batch",
            batch,
            "--last",
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stderr),
            String::from_utf8_lossy(&o.stdout)
        );
        assert!(o.status.success(), "{err}");
        // the last 10 % of the file in order is the validation set
        assert!(
            err.contains("9000 training + 1000 validation positions"),
            "{err}"
        );
        let start: f64 = err
            .split("starting loss ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .unwrap()
            .parse()
            .unwrap();
        let end = figure(&err, "training loss");
        assert!(end < start, "batch {batch}: {start} -> {end}");
        // the engine loads what the tuner wrote
        sable::eval::Params::load(&out).expect("a weights file the engine reads");
    }
}

#[test]
fn a_bad_line_names_file_and_line_and_skip_bad_skips_it() {
    let dir = temp_dir("bad");
    let data = dir.join("bad.csv");
    let mut text: String = std::fs::read_to_string(sample())
        .unwrap()
        .lines()
        .take(50)
        .map(|l| format!("{l}\n"))
        .collect();
    text.push_str("not a fen,1.0,0\n");
    std::fs::write(&data, text).unwrap();
    let out = dir.join("w.json");
    let o = tune(&[
        data.to_str().unwrap(),
        "--epochs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains(&format!("{}:", data.display())), "{err}");
    let o = tune(&[
        data.to_str().unwrap(),
        "--epochs",
        "2",
        "--skip-bad",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("1 bad lines skipped"), "{err}");
}
