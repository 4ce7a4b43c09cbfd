//! The SPSA loop without the command line, against the faulty engine with `--optimum`, whose
//! strength falls with a parameter's distance from a target: every recorded row must follow from
//! the one before by OpenBench's update on that row's games, the parameter must move towards the
//! target, and a resumed run must continue the record without touching it.

use super::run::{run, Config, Ended};
use super::{parse_input, perturb, update, Schedule};
use crate::game::{Adjudication, Limits, Variant};
use crate::tournament::EngineConfig;
use crate::uci::tests::faulty;
use std::path::Path;

fn config(out: &Path, iterations: u32, resume: bool) -> Config {
    let engine = EngineConfig {
        spec: faulty(&["--optimum", "Skill=0"]),
        limits: Limits {
            nodes: Some(1),
            ..Limits::default()
        },
        revision: None,
    };
    Config {
        engine,
        params: Some(parse_input("Skill, int, 300, -1000, 1000, 40, 0.2\n").unwrap()),
        iterations,
        pairs_per: 4,
        concurrency: 1,
        book: Vec::new(),
        book_name: String::new(),
        adjudication: Adjudication::quick(),
        variant: Variant::Standard,
        seed: 3,
        out: Some(out.to_owned()),
        resume,
        plot: None,
        emit_rust: None,
        verbose: false,
    }
}

/// The CSV's rows: iteration, wins, losses, draws and the value after the update.
fn rows(out: &Path) -> Vec<(u32, [u64; 3], f64)> {
    std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            (
                f[0].parse().unwrap(),
                [n(1), n(2), n(3)],
                f[4].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_loop_records_each_update_moves_towards_the_optimum_and_resumes() {
    let dir = crate::test_dir("spsa-run");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("run.csv");
    let first = run(&config(&out, 10, false), &mut ()).unwrap();
    assert_eq!(first.ended, Ended::Done);
    let recorded = rows(&out);
    assert_eq!(
        recorded.iter().map(|r| r.0).collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
    // Each row follows from the one before: the perturbation of its iteration, its games
    // (all four pairs played: eight games), OpenBench's update.
    let cfg = config(&out, 10, false);
    let mut params = cfg.params.clone().unwrap();
    for &(k, [w, l, d], value) in &recorded {
        assert_eq!(w + l + d, 8, "iteration {k}");
        let p = perturb(&params, &Schedule::new(10), cfg.seed, k);
        update(&mut params, &p, w as f64 - l as f64);
        assert!((params[0].value - value).abs() < 1e-6, "iteration {k}");
    }
    assert!((first.params[0].value - params[0].value).abs() < 1e-6);
    assert_eq!(first.start, [300.0]);
    // theta - c and theta + c really play with their values: the side nearer the target wins
    // more, so theta walks towards it (a swapped side would walk it away).
    assert!(
        first.params[0].value < 250.0,
        "{}: {recorded:?}",
        first.params[0].value
    );
    assert_eq!(first.chart.as_deref(), Some(dir.join("run.svg").as_path()));
    assert!(std::fs::read_to_string(dir.join("run.svg"))
        .unwrap()
        .starts_with("<svg"));
    // The same file again without resume: refused, untouched.
    assert!(run(&config(&out, 12, false), &mut ()).is_err());
    assert_eq!(rows(&out), recorded);
    // Resumed with more iterations: the ten rows stay, two follow, from the recorded values.
    let resumed = run(&config(&out, 12, true), &mut ()).unwrap();
    assert_eq!(resumed.ended, Ended::Done);
    assert_eq!(resumed.start, [recorded[9].2]);
    let all = rows(&out);
    assert_eq!(all.len(), 12);
    assert_eq!(all[..10], recorded[..]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_missing_engine_starts_nothing_and_writes_nothing() {
    let dir = crate::test_dir("spsa-run-missing");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("run.csv");
    let mut cfg = config(&out, 2, false);
    cfg.engine.spec.cmd = dir.join("no-such-engine").to_string_lossy().into_owned();
    let o = run(&cfg, &mut ()).unwrap();
    assert!(matches!(o.ended, Ended::NotStarted(_)), "{:?}", o.ended);
    assert!(!out.exists());
    cfg.iterations = 0;
    assert!(run(&cfg, &mut ()).is_err());
    std::fs::remove_dir_all(&dir).ok();
}
