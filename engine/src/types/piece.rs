//! Piece types and coloured pieces.

use super::Color;
use std::fmt;

/// A kind of piece, without colour.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceType {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl PieceType {
    /// All six kinds, pawn first.
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// 0 (pawn) .. 5 (king).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index; `None` past 5.
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceType> {
        if i < 6 {
            Some(PieceType::ALL[i])
        } else {
            None
        }
    }

    /// Lower-case letter as in FEN and UCI promotions ('p', 'n', 'b', 'r', 'q', 'k').
    pub const fn to_char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// The kind for a letter of either case; `None` for anything else.
    pub const fn from_char(c: char) -> Option<PieceType> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceType::Pawn),
            'n' => Some(PieceType::Knight),
            'b' => Some(PieceType::Bishop),
            'r' => Some(PieceType::Rook),
            'q' => Some(PieceType::Queen),
            'k' => Some(PieceType::King),
            _ => None,
        }
    }
}

impl fmt::Display for PieceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PieceType::Pawn => "pawn",
            PieceType::Knight => "knight",
            PieceType::Bishop => "bishop",
            PieceType::Rook => "rook",
            PieceType::Queen => "queen",
            PieceType::King => "king",
        })
    }
}

/// A coloured piece, stored as `color * 6 + kind` (0..12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// The piece of this colour and kind.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(color as u8 * 6 + kind as u8)
    }

    /// Its colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        PieceType::ALL[(self.0 % 6) as usize]
    }

    /// 0..12: white pawn .. white king, black pawn .. black king.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn to_fen_char(self) -> char {
        let c = self.kind().to_char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece for a FEN letter; `None` for anything else.
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match PieceType::from_char(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_fen_char())
    }
}
