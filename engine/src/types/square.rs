//! Squares of the board, 0 = a1 .. 63 = h8 (little-endian rank-file mapping).

use std::fmt;
use std::str::FromStr;

/// A square: always in 0..64, 0 = a1, 7 = h1, 56 = a8, 63 = h8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square a1.
    pub const A1: Square = Square(0);
    /// The square b1.
    pub const B1: Square = Square(1);
    /// The square c1.
    pub const C1: Square = Square(2);
    /// The square d1.
    pub const D1: Square = Square(3);
    /// The square e1.
    pub const E1: Square = Square(4);
    /// The square f1.
    pub const F1: Square = Square(5);
    /// The square g1.
    pub const G1: Square = Square(6);
    /// The square h1.
    pub const H1: Square = Square(7);
    /// The square a2.
    pub const A2: Square = Square(8);
    /// The square b2.
    pub const B2: Square = Square(9);
    /// The square c2.
    pub const C2: Square = Square(10);
    /// The square d2.
    pub const D2: Square = Square(11);
    /// The square e2.
    pub const E2: Square = Square(12);
    /// The square f2.
    pub const F2: Square = Square(13);
    /// The square g2.
    pub const G2: Square = Square(14);
    /// The square h2.
    pub const H2: Square = Square(15);
    /// The square a3.
    pub const A3: Square = Square(16);
    /// The square b3.
    pub const B3: Square = Square(17);
    /// The square c3.
    pub const C3: Square = Square(18);
    /// The square d3.
    pub const D3: Square = Square(19);
    /// The square e3.
    pub const E3: Square = Square(20);
    /// The square f3.
    pub const F3: Square = Square(21);
    /// The square g3.
    pub const G3: Square = Square(22);
    /// The square h3.
    pub const H3: Square = Square(23);
    /// The square a4.
    pub const A4: Square = Square(24);
    /// The square b4.
    pub const B4: Square = Square(25);
    /// The square c4.
    pub const C4: Square = Square(26);
    /// The square d4.
    pub const D4: Square = Square(27);
    /// The square e4.
    pub const E4: Square = Square(28);
    /// The square f4.
    pub const F4: Square = Square(29);
    /// The square g4.
    pub const G4: Square = Square(30);
    /// The square h4.
    pub const H4: Square = Square(31);
    /// The square a5.
    pub const A5: Square = Square(32);
    /// The square b5.
    pub const B5: Square = Square(33);
    /// The square c5.
    pub const C5: Square = Square(34);
    /// The square d5.
    pub const D5: Square = Square(35);
    /// The square e5.
    pub const E5: Square = Square(36);
    /// The square f5.
    pub const F5: Square = Square(37);
    /// The square g5.
    pub const G5: Square = Square(38);
    /// The square h5.
    pub const H5: Square = Square(39);
    /// The square a6.
    pub const A6: Square = Square(40);
    /// The square b6.
    pub const B6: Square = Square(41);
    /// The square c6.
    pub const C6: Square = Square(42);
    /// The square d6.
    pub const D6: Square = Square(43);
    /// The square e6.
    pub const E6: Square = Square(44);
    /// The square f6.
    pub const F6: Square = Square(45);
    /// The square g6.
    pub const G6: Square = Square(46);
    /// The square h6.
    pub const H6: Square = Square(47);
    /// The square a7.
    pub const A7: Square = Square(48);
    /// The square b7.
    pub const B7: Square = Square(49);
    /// The square c7.
    pub const C7: Square = Square(50);
    /// The square d7.
    pub const D7: Square = Square(51);
    /// The square e7.
    pub const E7: Square = Square(52);
    /// The square f7.
    pub const F7: Square = Square(53);
    /// The square g7.
    pub const G7: Square = Square(54);
    /// The square h7.
    pub const H7: Square = Square(55);
    /// The square a8.
    pub const A8: Square = Square(56);
    /// The square b8.
    pub const B8: Square = Square(57);
    /// The square c8.
    pub const C8: Square = Square(58);
    /// The square d8.
    pub const D8: Square = Square(59);
    /// The square e8.
    pub const E8: Square = Square(60);
    /// The square f8.
    pub const F8: Square = Square(61);
    /// The square g8.
    pub const G8: Square = Square(62);
    /// The square h8.
    pub const H8: Square = Square(63);

    /// All 64 squares, a1 first.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square on `file` (0 = a .. 7 = h) and `rank` (0 = 1st .. 7 = 8th). Both are masked to
    /// 0..8 so the result is always a valid square.
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square((rank & 7) * 8 + (file & 7))
    }

    /// The square with this index, masked to 0..64 (callers pass 0..64).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        Square((i & 63) as u8)
    }

    /// The square with this index, `None` if it is not in 0..64.
    #[inline]
    pub const fn try_from_index(i: usize) -> Option<Square> {
        if i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0 (a) .. 7 (h).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0 (1st) .. 7 (8th).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The vertical mirror (a1 <-> a8), used for colour-symmetric tables.
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` steps away in index space, `None` off the board. Callers check that the
    /// step does not wrap around a file edge.
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let i = self.0 as i16 + delta as i16;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// Text that is not a square name like "e4".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a square (expected a file a-h and a rank 1-8, like e4)",
            self.0
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square::new(f - b'a', r - b'1')),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}
