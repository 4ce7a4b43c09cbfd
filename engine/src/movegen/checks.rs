//! Telling cheaply, move after move, whether a move gives check.
//!
//! The search asks [`Board::gives_check`] of every move it considers, including the many that
//! late-move and futility pruning then skip; each call looks for a discovered check with two
//! slider lookups from the enemy king. [`CheckSquares`] does that work once per node: the
//! squares from which each piece kind would hit the enemy king, and our pieces that shield it
//! from one of our sliders. Ordinary moves are then answered with a lookup or two; the rare
//! ones (castling, en passant, promotions, a shielding piece moving) fall back to
//! [`Board::gives_check`], so the answers are the same.

use crate::attacks;
use crate::board::Board;
use crate::types::{Bitboard, Move, PieceType};

/// The side to move's check-giving squares in one position; see the module docs.
pub struct CheckSquares {
    /// By piece kind: the squares from which a piece of that kind attacks the enemy king.
    direct: [Bitboard; 6],
    /// Our pieces that alone stand between one of our sliders and the enemy king.
    shields: Bitboard,
}

impl Board {
    /// The check squares of the side to move (compute once per node, before its move loop).
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side_to_move();
        let them = !us;
        let ksq = self.king_square(them);
        let occ = self.occupied();
        let bishop = attacks::bishop(ksq, occ);
        let rook = attacks::rook(ksq, occ);
        let direct = [
            attacks::pawn(them, ksq),
            attacks::knight(ksq),
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
        ];
        let ours = self.by_color(us);
        let diagonal = self.pieces(us, PieceType::Bishop) | self.pieces(us, PieceType::Queen);
        let straight = self.pieces(us, PieceType::Rook) | self.pieces(us, PieceType::Queen);
        let snipers = (attacks::bishop(ksq, Bitboard::EMPTY) & diagonal)
            | (attacks::rook(ksq, Bitboard::EMPTY) & straight);
        let mut shields = Bitboard::EMPTY;
        for s in snipers {
            let between = attacks::between(ksq, s) & occ;
            if between.any() && !between.more_than_one() {
                shields |= between & ours;
            }
        }
        CheckSquares { direct, shields }
    }
}

impl CheckSquares {
    /// Whether the legal move `m` gives check on `board` (the board these squares were computed
    /// for): always the same answer as [`Board::gives_check`].
    #[inline]
    pub fn gives_check(&self, board: &Board, m: Move) -> bool {
        if m.is_castling()
            || m.is_en_passant()
            || m.is_promotion()
            || self.shields.contains(m.from())
        {
            return board.gives_check(m);
        }
        board
            .piece_on(m.from())
            .is_some_and(|p| self.direct[p.kind().index()].contains(m.to()))
    }
}
