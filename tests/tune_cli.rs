//! `harness tune` end to end on the shipped sample: the streaming loader's validation split,
//! full batches and mini-batches, the weights file it writes, and a malformed line's error.

use crate::common;

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
    assert!(err.contains("1 bad line skipped"), "{err}");
}

/// The loss at the start of a run, from its first report line.
fn starting_loss(text: &str) -> f64 {
    text.split("starting loss ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn init_from_a_weights_file_starts_where_that_run_ended() {
    let dir = temp_dir("init-file");
    let first = dir.join("first.json");
    let common = ["--k", "1.5", "--threads", "2", "--lr", "2"];
    let o = tune(
        &[
            &[sample().as_str(), "--init", "material", "--epochs", "20"][..],
            &common,
            &["--last", "--out", first.to_str().unwrap()],
        ]
        .concat(),
    );
    let text = String::from_utf8_lossy(&o.stderr).to_string() + &String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    let (from_material, ended) = (starting_loss(&text), figure(&text, "training loss"));
    assert!(ended < from_material, "{text}");

    let second = dir.join("second.json");
    let o = tune(
        &[
            &[
                sample().as_str(),
                "--init",
                first.to_str().unwrap(),
                "--epochs",
                "1",
            ][..],
            &common,
            &["--out", second.to_str().unwrap()],
        ]
        .concat(),
    );
    let text = String::from_utf8_lossy(&o.stderr).to_string() + &String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    // The file holds whole centipawns, so the loss matches up to that rounding.
    let resumed = starting_loss(&text);
    assert!((resumed - ended).abs() < 1e-3, "{resumed} vs {ended}");
    assert!(resumed < from_material);

    let missing = dir.join("missing.json");
    let o = tune(&[
        &sample(),
        "--init",
        missing.to_str().unwrap(),
        "--epochs",
        "1",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("missing.json"), "{err}");
}

#[test]
fn no_output_overwrites_the_init_file_unless_told() {
    let dir = temp_dir("overwrite-init");
    let init = dir.join("tuned.json");
    let o = tune(&[
        &sample(),
        "--init",
        "material",
        "--epochs",
        "0",
        "--out",
        init.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let before = std::fs::read(&init).unwrap();
    let rust = dir.join("defaults.rs");
    // `--init tuned.json` with the default `-o tuned.json`, run where that file is: the default
    // name moves aside (`plumbing::output`'s rule), the input untouched.
    let o = Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["tune", &sample(), "--init", "tuned.json", "--epochs", "1"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("note: tuned.json exists already and is kept; this run writes tuned-2.json"),
        "{err}"
    );
    assert!(dir.join("tuned-2.json").exists(), "{err}");
    assert_eq!(std::fs::read(&init).unwrap(), before);
    // `--emit-rust` pointed at the input: refused before any work, the input untouched.
    let mut args = vec![sample(), "--init".into(), "tuned.json".into()];
    args.extend(["--epochs", "3", "--lr", "50", "-o", "other.json"].map(String::from));
    args.extend(["--emit-rust".to_string(), init.display().to_string()]);
    let o = Command::new(env!("CARGO_BIN_EXE_harness"))
        .arg("tune")
        .args(&args)
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is the --init weights file") && err.contains("--overwrite-init"),
        "{err}"
    );
    assert!(!err.contains("training"), "refused before loading: {err}");
    assert_eq!(std::fs::read(&init).unwrap(), before);
    // Told to: the input is replaced (three big steps change the weights), and the Rust source
    // of those same weights is written.
    let o = Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["tune", &sample(), "--init", "tuned.json", "--epochs", "3"])
        .args([
            "--lr",
            "50",
            "--last",
            "--overwrite-init",
            "--unverified",
            "--emit-rust",
        ])
        .arg(&rust)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_ne!(std::fs::read(&init).unwrap(), before);
    assert!(std::fs::read_to_string(&rust).unwrap().contains("S::new("));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `harness` run in `dir` with `args`.
fn harness_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn emit_rust_compiles_in_only_weights_that_won_an_sprt_against_the_shipped_engine() {
    let dir = temp_dir("adopt");
    let sable = sable_binary();
    let sable = sable.to_str().unwrap();
    let sample = sample();
    // Material-only weights: what the old README recipe compiled in, hundreds of Elo weaker.
    let o = harness_in(
        &dir,
        &[
            "tune",
            &sample,
            "--init",
            "material",
            "--epochs",
            "0",
            "-o",
            "material.json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let emit = |extra: &[&str]| {
        let mut args = vec!["tune", &sample, "--init", "material.json", "--epochs", "0"];
        args.extend([
            "-o",
            "adopted.json",
            "--force",
            "--emit-rust",
            "defaults.rs",
        ]);
        args.extend(extra);
        harness_in(&dir, &args)
    };
    // No evidence: refused before any work, saying what to run.
    let o = emit(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--sprt tuned-sprt.json") && err.contains("harness sprt"),
        "{err}"
    );
    assert!(!dir.join("defaults.rs").exists());
    // The real SPRT of those weights against the shipped engine: H0.
    let tuned = format!("cmd={sable}");
    let o = harness_in(
        &dir,
        &[
            "sprt",
            "--engine",
            &tuned,
            "name=tuned",
            "option.EvalFile=material.json",
            "--engine",
            &tuned,
            "name=shipped",
            "--each",
            "nodes=300",
            "option.Hash=1",
            "--elo0",
            "0",
            "--elo1",
            "5",
            "--concurrency",
            "2",
            "--quiet",
            "--results",
            "s.json",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "H0: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = emit(&["--sprt", "s.json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("not compiled in") && err.contains("`H0 accepted`"),
        "{err}"
    );
    assert!(!dir.join("defaults.rs").exists());
    // Tuning further would write weights no SPRT has seen.
    let o = harness_in(
        &dir,
        &[
            "tune",
            &sample,
            "--init",
            "material.json",
            "--epochs",
            "3",
            "--emit-rust",
            "defaults.rs",
            "--sprt",
            "s.json",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("use --epochs 0"));
    // The checks after the verdict read the run's engines from the file: with its decision
    // edited to H1, the material weights pass (they are what the first engine loaded, and the
    // baseline is the same program without EvalFile), and the Rust source is written...
    let text = std::fs::read_to_string(dir.join("s.json")).unwrap();
    let h1 = text.replace("\"H0 accepted\"", "\"H1 accepted\"");
    assert_ne!(h1, text);
    std::fs::write(dir.join("h1.json"), h1).unwrap();
    let o = emit(&["--sprt", "h1.json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let written = std::fs::read_to_string(dir.join("defaults.rs")).unwrap();
    assert!(
        written.contains("S::new( 100,  100)"),
        "material values: {written}"
    );
    // ... but only into a file that holds this build's defaults: the one just written does not.
    let o = emit(&["--sprt", "h1.json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("rebuild"), "{err}");
    // Other weights than the ones the SPRT played (the shipped defaults) are refused.
    let o = harness_in(
        &dir,
        &[
            "tune",
            &sample,
            "--init",
            "current",
            "--epochs",
            "0",
            "-o",
            "current.json",
        ],
    );
    assert!(o.status.success());
    let o = harness_in(
        &dir,
        &[
            "tune",
            &sample,
            "--init",
            "current.json",
            "--epochs",
            "0",
            "-o",
            "x.json",
            "--emit-rust",
            "d2.rs",
            "--sprt",
            "h1.json",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("differ from the ones to compile in"), "{err}");
    assert!(!dir.join("d2.rs").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The engine binary, built by cargo if needed (see tests/common).
fn sable_binary() -> PathBuf {
    common::sable_binary()
}
