//! Outputs of a tuning run: the weights as engine `Params`, and the loss curve (CSV and SVG).

use super::optimise::EpochStat;
use crate::report::plot::LineChart;
use anyhow::Context;
use sable::eval::{Params, S};
use std::fmt::Write as _;
use std::path::Path;

/// The engine's weights as f64 pairs (the tuner's starting point).
pub fn to_f64(p: &Params) -> Vec<[f64; 2]> {
    p.weights()
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect()
}

/// Rounds tuned weights back to the engine's integer `Params`.
pub fn to_params(w: &[[f64; 2]]) -> Params {
    let s: Vec<S> = w
        .iter()
        .map(|x| S::new(x[0].round() as i32, x[1].round() as i32))
        .collect();
    Params::from_weights(&s)
}

/// The loss curve as CSV: `epoch,train,valid,pos_per_s`.
pub fn curve_csv(h: &[EpochStat]) -> String {
    let mut s = String::from("epoch,train,valid,pos_per_s\n");
    for e in h {
        let _ = writeln!(
            s,
            "{},{:.8},{:.8},{:.0}",
            e.epoch, e.train, e.valid, e.pos_per_s
        );
    }
    s
}

/// Writes the loss curve picture (SVG) and its data (CSV beside it, same stem).
pub fn write_curve(h: &[EpochStat], svg: &Path) -> anyhow::Result<()> {
    let csv = svg.with_extension("csv");
    std::fs::write(&csv, curve_csv(h)).with_context(|| format!("writing {}", csv.display()))?;
    let train = h.iter().map(|e| (e.epoch as f64, e.train)).collect();
    let valid = h.iter().map(|e| (e.epoch as f64, e.valid)).collect();
    LineChart::new("Texel tuning: mean squared error", "epoch", "loss")
        .series("training", train)
        .series("validation", valid)
        .write(svg)
}
