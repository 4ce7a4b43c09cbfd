//! `harness sprt`: a match between two engines that stops when the GSPRT decides.

use super::sprt_args::play;
pub use super::sprt_args::Args;
use crate::plumbing::interrupt;
use crate::plumbing::output;
use crate::stats::Sprt;
use std::path::Path;

/// Runs the SPRT. Exit code: 0 = H1 accepted (dev is better), 1 = H0 accepted, 3 = no decision
/// within the games allowed, 4 = no verdict: the run was stopped by a broken setup or faulty
/// engines (see docs/match.md, "Faults and verdicts").
pub fn run(args: Args) -> anyhow::Result<i32> {
    if let Some(code) = super::sprt_stages::run_if_staged(&args)? {
        return Ok(code);
    }
    let resume = args.match_args.resume.clone();
    // A new test's bounds are checked before anything slow (a `rev:` build) happens.
    let new = match &resume {
        Some(_) => None,
        None => Some(Sprt::new(
            args.elo0, args.elo1, args.alpha, args.beta, args.model,
        )?),
    };
    // So is its picture's name (the output rule), before any engine starts.
    let plot = match &resume {
        Some(_) => None,
        None => output::named(args.plot.as_deref(), args.force, "--plot")?,
    };
    let mut cfg = super::legacy_resume::build(args.match_args, "sprt", Some(100_000))?;
    let sprt = match (new, cfg.sprt, &resume) {
        (Some(sprt), _, _) => {
            cfg.plot = plot;
            sprt
        }
        (None, Some(sprt), _) => sprt,
        (None, None, path) => anyhow::bail!(
            "{}: the results of a match, not of an SPRT; continue it with `harness match \
             --resume {}`",
            path.as_deref().unwrap_or(Path::new("")).display(),
            path.as_deref().unwrap_or(Path::new("")).display()
        ),
    };
    interrupt::install();
    let plot = cfg.plot.clone();
    Ok(play(&mut cfg, sprt, plot.as_deref())?.0)
}
