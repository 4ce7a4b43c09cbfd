//! The evaluation terms, written once and generic over an `Accumulator`.
//!
//! Every term reports "weight `i` applies `n` times for White (or Black)"; the summing accumulator
//! turns that into a score and the recording one into the tuner's coefficients. Monomorphisation
//! makes `evaluate` pay nothing for the trace, and evaluation equals the trace's dot product by
//! construction: the same code produces both.

use super::accumulator::Accumulator;
use super::attack_map::Attacks;
use super::control::control;
use super::danger;
use super::params::*;
use super::placement::placement;
use super::threats;
use super::view::*;
use crate::types::{Color, PieceType};

/// Feeds every tunable term of the position to `acc` (white minus black).
#[inline(always)]
pub(super) fn all<A: Accumulator>(v: &View, acc: &mut A) {
    pieces_and_threats(v, acc);
    pawns_and_kings(v, acc);
}

/// The terms that depend on nothing but the pawns and the two kings' squares (pawn structure,
/// passed pawns' rank and king distances, shelter and storm): what a pawn cache may keep.
#[inline(always)]
pub(super) fn pawns_and_kings<A: Accumulator>(v: &View, acc: &mut A) {
    for c in Color::ALL {
        pawn_structure(v, c, acc);
        king_shelter(v, c, acc);
        shelter_and_storm(v, c, acc);
    }
}

/// Every term but [`pawns_and_kings`].
#[inline(always)]
pub(super) fn pieces_and_threats<A: Accumulator>(v: &View, acc: &mut A) {
    let bare = bare_king(v);
    for c in Color::ALL {
        material_and_pst(v, c, !bare, acc);
    }
    activity_and_threats(v, bare, acc);
}

/// Whether one side has nothing but its king. Against a bare king the mop-up term places the
/// kings and pieces; the king tables and the mobility tables, sparse and noisy at the squares
/// and counts such endings reach, would only fight it.
#[inline(always)]
pub(super) fn bare_king(v: &View) -> bool {
    Color::ALL
        .into_iter()
        .any(|c| v.by_color[c.index()] == v.pieces(c, PieceType::King))
}

/// Every term but [`pawns_and_kings`] and material and piece-square tables (which the search
/// keeps incrementally, see `psq.rs`).
#[inline(always)]
pub(super) fn activity_and_threats<A: Accumulator>(v: &View, bare_king: bool, acc: &mut A) {
    // The piece terms come first: they build the attack maps the other terms read.
    let att = [
        pieces(v, Color::White, !bare_king, acc),
        pieces(v, Color::Black, !bare_king, acc),
    ];
    for c in Color::ALL {
        passers_and_pieces(v, c, &att[(!c).index()], acc);
        threats::threats(v, c, &att, acc);
        threats::king_danger(v, c, &att, acc);
        threats::outposts(v, c, &att[c.index()], acc);
        control(v, c, &att, acc);
        placement(v, c, acc);
    }
    acc.add(TEMPO, sign(v.stm));
}

/// Material (per piece) and the piece-square tables (from `c`'s side of the board); the king's
/// table only if `king_table`.
#[inline(always)]
fn material_and_pst<A: Accumulator>(v: &View, c: Color, king_table: bool, acc: &mut A) {
    let s = sign(c);
    for k in PieceType::ALL {
        if k == PieceType::King && !king_table {
            continue;
        }
        let table = PST + 64 * k.index();
        let mut n = 0;
        for sq in squares(v.pieces(c, k)) {
            acc.add(table + relative_square(c, sq), s);
            n += 1;
        }
        // Counted in the loop: without a hardware popcount (generic x86-64) it is dear.
        if k != PieceType::King && n != 0 {
            acc.add(MATERIAL + k.index(), s * n);
        }
    }
}

/// Mobility (if `mobility`), attacks on the enemy king zone, the bishop pair and rooks on
/// (half-)open files; returns `c`'s attack maps.
#[inline(always)]
fn pieces<A: Accumulator>(v: &View, c: Color, mobility: bool, acc: &mut A) -> Attacks {
    let s = sign(c);
    let them = !c;
    let own_pawns = v.pieces(c, PieceType::Pawn);
    let their_pawns = v.pieces(them, PieceType::Pawn);
    // Squares we may move to without landing on our own piece or an enemy pawn's capture.
    let area = !v.by_color[c.index()] & !pawn_attacks(them, their_pawns);
    let their_king = v.king(them);
    let adjacent = king_attacks(their_king);
    let zone = adjacent | (1u64 << their_king);
    let tables = [MOB_KNIGHT, MOB_BISHOP, MOB_ROOK, MOB_QUEEN];
    let mut map = Attacks::new(pawn_attacks(c, own_pawns), king_attacks(v.king(c)));
    for (i, k) in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ]
    .into_iter()
    .enumerate()
    {
        for sq in squares(v.pieces(c, k)) {
            let att = piece_attacks(k, sq, v.occ);
            map.add(k, att);
            if mobility {
                acc.add(tables[i] + (att & area).count_ones() as usize, s);
            }
            let hits = (att & zone).count_ones() as i32;
            if hits != 0 {
                acc.add(KING_ATTACK + i, s * hits);
                map.units += threats::ATTACK_UNITS[i];
                map.attacker_weight += danger::ATTACKER_WEIGHT[i];
                map.adjacent_hits += (att & adjacent).count_ones() as i32;
            }
            if k == PieceType::Rook {
                let file = file_mask(sq % 8);
                if file & (own_pawns | their_pawns) == 0 {
                    acc.add(ROOK_OPEN, s);
                } else if file & own_pawns == 0 {
                    acc.add(ROOK_HALF_OPEN, s);
                }
            }
        }
    }
    let bishops = v.pieces(c, PieceType::Bishop);
    if bishops & bishops.wrapping_sub(1) != 0 {
        acc.add(BISHOP_PAIR, s);
    }
    map
}

/// Passed pawns (by rank, with king distances to the stop square), candidate passers, isolated,
/// doubled, supported, phalanx and backward pawns: the pawn terms that read only pawns and kings.
#[inline(always)]
fn pawn_structure<A: Accumulator>(v: &View, c: Color, acc: &mut A) {
    let s = sign(c);
    let own = v.pieces(c, PieceType::Pawn);
    let theirs = v.pieces(!c, PieceType::Pawn);
    let own_king = v.king(c);
    let their_king = v.king(!c);
    let defended = pawn_attacks(c, own);
    let enemy_pawn_attacks = pawn_attacks(!c, theirs);
    let passed = passed_pawns(c, own, theirs);
    for sq in squares(own) {
        let f = sq % 8;
        let ahead = ranks_ahead(c, sq);
        let file = file_mask(f);
        let adjacent = adjacent_files(f);
        let stop = stop_square(c, sq);
        // Clamped so that even a pawn on a back rank (illegal, but not our job) cannot panic.
        let rank = relative_rank(c, sq).clamp(1, 6);
        if passed & (1u64 << sq) != 0 {
            acc.add(PASSED + rank - 1, s);
            let (own_d, their_d) = (distance(own_king, stop), distance(their_king, stop));
            acc.add(PASSED_OWN_KING, s * own_d);
            acc.add(PASSED_ENEMY_KING, s * their_d);
            acc.add(PASSED_KING + rank - 1, s * own_d);
            acc.add(PASSED_KING + 6 + rank - 1, s * their_d);
        } else if let Some(supported) = candidate(c, sq, own, theirs) {
            acc.add(CANDIDATE + 6 * supported as usize + rank - 1, s);
        }
        if own & adjacent == 0 {
            acc.add(ISOLATED, s);
        } else if own & adjacent & !ranks_ahead(c, sq) == 0 {
            // No pawn beside or behind can ever defend it; backward if it cannot advance safely.
            if enemy_pawn_attacks & (1u64 << stop) != 0 {
                acc.add(BACKWARD, s);
            }
        }
        if own & ahead & file != 0 {
            acc.add(DOUBLED, s);
        }
        if defended & (1u64 << sq) != 0 {
            acc.add(SUPPORTED, s);
        }
        if own & adjacent & rank_mask(sq / 8) != 0 {
            acc.add(PHALANX, s);
        }
    }
}

/// Whether `c`'s pawn on `sq`, not passed, is a candidate passer (Ethereal 12's test): every
/// enemy pawn in its way either attacks it or the square in front of it, and its supporters at
/// that square are at least as many as the attackers there; then `Some(supporters of the pawn
/// itself >= its attackers)`.
#[inline(always)]
fn candidate(c: Color, sq: usize, own: u64, theirs: u64) -> Option<bool> {
    let f = sq % 8;
    let stoppers = theirs & ranks_ahead(c, sq) & (file_mask(f) | adjacent_files(f));
    let at = 1u64 << sq;
    let front = 1u64 << stop_square(c, sq);
    let threats = theirs & pawn_attacks(c, at);
    let support = own & pawn_attacks(!c, at);
    let push_threats = theirs & pawn_attacks(c, front);
    let push_support = own & pawn_attacks(!c, front);
    let leftovers = stoppers ^ threats ^ push_threats;
    (leftovers == 0 && push_support.count_ones() >= push_threats.count_ones())
        .then(|| support.count_ones() >= threats.count_ones())
}

/// The passed-pawn terms that read the pieces: rooks behind the pawn, whether its stop square
/// is blocked or free of enemy attacks, and whether its whole path is. `enemy` is the opponent's attack map.
#[inline(always)]
fn passers_and_pieces<A: Accumulator>(v: &View, c: Color, enemy: &Attacks, acc: &mut A) {
    let s = sign(c);
    let own = v.pieces(c, PieceType::Pawn);
    let theirs = v.pieces(!c, PieceType::Pawn);
    for sq in squares(passed_pawns(c, own, theirs)) {
        let ahead = ranks_ahead(c, sq);
        let file = file_mask(sq % 8);
        let rank = relative_rank(c, sq).clamp(1, 6);
        // The first pieces behind the pawn on its file: a rook there pushes it (ours) or
        // holds it back (theirs).
        let behind = piece_attacks(PieceType::Rook, sq, v.occ) & file & !ahead;
        for (i, side) in [c, !c].into_iter().enumerate() {
            if behind & v.pieces(side, PieceType::Rook) != 0 {
                acc.add(ROOK_BEHIND_PASSER + i, s);
            }
        }
        let stop_bb = 1u64 << stop_square(c, sq);
        if v.occ & stop_bb != 0 {
            acc.add(PASSED_BLOCKED + rank - 1, s);
        } else if enemy.all & stop_bb == 0 {
            acc.add(PASSED_FREE + rank - 1, s);
        }
        if ahead & file & (v.by_color[(!c).index()] | enemy.all) == 0 {
            acc.add(SAFE_PATH, s);
        }
    }
}

/// The square in front of `c`'s pawn on `sq` (clamped to the board).
#[inline(always)]
fn stop_square(c: Color, sq: usize) -> usize {
    (sq as i32 + 8 * sign(c)).clamp(0, 63) as usize
}

/// Pawn shield in front of the king and open files at or next to it.
#[inline(always)]
fn king_shelter<A: Accumulator>(v: &View, c: Color, acc: &mut A) {
    let s = sign(c);
    let own = v.pieces(c, PieceType::Pawn);
    let k = v.king(c);
    let f = k % 8;
    let files = file_mask(f) | adjacent_files(f);
    let rel = relative_rank(c, k);
    let rank_at = |d: usize| -> u64 {
        if rel + d > 7 {
            0
        } else {
            let r = if c == Color::White {
                rel + d
            } else {
                7 - (rel + d)
            };
            rank_mask(r)
        }
    };
    let near = (own & files & rank_at(1)).count_ones() as i32;
    let far = (own & files & rank_at(2)).count_ones() as i32;
    if near != 0 {
        acc.add(SHIELD_NEAR, s * near);
    }
    if far != 0 {
        acc.add(SHIELD_FAR, s * far);
    }
    let lo = f.saturating_sub(1);
    let hi = (f + 1).min(7);
    let open = (lo..=hi).filter(|&x| own & file_mask(x) == 0).count() as i32;
    if open != 0 {
        acc.add(KING_OPEN_FILE, s * open);
    }
}

/// Pawn shelter and pawn storm on the three files around `c`'s king (centred off the edge, so
/// a king in the corner still sees three files): per file, our nearest pawn ahead of the king
/// and the enemy's, each by its distance in ranks from the king, and whether the enemy pawn is
/// blocked by ours.
#[inline(always)]
fn shelter_and_storm<A: Accumulator>(v: &View, c: Color, acc: &mut A) {
    let s = sign(c);
    let k = v.king(c);
    let ahead = ranks_ahead(c, k);
    let own = v.pieces(c, PieceType::Pawn) & ahead;
    let theirs = v.pieces(!c, PieceType::Pawn) & ahead;
    let king_rank = (k / 8) as i32;
    // Distance in ranks of the pawn of `pawns` nearest the king (0 if none).
    let gap = |pawns: u64| -> usize {
        if pawns == 0 {
            return 0;
        }
        let sq = match c {
            Color::White => pawns.trailing_zeros(),
            Color::Black => 63 - pawns.leading_zeros(),
        };
        ((sq / 8) as i32 - king_rank).unsigned_abs() as usize
    };
    let centre = (k % 8).clamp(1, 6);
    for f in centre - 1..=centre + 1 {
        let edge = f.min(7 - f);
        let ours = gap(own & file_mask(f));
        let their = gap(theirs & file_mask(f));
        acc.add(SHELTER + edge * 7 + ours, s);
        let blocked = ours != 0 && their == ours + 1;
        acc.add(STORM + 28 * blocked as usize + edge * 7 + their, s);
    }
}

#[cfg(test)]
mod tests {
    use super::super::coef;
    use super::*;

    #[test]
    fn rooks_behind_a_passed_pawn() {
        // White's rook on d1 stands behind the passed pawn on d5 with nothing in between.
        let own = "4k3/8/8/3P4/8/8/8/3RK3 w - - 0 1";
        assert_eq!(coef(own, ROOK_BEHIND_PASSER), 1);
        assert_eq!(coef(own, ROOK_BEHIND_PASSER + 1), 0);
        // A black rook on d2 comes first behind the pawn: it holds the pawn, ours does not count.
        let theirs = "4k3/8/8/3P4/8/8/3r4/3RK3 w - - 0 1";
        assert_eq!(coef(theirs, ROOK_BEHIND_PASSER), 0);
        assert_eq!(coef(theirs, ROOK_BEHIND_PASSER + 1), 1);
    }

    #[test]
    fn candidate_passers() {
        // White's c4 pawn has one stopper, b5, which attacks it; b4 supports c5 against no
        // attacker there: a candidate, outnumbered on its own square (attacked by b5, defended by
        // nothing). b4 is stopped by b5 head on, and Black's b5 by b4: neither is a candidate.
        let fen = "4k3/8/8/1p6/1PP5/8/8/4K3 w - - 0 1";
        assert_eq!(
            coef(fen, CANDIDATE + 2),
            1,
            "c4: outnumbered candidate on rank 4"
        );
        assert_eq!(coef(fen, CANDIDATE + 6 + 2), 0);
        // With a pawn on d3 defending c4 it is a supported candidate.
        let fen = "4k3/8/8/1p6/1PP5/3P4/8/4K3 w - - 0 1";
        assert_eq!(
            coef(fen, CANDIDATE + 6 + 2),
            1,
            "c4: supported candidate on rank 4"
        );
        // A black pawn on c7 stands in c4's way attacking neither c4 nor c5: not a candidate.
        let fen = "4k3/2p5/8/1p6/1PP5/8/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, CANDIDATE + 2), 0);
    }

    #[test]
    fn a_passed_pawns_safe_path() {
        // White's d5 pawn: d6, d7, d8 are empty and unattacked. Black's king on a8 is too far.
        let fen = "k7/8/8/3P4/8/8/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, SAFE_PATH), 1);
        // Black's king on e8 attacks d7 and d8.
        let fen = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, SAFE_PATH), 0);
    }
}
