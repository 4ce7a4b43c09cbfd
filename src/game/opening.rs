//! Where a game starts: a position and the book moves played from it. A leaf of the game room:
//! the game loop, the failure cases and the books all read it.

use super::variant::Variant;
use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

/// Where a game starts: a position and book moves played from it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Opening {
    /// Starting FEN; None = the standard start position.
    pub fen: Option<String>,
    /// Book moves in UCI notation, legal from `fen`.
    pub moves: Vec<String>,
    /// Where in its book it is (`line 12` of an EPD file, `game 3` of a PGN file), if from one.
    pub origin: Option<String>,
}

/// Why an opening gives no position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpeningError {
    /// The FEN does not parse.
    Fen { fen: String, cause: ParseFenError },
    /// The FEN's position is illegal: shakmaty's verdict as text (its error holds the whole
    /// position and cannot be compared).
    Illegal { fen: String, why: String },
    /// A book move that is not legal where it is played.
    Move(String),
}

impl std::fmt::Display for OpeningError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningError::Fen { fen, cause } => write!(f, "bad FEN `{fen}`: {cause}"),
            OpeningError::Illegal { fen, why } => write!(f, "illegal position `{fen}`: {why}"),
            OpeningError::Move(m) => write!(f, "illegal book move `{m}`"),
        }
    }
}

impl std::error::Error for OpeningError {}

impl Opening {
    /// The position after the book moves under `variant`'s rules, or why the opening is
    /// unusable.
    pub fn position(&self, variant: Variant) -> Result<Chess, OpeningError> {
        let mut pos: Chess = match &self.fen {
            None => Chess::default(),
            Some(f) => {
                let fen: Fen = f.parse().map_err(|cause| OpeningError::Fen {
                    fen: f.clone(),
                    cause,
                })?;
                fen.into_position(variant.castling_mode())
                    .map_err(|e| OpeningError::Illegal {
                        fen: f.clone(),
                        why: e.to_string(),
                    })?
            }
        };
        for m in &self.moves {
            let mv = m.parse::<UciMove>().ok().and_then(|u| u.to_move(&pos).ok());
            let mv = mv.ok_or_else(|| OpeningError::Move(m.clone()))?;
            pos.play_unchecked(mv);
        }
        Ok(pos)
    }
}
