//! Who controls the squares (Ethereal 12's space and overload terms): squares where our
//! attackers are outnumbered, the uncontested centre, and pieces held by a single defender.
//! They read both sides' attack maps, so they run after the piece terms have built them.

use super::accumulator::Accumulator;
use super::attack_map::Attacks;
use super::params::*;
use super::view::*;
use crate::types::{Color, PieceType};

/// Files c-f of ranks 3-6: the centre a side wants to hold uncontested.
const CENTRE_BIG: u64 = 0x0000_3c3c_3c3c_0000;

/// Pieces on the board (minors 1, rooks and queens 2) above which the centre's control counts:
/// with fewer, one rook or queen controls many squares the centre term would reward.
const CENTRE_MATERIAL: i32 = 12;

/// Feeds `c`'s control terms to `acc`; `att` is both sides' attack maps.
#[inline(always)]
pub(super) fn control<A: Accumulator>(v: &View, c: Color, att: &[Attacks; 2], acc: &mut A) {
    let s = sign(c);
    let (us, them) = (&att[c.index()], &att[(!c).index()]);
    let own = v.by_color[c.index()];

    // Squares we reach where they have more attackers and no pawn of ours helps.
    let restricted = them.two & us.all & !us.two & !us.of(PieceType::Pawn);
    let on_pieces = (restricted & v.occ).count_ones() as i32;
    let on_empty = (restricted & !v.occ).count_ones() as i32;
    if on_pieces != 0 {
        acc.add(RESTRICTED, s * on_pieces);
    }
    if on_empty != 0 {
        acc.add(RESTRICTED + 1, s * on_empty);
    }

    let pieces = |k: PieceType| v.pieces(Color::White, k) | v.pieces(Color::Black, k);
    let minors = (pieces(PieceType::Knight) | pieces(PieceType::Bishop)).count_ones() as i32;
    let majors = (pieces(PieceType::Rook) | pieces(PieceType::Queen)).count_ones() as i32;
    if minors + 2 * majors > CENTRE_MATERIAL {
        let centre = (!them.all & (us.all | own) & CENTRE_BIG).count_ones() as i32;
        if centre != 0 {
            acc.add(CENTRE_CONTROL, s * centre);
        }
    }

    let ours = own & !v.pieces(c, PieceType::Pawn) & !v.pieces(c, PieceType::King);
    let overloaded = ours & us.all & !us.two & them.all & !them.two;
    if overloaded != 0 {
        acc.add(OVERLOADED, s * overloaded.count_ones() as i32);
    }
}

#[cfg(test)]
mod tests {
    use super::super::coef;
    use super::*;

    #[test]
    fn the_centre_counts_only_with_pieces_on_the_board() {
        // The start position: each side holds its own third rank's c-f squares (pawn attacks)
        // and nothing beyond, the same for both, so the coefficient (white minus black) is 0.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(coef(start, CENTRE_CONTROL), 0);
        // After 1. e4 White also holds e4 itself, d5 and f5 (the pawn's attacks) and c4 (the
        // bishop's); Black still holds only its sixth rank.
        let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert!(coef(e4, CENTRE_CONTROL) > 0);
        // Kings and pawns only: no centre term at all.
        let bare = "4k3/pppppppp/8/8/4P3/8/PPPP1PPP/4K3 b - - 0 1";
        assert_eq!(coef(bare, CENTRE_CONTROL), 0);
    }

    #[test]
    fn a_piece_attacked_once_and_defended_once_is_overloaded() {
        // White's knight on d4 is attacked by Black's rook on d8 and defended by White's rook
        // on d1 alone; nothing else touches it.
        let fen = "3rk3/8/8/8/3N4/8/8/3RK3 w - - 0 1";
        assert_eq!(coef(fen, OVERLOADED), 1);
        // A second defender (the queen on b2) lifts the load.
        let fen = "3rk3/8/8/8/3N4/8/1Q6/3RK3 w - - 0 1";
        assert_eq!(coef(fen, OVERLOADED), 0);
    }

    #[test]
    fn squares_where_we_are_outnumbered_are_restricted() {
        // Black's rooks on e7 and h4 both hit e4, which White's rook on a4 reaches alone: one
        // restricted empty square for White. White has no square attacked twice, so Black has
        // none.
        let fen = "6k1/4r3/8/8/R6r/8/8/6K1 w - - 0 1";
        assert_eq!(coef(fen, RESTRICTED + 1), 1);
        assert_eq!(coef(fen, RESTRICTED), 0);
    }
}
