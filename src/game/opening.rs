//! Where a game starts: a position and the book moves played from it. A leaf of the game room:
//! the game loop, the failure cases and the books all read it.

use super::variant::Variant;
use shakmaty::fen::Fen;
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

impl Opening {
    /// The position after the book moves under `variant`'s rules, or why the opening is
    /// unusable.
    pub fn position(&self, variant: Variant) -> Result<Chess, String> {
        let mut pos: Chess = match &self.fen {
            None => Chess::default(),
            Some(f) => {
                let fen: Fen = f.parse().map_err(|e| format!("bad FEN `{f}`: {e}"))?;
                fen.into_position(variant.castling_mode())
                    .map_err(|e| format!("illegal position `{f}`: {e}"))?
            }
        };
        for m in &self.moves {
            let mv = m.parse::<UciMove>().ok().and_then(|u| u.to_move(&pos).ok());
            let mv = mv.ok_or_else(|| format!("illegal book move `{m}`"))?;
            pos.play_unchecked(mv);
        }
        Ok(pos)
    }
}
