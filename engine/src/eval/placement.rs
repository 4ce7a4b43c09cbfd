//! Piece placement terms that read only the board: rooks and queens on the seventh rank,
//! bishops hemmed in by their own pawns, minor pieces behind a pawn, the king's distance to
//! its nearest pawn, bishops on an open long diagonal and knights far from both kings.

use super::accumulator::Accumulator;
use super::params::*;
use super::view::*;
use crate::types::{Bitboard, Color, PieceType};

const LIGHT: u64 = Bitboard::LIGHT_SQUARES.0;
/// The a1-h8 and h1-a8 diagonals.
const LONG_DIAGONALS: u64 = 0x8142_2418_1824_4281;
/// d4, e4, d5, e5.
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// `b` moved one rank towards `c`'s promotion rank.
#[inline(always)]
fn forward(c: Color, b: u64) -> u64 {
    Bitboard(b).forward(c).0
}

/// Feeds `c`'s placement terms to `acc`.
#[inline(always)]
pub(super) fn placement<A: Accumulator>(v: &View, c: Color, acc: &mut A) {
    let s = sign(c);
    let them = !c;
    let own_pawns = v.pieces(c, PieceType::Pawn);
    let their_pawns = v.pieces(them, PieceType::Pawn);

    // The seventh rank matters when it holds enemy pawns or cuts the enemy king off.
    let seventh = rank_mask(if c == Color::White { 6 } else { 1 });
    if relative_rank(c, v.king(them)) == 7 || their_pawns & seventh != 0 {
        for (i, k) in [PieceType::Rook, PieceType::Queen].into_iter().enumerate() {
            let n = (v.pieces(c, k) & seventh).count_ones() as i32;
            if n != 0 {
                acc.add(SEVENTH + i, s * n);
            }
        }
    }

    let rammed = own_pawns & forward(them, their_pawns);
    for sq in squares(v.pieces(c, PieceType::Bishop)) {
        let colour = if LIGHT >> sq & 1 != 0 { LIGHT } else { !LIGHT };
        let same = (own_pawns & colour).count_ones() as i32;
        if same != 0 {
            acc.add(BISHOP_PAWNS, s * same);
            let blocked = (rammed & colour).count_ones() as i32;
            if blocked != 0 {
                acc.add(BISHOP_PAWNS + 1, s * blocked);
            }
        }
    }

    let minors = v.pieces(c, PieceType::Knight) | v.pieces(c, PieceType::Bishop);
    let sheltered = (forward(c, minors) & (own_pawns | their_pawns)).count_ones() as i32;
    if sheltered != 0 {
        acc.add(MINOR_BEHIND_PAWN, s * sheltered);
    }

    let king = v.king(c);
    if let Some(d) = squares(own_pawns).map(|p| distance(king, p)).min() {
        acc.add(KING_PAWN_DISTANCE, s * d);
    }
    if (own_pawns | their_pawns) & FLANKS[king % 8] == 0 {
        acc.add(PAWNLESS_FLANK, s);
    }

    let space = space(v, c);
    if space != 0 {
        acc.add(SPACE, s * space);
    }

    // A bishop off the centre on a long diagonal that sees both of its centre squares past the
    // pawns (pieces move, pawns mostly do not).
    let pawns = own_pawns | their_pawns;
    for sq in squares(v.pieces(c, PieceType::Bishop) & LONG_DIAGONALS & !CENTRE) {
        let seen = piece_attacks(PieceType::Bishop, sq, pawns) & CENTRE;
        if seen & seen.wrapping_sub(1) != 0 {
            acc.add(LONG_DIAGONAL, s);
        }
    }

    // A knight far from both kings does little for attack or defence.
    let their_king = v.king(them);
    for sq in squares(v.pieces(c, PieceType::Knight)) {
        let d = distance(sq, king).min(distance(sq, their_king));
        if d >= 4 {
            acc.add(SIBERIA + (d as usize - 4).min(3), s);
        }
    }
}

/// `c`'s space: the central squares (files c-f) of its second to fourth ranks that no own pawn
/// stands on and no enemy pawn attacks, those up to three ranks behind an own pawn counted
/// twice; weighted by `c`'s knights, bishops, rooks and queens, since space matters as long as
/// there are pieces to use it.
#[inline(always)]
fn space(v: &View, c: Color) -> i32 {
    let own_pawns = v.pieces(c, PieceType::Pawn);
    let their_pawns = v.pieces(!c, PieceType::Pawn);
    let centre = file_mask(2) | file_mask(3) | file_mask(4) | file_mask(5);
    let ranks = match c {
        Color::White => rank_mask(1) | rank_mask(2) | rank_mask(3),
        Color::Black => rank_mask(4) | rank_mask(5) | rank_mask(6),
    };
    let safe = centre & ranks & !own_pawns & !pawn_attacks(!c, their_pawns);
    let back = !c;
    let one = forward(back, own_pawns);
    let behind = one | forward(back, one) | forward(back, forward(back, one));
    let count = (safe.count_ones() + (safe & behind).count_ones()) as i32;
    let pieces = [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ]
    .into_iter()
    .map(|k| v.count(c, k))
    .sum::<i32>();
    count * pieces / 4
}

#[cfg(test)]
mod tests {
    use super::super::coef;
    use super::*;

    #[test]
    fn seventh_rank_needs_a_target() {
        // White rook on b7 with the black king on g8: counts; Black's rook on a2 has no target
        // (the white king stands on d3, not on Black's eighth rank).
        assert_eq!(coef("6k1/1R6/8/8/8/3K4/r7/8 w - - 0 1", SEVENTH), 1);
        // With a white pawn on h2 the black rook on a2 counts too.
        assert_eq!(coef("6k1/1R6/8/8/8/3K4/r6P/8 w - - 0 1", SEVENTH), 0);
        // The black king off the eighth rank and no pawns on the seventh: nothing.
        assert_eq!(coef("8/1R6/6k1/8/8/3K4/8/8 w - - 0 1", SEVENTH), 0);
        assert_eq!(coef("6k1/1Q6/8/8/8/3K4/8/8 w - - 0 1", SEVENTH + 1), 1);
    }

    #[test]
    fn bishop_pawns_count_the_bishops_colour() {
        // White bishop on c1 (dark); white pawns d3 (light), e3 and g3 (dark), and a black pawn
        // on e4 rams e3. Black's bishop on f8 is dark, its only pawn (e4) light.
        let fen = "4kb2/8/8/8/4p3/3PP1P1/8/2B1K3 w - - 0 1";
        assert_eq!(coef(fen, BISHOP_PAWNS), 2);
        assert_eq!(coef(fen, BISHOP_PAWNS + 1), 1);
    }

    #[test]
    fn minors_behind_pawns_and_king_pawn_distance() {
        // White knight d3 behind the pawn on d4 counts, the bishop on f1 (nothing on f2) does
        // not; Black's knight on e5 has the white pawn on e4 in front of it (Black moves down).
        let fen = "4k3/8/8/4n3/3PP3/3N4/8/4KB2 w - - 0 1";
        assert_eq!(coef(fen, MINOR_BEHIND_PAWN), 1 - 1);
        // White king e1 is 3 from d4 / e4; Black has no pawns, so no term for it.
        assert_eq!(coef(fen, KING_PAWN_DISTANCE), 3);
    }

    #[test]
    fn a_king_on_a_flank_without_pawns() {
        // White's king on a1 has no pawn on files a-c; Black's on g8 has h2 on its flank (e-h).
        let fen = "6k1/8/8/8/8/8/7P/K7 w - - 0 1";
        assert_eq!(coef(fen, PAWNLESS_FLANK), 1);
        // Both kings on the pawnless king side cancel out.
        assert_eq!(coef("6k1/8/8/8/8/8/P7/6K1 w - - 0 1", PAWNLESS_FLANK), 0);
    }

    #[test]
    fn space_counts_safe_central_squares_times_pieces() {
        // White: files c-f of ranks 2-4 less the pawn on d4 leave 11 squares, d3 and d2 behind
        // the pawn count twice: 13, times one knight, over 4 = 3. Black has no pieces.
        assert_eq!(coef("4k3/8/8/8/3P4/8/8/2N1K3 w - - 0 1", SPACE), 3);
        // A black pawn on e5 attacks d4 (own pawn, not counted anyway) and f4: 12 squares.
        assert_eq!(coef("4k3/8/8/4p3/3P4/8/8/2N1K3 w - - 0 1", SPACE), 3);
        // Without the knight, no space term at all.
        assert_eq!(coef("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1", SPACE), 0);
        // The start position is symmetric.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(coef(start, SPACE), 0);
    }

    #[test]
    fn a_bishop_on_an_open_long_diagonal() {
        // White's bishop on b2 sees d4 and e5 past the pawns (the knight on c3 does not count);
        // Black's on g7 is stopped by its own pawn on f6 before e5.
        let fen = "6k1/6b1/5p2/8/8/2N5/1B6/6K1 w - - 0 1";
        assert_eq!(coef(fen, LONG_DIAGONAL), 1);
        // A pawn on d4 closes White's diagonal too.
        let fen = "6k1/6b1/5p2/8/3P4/2N5/1B6/6K1 w - - 0 1";
        assert_eq!(coef(fen, LONG_DIAGONAL), 0);
    }

    #[test]
    fn knights_far_from_both_kings() {
        // White's knight on a8 is 6 squares from White's king on g1 and 5 from Black's on f4...
        // the nearer king counts: 5. Black's knight on h1 is next to White's king: nothing.
        let fen = "N7/8/8/8/5k2/8/8/6Kn w - - 0 1";
        assert_eq!(coef(fen, SIBERIA + 1), 1);
        assert_eq!(
            coef(fen, SIBERIA) + coef(fen, SIBERIA + 2) + coef(fen, SIBERIA + 3),
            0
        );
    }
}
