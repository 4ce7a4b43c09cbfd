//! The record of one finished game: moves with engine data, result, reason, faults.

use super::fault::{Fault, FaultKind};
use crate::uci::Score;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// A game's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// 1-0
    WhiteWins,
    /// 0-1
    BlackWins,
    /// 1/2-1/2
    Draw,
}

impl Outcome {
    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The win for `color`.
    pub fn win_for(color: Color) -> Outcome {
        match color {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// The outcome a PGN result token (`1-0`, `0-1`, `1/2-1/2`) names; `None` for `*` or
    /// anything else.
    pub fn from_pgn(token: &str) -> Option<Outcome> {
        match token.trim() {
            "1-0" => Some(Outcome::WhiteWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// White's points: 1, 0.5 or 0 (the label of a position in tuning data).
    pub fn white_score(self) -> f64 {
        match self {
            Outcome::WhiteWins => 1.0,
            Outcome::BlackWins => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// PGN `Termination` tag values (from the PGN standard).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Termination {
    /// Ended by the rules (mate, stalemate, repetition, 50 moves, material).
    Normal,
    /// Ended by an adjudication rule.
    Adjudication,
    /// A side lost on time.
    TimeForfeit,
    /// A side made an illegal move.
    RulesInfraction,
    /// A side crashed, hung or failed to start.
    Abandoned,
}

impl Termination {
    /// The PGN tag value.
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
        }
    }
}

/// One move of the game as played, with what the engine said about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// UCI notation.
    pub uci: String,
    /// SAN with check suffix.
    pub san: String,
    /// Engine score from the mover's view (None for book moves or no score).
    pub score: Option<Score>,
    /// Search depth reached.
    pub depth: Option<u32>,
    /// Selective depth reached.
    pub seldepth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Thinking time in milliseconds, measured by the runner.
    pub time_ms: u64,
    /// The move came from the opening book.
    pub book: bool,
    /// The engine's lines of this search that matched a `match_line` pattern (the last match
    /// of each pattern, as fastchess keeps them), for the PGN comment.
    pub lines: Vec<String>,
}

/// A finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// White's display name.
    pub white: String,
    /// Black's display name.
    pub black: String,
    /// The starting FEN (the book position), or None for the standard start.
    pub start_fen: Option<String>,
    /// All moves from the start position, book moves included.
    pub moves: Vec<MoveRecord>,
    /// The result.
    pub outcome: Outcome,
    /// The reason in words, e.g. "White mates", "Black loses on time".
    pub reason: String,
    /// The PGN termination class.
    pub termination: Termination,
    /// The fault that decided the game, if any.
    pub fault: Option<Fault>,
    /// The faulty engine's last lines of output (empty without a fault).
    pub fault_output: Vec<String>,
    /// What a developer needs to see and replay the fault (with the game's UCI transcript);
    /// `None` without a fault.
    pub case: Option<Box<super::case::FailureCase>>,
    /// White's time control as a PGN tag value.
    pub time_control: String,
    /// Black's time control as a PGN tag value (usually the same as White's).
    pub black_time_control: String,
    /// When the game started.
    pub start_time: std::time::SystemTime,
    /// The rules it was played by.
    pub variant: super::variant::Variant,
    /// Wall time of the game in milliseconds.
    pub duration_ms: u64,
}

impl GameRecord {
    /// The reason in fastchess's words, which OpenBench's client reads (it counts a game whose
    /// reason says `disconnect` or `stalls` as a crash, `on time` as a time loss, `illegal` as an
    /// illegal move): the harness's own reason carries details (the illegal move and position,
    /// the tables' verdict) that fastchess's does not, and a few wordings differ.
    pub fn fastchess_reason(&self) -> String {
        let side = |white: bool| if white { "White" } else { "Black" };
        if let Some(f) = &self.fault {
            let who = side(f.white);
            return match f.kind {
                // A crash is fastchess's disconnect; an engine that does not start mid-match
                // (restarted after a crash) is one too.
                FaultKind::Crash | FaultKind::Startup => format!("{who} disconnects"),
                FaultKind::Disconnect => format!("{who}'s connection stalls"),
                FaultKind::TimeLoss => format!("{who} loses on time"),
                FaultKind::IllegalMove => format!("{who} makes an illegal move"),
            };
        }
        let winner = match self.outcome {
            Outcome::WhiteWins => Some("White"),
            Outcome::BlackWins => Some("Black"),
            Outcome::Draw => None,
        };
        if self.reason.starts_with(crate::tablebase::REASON_PREFIX) {
            return match winner {
                Some(w) => format!("{w} wins by adjudication: SyzygyTB"),
                None => "Draw by adjudication: SyzygyTB".to_owned(),
            };
        }
        match self.reason.as_str() {
            "Draw by insufficient material" => "Draw by insufficient mating material".to_owned(),
            "Draw by adjudication: maximum moves" => "Draw by adjudication".to_owned(),
            other => other.to_owned(),
        }
    }
}

/// The name of a colour in result texts.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}
