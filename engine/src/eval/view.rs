//! A flat snapshot of the board for the evaluation, and the bitboard helpers the terms share.
//!
//! Reading the twelve piece bitboards once into plain `u64`s keeps the term code independent of
//! the board's internals and lets it use cheap integer bit tricks; this is the only file that
//! talks to `Board` and the attack tables.

use crate::attacks;
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType, Square};

/// Piece bitboards by colour and kind, plus the side to move.
pub(super) struct View {
    /// `bb[color][kind]`.
    pub bb: [[u64; 6]; 2],
    /// All pieces of each colour.
    pub by_color: [u64; 2],
    /// All pieces.
    pub occ: u64,
    /// The side to move.
    pub stm: Color,
}

impl View {
    /// Snapshot of `board`.
    #[inline]
    pub fn new(board: &Board) -> View {
        let mut bb = [[0u64; 6]; 2];
        for c in Color::ALL {
            for k in PieceType::ALL {
                bb[c.index()][k.index()] = board.pieces(c, k).0;
            }
        }
        let by_color = [
            board.by_color(Color::White).0,
            board.by_color(Color::Black).0,
        ];
        View {
            bb,
            by_color,
            occ: by_color[0] | by_color[1],
            stm: board.side_to_move(),
        }
    }

    /// Pieces of colour `c` and kind `k`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceType) -> u64 {
        self.bb[c.index()][k.index()]
    }

    /// Square index of `c`'s king (0 if the board somehow has none).
    #[inline(always)]
    pub fn king(&self, c: Color) -> usize {
        (self.pieces(c, PieceType::King).trailing_zeros() & 63) as usize
    }

    /// Number of pieces of colour `c` and kind `k`.
    #[inline(always)]
    pub fn count(&self, c: Color, k: PieceType) -> i32 {
        self.pieces(c, k).count_ones() as i32
    }
}

/// Iterates the square indices of a bitboard, lowest first.
#[inline(always)]
pub(super) fn squares(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(s)
        }
    })
}

/// Attacks of a piece of kind `k` (knight..king) on `sq` given occupancy `occ`.
#[inline(always)]
pub(super) fn piece_attacks(k: PieceType, sq: usize, occ: u64) -> u64 {
    let s = Square::from_index(sq);
    let o = Bitboard(occ);
    match k {
        PieceType::Knight => attacks::knight(s).0,
        PieceType::Bishop => attacks::bishop(s, o).0,
        PieceType::Rook => attacks::rook(s, o).0,
        PieceType::Queen => attacks::queen(s, o).0,
        PieceType::King => attacks::king(s).0,
        PieceType::Pawn => 0,
    }
}

/// King attacks from `sq`.
#[inline(always)]
pub(super) fn king_attacks(sq: usize) -> u64 {
    attacks::king(Square::from_index(sq)).0
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Squares attacked by the pawns `p` of colour `c`.
#[inline(always)]
pub(super) fn pawn_attacks(c: Color, p: u64) -> u64 {
    attacks::pawns(c, Bitboard(p)).0
}

/// `c`'s passed pawns: those with no enemy pawn on a rank ahead of them on their own file or
/// the files beside it.
#[inline(always)]
pub(super) fn passed_pawns(c: Color, own: u64, theirs: u64) -> u64 {
    // Every square behind an enemy pawn (from `c`'s side), then widened by a file each way.
    let mut span = 0;
    let mut front = theirs;
    for _ in 0..7 {
        front = match c {
            Color::White => front >> 8,
            Color::Black => front << 8,
        };
        span |= front;
    }
    let wide = span | ((span & !FILE_A) >> 1) | ((span & !(FILE_A << 7)) << 1);
    own & !wide
}

/// All squares of file 0..8.
#[inline(always)]
pub(super) const fn file_mask(f: usize) -> u64 {
    FILE_A << f
}

/// All squares of rank 0..8.
#[inline(always)]
pub(super) const fn rank_mask(r: usize) -> u64 {
    0xff << (8 * r)
}

/// Files next to file `f` (not `f` itself).
#[inline(always)]
pub(super) const fn adjacent_files(f: usize) -> u64 {
    let mut m = 0;
    if f > 0 {
        m |= file_mask(f - 1);
    }
    if f < 7 {
        m |= file_mask(f + 1);
    }
    m
}

/// Squares strictly in front of `sq` from `c`'s point of view, on all files (whole ranks).
#[inline(always)]
pub(super) const fn ranks_ahead(c: Color, sq: usize) -> u64 {
    let r = sq / 8;
    match c {
        Color::White => {
            if r == 7 {
                0
            } else {
                u64::MAX << (8 * (r + 1))
            }
        }
        Color::Black => {
            if r == 0 {
                0
            } else {
                u64::MAX >> (8 * (8 - r))
            }
        }
    }
}

/// Rank of `sq` from `c`'s side: 0 = own back rank, 7 = promotion rank.
#[inline(always)]
pub(super) const fn relative_rank(c: Color, sq: usize) -> usize {
    match c {
        Color::White => sq / 8,
        Color::Black => 7 - sq / 8,
    }
}

/// `sq` seen from White's side: itself for White, mirrored vertically for Black.
#[inline(always)]
pub(super) const fn relative_square(c: Color, sq: usize) -> usize {
    match c {
        Color::White => sq,
        Color::Black => sq ^ 56,
    }
}

/// Chebyshev (king-move) distance between two squares.
#[inline(always)]
pub(super) fn distance(a: usize, b: usize) -> i32 {
    let df = (a % 8) as i32 - (b % 8) as i32;
    let dr = (a / 8) as i32 - (b / 8) as i32;
    df.abs().max(dr.abs())
}

/// +1 for White, -1 for Black: the sign of a colour's contribution to a white-POV score.
#[inline(always)]
pub(super) const fn sign(c: Color) -> i32 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Files a-c, a-d, c-f and e-h, f-h as masks.
const A_TO_C: u64 = 0x0707_0707_0707_0707;
const A_TO_D: u64 = 0x0f0f_0f0f_0f0f_0f0f;
const C_TO_F: u64 = 0x3c3c_3c3c_3c3c_3c3c;
const E_TO_H: u64 = 0xf0f0_f0f0_f0f0_f0f0;
const F_TO_H: u64 = 0xe0e0_e0e0_e0e0_e0e0;

/// The flank a king on each file stands on: a-c, a-d, c-f, e-h or f-h.
pub(super) const FLANKS: [u64; 8] = [
    A_TO_C, A_TO_D, A_TO_D, C_TO_F, C_TO_F, E_TO_H, E_TO_H, F_TO_H,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(ranks_ahead(Color::White, 8 * 6 + 3), rank_mask(7));
        assert_eq!(ranks_ahead(Color::Black, 8 + 3), rank_mask(0));
        assert_eq!(ranks_ahead(Color::White, 60), 0);
        assert_eq!(ranks_ahead(Color::Black, 3), 0);
        assert_eq!(adjacent_files(0), file_mask(1));
        assert_eq!(adjacent_files(4), file_mask(3) | file_mask(5));
        // e4 pawn (28) attacks d5 (35) and f5 (37); a black pawn on e5 (36) attacks d4, f4.
        assert_eq!(pawn_attacks(Color::White, 1 << 28), (1 << 35) | (1 << 37));
        assert_eq!(pawn_attacks(Color::Black, 1 << 36), (1 << 27) | (1 << 29));
        assert_eq!(pawn_attacks(Color::White, 1 << 15), 1 << 22);
        assert_eq!(distance(0, 63), 7);
        assert_eq!(distance(9, 18), 1);
        assert_eq!(squares(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        // White d5 and h2 against Black c6 (ahead of d5 on the next file) and a7.
        let (white, black) = ((1 << 35) | (1 << 15), (1 << 42) | (1 << 48));
        assert_eq!(passed_pawns(Color::White, white, black), 1 << 15);
        assert_eq!(passed_pawns(Color::Black, black, white), 1 << 48);
    }
}
