//! `evaluate`: the hot-path score, summing the terms straight into one packed pair.

use super::accumulator::Accumulator;
use super::complexity::{adjustment, complexity};
use super::endgame::{mop_up, phase, scale};
use super::params::{Params, LEN};
use super::psq::king_tables;
use super::terms;
use super::view::View;
use super::{taper, S};
use crate::board::Board;
use crate::types::Color;

/// Sums `coef * weight` into a packed (mg, eg) pair; allocates nothing.
struct ScoreSum<'a> {
    w: &'a [S; LEN],
    sum: S,
}

impl Accumulator for ScoreSum<'_> {
    #[inline(always)]
    fn add(&mut self, idx: usize, coef: i32) {
        self.sum += self.w[idx] * coef;
    }
}

/// Static evaluation of `board` in centipawns from the side to move's point of view.
///
/// Each half of the packed sums must stay within ±32767, which any sane weight set does.
pub fn evaluate(board: &Board, params: &Params) -> i32 {
    let v = View::new(board);
    finish(&v, weighted(params, |acc| terms::all(&v, acc)))
}

/// [`evaluate`], with the pawn-and-king terms taken from `cache` when it has them and the
/// material and piece-square sum given as `psq` (what [`psq`](super::psq) returns for `board`,
/// usually kept move by move with [`psq_delta`](super::psq_delta)): the same score, faster.
/// The cache must be cleared when the weights change.
pub fn evaluate_cached(board: &Board, params: &Params, cache: &mut PawnCache, psq: S) -> i32 {
    let v = View::new(board);
    // The low bit set keeps every real key off the empty slots' 0.
    let key = (board.pawn_key() ^ king_mix(v.king(Color::White), v.king(Color::Black))) | 1;
    let index = key as usize & (PAWN_CACHE_SIZE - 1);
    // Read the slot before the piece terms, so that a cache miss overlaps their work.
    let cached = cache.entries[index];
    let bare = terms::bare_king(&v);
    let mut pieces = psq + weighted(params, |acc| terms::activity_and_threats(&v, bare, acc));
    if bare {
        pieces -= king_tables(params, v.king(Color::White), v.king(Color::Black));
    }
    let pawns_and_kings = if cached.0 == key {
        cached.1
    } else {
        let sum = weighted(params, |acc| terms::pawns_and_kings(&v, acc));
        cache.entries[index] = (key, sum);
        sum
    };
    finish(&v, pieces + pawns_and_kings)
}

/// The packed sum of the terms `feed` reports, weighted by `params`.
#[inline(always)]
fn weighted(params: &Params, feed: impl FnOnce(&mut ScoreSum)) -> S {
    let mut acc = ScoreSum {
        w: &params.w,
        sum: S::ZERO,
    };
    feed(&mut acc);
    acc.sum
}

/// Complexity, scale, taper and mop-up: the white-POV sum made the side to move's score.
#[inline(always)]
fn finish(v: &View, sum: S) -> i32 {
    // The complexity term moves the end-game sum before the scale factor reads its sign (which
    // it never flips) and before the taper, as in Ethereal 12.
    let eg = sum.eg() + adjustment(sum.eg(), complexity(v));
    let white = taper(sum.mg(), eg, phase(v), scale(v, eg)) + mop_up(v);
    if v.stm == Color::White {
        white
    } else {
        -white
    }
}

/// Entries of the pawn cache (a power of two; 16,384 of 16 bytes = 256 KB, L2-sized).
const PAWN_CACHE_SIZE: usize = 1 << 14;

/// The pawn-and-king terms' packed sums by pawn key and king squares. Pawn structures repeat
/// across a search far more than whole positions do, so most lookups hit.
pub struct PawnCache {
    entries: Vec<(u64, S)>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            // Key 0 marks an empty slot (real keys have their low bit set); a wrong hit needs
            // two positions whose 63-bit keys collide.
            entries: vec![(0, S::ZERO); PAWN_CACHE_SIZE],
        }
    }
}

impl PawnCache {
    /// Forget everything (after the weights change).
    pub fn clear(&mut self) {
        self.entries.fill((0, S::ZERO));
    }
}

/// Mixes the king squares into the pawn key: the cached terms read them too.
#[inline(always)]
fn king_mix(white: usize, black: usize) -> u64 {
    ((white as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        ^ ((black as u64 + 1).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)).rotate_left(29)
}
