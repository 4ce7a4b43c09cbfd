//! When a game goes wrong, hand the developer the case: the failure case files a run keeps
//! beside its results ([`files`]), their text ([`format`]) and `harness replay` ([`replay`]).
//!
//! The case itself is built by the game loop (`game::case`, from the flight recorder
//! `uci::flight`); this module depends on `game` and `uci`, never the other way.

pub mod files;
pub mod format;
pub mod lines;
pub mod replay;

pub use files::{FailureFiles, FailureSummary};
pub use format::CaseError;
