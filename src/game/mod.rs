//! One game: referee (shakmaty), clocks, adjudication, PGN record.
//!
//! [`play_game`] takes two [`Player`]s, an [`Opening`] and [`GameSettings`] and always returns a
//! [`GameRecord`]: engine failures become lost games with a [`Fault`] and a reason.

pub mod adjudication;
pub mod case;
pub mod fault;
pub mod judge;
pub mod line_pattern;
pub mod opening;
pub mod pgn;
mod pgn_fastchess;
mod pgn_text;
mod play;
mod player;
pub mod record;
pub mod rules;
pub mod tc;
pub mod variant;

pub use adjudication::{Adjudication, DrawRule, ResignRule};
pub use case::{FailureCase, FailureKind};
pub use fault::{Fault, FaultKind};
pub use line_pattern::LinePattern;
pub use opening::Opening;
pub use play::{play_game, GameSettings, NotPlayed};
pub use player::Player;
pub use record::{GameRecord, Outcome};
pub use tc::{Limits, TimeControl};
pub use variant::Variant;

#[cfg(test)]
mod case_tests;
#[cfg(test)]
mod tests;
