//! `harness sprt`'s options, and one SPRT played with its report: what the one-stage command,
//! each stage of a two-stage SPRT and the legacy resume of version 1 files share (a leaf of
//! `cmd`, so that those three do not import each other).

use crate::stats::{Decision, Model, Sprt};
use crate::tournament::cli::MatchArgs;
use crate::tournament::config::Stop;
use crate::tournament::report::{print_final, print_speed};
use crate::tournament::syzygy_report::print_syzygy_line;
use crate::tournament::{self, MatchConfig, MatchOutcome};
use clap::Parser;
use std::path::PathBuf;

/// Options of this subcommand: the match options plus the test.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    #[command(flatten)]
    pub(crate) match_args: MatchArgs,
    /// Elo under H0 (in the model's scale).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub(crate) elo0: f64,
    /// Elo under H1 (in the model's scale).
    #[arg(long, default_value_t = 5.0, allow_hyphen_values = true)]
    pub(crate) elo1: f64,
    /// False positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub(crate) alpha: f64,
    /// False negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub(crate) beta: f64,
    /// Elo scale of elo0/elo1: normalized or logistic.
    #[arg(long, default_value = "normalized")]
    pub(crate) model: Model,
    /// Where to draw the LLR/Elo picture (SVG). Default: beside the results file, with its
    /// name (sprt-dev-vs-base-2026-11-25.svg).
    #[arg(long, value_name = "FILE")]
    pub(crate) plot: Option<PathBuf>,
    /// Replace the --plot file when it exists (without it, a new test refuses a --plot file
    /// that exists; a resumed test redraws its own chart).
    #[arg(long)]
    pub(crate) force: bool,
    /// Two stages: first this one, as --each words plus the stage's elo0= elo1= [alpha=
    /// beta= rounds=], e.g. "tc=8+0.08 elo0=0 elo1=5"; then --ltc, only if this accepts H1.
    /// Results in <results>.stc.json and .ltc.json; --resume either one.
    #[arg(long, value_name = "WORDS", requires = "ltc")]
    pub(crate) stc: Option<String>,
    /// The second stage, e.g. "tc=40+0.4 elo0=0.5 elo1=2.5" (see --stc).
    #[arg(long, value_name = "WORDS", requires = "stc")]
    pub(crate) ltc: Option<String>,
}

/// Parses `harness sprt`'s words without the program's name: only for results files of
/// version 1, which stored their command line (`cmd::legacy_resume`).
#[derive(Parser, Debug)]
#[command(no_binary_name = true)]
pub(crate) struct Stored {
    #[command(flatten)]
    pub(crate) args: Args,
}

/// Plays one SPRT and prints its report; returns the exit code (see `cmd::sprt::run`) and the outcome.
pub(crate) fn play(
    cfg: &mut MatchConfig,
    sprt: Sprt,
    plot: Option<&std::path::Path>,
) -> anyhow::Result<(i32, MatchOutcome)> {
    let run = tournament::sprt::play(cfg, sprt, plot)?;
    let outcome = run.outcome;
    print_final(cfg, &outcome);
    print_syzygy_line(cfg)?;
    print_speed(&outcome, run.wall);
    if let Some(plot) = &run.chart {
        outln!("Chart: {}", plot.display());
    }
    match &outcome.stopped {
        Some(Stop::Interrupted) => outln!("SPRT: not finished (interrupted)"),
        Some(_) => outln!("SPRT: no verdict"),
        None => outln!("SPRT: {}", outcome.decision.unwrap_or(Decision::Continue)),
    }
    Ok((run.exit, outcome))
}
