//! Terms that read both sides' attack maps: threats on enemy pieces, safe checks and king
//! danger, and outposts.
//!
//! King danger is not linear in the attack count, but it is linear in its weights: the attack
//! units select one weight of the `king.danger` table, so the tuner learns the curve's shape
//! while the trace stays exact.

use super::accumulator::Accumulator;
use super::attack_map::Attacks;
use super::danger;
use super::params::*;
use super::view::*;
use crate::types::{Color, PieceType};

/// King attack units a knight, bishop, rook or queen adds when it hits the enemy king zone.
pub(super) const ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];
/// King attack units for having at least one safe check with a knight, bishop, rook or queen.
const CHECK_UNITS: [i32; 4] = [3, 2, 3, 3];

/// `c`'s threats on the enemy's pieces: undefended pawns, minors and rooks hit by lesser
/// pieces, undefended pieces hit by our king, an attacked queen, and safe pawn pushes that
/// would attack a piece.
#[inline(always)]
pub(super) fn threats<A: Accumulator>(v: &View, c: Color, att: &[Attacks; 2], acc: &mut A) {
    let s = sign(c);
    let them = !c;
    let (us_att, their_att) = (&att[c.index()], &att[them.index()]);
    let undefended = !their_att.all;
    let pawns = v.pieces(them, PieceType::Pawn);
    let minors = v.pieces(them, PieceType::Knight) | v.pieces(them, PieceType::Bishop);
    let rooks = v.pieces(them, PieceType::Rook);
    let queens = v.pieces(them, PieceType::Queen);
    let by_pawn = us_att.of(PieceType::Pawn);
    let by_minor = us_att.of(PieceType::Knight) | us_att.of(PieceType::Bishop);
    let by_major = us_att.of(PieceType::Rook) | us_att.of(PieceType::Queen);
    let by_king = us_att.of(PieceType::King);
    let counts = [
        pawns & us_att.all & undefended,
        minors & by_pawn,
        minors & by_minor,
        minors & by_major & undefended,
        rooks & (by_pawn | by_minor),
        minors & by_king & undefended,
        rooks & by_king & undefended,
        queens & us_att.all,
        pawn_push_threats(v, c, att),
    ];
    for (i, b) in counts.into_iter().enumerate() {
        if b != 0 {
            acc.add(THREAT + i, s * b.count_ones() as i32);
        }
    }
    let hanging = ((minors | rooks | queens) & us_att.all & undefended).count_ones() as i32;
    if hanging != 0 {
        acc.add(HANGING, s * hanging);
    }
}

/// Enemy pieces (not pawns) that one of `c`'s pawns would attack after a safe push.
#[inline(always)]
fn pawn_push_threats(v: &View, c: Color, att: &[Attacks; 2]) -> u64 {
    let them = !c;
    let (us_att, their_att) = (&att[c.index()], &att[them.index()]);
    let empty = !v.occ;
    let own = v.pieces(c, PieceType::Pawn);
    let (single, double) = match c {
        Color::White => {
            let one = (own << 8) & empty;
            (one, ((one & rank_mask(2)) << 8) & empty)
        }
        Color::Black => {
            let one = (own >> 8) & empty;
            (one, ((one & rank_mask(5)) >> 8) & empty)
        }
    };
    let safe = !their_att.of(PieceType::Pawn) & (us_att.all | !their_att.all);
    let targets = v.by_color[them.index()] & !v.pieces(them, PieceType::Pawn);
    pawn_attacks(c, (single | double) & safe) & targets
}

/// Safe checks by `c` and the danger to the enemy king: attack units from the pieces that hit
/// its zone and from the kinds that can check safely select one `king.danger` weight. Nothing
/// against a bare king.
#[inline(always)]
pub(super) fn king_danger<A: Accumulator>(v: &View, c: Color, att: &[Attacks; 2], acc: &mut A) {
    let s = sign(c);
    let them = !c;
    let (us_att, their_att) = (&att[c.index()], &att[them.index()]);
    let ksq = v.king(them);
    if v.by_color[them.index()] == 1u64 << ksq {
        return; // a bare king: the mop-up term knows that ending better
    }
    let safe = !v.by_color[c.index()] & !their_att.all;
    let diag = piece_attacks(PieceType::Bishop, ksq, v.occ);
    let line = piece_attacks(PieceType::Rook, ksq, v.occ);
    let checks = [
        piece_attacks(PieceType::Knight, ksq, v.occ) & us_att.of(PieceType::Knight),
        diag & us_att.of(PieceType::Bishop),
        line & us_att.of(PieceType::Rook),
        (diag | line) & us_att.of(PieceType::Queen),
    ];
    // Squares next to the king that only the king or queen defends: a piece landing there
    // cannot be taken back cheaply.
    let lesser_defence = their_att.of(PieceType::Pawn)
        | their_att.of(PieceType::Knight)
        | their_att.of(PieceType::Bishop)
        | their_att.of(PieceType::Rook);
    let weak = (king_attacks(ksq) & us_att.all & !lesser_defence).count_ones() as i32;
    if weak != 0 {
        acc.add(WEAK_ZONE, s * weak);
    }
    let danger = danger::index(v, c, att, &checks);
    if danger > danger::THRESHOLD {
        acc.add(ATTACK_DANGER, s * danger::quadratic(danger));
        acc.add(ATTACK_DANGER + 1, s * danger::linear(danger));
    }
    let mut units = us_att.units;
    for (i, b) in checks.into_iter().enumerate() {
        let n = (b & safe).count_ones() as i32;
        if n != 0 {
            acc.add(SAFE_CHECK + i, s * n);
            units += CHECK_UNITS[i];
        }
    }
    let bucket = (units as usize).min(KING_DANGER_LEN - 1);
    acc.add(KING_DANGER + bucket, s);
}

/// `c`'s knights and bishops on outposts: relative ranks 4..6, defended by a pawn, and on a
/// square no enemy pawn can ever attack.
#[inline(always)]
pub(super) fn outposts<A: Accumulator>(v: &View, c: Color, own_att: &Attacks, acc: &mut A) {
    let s = sign(c);
    let theirs = v.pieces(!c, PieceType::Pawn);
    let holes = own_att.of(PieceType::Pawn) & outpost_ranks(c);
    for (i, k) in [PieceType::Knight, PieceType::Bishop]
        .into_iter()
        .enumerate()
    {
        let mut n = 0;
        for sq in squares(v.pieces(c, k) & holes) {
            if theirs & ranks_ahead(c, sq) & adjacent_files(sq % 8) == 0 {
                n += 1;
            }
        }
        if n != 0 {
            acc.add(OUTPOST + i, s * n);
        }
    }
}

/// Relative ranks 4, 5 and 6 of colour `c`.
#[inline(always)]
fn outpost_ranks(c: Color) -> u64 {
    match c {
        Color::White => rank_mask(3) | rank_mask(4) | rank_mask(5),
        Color::Black => rank_mask(2) | rank_mask(3) | rank_mask(4),
    }
}

#[cfg(test)]
mod tests {
    use super::super::coef;
    use super::*;

    #[test]
    fn hanging_pieces_are_attacked_and_undefended() {
        // The rook on d1 hits the knight on d5, which nothing defends.
        assert_eq!(coef("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", HANGING), 1);
        // A pawn on e6 defends it.
        assert_eq!(coef("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", HANGING), 0);
    }

    #[test]
    fn weak_squares_next_to_the_king() {
        // The queen on d7 hits f7 beside the king on g8; only the king defends it.
        assert_eq!(coef("6k1/3Q1ppp/8/8/8/8/8/4K3 w - - 0 1", WEAK_ZONE), 1);
        // A rook on f8 defends f7.
        assert_eq!(coef("5rk1/3Q1ppp/8/8/8/8/8/4K3 w - - 0 1", WEAK_ZONE), 0);
    }
}
