//! `harness spsa` end to end: against the faulty engine with `--optimum`, whose strength falls
//! with a parameter's distance from a target, SPSA must walk the parameter to the target (a
//! wrong update sign walks it away, to the end of its range); and the run resumes from its CSV.

use crate::common;

use common::{temp_dir, text};

use std::path::Path;
use std::process::{Command, Output};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

fn spsa(dir: &Path, target: i64, start: i64, iterations: u32, extra: &[&str]) -> Output {
    std::fs::write(
        dir.join("p.txt"),
        format!("# start far from the optimum\nSkill, int, {start}, -1000, 1000, 40, 0.2\n"),
    )
    .unwrap();
    Command::new(HARNESS)
        .args(["spsa", "--engine", &format!("cmd={FAULTY}")])
        .arg(format!("args=--optimum Skill={target}"))
        .args(["--params", "p.txt", "--each", "tc=inf", "nodes=1"])
        .args(["--iterations", &iterations.to_string(), "--pairs-per", "4"])
        .args(["--seed", "3", "--resign", "movecount=1", "score=900"])
        .args(["--maxmoves", "100", "--quiet", "--out", "spsa.csv"])
        .args(extra)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The values of the CSV's rows.
fn path(dir: &Path) -> Vec<f64> {
    std::fs::read_to_string(dir.join("spsa.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn off_a_terminal_each_iteration_is_a_line_and_the_end_names_the_csv() {
    let dir = temp_dir("spsa", "lines");
    std::fs::write(dir.join("p.txt"), "Skill, int, 100, -1000, 1000, 40, 0.2\n").unwrap();
    // Output captured by a pipe, as in a log file or CI: no bar is drawn there.
    let out = Command::new(HARNESS)
        .args([
            "spsa",
            "--engine",
            &format!("cmd={FAULTY}"),
            "args=--optimum Skill=0",
        ])
        .args(["--params", "p.txt", "--each", "tc=inf", "nodes=1"])
        .args(["--iterations", "2", "--pairs-per", "1", "--maxmoves", "20"])
        .args(["--out", "lines.csv"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("SPSA: 0 of 2 iterations done"), "{t}");
    assert!(
        t.contains("SPSA iteration 1/2: Skill=") && t.contains("SPSA iteration 2/2: "),
        "{t}"
    );
    assert!(t.contains("Iterations: lines.csv"), "{t}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn spsa_walks_a_parameter_to_the_engines_optimum_from_either_side() {
    for (target, start) in [(0, 300), (500, 100)] {
        let dir = temp_dir("spsa", &format!("walk{target}"));
        let out = spsa(&dir, target, start, 20, &[]);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(0), "{t}");
        let values = path(&dir);
        assert_eq!(values.len(), 20);
        let last = *values.last().unwrap();
        assert!(
            (last - target as f64).abs() < 100.0,
            "from {start} towards {target}: ended at {last} ({values:?})"
        );
        // The outputs: OpenBench's form, setoption, the picture.
        assert!(
            t.contains(&format!("Skill, {}", last.round() as i64)),
            "{t}"
        );
        assert!(t.contains("setoption name Skill value "), "{t}");
        assert!(std::fs::read_to_string(dir.join("spsa.svg"))
            .unwrap()
            .starts_with("<svg"));
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn an_spsa_run_resumes_where_it_stopped_and_is_never_overwritten() {
    let dir = temp_dir("spsa", "resume");
    assert_eq!(spsa(&dir, 0, 300, 6, &[]).status.code(), Some(0));
    let first = path(&dir);
    let again = spsa(&dir, 0, 300, 12, &[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again).contains("--resume"), "{}", text(&again));
    assert_eq!(path(&dir), first, "untouched");
    let resumed = spsa(&dir, 0, 300, 12, &["--resume"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    let all = path(&dir);
    assert_eq!(all.len(), 12);
    assert_eq!(all[..6], first[..]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_without_parameters_is_a_clear_error() {
    let dir = temp_dir("spsa", "none");
    let out = Command::new(HARNESS)
        .args([
            "spsa",
            "--engine",
            &format!("cmd={FAULTY}"),
            "--each",
            "nodes=1",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("listed no parameters"),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
}
