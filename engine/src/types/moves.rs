//! Compact 16-bit moves.

use super::{PieceType, Square};
use std::fmt;

/// A move in 16 bits: from (bits 0-5), to (6-11), promotion piece (12-13: knight, bishop, rook,
/// queen) and kind (14-15: normal, promotion, en passant, castling). Castling is stored as the
/// king's move to the g- or c-file (e1g1), which is also how UCI prints it in standard chess;
/// in Chess960 the king may already stand there (from == to), and the rook's squares come from
/// the board ([`crate::board::Board::castling_rook`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_PROMOTION: u16 = 1 << 14;
const KIND_EN_PASSANT: u16 = 2 << 14;
const KIND_CASTLING: u16 = 3 << 14;
const KIND_MASK: u16 = 3 << 14;

impl Move {
    /// "No move" (a1a1): never legal, used as an empty slot in tables and for null moves.
    pub const NULL: Move = Move(0);

    /// A normal move (also captures and double pawn pushes).
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | KIND_NORMAL)
    }

    /// A promotion to `piece` (knight, bishop, rook or queen; other kinds become a knight).
    #[inline(always)]
    pub const fn new_promotion(from: Square, to: Square, piece: PieceType) -> Move {
        let p = (piece as u16).wrapping_sub(1) & 3;
        Move(from.index() as u16 | (to.index() as u16) << 6 | p << 12 | KIND_PROMOTION)
    }

    /// An en passant capture: `to` is the empty square the pawn moves to.
    #[inline(always)]
    pub const fn new_en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | KIND_EN_PASSANT)
    }

    /// Castling, given as the king's move to the g- or c-file (e1g1, e1c1, e8g8, e8c8; in
    /// Chess960 from any start file, possibly to the square the king is on).
    #[inline(always)]
    pub const fn new_castling(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | KIND_CASTLING)
    }

    /// The move from its raw 16 bits (as stored in a transposition table).
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// The raw 16 bits.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The square the piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as usize)
    }

    /// The square the piece arrives on (the king's destination for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as usize)
    }

    /// The piece a pawn promotes to, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        if self.is_promotion() {
            Some(PieceType::ALL[((self.0 >> 12) & 3) as usize + 1])
        } else {
            None
        }
    }

    /// Whether this is a promotion.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & KIND_MASK == KIND_PROMOTION
    }

    /// Whether this is castling.
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        self.0 & KIND_MASK == KIND_CASTLING
    }

    /// Whether this is an en passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 & KIND_MASK == KIND_EN_PASSANT
    }

    /// Whether this is the null move.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// For an en passant capture, the square of the pawn it takes: beside `from`, behind `to`.
    #[inline(always)]
    pub fn en_passant_victim(self) -> Square {
        Square::new(self.to().file(), self.from().rank())
    }
}

impl fmt::Display for Move {
    /// UCI text: "e2e4", "e7e8q", castling as the king's move "e1g1", the null move as "0000".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.to_char())?;
        }
        Ok(())
    }
}
