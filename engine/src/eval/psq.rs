//! Material and piece-square sums, kept by the search from move to move.
//!
//! Summing a table entry for every piece at every node was about 4 % of the search's time; a
//! move changes at most four entries. The search keeps one sum per ply ([`psq`] at the root,
//! plus [`psq_delta`] for each move) and hands it to [`super::evaluate_cached`]. The packed
//! sums are plain integer additions, so the running sum equals the full one exactly.

use super::params::{Params, MATERIAL, PST};
use super::view::{relative_square, sign};
use super::S;
use crate::board::Board;
use crate::types::{Color, Move, PieceType};

/// The white-minus-black material and piece-square sum of `board`, king tables included.
pub fn psq(board: &Board, params: &Params) -> S {
    let mut sum = S::ZERO;
    for c in Color::ALL {
        for k in PieceType::ALL {
            for sq in board.pieces(c, k) {
                sum += entry(params, c, k, sq.index());
            }
        }
    }
    sum
}

/// How much `mv` changes [`psq`] of `board`; call before making the move.
pub fn psq_delta(board: &Board, mv: Move, params: &Params) -> S {
    let Some(piece) = board.piece_on(mv.from()) else {
        return S::ZERO;
    };
    let (c, k) = (piece.color(), piece.kind());
    let (from, to) = (mv.from(), mv.to());
    let mut delta = -entry(params, c, k, from.index());
    if mv.is_castling() {
        let (rook_from, rook_to) = board.castling_rook(mv);
        return delta
            + entry(params, c, k, to.index())
            + entry(params, c, PieceType::Rook, rook_to.index())
            - entry(params, c, PieceType::Rook, rook_from.index());
    }
    delta += entry(params, c, mv.promotion().unwrap_or(k), to.index());
    if mv.is_en_passant() {
        delta -= entry(params, !c, PieceType::Pawn, mv.en_passant_victim().index());
    } else if let Some(victim) = board.piece_on(to) {
        delta -= entry(params, victim.color(), victim.kind(), to.index());
    }
    delta
}

/// The king tables of both sides (white minus black): what the evaluation leaves out against a
/// bare king.
pub(super) fn king_tables(params: &Params, white_king: usize, black_king: usize) -> S {
    entry(params, Color::White, PieceType::King, white_king)
        + entry(params, Color::Black, PieceType::King, black_king)
}

/// One piece's material and table entry, signed for its colour.
#[inline(always)]
fn entry(params: &Params, c: Color, k: PieceType, sq: usize) -> S {
    let mut v = params.w[PST + 64 * k.index() + relative_square(c, sq)];
    if k != PieceType::King {
        v += params.w[MATERIAL + k.index()];
    }
    v * sign(c)
}
