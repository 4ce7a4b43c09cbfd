//! The two likelihoods a rating list can maximise, on the Elo scale: the score model (the
//! default: the expected score is the Elo formula of the difference, a draw counts as half a
//! win and half a loss, as in Ordo and every pairwise Elo of the tool, [`score_terms`]) and
//! Davidson's draw model (1970) with a white advantage ([`terms`]).
//!
//! Davidson:
//! Two engines whose ratings differ by `d` Elo (white's rating minus black's plus the white
//! advantage) win, draw and lose with probabilities proportional to `10^(d/800)`, `nu` and
//! `10^(-d/800)`. A decisive game is therefore won with probability
//! [`elo_to_score`]`(d)`, the project's one Elo formula, and `nu` is the draw propensity
//! (draws between equal engines: `nu / (2 + nu)`).
//!
//! With `s = d ln10 / 400`, `c = 2 cosh(s/2) = 1/sqrt(q (1 - q))` for `q = elo_to_score(d)`
//! and `Z = c + nu`: `P(win) = q c / Z`, `P(loss) = (1 - q) c / Z`, `P(draw) = nu / Z`. The log
//! likelihood is linear in the counts minus `n log Z`, and `log Z` is a log-sum-exp of linear
//! functions of `(s, ln nu)`, hence convex: the fit is a concave maximisation (Newton converges
//! from zero), and the observed information equals the expected (Fisher) information.

use crate::stats::elo::elo_to_score;
use serde::{Deserialize, Serialize};

/// Which likelihood a rating list maximises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// Points as a binomial outcome: expected score `elo_to_score(r_white - r_black)`, a draw
    /// half a point, no white advantage (Ordo's default). Two engines get exactly the Elo of
    /// their score, as `harness stats` and the match report compute it.
    #[default]
    Logistic,
    /// Davidson's draw model with a white advantage: rating differences are the Elo of the
    /// decisive games, larger than the score's Elo when there are draws.
    Davidson,
}

impl Model {
    /// The model of lists stored before the logistic model existed.
    pub fn earlier() -> Model {
        Model::Davidson
    }

    /// The model in a few words, for the table's header.
    pub fn words(self) -> &'static str {
        match self {
            Model::Logistic => {
                "logistic in the rating difference, draws as half points, maximum likelihood"
            }
            Model::Davidson => "Davidson draw model with white advantage, maximum likelihood",
        }
    }
}

/// Natural log-odds per Elo point: `s = K * elo`.
pub const K: f64 = std::f64::consts::LN_10 / 400.0;

/// Win, draw and loss counts of white in one cell of games (weights may be fractional: the
/// prior's virtual games).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Wdl {
    /// White wins.
    pub w: f64,
    /// Draws.
    pub d: f64,
    /// White losses.
    pub l: f64,
}

impl Wdl {
    /// All games of the cell.
    pub fn n(&self) -> f64 {
        self.w + self.d + self.l
    }
}

/// A cell's log likelihood, its gradient in `(s, u = ln nu)` and the negative Hessian
/// (information) in the same coordinates. Without a draw parameter (`nu = 0`: no draws in the
/// data) the `u` entries are zero.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Terms {
    /// Log likelihood.
    pub ll: f64,
    /// d ll / d s.
    pub gs: f64,
    /// d ll / d u.
    pub gu: f64,
    /// -d² ll / d s².
    pub iss: f64,
    /// -d² ll / d s du.
    pub isu: f64,
    /// -d² ll / d u².
    pub iuu: f64,
}

/// The terms of `counts` at log-odds `s` (white's view, advantage included) and draw
/// parameter `nu` (0 = no draws modelled).
pub fn terms(s: f64, nu: f64, counts: Wdl) -> Terms {
    let q = elo_to_score(s / K);
    let c = 1.0 / (q * (1.0 - q)).sqrt();
    let z = c + nu;
    let sinh = c * (q - 0.5);
    let n = counts.n();
    let log_z = z.ln();
    let mut ll = counts.w * (q * c).ln() + counts.l * ((1.0 - q) * c).ln() - n * log_z;
    if counts.d > 0.0 {
        ll += counts.d * nu.ln();
    }
    Terms {
        ll,
        gs: 0.5 * (counts.w - counts.l) - n * sinh / z,
        gu: if nu > 0.0 { counts.d - n * nu / z } else { 0.0 },
        iss: n * (0.25 * c * z - sinh * sinh) / (z * z),
        isu: -n * sinh * nu / (z * z),
        iuu: n * nu * c / (z * z),
    }
}

/// The score model's terms of `counts` at log-odds `s`: `points = w + d/2` of `n` games is a
/// binomial count with success probability `q = elo_to_score(s / K)`, so the log likelihood is
/// `points ln q + (n - points) ln(1 - q)`, its gradient `points - n q` and its information
/// `n q (1 - q)` (no draw parameter: the `u` entries are zero). Maximising it makes every
/// engine's expected points equal its points, which is Ordo's fit and, for two engines, the
/// Elo of the score.
pub fn score_terms(s: f64, counts: Wdl) -> Terms {
    let q = elo_to_score(s / K);
    let n = counts.n();
    let points = counts.w + 0.5 * counts.d;
    Terms {
        ll: points * q.ln() + (n - points) * (1.0 - q).ln(),
        gs: points - n * q,
        iss: n * q * (1.0 - q),
        ..Terms::default()
    }
}

/// Probabilities of a white win, a draw and a white loss for a rating difference of `elo`
/// (advantage included) and draw parameter `nu`.
pub fn probabilities(elo: f64, nu: f64) -> [f64; 3] {
    let q = elo_to_score(elo);
    let c = 1.0 / (q * (1.0 - q)).sqrt();
    let z = c + nu;
    [q * c / z, nu / z, (1.0 - q) * c / z]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisive_games_follow_the_elo_formula_and_nu_sets_the_draw_rate() {
        for elo in [-300.0, -20.0, 0.0, 55.0, 700.0] {
            for nu in [0.0, 0.5, 2.0] {
                let [w, d, l] = probabilities(elo, nu);
                assert!((w + d + l - 1.0).abs() < 1e-12);
                assert!((w / (w + l) - elo_to_score(elo)).abs() < 1e-12);
                if elo == 0.0 {
                    assert!((d - nu / (2.0 + nu)).abs() < 1e-12);
                }
            }
        }
    }

    #[test]
    fn score_terms_match_finite_differences_and_vanish_at_the_score() {
        let counts = Wdl {
            w: 170.0,
            d: 140.0,
            l: 90.0,
        };
        let h = 1e-5;
        for s in [-0.8, 0.0, 0.4] {
            let t = score_terms(s, counts);
            let ds = (score_terms(s + h, counts).ll - score_terms(s - h, counts).ll) / (2.0 * h);
            let dss = -(score_terms(s + h, counts).gs - score_terms(s - h, counts).gs) / (2.0 * h);
            assert!((t.gs - ds).abs() < 1e-5, "{t:?} {ds}");
            assert!((t.iss - dss).abs() < 1e-5, "{t:?} {dss}");
        }
        // The maximum is where the expected score is the score: 60 % here.
        let at = crate::stats::elo::score_to_elo(0.6) * K;
        assert!(score_terms(at, counts).gs.abs() < 1e-9);
    }

    #[test]
    fn gradient_and_information_match_finite_differences() {
        let counts = Wdl {
            w: 7.0,
            d: 5.0,
            l: 3.5,
        };
        let h = 1e-5;
        for (s, u) in [(0.3, -0.2), (-1.1, 0.7), (0.0, 0.0)] {
            let f = |s: f64, u: f64| terms(s, u.exp(), counts);
            let t = f(s, u);
            let ds = (f(s + h, u).ll - f(s - h, u).ll) / (2.0 * h);
            let du = (f(s, u + h).ll - f(s, u - h).ll) / (2.0 * h);
            assert!((t.gs - ds).abs() < 1e-6, "{t:?} {ds}");
            assert!((t.gu - du).abs() < 1e-6, "{t:?} {du}");
            let dss = -(f(s + h, u).gs - f(s - h, u).gs) / (2.0 * h);
            let dsu = -(f(s, u + h).gs - f(s, u - h).gs) / (2.0 * h);
            let duu = -(f(s, u + h).gu - f(s, u - h).gu) / (2.0 * h);
            assert!((t.iss - dss).abs() < 1e-5, "{t:?} {dss}");
            assert!((t.isu - dsu).abs() < 1e-5, "{t:?} {dsu}");
            assert!((t.iuu - duu).abs() < 1e-5, "{t:?} {duu}");
        }
    }
}
