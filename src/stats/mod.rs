//! Elo, error bars, LOS, trinomial and pentanomial GSPRT: pure functions on counts, tested
//! against the published fishtest and fastchess vectors (docs: shared design note sprt-math.md).
//!
//! - [`counts`]: [`Trinomial`], [`Pentanomial`] and the [`PairTracker`] that builds them.
//! - [`elo`]: Elo, nElo with 95 % error bars, LOS ([`elo_report`]).
//! - [`sprt`]: GSPRT log-likelihood ratios, bounds and [`Decision`]s ([`Sprt`]).
//! - [`ratings`]: one maximum likelihood rating list for many engines ([`ratings::rate`]).
//! - [`chart`]: the SVG picture of an SPRT ([`sprt_chart`]).
//! - [`interim`]: the fastchess-style [`InterimReport`] and the [`SprtPoint`] history.

pub mod chart;
pub mod counts;
pub mod elo;
pub mod error;
pub mod eta;
pub mod interim;
mod pdf;
pub mod ratings;
pub mod sprt;

pub use counts::{GameResult, PairTracker, Pentanomial, Trinomial};
pub use elo::elo_report;
pub use interim::{InterimReport, SprtPoint};
pub use pdf::ScoreCounts;
pub use sprt::{Decision, Model, Sprt};
