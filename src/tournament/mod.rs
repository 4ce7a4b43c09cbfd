//! Scheduler: openings, game pairs with colours swapped, concurrency, results file and resume.
//! Parts serve only `harness check` and tests.
//!
//! [`run_match`] is the library entry point (used by `harness match`, `harness sprt` and the
//! sanity match of `harness check`).

pub mod book;
pub mod compare;
pub mod config;
pub mod engine_args;
pub mod interrupt;
pub mod lock;
mod preflight;
pub mod report;
pub mod resume;
pub mod revision;
mod runner;
pub mod schedule;
mod tally;

pub use config::{EngineConfig, MatchConfig, MatchOutcome, Mode};
pub use runner::run_match;

#[cfg(test)]
mod tests;
