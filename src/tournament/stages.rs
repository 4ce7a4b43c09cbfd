//! The two-stage SPRT (OpenBench's practice): a short time control first and, only if it
//! accepts H1, a long one with tighter bounds; one report and one exit code for both.
//!
//! Each stage is an ordinary SPRT with its own results file named after the main one
//! (`sprt.json` -> `sprt.stc.json`, `sprt.ltc.json`), so either file resumes the whole pipeline:
//! a decided stage resumes to its decision at once, without a game. `rev:` engines are built
//! once, before the first stage, and both stages play those very binaries (a working tree
//! edited during the short stage does not change what the long stage tests): each stage's
//! record holds both stages (`tournament::record::StagesRecord`) with their pinned builds.
//!
//! This module is pure: the stage specifications, the order of the stages and the report; the
//! stages' file names are `plumbing::naming`'s ([`crate::plumbing::naming::stage_file`]).
//! `cmd::sprt_stages` builds each stage's match and plays it.

use super::participant::EngineConfig;
use crate::stats::sprt::SprtError;
use crate::stats::{Decision, Model, Sprt};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The stages' names, in order; also the infix of their files.
pub const STAGES: [&str; 2] = ["stc", "ltc"];

/// One stage as written on the command line: `--stc "tc=8+0.08 elo0=0 elo1=5"`. `elo0`,
/// `elo1`, `alpha`, `beta` and `rounds` are the stage's; every other word is an `--each` word
/// (tc=, nodes=, option.Hash=, ...) for both engines in this stage only.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StageSpec {
    /// Words added to `--each`.
    pub each: Vec<String>,
    /// Elo under H0.
    pub elo0: Option<f64>,
    /// Elo under H1.
    pub elo1: Option<f64>,
    /// False positive rate.
    pub alpha: Option<f64>,
    /// False negative rate.
    pub beta: Option<f64>,
    /// Most rounds (game pairs) this stage may play.
    pub rounds: Option<u32>,
}

/// Why the words of one stage (`--stc`, `--ltc`) do not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageError {
    /// The stage's flag name (`stc`, `ltc`).
    pub stage: String,
    /// The word at fault.
    pub word: String,
    /// What is wrong with it.
    pub kind: StageErrorKind,
}

/// What is wrong with a stage's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageErrorKind {
    /// Not `KEY=VALUE`.
    NotKeyValue,
    /// A bound or error rate that is no finite number.
    Number,
    /// `rounds` that is no whole number.
    Rounds,
}

impl fmt::Display for StageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let StageError { stage, word, kind } = self;
        let (key, value) = word.split_once('=').unwrap_or((word, ""));
        match kind {
            StageErrorKind::NotKeyValue => {
                write!(f, "--{stage}: expected KEY=VALUE, got `{word}`")
            }
            StageErrorKind::Number => {
                write!(f, "--{stage}: `{key}` needs a number, got `{value}`")
            }
            StageErrorKind::Rounds => {
                write!(f, "--{stage}: `rounds` needs a whole number, got `{value}`")
            }
        }
    }
}

impl std::error::Error for StageError {}

impl StageSpec {
    /// Parses the words of one stage; the error names the stage and the word.
    pub fn parse(stage: &str, text: &str) -> Result<StageSpec, StageError> {
        let mut spec = StageSpec::default();
        for word in text.split_whitespace() {
            let error = |kind| StageError {
                stage: stage.to_owned(),
                word: word.to_owned(),
                kind,
            };
            let Some((key, value)) = word.split_once('=') else {
                return Err(error(StageErrorKind::NotKeyValue));
            };
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| error(StageErrorKind::Number))
            };
            match key {
                "elo0" => spec.elo0 = Some(number()?),
                "elo1" => spec.elo1 = Some(number()?),
                "alpha" => spec.alpha = Some(number()?),
                "beta" => spec.beta = Some(number()?),
                "rounds" => {
                    spec.rounds = Some(value.parse().map_err(|_| error(StageErrorKind::Rounds))?)
                }
                _ => spec.each.push(word.to_owned()),
            }
        }
        Ok(spec)
    }

    /// The stage's own `--each` words, for the report (`tc=8+0.08`).
    pub fn limits(&self) -> String {
        if self.each.is_empty() {
            "as --each".to_owned()
        } else {
            self.each.join(" ")
        }
    }
}

/// What one stage ended with.
#[derive(Debug, Clone, PartialEq)]
pub struct StageResult {
    /// The SPRT's exit code (0 = H1, 1 = H0, 3 = undecided, 4 = no verdict, 130 = interrupted).
    pub exit: i32,
    /// Games played.
    pub games: u64,
    /// Logistic Elo and its 95 % error at the end.
    pub elo: Option<(f64, f64)>,
    /// The LLR at the end, and its bounds.
    pub llr: Option<(f64, f64, f64)>,
    /// The decision in words ("H1 accepted", "no verdict", ...).
    pub verdict: String,
    /// The stage's results file.
    pub results: PathBuf,
}

/// Runs the stages in order: the second only when the first accepted H1 (exit code 0). The
/// exit code is the first stage's unless it accepted H1, else the second's.
pub fn run_stages<E>(
    mut stage: impl FnMut(usize) -> Result<StageResult, E>,
) -> Result<(Vec<StageResult>, i32), E> {
    let first = stage(0)?;
    if first.exit != 0 {
        let code = first.exit;
        return Ok((vec![first], code));
    }
    let second = stage(1)?;
    let code = second.exit;
    Ok((vec![first, second], code))
}

/// The one report of both stages.
pub fn report(specs: &[StageSpec; 2], bounds: &[(f64, f64); 2], done: &[StageResult]) -> String {
    let mut out = String::from("\nTwo-stage SPRT\n");
    let _ = writeln!(
        out,
        "{:<5}  {:<16}  {:>16}  {:>6}  {:>15}  {:>22}  result",
        "stage", "limits", "bounds", "games", "Elo", "LLR [lower, upper]"
    );
    for (k, name) in STAGES.iter().enumerate() {
        let bound = format!("[{:.2}, {:.2}]", bounds[k].0, bounds[k].1);
        let line = match done.get(k) {
            Some(r) => format!(
                "{:>6}  {:>15}  {:>22}  {} ({})",
                r.games,
                r.elo
                    .map_or("-".to_owned(), |(e, err)| format!("{e:.1} +/- {err:.1}")),
                r.llr.map_or("-".to_owned(), |(l, lo, hi)| format!(
                    "{l:.2} [{lo:.2}, {hi:.2}]"
                )),
                r.verdict,
                r.results.display()
            ),
            None => format!(
                "{:>6}  {:>15}  {:>22}  not run: {} did not accept H1",
                "-",
                "-",
                "-",
                STAGES[0].to_uppercase()
            ),
        };
        let _ = writeln!(
            out,
            "{:<5}  {:<16}  {bound:>16}  {line}",
            name.to_uppercase(),
            specs[k].limits()
        );
    }
    let verdict = match done {
        [_, second] if second.exit == 0 => "H1 accepted at both stages".to_owned(),
        [_, second] => format!("{} at LTC (STC accepted H1)", second.verdict),
        [first] => format!("{} at STC; LTC not run", first.verdict),
        _ => String::new(),
    };
    let _ = writeln!(out, "Two-stage result: {verdict}");
    out
}

/// The decision in the report's words.
pub fn verdict_words(exit: i32, decision: Option<Decision>) -> String {
    match (exit, decision) {
        (0 | 1, Some(d)) => d.to_string(),
        (4, _) => "no verdict".to_owned(),
        (130, _) => "interrupted".to_owned(),
        _ => "no decision within its rounds".to_owned(),
    }
}

/// An SPRT's hypotheses and error rates (its bounds follow from them).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtRecord {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// Scale of the Elo bounds.
    pub model: Model,
}

impl SprtRecord {
    /// The test these numbers describe.
    pub fn sprt(&self) -> Result<Sprt, SprtError> {
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta, self.model)
    }
}

impl From<&Sprt> for SprtRecord {
    fn from(s: &Sprt) -> SprtRecord {
        SprtRecord {
            elo0: s.elo0,
            elo1: s.elo1,
            alpha: s.alpha,
            beta: s.beta,
            model: s.model,
        }
    }
}

/// A two-stage SPRT (`harness sprt --stc ... --ltc ...`): which stage this run is and what
/// differs between the stages (the rest of the record is common to both).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StagesRecord {
    /// This run's stage (an index into `stages`).
    pub stage: usize,
    /// Every stage, in order.
    pub stages: Vec<StageRecord>,
}

/// One stage of a two-stage SPRT.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageRecord {
    /// The stage's words as given (`tc=8+0.08 elo0=0 elo1=5`), for the report.
    pub words: String,
    /// The engines with the stage's limits.
    pub engines: Vec<EngineConfig>,
    /// The stage's test.
    pub sprt: SprtRecord,
    /// Rounds the stage may play.
    pub rounds: u32,
    /// Where its chart goes, if not beside its results.
    pub plot: Option<PathBuf>,
    /// Its PGN (a `--pgnout` without a file names it after the stage's results).
    pub pgn_out: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_stage_splits_into_bounds_and_each_words() {
        let s =
            StageSpec::parse("stc", "tc=8+0.08 elo0=0 elo1=5 option.Hash=16 rounds=30").unwrap();
        assert_eq!(s.each, w("tc=8+0.08 option.Hash=16"));
        assert_eq!(
            (s.elo0, s.elo1, s.alpha, s.rounds),
            (Some(0.0), Some(5.0), None, Some(30))
        );
        assert_eq!(s.limits(), "tc=8+0.08 option.Hash=16");
        let e = StageSpec::parse("ltc", "tc=40+0.4 elo1=x").unwrap_err();
        assert!(
            e.to_string()
                .contains("--ltc: `elo1` needs a number, got `x`"),
            "{e}"
        );
        assert!(StageSpec::parse("ltc", "fast")
            .unwrap_err()
            .to_string()
            .contains("`fast`"));
    }

    #[test]
    fn the_long_stage_runs_only_after_the_short_one_accepts_h1() {
        let result = |exit| StageResult {
            exit,
            games: 10,
            elo: None,
            llr: None,
            verdict: String::new(),
            results: PathBuf::new(),
        };
        for (first, second, want_runs, want_code) in [
            (0, 0, 2, 0),
            (0, 1, 2, 1),
            (1, 0, 1, 1),
            (3, 0, 1, 3),
            (4, 0, 1, 4),
            (130, 0, 1, 130),
        ] {
            let mut runs = 0;
            let (done, code) = run_stages(|k| {
                runs += 1;
                Ok::<_, std::convert::Infallible>(result(if k == 0 { first } else { second }))
            })
            .unwrap();
            assert_eq!((runs, done.len(), code), (want_runs, want_runs, want_code));
        }
    }
}
