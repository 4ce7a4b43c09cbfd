//! `harness match`: play a match between UCI engines (fastchess vocabulary).

use crate::plumbing::interrupt;
use crate::tournament::config::Stop;
use crate::tournament::report::{print_final, print_speed};
use crate::tournament::syzygy_report::print_syzygy_line;
use crate::tournament::{run_match, EXIT_NO_VERDICT};

/// Options of this subcommand (shared with `harness sprt`).
pub use crate::tournament::cli::MatchArgs as Args;

/// Runs the subcommand; returns the process exit code (0: done; 4: stopped by a broken setup
/// or faulty engines, or faults above --max-fault-share; 130: interrupted, resumable).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let cfg = super::legacy_resume::build(args, "match", None)?;
    if let (Some(path), Some(_)) = (&cfg.results, &cfg.sprt) {
        anyhow::bail!(
            "{}: the results of an SPRT; continue it with `harness sprt --resume {}`",
            path.display(),
            path.display()
        );
    }
    interrupt::install();
    let start = std::time::Instant::now();
    let outcome = run_match(&cfg)?;
    print_final(&cfg, &outcome);
    print_syzygy_line(&cfg)?;
    print_speed(&outcome, start.elapsed());
    let too_many = !outcome.fault_shares_over(&cfg.fault_rules).is_empty();
    Ok(match &outcome.stopped {
        Some(Stop::Interrupted) => interrupt::EXIT_INTERRUPTED,
        Some(_) => EXIT_NO_VERDICT,
        None if too_many => EXIT_NO_VERDICT,
        None => 0,
    })
}
