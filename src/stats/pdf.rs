//! Counts seen as an empirical distribution of scores, the common input of every formula.

use super::counts::{Pentanomial, Trinomial};

/// Value that replaces a zero count before any computation, so logarithms and variances stay
/// finite (the regularisation fishtest uses).
pub const ZERO_COUNT: f64 = 1e-3;

/// Counts of outcomes with known scores: [`Trinomial`] (per game) or [`Pentanomial`] (per pair).
pub trait ScoreCounts {
    /// True when one unit is a game pair (pentanomial), false when it is a game.
    const PAIRED: bool;

    /// The outcomes' counts in increasing order of score.
    fn counts(&self) -> Vec<u64>;

    /// The outcomes' scores in [0, 1], in the same order as [`ScoreCounts::counts`].
    fn scores(&self) -> &'static [f64];
}

impl ScoreCounts for Trinomial {
    const PAIRED: bool = false;

    fn counts(&self) -> Vec<u64> {
        vec![self.losses, self.draws, self.wins]
    }

    fn scores(&self) -> &'static [f64] {
        &[0.0, 0.5, 1.0]
    }
}

impl ScoreCounts for Pentanomial {
    const PAIRED: bool = true;

    fn counts(&self) -> Vec<u64> {
        self.0.to_vec()
    }

    fn scores(&self) -> &'static [f64] {
        &[0.0, 0.25, 0.5, 0.75, 1.0]
    }
}

/// An empirical distribution: scores `a`, probabilities `p` and the (regularised) unit count.
#[derive(Debug, Clone)]
pub(crate) struct Pdf {
    pub a: Vec<f64>,
    pub p: Vec<f64>,
    pub n: f64,
}

impl Pdf {
    /// The regularised empirical distribution of `counts`.
    pub fn from_counts<C: ScoreCounts>(counts: &C) -> Pdf {
        let n: Vec<f64> = counts
            .counts()
            .iter()
            .map(|&c| if c == 0 { ZERO_COUNT } else { c as f64 })
            .collect();
        let total: f64 = n.iter().sum();
        Pdf {
            a: counts.scores().to_vec(),
            p: n.iter().map(|x| x / total).collect(),
            n: total,
        }
    }

    /// Mean score.
    pub fn mean(&self) -> f64 {
        self.a.iter().zip(&self.p).map(|(a, p)| a * p).sum()
    }

    /// Variance of the score of one unit.
    pub fn variance(&self) -> f64 {
        let mu = self.mean();
        self.a
            .iter()
            .zip(&self.p)
            .map(|(a, p)| p * (a - mu) * (a - mu))
            .sum()
    }

    /// The same scores with other probabilities.
    pub fn with_probabilities(&self, p: Vec<f64>) -> Pdf {
        Pdf {
            a: self.a.clone(),
            p,
            n: self.n,
        }
    }
}
