//! One SPRT between two engines: the match with the test (the runner stops it at a bound),
//! the LLR/Elo chart beside its results file, and its exit code. `harness sprt` and each stage
//! of the two-stage SPRT (`tournament::stages`) play it and print its report.

use super::config::Stop;
use super::{run_match, MatchConfig, MatchError, MatchOutcome, EXIT_NO_VERDICT};
use crate::plumbing::{interrupt, naming};
use crate::stats::{chart::sprt_chart, Decision, Sprt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Exit code: H1 accepted (dev is better).
pub const EXIT_H1: i32 = 0;
/// Exit code: H0 accepted.
pub const EXIT_H0: i32 = 1;
/// Exit code: no decision within the games allowed.
pub const EXIT_UNDECIDED: i32 = 3;

/// What one SPRT did.
#[derive(Debug)]
pub struct SprtRun {
    /// The match's results.
    pub outcome: MatchOutcome,
    /// Its wall time.
    pub wall: Duration,
    /// The chart written (none when no pair was counted).
    pub chart: Option<PathBuf>,
    /// [`EXIT_H1`], [`EXIT_H0`], [`EXIT_UNDECIDED`], [`EXIT_NO_VERDICT`] (a broken setup or
    /// faulty engines stopped it) or `interrupt::EXIT_INTERRUPTED`.
    pub exit: i32,
}

/// Plays `cfg` as an SPRT of `sprt` and draws its path at `plot` (default: beside the results
/// file, with its name; `sprt.svg` without one).
pub fn play(cfg: &mut MatchConfig, sprt: Sprt, plot: Option<&Path>) -> Result<SprtRun, MatchError> {
    // An SPRT compares two engines; `--engine` can name more, which clap cannot forbid.
    if cfg.engines.len() != 2 {
        return Err(MatchError::SprtEngines {
            got: cfg.engines.len(),
        });
    }
    cfg.sprt = Some(sprt);
    let start = Instant::now();
    let outcome = run_match(cfg)?;
    let wall = start.elapsed();
    let mut chart = None;
    if !outcome.history.is_empty() {
        let title = format!("{} vs {}", outcome.names[0], outcome.names[1]);
        let path = match (plot, &cfg.results) {
            (Some(plot), _) => plot.to_path_buf(),
            (None, Some(results)) => naming::sibling(results, "svg"),
            (None, None) => PathBuf::from("sprt.svg"),
        };
        sprt_chart(&outcome.history, &sprt, &title, &path)?;
        chart = Some(path);
    }
    let exit = exit_code(&outcome);
    Ok(SprtRun {
        outcome,
        wall,
        chart,
        exit,
    })
}

/// The exit code of an SPRT's outcome (see [`SprtRun::exit`]).
pub fn exit_code(outcome: &MatchOutcome) -> i32 {
    match (&outcome.stopped, outcome.decision) {
        (Some(Stop::Interrupted), _) => interrupt::EXIT_INTERRUPTED,
        (Some(_), _) => EXIT_NO_VERDICT,
        (None, Some(Decision::AcceptH1)) => EXIT_H1,
        (None, Some(Decision::AcceptH0)) => EXIT_H0,
        (None, _) => EXIT_UNDECIDED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Adjudication, Limits};
    use crate::stats::Model;
    use crate::tournament::EngineConfig;
    use crate::uci::tests::faulty;

    /// The faulty engine that resigns before each move with probability |Skill| / 1000.
    fn engine(name: &str, skill: &str) -> EngineConfig {
        let mut spec = faulty(&["--optimum", "Skill=0"]).option("Skill", skill);
        spec.name = Some(name.into());
        EngineConfig {
            spec,
            limits: Limits {
                nodes: Some(1),
                ..Limits::default()
            },
            revision: None,
        }
    }

    fn sprt_between(dev: EngineConfig, base: EngineConfig, results: &Path) -> SprtRun {
        let mut cfg = MatchConfig::new(vec![dev, base], Vec::new());
        cfg.rounds = 40;
        cfg.results = Some(results.to_owned());
        cfg.adjudication = Adjudication::quick();
        let sprt = Sprt::new(0.0, 200.0, 0.05, 0.05, Model::Logistic).unwrap();
        play(&mut cfg, sprt, None).unwrap()
    }

    #[test]
    fn a_stop_outranks_the_decision_in_the_exit_code() {
        let cfg = MatchConfig::new(vec![engine("dev", "0"), engine("base", "0")], Vec::new());
        let mut o = super::super::tally::Tally::new(&cfg, 10).outcome;
        assert_eq!(exit_code(&o), EXIT_UNDECIDED);
        for (decision, exit) in [
            (Decision::Continue, EXIT_UNDECIDED),
            (Decision::AcceptH1, EXIT_H1),
            (Decision::AcceptH0, EXIT_H0),
        ] {
            o.decision = Some(decision);
            o.stopped = None;
            assert_eq!(exit_code(&o), exit);
            o.stopped = Some(Stop::Setup("no engine".into()));
            assert_eq!(exit_code(&o), EXIT_NO_VERDICT);
            o.stopped = Some(Stop::Interrupted);
            assert_eq!(exit_code(&o), interrupt::EXIT_INTERRUPTED);
        }
    }

    #[test]
    fn an_sprt_stops_at_its_bound_with_its_exit_code_and_chart() {
        let dir = crate::test_dir("tournament-sprt");
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        // The engine at Skill 1000 resigns at its first move: dev wins every game, or none.
        for (dev, base, decision, exit, name) in [
            ("0", "1000", Decision::AcceptH1, EXIT_H1, "h1"),
            ("1000", "0", Decision::AcceptH0, EXIT_H0, "h0"),
        ] {
            let results = dir.join(format!("{name}.json"));
            let run = sprt_between(engine("dev", dev), engine("base", base), &results);
            assert_eq!(run.outcome.decision, Some(decision), "{name}");
            assert_eq!(run.exit, exit);
            assert_eq!(exit_code(&run.outcome), exit);
            assert!(
                run.outcome.games < 80,
                "stopped at the bound, not at the end"
            );
            let chart = dir.join(format!("{name}.svg"));
            assert_eq!(run.chart.as_deref(), Some(chart.as_path()));
            assert!(std::fs::read_to_string(&chart).unwrap().starts_with("<svg"));
        }
        // Three engines are no SPRT.
        let mut cfg = MatchConfig::new(
            vec![engine("a", "0"), engine("b", "0"), engine("c", "0")],
            Vec::new(),
        );
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let err = play(&mut cfg, sprt, None).unwrap_err().to_string();
        assert!(err.contains("exactly two engines"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
