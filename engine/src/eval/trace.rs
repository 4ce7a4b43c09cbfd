//! `trace`: the evaluation as sparse linear coefficients, for the tuner.

use super::accumulator::Accumulator;
use super::endgame::{mop_up, phase, scale};
use super::params::LEN;
use super::terms;
use super::view::View;
use super::{taper, S};
use crate::board::Board;

/// A position's evaluation as a linear function of the weights.
///
/// White's score is `taper(Σ c·w.mg, Σ c·w.eg, phase, scale) + fixed` over `terms`, where the
/// scale is `scale` when the end-game sum favours White (or is 0) and `scale_black` when it
/// favours Black: the scale factor looks at the side the score favours.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Trace {
    /// Game phase, 0..=24 (24 = full middle game).
    pub phase: i32,
    /// End-game scale factor out of 128 when the end-game sum is >= 0 (White ahead).
    pub scale: i32,
    /// End-game scale factor out of 128 when the end-game sum is < 0 (Black ahead).
    pub scale_black: i32,
    /// White-POV centipawns that are not tunable (mop-up), added after tapering.
    pub fixed: i32,
    /// (parameter index, white-minus-black coefficient), sorted by index, zeros omitted.
    pub terms: Vec<(u16, i16)>,
}

impl Trace {
    /// White's evaluation under `weights` (a `Params::weights()` vector); equals
    /// `evaluate` from White's point of view.
    pub fn white_eval(&self, weights: &[S]) -> i32 {
        let (mg, eg) = self.sums(weights);
        taper(mg, eg, self.phase, self.scale_for(eg)) + self.fixed
    }

    /// The scale factor `white_eval` uses under `weights` (the tuner fixes each position's
    /// scale at the one its starting weights give, as Ethereal's tuner does).
    pub fn scale_under(&self, weights: &[S]) -> i32 {
        self.scale_for(self.sums(weights).1)
    }

    /// The scale factor for an end-game sum `eg`.
    fn scale_for(&self, eg: i32) -> i32 {
        if eg < 0 {
            self.scale_black
        } else {
            self.scale
        }
    }

    /// The middle-game and end-game sums of the terms under `weights`.
    fn sums(&self, weights: &[S]) -> (i32, i32) {
        let (mut mg, mut eg) = (0i32, 0i32);
        for &(i, c) in &self.terms {
            let w = weights[i as usize];
            mg += w.mg() * c as i32;
            eg += w.eg() * c as i32;
        }
        (mg, eg)
    }
}

/// Records the coefficient of every weight.
struct Recorder {
    coef: [i32; LEN],
}

impl Accumulator for Recorder {
    #[inline]
    fn add(&mut self, idx: usize, coef: i32) {
        self.coef[idx] += coef;
    }
}

/// The linear coefficients, phase, scale and fixed part of `board`'s evaluation (White's view).
pub fn trace(board: &Board) -> Trace {
    let v = View::new(board);
    let mut rec = Recorder { coef: [0; LEN] };
    terms::all(&v, &mut rec);
    let terms = rec
        .coef
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c as i16))
        .collect();
    Trace {
        phase: phase(&v),
        scale: scale(&v, 1),
        scale_black: scale(&v, -1),
        fixed: mop_up(&v),
        terms,
    }
}
