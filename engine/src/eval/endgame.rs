//! Material-driven, non-tunable parts of the evaluation: game phase, the end-game scale factor
//! for drawish material, and the mop-up bonus that lets the engine mate a lone king.
//!
//! They depend on the piece counts and king squares only, and the scale factor on which side
//! the end-game score favours; the trace carries the scale factor for either side ahead, and
//! the tuner fixes each position's at the one its starting weights give.

use super::view::*;
use super::{PHASE_MAX, SCALE_MAX};
use crate::types::{Color, PieceType};

/// Game phase: 24 with all minor and major pieces on the board, 0 with none
/// (knight and bishop 1, rook 2, queen 4; promotions are capped at 24).
#[inline]
pub(super) fn phase(v: &View) -> i32 {
    let n = |k| v.count(Color::White, k) + v.count(Color::Black, k);
    let p = n(PieceType::Knight)
        + n(PieceType::Bishop)
        + 2 * n(PieceType::Rook)
        + 4 * n(PieceType::Queen);
    p.min(PHASE_MAX)
}

/// Non-pawn material of `c` in pawn units (3/3/5/9).
#[inline]
fn non_pawn(v: &View, c: Color) -> i32 {
    3 * (v.count(c, PieceType::Knight) + v.count(c, PieceType::Bishop))
        + 5 * v.count(c, PieceType::Rook)
        + 9 * v.count(c, PieceType::Queen)
}

/// End-game scale factor out of `SCALE_MAX` (128) for an end-game score `eg` (White's view):
/// small when the side ahead by that score has no pawns and too little extra material to mate
/// (KNK, KBK, KNNK, KRKB, KBKN, ...), likewise for equal pawnless material, half for pure
/// opposite-coloured bishop endings, 0 for bishop and rook pawns with the wrong bishop against
/// a king in the corner.
///
/// The strong side is the one the score favours, not the one with more material (as Ethereal
/// 12's `evaluateScaleFactor`): a knight against two far-advanced passed pawns is ahead in
/// material but behind in the score, and scaling by material drew the pawns' win. The rules
/// for the strong side apply with unequal material, as before. `eg` is the end-game sum after
/// the complexity term, which never flips its sign but can make it 0: with `eg` 0 the factor
/// does not matter (it multiplies 0); White is taken as the strong side.
#[inline]
pub(super) fn scale(v: &View, eg: i32) -> i32 {
    // The common case first: with pawns on both sides only opposite bishops scale (the
    // wrong-bishop draw needs a side without pawns, so it is checked after this).
    if v.pieces(Color::White, PieceType::Pawn) != 0 && v.pieces(Color::Black, PieceType::Pawn) != 0
    {
        return if opposite_bishops_only(v) {
            SCALE_MAX / 2
        } else {
            SCALE_MAX
        };
    }
    if wrong_bishop_rook_pawn(v) {
        return 0;
    }
    let total = |c| non_pawn(v, c) + v.count(c, PieceType::Pawn);
    let (w, b) = (total(Color::White), total(Color::Black));
    let strong = if eg < 0 { Color::Black } else { Color::White };
    if w != b && v.count(strong, PieceType::Pawn) == 0 {
        let s = non_pawn(v, strong);
        let weak = non_pawn(v, !strong);
        if s <= 3 {
            return 0; // a lone minor cannot mate
        }
        if s - weak <= 3 {
            return SCALE_MAX / 8; // a minor up at most: usually a fortress
        }
        let only_knights = s == 3 * v.count(strong, PieceType::Knight);
        if only_knights && weak == 0 && v.count(!strong, PieceType::Pawn) == 0 {
            return 0; // KNNK: no forced mate
        }
    }
    if w == b
        && v.pieces(Color::White, PieceType::Pawn) | v.pieces(Color::Black, PieceType::Pawn) == 0
    {
        return SCALE_MAX / 8; // equal pawnless material (KRKR, KBKN, ...)
    }
    if opposite_bishops_only(v) {
        return SCALE_MAX / 2;
    }
    SCALE_MAX
}

/// Bishop and rook pawns (all on the a- or all on the h-file) against a bare king that stands
/// next to the promotion square, when the bishop cannot cover that square: a known draw.
#[inline]
fn wrong_bishop_rook_pawn(v: &View) -> bool {
    for strong in Color::ALL {
        let weak = !strong;
        let pawns = v.pieces(strong, PieceType::Pawn);
        let bishop = v.pieces(strong, PieceType::Bishop);
        if pawns == 0 || bishop.count_ones() != 1 || non_pawn(v, strong) != 3 {
            continue;
        }
        if non_pawn(v, weak) != 0 || v.pieces(weak, PieceType::Pawn) != 0 {
            continue;
        }
        let file = if pawns & !file_mask(0) == 0 {
            0
        } else if pawns & !file_mask(7) == 0 {
            7
        } else {
            continue;
        };
        let promotion = if strong == Color::White {
            56 + file
        } else {
            file
        };
        let promotion_light = (1u64 << promotion) & LIGHT_SQUARES != 0;
        if (bishop & LIGHT_SQUARES != 0) != promotion_light
            && distance(v.king(weak), promotion) <= 1
        {
            return true;
        }
    }
    false
}

/// Each side has exactly one bishop, on squares of different colours, and no other piece.
#[inline]
fn opposite_bishops_only(v: &View) -> bool {
    let wb = v.pieces(Color::White, PieceType::Bishop);
    let bb = v.pieces(Color::Black, PieceType::Bishop);
    if wb.count_ones() != 1 || bb.count_ones() != 1 {
        return false;
    }
    if non_pawn(v, Color::White) != 3 || non_pawn(v, Color::Black) != 3 {
        return false;
    }
    const LIGHT: u64 = 0x55aa_55aa_55aa_55aa;
    ((wb & LIGHT) != 0) != ((bb & LIGHT) != 0)
}

/// Centipawns per step of the lone king's distance from the centre (or the right corner).
const MOP_EDGE: i32 = 40;
/// Centipawns per step the attacking king is closer to the lone king.
const MOP_KINGS: i32 = 10;
/// Light squares (b1, a2, ...): bit set where file + rank is odd.
const LIGHT_SQUARES: u64 = 0x55aa_55aa_55aa_55aa;

/// White-POV bonus for driving a bare king to the edge (or, with bishop and knight, to a corner
/// of the bishop's colour) and bringing the attacking king close (Chebyshev distance).
/// Zero unless one side has a bare king and the other mating material.
#[inline]
pub(super) fn mop_up(v: &View) -> i32 {
    for strong in Color::ALL {
        let weak = !strong;
        if v.by_color[weak.index()] != v.pieces(weak, PieceType::King) {
            continue;
        }
        let n = |k| v.count(strong, k);
        let (knights, bishops) = (n(PieceType::Knight), n(PieceType::Bishop));
        let heavy = n(PieceType::Rook) + n(PieceType::Queen) > 0;
        if !(heavy || bishops >= 2 || (bishops >= 1 && knights >= 1)) {
            continue;
        }
        let wk = v.king(weak);
        let sk = v.king(strong);
        let edge = if !heavy && bishops == 1 && knights >= 1 {
            // Twice as steep: it must beat the lone king's own table, which likes any corner.
            2 * bishop_corner_push(wk, v.pieces(strong, PieceType::Bishop) & LIGHT_SQUARES != 0)
        } else {
            centre_distance(wk)
        };
        let bonus = MOP_EDGE * edge + MOP_KINGS * (7 - distance(sk, wk));
        return sign(strong) * bonus;
    }
    0
}

/// Manhattan distance from the nearest of the four centre squares (0..6).
#[inline]
fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    (f - 3).max(4 - f) - 1 + (r - 3).max(4 - r) - 1
}

/// 0..7, larger as the king nears a corner of the bishop's colour (a1/h8 are dark, a8/h1 light).
#[inline]
fn bishop_corner_push(sq: usize, light_bishop: bool) -> i32 {
    let corners: [usize; 2] = if light_bishop { [56, 7] } else { [0, 63] };
    let d = corners.iter().map(|&c| distance(sq, c)).min().unwrap_or(7);
    7 - d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_distance_values() {
        assert_eq!(centre_distance(27), 0); // d4
        assert_eq!(centre_distance(36), 0); // e5
        assert_eq!(centre_distance(0), 6); // a1
        assert_eq!(centre_distance(63), 6); // h8
        assert_eq!(centre_distance(24), 3); // a4
    }

    #[test]
    fn bishop_corners() {
        assert_eq!(bishop_corner_push(0, false), 7);
        assert_eq!(bishop_corner_push(0, true), 0);
        assert_eq!(bishop_corner_push(56, true), 7);
        assert_eq!(bishop_corner_push(48, true), 6); // a7, next to a8
    }
}
