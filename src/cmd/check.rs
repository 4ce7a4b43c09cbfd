//! `harness check`: the regression gate (see [`crate::check`]).

use crate::check::steps::STEPS;
use crate::check::{self, Profile, StepOutcome};
use std::path::PathBuf;

/// Options of `harness check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Quick profile: a smoke test of a few seconds per step.
    #[arg(long, conflicts_with = "full")]
    pub quick: bool,
    /// Full profile: deeper perft and more games (several minutes).
    #[arg(long)]
    pub full: bool,
    /// Run only these steps (repeatable or comma-separated): perft, perft960, bench, tactics,
    /// match.
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(STEPS))]
    pub only: Vec<String>,
    /// Skip these steps (repeatable or comma-separated).
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(STEPS))]
    pub skip: Vec<String>,
    /// Also write the results as JSON to this file (never an existing one, unless --force).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Replace output files that exist already; without it a file named here that exists
    /// stops the command before any work.
    #[arg(long)]
    pub force: bool,
    /// Print every step's details, not only those of failed steps.
    #[arg(long, short)]
    pub verbose: bool,
}

impl Args {
    fn profile(&self) -> Profile {
        match (self.quick, self.full) {
            (true, _) => Profile::Quick,
            (_, true) => Profile::Full,
            _ => Profile::Standard,
        }
    }

    fn selected(&self, step: &str) -> bool {
        (self.only.is_empty() || self.only.iter().any(|s| s == step))
            && !self.skip.iter().any(|s| s == step)
    }
}

/// Runs the selected steps and prints the table; exit code 0 only when every step passed.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let profile = args.profile();
    let json = crate::plumbing::output::named(args.json.as_deref(), args.force, "--json")?;
    let mut outcomes: Vec<StepOutcome> = Vec::new();
    for &step in STEPS.iter().filter(|s| args.selected(s)) {
        outcomes.push(check::steps::run(step, profile));
    }
    out!("{}", check::render_table(&outcomes, args.verbose));
    if let Some(path) = &json {
        check::write_json_report(path, profile, &outcomes)?;
    }
    Ok(if outcomes.iter().all(|o| o.passed) {
        0
    } else {
        1
    })
}
