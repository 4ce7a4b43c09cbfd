//! Castling rights.

use super::Color;
use std::fmt;

/// Which castlings are still allowed: bit 0 White king side, 1 White queen side, 2 Black king
/// side, 3 Black queen side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    /// No castling allowed.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// White may castle king side (O-O).
    pub const WHITE_KING_SIDE: CastlingRights = CastlingRights(1);
    /// White may castle queen side (O-O-O).
    pub const WHITE_QUEEN_SIDE: CastlingRights = CastlingRights(2);
    /// Black may castle king side.
    pub const BLACK_KING_SIDE: CastlingRights = CastlingRights(4);
    /// Black may castle queen side.
    pub const BLACK_QUEEN_SIDE: CastlingRights = CastlingRights(8);
    /// All four castlings allowed.
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The king-side right of `color`.
    #[inline(always)]
    pub const fn king_side(color: Color) -> CastlingRights {
        CastlingRights(1 << (2 * color as u8))
    }

    /// The queen-side right of `color`.
    #[inline(always)]
    pub const fn queen_side(color: Color) -> CastlingRights {
        CastlingRights(2 << (2 * color as u8))
    }

    /// Whether all rights in `other` are present.
    #[inline(always)]
    pub const fn contains(self, other: CastlingRights) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no castling is allowed.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights with those in `other` added.
    #[inline(always)]
    pub const fn with(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    /// The rights with those in `other` removed.
    #[inline(always)]
    pub const fn without(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    /// 0..16, for Zobrist tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 15) as usize
    }
}

impl fmt::Display for CastlingRights {
    /// The FEN castling field: "KQkq", a subset, or "-".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.0 & bit != 0 {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}
