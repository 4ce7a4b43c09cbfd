//! `evaluate`: the hot-path score, summing the terms straight into one packed pair.

use super::endgame::{mop_up, phase, scale};
use super::params::{Params, LEN};
use super::terms::{self, Accumulator};
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
    let mut acc = ScoreSum {
        w: &params.w,
        sum: S::ZERO,
    };
    terms::all(&v, &mut acc);
    let white = taper(acc.sum.mg(), acc.sum.eg(), phase(&v), scale(&v)) + mop_up(&v);
    if v.stm == Color::White {
        white
    } else {
        -white
    }
}
