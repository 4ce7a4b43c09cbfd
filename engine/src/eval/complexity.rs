//! The complexity term (Ethereal 12's `evaluateComplexity`): how much the end-game score can
//! be trusted to turn into a result, from the pawns and the kind of ending.
//!
//! Many pawns, pawns on both flanks and pure pawn endings leave the side ahead more ways to
//! win, so their end-game score is pushed away from 0; few pawns (all on one flank) and pieces
//! on the board make a small edge hard to convert, so it is pulled towards 0. The term never
//! flips the score's sign and only reaches 0 when it is at least as large as the score.
//!
//! It is not linear in the weights (it reads the sign and size of the end-game sum), so it is
//! not tunable: its four constants were fitted on the engine's self-play data with every other
//! weight held at its compiled-in value, and the tuner fixes each position's adjustment at the
//! one the compiled-in weights give (as Ethereal's tuner does).

use super::view::*;
use crate::types::{Color, PieceType};

/// Centipawns per pawn of either side.
const PAWN: i32 = 3;
/// Centipawns when there are pawns on both flanks (files a-d and e-h).
const BOTH_FLANKS: i32 = 26;
/// Centipawns in a pure pawn ending (no knight, bishop, rook or queen on the board).
const PAWN_ENDING: i32 = 57;
/// The constant part, which makes the term negative with few pawns.
const BASE: i32 = -47;

/// Files a-d (queen side) and e-h (king side).
const QUEEN_SIDE: u64 = file_mask(0) | file_mask(1) | file_mask(2) | file_mask(3);
const KING_SIDE: u64 = !QUEEN_SIDE;

/// The position's complexity in end-game centipawns: `3 * pawns + 26 * both flanks + 57 *
/// pawn ending - 47`. Depends on the board only; [`adjustment`] applies it to a score.
#[inline]
pub(super) fn complexity(v: &View) -> i32 {
    let pawns = v.pieces(Color::White, PieceType::Pawn) | v.pieces(Color::Black, PieceType::Pawn);
    let kings = v.pieces(Color::White, PieceType::King) | v.pieces(Color::Black, PieceType::King);
    let both_flanks = pawns & QUEEN_SIDE != 0 && pawns & KING_SIDE != 0;
    let pawn_ending = v.occ == pawns | kings;
    PAWN * pawns.count_ones() as i32
        + BOTH_FLANKS * i32::from(both_flanks)
        + PAWN_ENDING * i32::from(pawn_ending)
        + BASE
}

/// What the term adds to the end-game sum `eg` (White's view) of a position of complexity
/// `complexity`: `complexity` in the direction of the side ahead, but never more than `|eg|`
/// towards 0, so the sign cannot flip (0 stays 0).
#[inline(always)]
pub(super) fn adjustment(eg: i32, complexity: i32) -> i32 {
    eg.signum() * complexity.max(-eg.abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn of(fen: &str) -> i32 {
        complexity(&View::new(&Board::from_fen(fen).unwrap()))
    }

    #[test]
    fn complexity_counts_pawns_flanks_and_pawn_endings() {
        // The start: 16 pawns on both flanks, pieces on the board.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(of(start), 3 * 16 + 26 - 47);
        // A pawn ending with pawns on a2 and h7: both flanks.
        assert_eq!(of("4k3/7p/8/8/8/8/P7/4K3 w - - 0 1"), 3 * 2 + 26 + 57 - 47);
        // The same pawns on d2 and e7: d is the queen side, e the king side.
        assert_eq!(
            of("4k3/4p3/8/8/8/8/3P4/4K3 w - - 0 1"),
            3 * 2 + 26 + 57 - 47
        );
        // Both pawns on the queen side, and a knight: one flank, no pawn ending.
        assert_eq!(of("4k3/2p5/8/8/8/8/P7/4KN2 w - - 0 1"), 3 * 2 - 47);
        // Bare kings: a pawn ending of no pawns.
        assert_eq!(of("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 57 - 47);
        // A rook and no pawns: the constant alone.
        assert_eq!(of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), -47);
    }

    #[test]
    fn the_adjustment_never_flips_the_sign() {
        assert_eq!(adjustment(100, 30), 30);
        assert_eq!(adjustment(-100, 30), -30);
        assert_eq!(adjustment(100, -30), -30);
        assert_eq!(adjustment(-100, -30), 30);
        // At most |eg| towards 0: exactly 0, never past it.
        assert_eq!(adjustment(20, -47), -20);
        assert_eq!(adjustment(-20, -47), 20);
        assert_eq!(adjustment(47, -47), -47);
        // A score of 0 stays 0, whatever the complexity.
        assert_eq!(adjustment(0, 80), 0);
        assert_eq!(adjustment(0, -47), 0);
    }
}
