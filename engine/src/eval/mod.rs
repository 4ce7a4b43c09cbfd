//! Evaluation: tunable weights (`Params`), `evaluate`, and `trace` for the tuner.
//!
//! The score is a tapered blend of a middle-game and an end-game sum of linear terms (material,
//! piece-square tables, mobility, pawn structure, king safety, bishop pair, rooks on open files,
//! tempo), scaled down in drawish material and topped up by a mop-up bonus against a bare king.
//! Every term is linear in its weights, so `trace` can hand the tuner the exact coefficients:
//! `evaluate(b, p) == ±trace(b).white_eval(&p.weights())` holds for every position.
//!
//! Before the scale and the taper, the complexity term (Ethereal 12's, in `complexity.rs`)
//! moves the end-game sum away from 0 with many pawns, pawns on both flanks or a pawn ending,
//! and towards 0 (never past it) with few pawns and pieces on the board. It reads the sum's
//! sign and size, so it is not linear: the trace carries the position's complexity and
//! `white_eval` applies it as `evaluate` does, and the tuner fixes each position's adjustment
//! at the compiled-in weights.

mod accumulator;
mod attack_map;
mod complexity;
mod control;
mod danger;
mod defaults;
mod display;
mod endgame;
mod evaluate;
mod explain;
mod io;
mod params;
mod placement;
mod psq;
mod score;
mod terms;
mod threats;
mod trace;
mod view;

pub use evaluate::{evaluate, evaluate_cached, PawnCache};
pub use explain::{explain, Explanation, GroupScore};
pub use io::{EvalFileError, ParamsError};
pub use params::{Block, Labels, Params, BLOCKS};
pub use psq::{psq, psq_delta};
pub use score::S;
pub use trace::{trace, Trace};

/// Phase of a full middle game (all pieces on the board); 0 is a pure pawn ending.
pub const PHASE_MAX: i32 = 24;
/// Denominator of the end-game scale factor: `SCALE_MAX` leaves the end-game score unchanged.
pub const SCALE_MAX: i32 = 128;

/// Blends a middle-game and an end-game score by `phase` (0..=24), scaling the end-game part by
/// `scale / 128`. This is the one integer formula shared by `evaluate` and `Trace::white_eval`.
#[inline(always)]
pub fn taper(mg: i32, eg: i32, phase: i32, scale: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase) * scale / SCALE_MAX) / PHASE_MAX
}

/// The white-minus-black coefficient of weight `i` in the trace of `fen` (for term tests).
#[cfg(test)]
fn coef(fen: &str, i: usize) -> i16 {
    let board = crate::board::Board::from_fen(fen).unwrap();
    trace(&board)
        .terms
        .iter()
        .find(|&&(j, _)| j as usize == i)
        .map_or(0, |&(_, c)| c)
}
