//! Castling as data: where the king and each castling rook start, which squares must be empty
//! and safe, which rights a move from or to each square removes, and the Zobrist keys of the
//! rights. Set up once from the FEN and fixed for the game, so standard chess and Chess960
//! (Fischer Random, Double Fischer Random) share one code path.
//!
//! Rules (the same for both): the king goes to the g-file (king side) or c-file (queen side)
//! of its back rank and the rook to the f-file or d-file. Every square between the king and its
//! destination and between the rook and its destination, destinations included, must be empty
//! except for that king and rook; the king must not be in check, and no square it passes over
//! or lands on may be attacked, judged with the castling rook lifted off the board (it may be
//! what shields the king's destination along the back rank).

use super::zobrist;
use crate::attacks;
use crate::types::{Bitboard, CastlingRights, Color, Square};

/// Index of a right: 0 White king side, 1 White queen side, 2 Black king side, 3 Black queen
/// side (the bit order of [`CastlingRights`]).
#[inline(always)]
pub const fn right_index(color: Color, king_side: bool) -> usize {
    2 * color as usize + if king_side { 0 } else { 1 }
}

/// The castling set-up of one game; see the module docs.
#[derive(Clone, Debug)]
pub struct CastlingSetup {
    /// By right index: the king's start square.
    pub(super) king_from: [Square; 4],
    /// By right index: the castling rook's start square.
    pub(super) rook_from: [Square; 4],
    /// By right index: squares that must be empty, the king and the castling rook aside.
    pub(super) empty: [Bitboard; 4],
    /// By right index: squares the king passes over or lands on (its start square only when it
    /// is the destination; not being in check is tested separately).
    pub(super) king_path: [Bitboard; 4],
    /// Rights kept when a piece moves from or to each square.
    pub(super) mask: [u8; 64],
    /// Zobrist key of each set of rights (equal to the standard keys for standard files).
    pub(super) keys: [u64; 16],
}

impl Default for CastlingSetup {
    /// Standard chess: kings on e1/e8, rooks on a- and h-files.
    fn default() -> Self {
        let mut setup = CastlingSetup {
            king_from: [Square::new(4, 0); 4],
            rook_from: [Square::new(0, 0); 4],
            empty: [Bitboard::EMPTY; 4],
            king_path: [Bitboard::EMPTY; 4],
            mask: [15; 64],
            keys: [0; 16],
        };
        for color in Color::ALL {
            let rank = back_rank(color);
            for (king_side, file) in [(true, 7), (false, 0)] {
                setup.set(
                    color,
                    king_side,
                    Square::new(4, rank),
                    Square::new(file, rank),
                );
            }
        }
        setup.mask = [15; 64];
        setup
    }
}

/// The back rank of `color` (0 or 7).
#[inline(always)]
pub const fn back_rank(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => 7,
    }
}

impl CastlingSetup {
    /// Records the king's and the rook's start squares of one right and derives the rest.
    pub(super) fn set(&mut self, color: Color, king_side: bool, king: Square, rook: Square) {
        let i = right_index(color, king_side);
        let rank = back_rank(color);
        let (king_to, rook_to) = destinations(king_side, rank);
        self.king_from[i] = king;
        self.rook_from[i] = rook;
        let king_path = attacks::between(king, king_to) | king_to;
        let rook_path = attacks::between(rook, rook_to) | rook_to;
        self.empty[i] = (king_path | rook_path).without(king).without(rook);
        // The destination stays in even when the king starts there: lifting the rook may
        // expose it along the back rank.
        self.king_path[i] = king_path;
        let bit = 1u8 << i;
        self.mask[king.index()] &= !bit;
        self.mask[rook.index()] &= !bit;
        self.update_keys();
    }

    /// Recomputes the keys: the standard key of each right, xored with a key of the rook's file
    /// when that is not the standard one, so standard positions keep their standard keys.
    fn update_keys(&mut self) {
        for (rights, key) in self.keys.iter_mut().enumerate() {
            *key = zobrist::castling(CastlingRights(rights as u8));
            for i in 0..4 {
                let standard_file = if i % 2 == 0 { 7 } else { 0 };
                let file = self.rook_from[i].file();
                if rights >> i & 1 != 0 && file != standard_file {
                    *key ^= zobrist::castling_file(i / 2, file);
                }
            }
        }
    }

    /// Whether any right uses other files than standard chess's (e-file king, a/h rooks).
    pub fn is_chess960(&self, rights: CastlingRights) -> bool {
        (0..4).any(|i| {
            rights.0 >> i & 1 != 0
                && (self.king_from[i].file() != 4
                    || self.rook_from[i].file() != if i % 2 == 0 { 7 } else { 0 })
        })
    }
}

/// The king's and the rook's destinations of a castling on `rank`.
#[inline(always)]
pub fn destinations(king_side: bool, rank: u8) -> (Square, Square) {
    if king_side {
        (Square::new(6, rank), Square::new(5, rank))
    } else {
        (Square::new(2, rank), Square::new(3, rank))
    }
}

impl super::Board {
    /// Whether the side to move, not in check, may castle on the king side (`king_side`) or
    /// queen side now, with `occ` the occupied squares: the right is held, the squares are
    /// empty and the king's path is safe. Returns the castling move.
    #[inline(always)]
    pub(crate) fn castling_move(
        &self,
        king_side: bool,
        occ: Bitboard,
    ) -> Option<crate::types::Move> {
        let us = self.side_to_move();
        let i = right_index(us, king_side);
        if self.castling().0 >> i & 1 == 0 || (occ & self.castle.empty[i]).any() {
            return None;
        }
        let rook = self.castle.rook_from[i];
        let occ_without_rook = occ.without(rook);
        for sq in self.castle.king_path[i] {
            if self.is_attacked_by(!us, sq, occ_without_rook) {
                return None;
            }
        }
        let (king_to, _) = destinations(king_side, back_rank(us));
        Some(crate::types::Move::new_castling(
            self.castle.king_from[i],
            king_to,
        ))
    }
}
