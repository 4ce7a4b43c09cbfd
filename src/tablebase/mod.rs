//! Syzygy endgame tablebases for the harness: loading tables from folders ([`Tablebases`]),
//! probing a position's WDL and DTZ with every failure turned into a typed "no answer"
//! ([`NoAnswer`]), and what a game or a label does with the answer ([`SyzygyRule`]: adjudicate a
//! game, or give a position its exact result).
//!
//! The probing itself is `shakmaty-syzygy`'s (the same author's crate as the shakmaty referee
//! of the game loop). This module adds what a test harness needs around it: clear errors for a
//! missing or empty folder, tables that fail to load or to probe reported as "no answer" instead
//! of a panic or a stopped match, and the rules for turning WDL and DTZ into a game result
//! under the 50-move rule.
//!
//! Users: `harness tb probe` (`cmd::tb`), the `--tb` adjudication of `match`, `sprt`, `spsa`
//! and `datagen` (through `game::adjudication`), and the exact labels of `label` and
//! `datagen`.

mod cli;
mod error;
mod report;
mod rule;
mod tables;

pub use cli::{TbArgs, TbTableArgs};
pub use error::{NoAnswer, TbError};
pub use report::{epd_file_positions, parse_position, PositionReport};
pub use rule::{classify, Exact, SyzygyRule, TbResults};
pub use tables::{MoveProbe, Probe, Tablebases};

/// The start of the reason of every game a tablebase adjudicated (`Syzygy: White wins (...)`);
/// the match report counts these games by it.
pub const REASON_PREFIX: &str = "Syzygy:";

#[cfg(test)]
mod tests;
