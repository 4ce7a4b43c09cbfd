//! The danger index of an attack on the king: one number built from the attackers, the weak
//! squares around the king, the checks the attacker has, and the attacks on the king's flank.
//!
//! The idea and the shape follow the king danger of Stockfish's classical evaluation (also
//! described on the Chess Programming Wiki): danger grows with the square of the index, so a
//! few attackers count for little and a full attack with the queen for a lot. The inner
//! weights are fixed; the tuner learns two outer weights, the index's square and the index
//! itself as coefficients. That keeps the trace exact and lets the tuner size a curve whose
//! upper part its data rarely reach (the free `king.danger` table left those buckets at zero).

use super::attack_map::Attacks;
use super::view::*;
use crate::types::{Color, PieceType};

/// Index weight of a knight, bishop, rook or queen that hits the enemy king zone.
pub(super) const ATTACKER_WEIGHT: [i32; 4] = [80, 50, 45, 10];
/// Index weight of having a safe check with a knight, bishop, rook or queen.
const SAFE_CHECK: [i32; 4] = [800, 640, 1080, 770];
/// Per square next to the king (in its ring) that we attack and it holds weakly.
const WEAK_RING: i32 = 185;
/// Per square from which we could check, but not safely.
const UNSAFE_CHECK: i32 = 150;
/// Per attack on a square next to the king.
const ADJACENT_HIT: i32 = 70;
/// Without a queen an attack rarely mates.
const NO_QUEEN: i32 = 850;
/// A knight that guards a square next to its own king.
const KNIGHT_DEFENDER: i32 = 100;
/// Per square of the king's flank in its camp that the defender attacks.
const FLANK_DEFENCE: i32 = 4;

/// Up to this index the danger terms are zero.
pub(super) const THRESHOLD: i32 = 100;

/// The danger `c` poses to the enemy king, at least 0. `checks` are the squares from which
/// `c`'s knights, bishops, rooks and queens would give check (as `king_danger` builds them).
#[inline(always)]
pub(super) fn index(v: &View, c: Color, att: &[Attacks; 2], checks: &[u64; 4]) -> i32 {
    let them = !c;
    let (us, def) = (&att[c.index()], &att[them.index()]);
    let ksq = v.king(them);
    // Squares we attack that the defender holds at most once, and then only with its king or
    // queen if at all.
    let weak = us.all & !def.two & (!def.all | def.of(PieceType::King) | def.of(PieceType::Queen));
    let safe = !v.by_color[c.index()] & (!def.all | (weak & us.two));
    let mut d = us.attacker_weight
        + ADJACENT_HIT * us.adjacent_hits
        + WEAK_RING * (ring(ksq) & weak).count_ones() as i32;
    let mut unsafe_checks = 0u64;
    for (i, &b) in checks.iter().enumerate() {
        if b & safe != 0 {
            d += SAFE_CHECK[i];
        }
        unsafe_checks |= b & !safe;
    }
    d += UNSAFE_CHECK * unsafe_checks.count_ones() as i32;
    let flank = FLANKS[ksq % 8] & camp(them);
    let flank_attacks = ((flank & us.all).count_ones() + (flank & us.two).count_ones()) as i32;
    d += 3 * flank_attacks * flank_attacks / 8;
    d -= FLANK_DEFENCE * (flank & def.all).count_ones() as i32;
    if v.pieces(c, PieceType::Queen) == 0 {
        d -= NO_QUEEN;
    }
    if def.of(PieceType::Knight) & def.of(PieceType::King) != 0 {
        d -= KNIGHT_DEFENDER;
    }
    d.max(0)
}

// The divisors keep the tuned weights near 10, where rounding them to integers costs little
// (with D²/32768 the quadratic weight came out near 1 and rounding it lost more validation
// loss than the term had gained).

/// The coefficient of the quadratic weight: D²/262144, rounded.
#[inline(always)]
pub(super) fn quadratic(d: i32) -> i32 {
    ((d as i64 * d as i64 + 131_072) / 262_144) as i32
}

/// The coefficient of the linear weight: D/512, rounded.
#[inline(always)]
pub(super) fn linear(d: i32) -> i32 {
    (d + 256) / 512
}

/// The 3x3 block around the king, moved one file or rank inwards where the king stands on the
/// edge (a king on g1 has the block f1-h3 as its ring, one on h1 the same).
#[inline(always)]
fn ring(ksq: usize) -> u64 {
    let file = (ksq % 8).clamp(1, 6);
    let rank = (ksq / 8).clamp(1, 6);
    let centre = rank * 8 + file;
    king_attacks(centre) | (1u64 << centre)
}

/// The defender's camp: its first five ranks.
#[inline(always)]
fn camp(c: Color) -> u64 {
    match c {
        Color::White => 0x0000_00ff_ffff_ffff,
        Color::Black => 0xffff_ffff_ff00_0000,
    }
}

#[cfg(test)]
mod tests {
    use super::super::coef;
    use super::super::params::ATTACK_DANGER;

    /// (quadratic, linear) coefficients of `fen` for White.
    fn danger(fen: &str) -> (i16, i16) {
        (coef(fen, ATTACK_DANGER), coef(fen, ATTACK_DANGER + 1))
    }

    #[test]
    fn a_safe_queen_check_counted_by_hand() {
        // The queen on d1 hits nothing near the king, but d8 is a safe check (+770); she hits
        // g4 and h5 on the king's flank (2 squares: +3·2²/8 = +1); Black's king and pawns cover
        // nine flank squares (-36). The index is 735: 735²/262144 = 2.06 and 735/512 = 1.44.
        // Black has no queen (-850), so the other king is safe.
        assert_eq!(danger("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1"), (2, 1));
        // The same with a rook: a safe check worth 1080, no queen (-850), -36: 194, which
        // rounds to 0 in both.
        assert_eq!(danger("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), (0, 0));
        // Queen and rook: d8 is a safe check for both (+770 +1080), the rook adds nothing on
        // the flank: 1815; 1815²/262144 = 12.6 and 1815/512 = 3.5.
        assert_eq!(danger("6k1/5ppp/8/8/8/8/5PPP/2QR2K1 w - - 0 1"), (13, 4));
        // Without a piece the index stays at or below the threshold.
        assert_eq!(danger("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1"), (0, 0));
    }

    #[test]
    fn defenders_lower_the_danger() {
        // A black rook on f8 takes the safe check away.
        let open = danger("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1");
        let covered = danger("5rk1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1");
        assert!(covered.1 < open.1, "{covered:?} vs {open:?}");
    }

    #[test]
    fn the_coefficients_mirror_for_black() {
        let (q, l) = danger("6k1/5ppp/8/3Q4/8/8/5PPP/3R2K1 w - - 0 1");
        assert!(q > 0);
        assert_eq!(danger("3r2k1/5ppp/8/8/3q4/8/5PPP/6K1 b - - 0 1"), (-q, -l));
    }
}
