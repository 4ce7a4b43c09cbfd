//! Draw rules: repetition, the fifty-move rule, insufficient material.

use super::Board;
use crate::types::{Bitboard, PieceType};

impl Board {
    /// How many earlier positions (same side to move, since the last capture, pawn move or null
    /// move) have the current key.
    pub fn repetition_count(&self) -> usize {
        self.earlier_keys().filter(|&k| k == self.key).count()
    }

    /// Whether the current position occurred before (since the last irreversible move). The
    /// search treats this as a draw.
    pub fn is_repetition(&self) -> bool {
        self.earlier_keys().any(|k| k == self.key)
    }

    /// Keys of the earlier positions that could repeat the current one: same side to move,
    /// newest first, back to the last capture, pawn move or null move.
    fn earlier_keys(&self) -> impl Iterator<Item = u64> + '_ {
        let window = self
            .halfmove_clock
            .min(self.plies_from_null)
            .min(self.history.len() as u32) as usize;
        let len = self.history.len();
        (4..=window)
            .step_by(2)
            .map(move |back| self.history[len - back].key)
    }

    /// Whether the fifty-move rule applies: 100 plies without capture or pawn move, unless the
    /// side to move is checkmated.
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock >= 100 && (!self.in_check() || !self.legal_moves().is_empty())
    }

    /// Whether neither side can possibly mate: K v K, K+minor v K, or only bishops all on squares
    /// of one colour.
    pub fn has_insufficient_material(&self) -> bool {
        let heavy = self.by_kind(PieceType::Pawn)
            | self.by_kind(PieceType::Rook)
            | self.by_kind(PieceType::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_kind(PieceType::Knight);
        let bishops = self.by_kind(PieceType::Bishop);
        let minors = (knights | bishops).count();
        if minors <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }
}
