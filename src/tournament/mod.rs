//! Scheduler: game pairs with colours swapped on one opening (books are [`crate::openings`]),
//! concurrency, results file and resume.
//!
//! [`run_match`] is the library entry point (used by `harness match`, `harness sprt` and the
//! sanity match of `harness check`).

pub mod affinity;
pub mod cli;
pub mod compare;
pub mod config;
pub mod engine_args;
pub mod error;
pub mod participant;
pub(crate) mod preflight;
pub mod record;
pub mod report;
pub mod resume;
pub mod revision;
mod runner;
pub mod schedule;
pub mod sprt;
pub mod stages;
pub mod syzygy_report;
mod tally;

pub use config::{EngineConfig, MatchConfig, MatchOutcome, Mode};
pub use error::MatchError;
pub use record::RunRecord;
pub use runner::run_match;

/// Exit code of a run stopped by a broken setup or faulty engines: no verdict. Distinct from
/// the SPRT's 0 (H1), 1 (H0) and 3 (no decision yet), and from 2 (bad command line).
pub const EXIT_NO_VERDICT: i32 = 4;

#[cfg(test)]
mod tests;
