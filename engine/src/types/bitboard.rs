//! Sets of squares as 64-bit integers.

use super::Square;
use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

/// A set of squares: bit `i` is square `i` (a1 = bit 0, h8 = bit 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const ALL: Bitboard = Bitboard(!0);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The b-file.
    pub const FILE_B: Bitboard = Bitboard(0x0101_0101_0101_0101 << 1);
    /// The c-file.
    pub const FILE_C: Bitboard = Bitboard(0x0101_0101_0101_0101 << 2);
    /// The d-file.
    pub const FILE_D: Bitboard = Bitboard(0x0101_0101_0101_0101 << 3);
    /// The e-file.
    pub const FILE_E: Bitboard = Bitboard(0x0101_0101_0101_0101 << 4);
    /// The f-file.
    pub const FILE_F: Bitboard = Bitboard(0x0101_0101_0101_0101 << 5);
    /// The g-file.
    pub const FILE_G: Bitboard = Bitboard(0x0101_0101_0101_0101 << 6);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x0101_0101_0101_0101 << 7);
    /// The first rank.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// The second rank.
    pub const RANK_2: Bitboard = Bitboard(0xff << 8);
    /// The third rank.
    pub const RANK_3: Bitboard = Bitboard(0xff << 16);
    /// The fourth rank.
    pub const RANK_4: Bitboard = Bitboard(0xff << 24);
    /// The fifth rank.
    pub const RANK_5: Bitboard = Bitboard(0xff << 32);
    /// The sixth rank.
    pub const RANK_6: Bitboard = Bitboard(0xff << 40);
    /// The seventh rank.
    pub const RANK_7: Bitboard = Bitboard(0xff << 48);
    /// The eighth rank.
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);
    /// The light squares (h1 is light).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The dark squares (a1 is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(!0x55aa_55aa_55aa_55aa);

    /// The file with index 0 (a) .. 7 (h).
    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Self::FILE_A.0 << (file & 7))
    }

    /// The rank with index 0 (1st) .. 7 (8th).
    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(Self::RANK_1.0 << (8 * (rank & 7)))
    }

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the set has two squares or more.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square; meaningless (a1) on an empty set, so callers check first.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::from_index(self.0.trailing_zeros() as usize)
    }

    /// Removes and returns the lowest square; `None` when empty.
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u64 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u64 << sq.index()))
    }

    /// Every square moved one rank towards the 8th (towards the 1st for `Black`), dropping squares
    /// that fall off the board.
    #[inline(always)]
    pub const fn forward(self, color: super::Color) -> Bitboard {
        match color {
            super::Color::White => Bitboard(self.0 << 8),
            super::Color::Black => Bitboard(self.0 >> 8),
        }
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
        impl $tr<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Square) -> Bitboard {
                Bitboard(self.0 $op (1u64 << rhs.index()))
            }
        }
        impl $atr<Square> for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Square) {
                self.0 = self.0 $op (1u64 << rhs.index());
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference: the squares of `self` not in `rhs`.
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl Shl<u32> for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn shl(self, n: u32) -> Bitboard {
        Bitboard(self.0 << n)
    }
}

impl Shr<u32> for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn shr(self, n: u32) -> Bitboard {
        Bitboard(self.0 >> n)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

/// Iterates the squares of a bitboard from a1 to h8.
#[derive(Clone, Copy, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index(self.0.trailing_zeros() as usize);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |b, sq| b | sq)
    }
}

impl fmt::Display for Bitboard {
    /// An 8x8 diagram, 8th rank first, `x` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = if self.contains(Square::new(file, rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
