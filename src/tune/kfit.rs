//! Fitting the sigmoid scale K: the K that minimises the loss at the current weights.

use super::model::sigmoid;
use rayon::prelude::*;

/// Mean squared error of fixed evals against results at scale `k`.
pub fn loss_at(evals: &[f64], results: &[f64], k: f64) -> f64 {
    let sse: f64 = evals
        .par_iter()
        .zip(results.par_iter())
        .map(|(&e, &r)| {
            let d = r - sigmoid(k, e);
            d * d
        })
        .sum();
    sse / evals.len().max(1) as f64
}

/// Golden-section search for the K in `[lo, hi]` minimising [`loss_at`] (the loss is unimodal in K
/// for any sensible data); returns (K, loss).
pub fn fit_k(evals: &[f64], results: &[f64], lo: f64, hi: f64) -> (f64, f64) {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (loss_at(evals, results, c), loss_at(evals, results, d));
    while b - a > 1e-6 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = loss_at(evals, results, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = loss_at(evals, results, d);
        }
    }
    let k = (a + b) / 2.0;
    (k, loss_at(evals, results, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_the_k_that_generated_expected_scores() {
        // results are exactly the expected scores under K = 1.7: the loss is 0 there
        let evals: Vec<f64> = (-300..=300).map(|e| e as f64 * 2.0).collect();
        let results: Vec<f64> = evals.iter().map(|&e| sigmoid(1.7, e)).collect();
        let (k, l) = fit_k(&evals, &results, 0.05, 10.0);
        assert!((k - 1.7).abs() < 1e-4, "{k}");
        assert!(l < 1e-12);
    }
}
