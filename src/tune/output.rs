//! Outputs of a tuning run: the weights as engine `Params`, and the loss curve (CSV and SVG).

use super::optimise::EpochStat;
use super::tune_error::TuneError;
use crate::report::plot::LineChart;
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
pub fn write_curve(h: &[EpochStat], svg: &Path) -> Result<(), TuneError> {
    let csv = svg.with_extension("csv");
    std::fs::write(&csv, curve_csv(h)).map_err(|source| TuneError::Io {
        context: format!("writing {}", csv.display()),
        source,
    })?;
    let train = h.iter().map(|e| (e.epoch as f64, e.train)).collect();
    let valid = h.iter().map(|e| (e.epoch as f64, e.valid)).collect();
    LineChart::new("Texel tuning: mean squared error", "epoch", "loss")
        .series("training", train)
        .series("validation", valid)
        .write(svg)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_through_the_engine_file() {
        let d = Params::default();
        let mut w = to_f64(&d);
        assert_eq!(to_params(&w).weights(), d.weights());
        w[0][0] += 0.6; // rounds to the next integer
        let p = to_params(&w);
        assert_eq!(p.weights()[0].mg(), d.weights()[0].mg() + 1);
        let path = std::env::temp_dir().join(format!("sable-tuned-{}.json", std::process::id()));
        p.save(&path).unwrap();
        assert_eq!(Params::load(&path).unwrap().weights(), p.weights());
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn curve_csv_has_one_row_per_epoch() {
        let h = vec![
            EpochStat {
                epoch: 1,
                train: 0.1,
                valid: 0.11,
                pos_per_s: 1e6,
            },
            EpochStat {
                epoch: 2,
                train: 0.09,
                valid: 0.105,
                pos_per_s: 1e6,
            },
        ];
        let csv = curve_csv(&h);
        assert_eq!(csv.lines().count(), 3);
        assert!(csv
            .lines()
            .nth(2)
            .unwrap()
            .starts_with("2,0.09000000,0.10500000,"));
    }
}
