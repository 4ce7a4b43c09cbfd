//! What the evaluation terms write to: "weight `i` applies `n` times". The summing
//! accumulator (`evaluate`) turns that into a score and the recording one (`trace`) into the
//! tuner's coefficients; every term module writes to it and none of them owns it.

/// Receives the linear contributions of the evaluation terms.
pub(super) trait Accumulator {
    /// Adds `coef` times weight `idx` to the white-POV sum (Black's terms come with negative
    /// coefficients).
    fn add(&mut self, idx: usize, coef: i32);
}
