//! `harness check`: the regression gate. Runs a fixed list of steps (perft, bench signature,
//! tactical baselines, sanity match), each on the suites embedded in the binary, and prints one
//! table of pass/fail with figures. Each step is a function returning a [`StepOutcome`].

pub mod error;
pub mod sanity_match;
pub mod signature;
pub mod steps;
pub mod tactics;

use crate::uci::EngineSpec;
pub use error::CheckError;
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, Instant};

/// The engine the gate plays (tactics step, sanity match): this very binary's hidden
/// `harness engine` subcommand, not the `sable` binary that ships.
///
/// Why not the shipped binary: the setup command of the README, `cargo run --release -- check`,
/// builds only the harness, so a `sable` binary may be missing or, worse, stale (built from an
/// older tree), and the gate would then judge the wrong engine. `harness engine` runs
/// `sable::uci::Uci::new().run()`, the very library entry point that `engine/src/main.rs` runs
/// for the `sable` binary, compiled from the same tree as the rest of the gate; the two
/// binaries differ only in their `main`, which the gate does not test.
pub fn sable_engine_spec(name: &str) -> Result<EngineSpec, CheckError> {
    let exe = std::env::current_exe().map_err(CheckError::CurrentExe)?;
    let mut spec = EngineSpec::new(exe.to_string_lossy());
    spec.args = vec!["engine".into()];
    spec.name = Some(name.into());
    spec.options = vec![("Hash".into(), "16".into())];
    Ok(spec)
}

/// How thorough a check run is; each step scales its work by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// A few seconds per step: a smoke test before a commit.
    Quick,
    /// The default gate for CI: each step well under a minute or two on 2 cores.
    Standard,
    /// Deeper perft, more games: before a release.
    Full,
}

/// What one step found.
#[derive(Clone, Debug, Serialize)]
pub struct StepOutcome {
    /// Step name as used by `--only`.
    pub name: String,
    /// Whether the step passed.
    pub passed: bool,
    /// One line of figures for the table (counts, speeds, what was compared).
    pub summary: String,
    /// Further lines shown under the table when the step failed (or always with `--verbose`).
    pub details: Vec<String>,
    /// Wall time of the step in seconds.
    pub seconds: f64,
}

impl StepOutcome {
    /// A step that could not run at all (its error becomes the summary): counts as a failure.
    pub fn error(name: &str, err: &CheckError) -> StepOutcome {
        StepOutcome {
            name: name.to_string(),
            passed: false,
            summary: format!("error: {}", error::with_causes(err)),
            details: Vec::new(),
            seconds: 0.0,
        }
    }
}

/// Result of a step body before timing is attached: pass/fail, summary and details.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the step passed.
    pub passed: bool,
    /// One line of figures.
    pub summary: String,
    /// Lines explaining failures.
    pub details: Vec<String>,
}

/// Runs one step body, timing it and turning an error into a failed outcome.
pub fn run_step(name: &str, body: impl FnOnce() -> Result<Verdict, CheckError>) -> StepOutcome {
    errln!("check: {name} ...");
    let start = Instant::now();
    let mut outcome = match body() {
        Ok(v) => StepOutcome {
            name: name.to_string(),
            passed: v.passed,
            summary: v.summary,
            details: v.details,
            seconds: 0.0,
        },
        Err(e) => StepOutcome::error(name, &e),
    };
    outcome.seconds = start.elapsed().as_secs_f64();
    outcome
}

/// Writes the run as JSON to `path` (`--json`), for CI to keep: the profile, every step's
/// outcome, and whether all passed. The error names the file it cannot write.
pub fn write_json_report(
    path: &Path,
    profile: Profile,
    outcomes: &[StepOutcome],
) -> Result<(), CheckError> {
    let report = serde_json::json!({ "profile": profile, "steps": outcomes,
        "passed": outcomes.iter().all(|o| o.passed) });
    std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n").map_err(|source| {
        CheckError::Report {
            path: path.to_owned(),
            source,
        }
    })
}

/// Formats the final table: one row per step, then the details of failed steps.
pub fn render_table(outcomes: &[StepOutcome], verbose: bool) -> String {
    let width = outcomes
        .iter()
        .map(|o| o.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = String::new();
    out.push_str(&format!(
        "{:<width$}  {:<6}  {:>7}  figures\n",
        "step", "result", "time"
    ));
    out.push_str(&format!("{}\n", "-".repeat(width + 30)));
    for o in outcomes {
        let result = if o.passed { "PASS" } else { "FAIL" };
        let time = format_duration(Duration::from_secs_f64(o.seconds));
        out.push_str(&format!(
            "{:<width$}  {result:<6}  {time:>7}  {}\n",
            o.name, o.summary
        ));
    }
    for o in outcomes.iter().filter(|o| verbose || !o.passed) {
        if o.details.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{}:\n", o.name));
        for line in &o.details {
            out.push_str(&format!("  {line}\n"));
        }
    }
    let failed = outcomes.iter().filter(|o| !o.passed).count();
    if failed == 0 {
        out.push_str(&format!("\nall {} steps passed\n", outcomes.len()));
    } else {
        out.push_str(&format!("\n{failed} of {} steps FAILED\n", outcomes.len()));
    }
    out
}

fn format_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 {
        format!("{s:.1}s")
    } else {
        format!("{}m{:02}s", (s / 60.0) as u64, (s % 60.0) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step that passed (perft, "42 nodes") and one that ended in an error (bench).
    fn passed_and_errored() -> (StepOutcome, StepOutcome) {
        let ok = run_step("perft", || {
            Ok(Verdict {
                passed: true,
                summary: "42 nodes".into(),
                details: vec![],
            })
        });
        (ok, run_step("bench", || Err(CheckError::NoSignature)))
    }

    #[test]
    fn table_marks_failures_and_lists_their_details() {
        let (ok, bad) = passed_and_errored();
        let failing = run_step("match", || {
            Ok(Verdict {
                passed: false,
                summary: "1 crash".into(),
                details: vec!["game 3: crash".into()],
            })
        });
        let table = render_table(&[ok, bad, failing], false);
        assert!(table.contains("perft  PASS"), "{table}");
        assert!(
            table.contains("bench  FAIL") && table.contains("error: no bench signature"),
            "{table}"
        );
        assert!(table.contains("match:\n  game 3: crash"), "{table}");
        assert!(table.contains("2 of 3 steps FAILED"), "{table}");
    }

    #[test]
    fn the_json_report_holds_profile_steps_and_the_verdict() {
        let (ok, bad) = passed_and_errored();
        let dir = crate::test_dir("check-json");
        let path = dir.join("check.json");
        write_json_report(&path, Profile::Quick, std::slice::from_ref(&ok)).unwrap();
        let read = |p: &Path| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
        };
        let json = read(&path);
        assert_eq!(json["profile"], "quick");
        assert_eq!(json["passed"], true);
        assert_eq!(json["steps"][0]["name"], "perft");
        assert_eq!(json["steps"][0]["summary"], "42 nodes");
        write_json_report(&path, Profile::Full, &[ok, bad]).unwrap();
        let json = read(&path);
        assert_eq!(json["profile"], "full");
        assert_eq!(json["passed"], false, "one failed step fails the run");
        assert_eq!(json["steps"][1]["passed"], false);
        assert_eq!(
            json["steps"][1]["summary"],
            "error: no bench signature: suites/bench.txt has no number"
        );
        let err =
            write_json_report(&dir.join("no/such/dir.json"), Profile::Quick, &[]).unwrap_err();
        let text = error::with_causes(&err);
        // the file from the error, the system's cause from its source
        assert!(
            text.contains("dir.json: ") && text.contains("os error"),
            "{text}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn durations_read_as_seconds_then_minutes() {
        assert_eq!(format_duration(Duration::from_millis(7_440)), "7.4s");
        assert_eq!(format_duration(Duration::from_millis(59_900)), "59.9s");
        assert_eq!(format_duration(Duration::from_secs(60)), "1m00s");
        assert_eq!(format_duration(Duration::from_secs(66)), "1m06s");
    }
}
