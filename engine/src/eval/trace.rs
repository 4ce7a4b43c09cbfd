//! `trace`: the evaluation as sparse linear coefficients, for the tuner.

use super::accumulator::Accumulator;
use super::complexity::{adjustment, complexity};
use super::endgame::{mop_up, phase, scale};
use super::params::LEN;
use super::terms;
use super::view::View;
use super::{taper, S};
use crate::board::Board;

/// A position's evaluation as a linear function of the weights.
///
/// White's score is `taper(Σ c·w.mg, eg, phase, scale) + fixed` over `terms`, where `eg` is
/// `Σ c·w.eg` moved by the complexity term (`eg_adjustment`, never flipping its sign) and the
/// scale is `scale` when `eg` favours White (or is 0) and `scale_black` when it favours Black:
/// the scale factor looks at the side the score favours.
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
    /// The position's complexity (end-game centipawns, not tunable): how far the complexity
    /// term moves the end-game sum away from 0 (towards 0 when negative, but never past it).
    pub complexity: i32,
    /// (parameter index, white-minus-black coefficient), sorted by index, zeros omitted.
    pub terms: Vec<(u16, i16)>,
}

impl Trace {
    /// White's evaluation under `weights` (a `Params::weights()` vector); equals
    /// `evaluate` from White's point of view.
    pub fn white_eval(&self, weights: &[S]) -> i32 {
        let (mg, eg) = self.sums(weights);
        let eg = eg + adjustment(eg, self.complexity);
        taper(mg, eg, self.phase, self.scale_for(eg)) + self.fixed
    }

    /// The scale factor `white_eval` uses under `weights` (the tuner fixes each position's
    /// scale at the one its starting weights give, as Ethereal's tuner does). It reads the
    /// end-game sum after the complexity term, which can make it 0 but never flips its sign.
    pub fn scale_under(&self, weights: &[S]) -> i32 {
        let eg = self.sums(weights).1;
        self.scale_for(eg + adjustment(eg, self.complexity))
    }

    /// What the complexity term adds to the end-game sum under `weights`, before the scale
    /// factor and the taper (the tuner fixes it at the compiled-in weights, as Ethereal's
    /// tuner does: it is not linear in the weights).
    pub fn eg_adjustment(&self, weights: &[S]) -> i32 {
        adjustment(self.sums(weights).1, self.complexity)
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

/// The linear coefficients, phase, scales, fixed part and complexity of `board`'s evaluation
/// (White's view).
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
        complexity: complexity(&v),
        terms,
    }
}
