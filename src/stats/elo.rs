//! Elo and normalized Elo with 95 % error bars, and the likelihood of superiority.

use statrs::distribution::{ContinuousCDF, Normal};

use super::pdf::{Pdf, ScoreCounts};

/// z-score of a two-sided 95 % confidence interval: the standard normal's 97.5 % quantile
/// (1.959964).
pub fn z95() -> f64 {
    Normal::standard().inverse_cdf(0.975)
}

/// Scale between a normalized score difference and nElo: 800 / ln 10.
pub const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Scores closer to 0 or 1 than this are clamped before converting to Elo, so a perfect
/// score gives a large finite Elo (about +-2400) instead of infinity.
const SCORE_EPS: f64 = 1e-6;

/// A value with the half-width of its 95 % confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Point estimate.
    pub value: f64,
    /// Half-width of the 95 % confidence interval.
    pub error: f64,
}

/// Everything a tester prints about a score: Elo, nElo, LOS.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloReport {
    /// Mean score per game in [0, 1].
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: Estimate,
    /// Normalized Elo difference (score difference in units of its standard deviation).
    pub nelo: Estimate,
    /// Likelihood of superiority in [0, 1]: the probability that engine 1 is the stronger.
    pub los: f64,
}

/// Expected score of an engine `elo` points stronger (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo difference from an expected score; finite for every input (scores outside
/// (0, 1) are clamped).
pub fn score_to_elo(score: f64) -> f64 {
    let s = if score.is_nan() {
        0.5
    } else {
        score.clamp(SCORE_EPS, 1.0 - SCORE_EPS)
    };
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Standard normal cumulative distribution function.
pub fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// Elo, nElo and LOS of trinomial or pentanomial counts (zero counts regularised, so the
/// result is always finite).
pub fn elo_report<C: ScoreCounts>(counts: &C) -> EloReport {
    let pdf = Pdf::from_counts(counts);
    let score = pdf.mean();
    let var = pdf.variance();
    let se = (var / pdf.n).sqrt();
    let z = z95();
    let elo = Estimate {
        value: score_to_elo(score),
        error: (score_to_elo(score + z * se) - score_to_elo(score - z * se)) / 2.0,
    };
    // Standard deviation of one game's score: a pair's variance covers two games.
    let games_per_unit = if C::PAIRED { 2.0 } else { 1.0 };
    let sigma_game = (games_per_unit * var).sqrt();
    let nelo = Estimate {
        value: (score - 0.5) / sigma_game * NELO_SCALE,
        error: z * se / sigma_game * NELO_SCALE,
    };
    EloReport {
        score,
        elo,
        nelo,
        los: phi((score - 0.5) / se),
    }
}

#[cfg(test)]
mod tests {
    use super::super::counts::{Pentanomial, Trinomial};
    use super::*;

    fn close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "got {got}, want {want}");
    }

    /// fastchess prints the LOS as `{:.2} %`; its tests compare that string.
    fn los_prints_as(r: &EloReport, want: &str) {
        assert_eq!(format!("{:.2} %", 100.0 * r.los), want, "{r:?}");
    }

    // The vectors below are fastchess's (app/tests/elo_test.cpp, TEST_SUITE "Elo Model"; the
    // test case is named at each). fastchess's `Stats(ll, ld, wl, dd, wd, ww)` keeps WL and DD
    // apart: our middle count is their sum. Its checks use doctest's `Approx(..).epsilon(0.01)`,
    // a relative tolerance of 1 %; we hold every value to 0.01 absolute (the score to 0.001).

    #[test]
    fn z95_is_the_two_sided_95_percent_z_score() {
        close(z95(), 1.959_963_984_540_054, 1e-12);
    }

    #[test]
    fn trinomial_vector_76_89_123() {
        // "EloWDL 1": Stats(76, 89, 123) is W, L, D.
        let r = elo_report(&Trinomial::new(76, 89, 123));
        close(r.nelo.value, -20.76, 0.01);
        close(r.nelo.error, 40.13, 0.01);
        los_prints_as(&r, "15.53 %");
        close(r.score, 0.477, 0.001);
    }

    #[test]
    fn trinomial_vector_136_96_111() {
        // "EloWDL 2".
        let r = elo_report(&Trinomial::new(136, 96, 111));
        close(r.elo.value, 40.70, 0.01);
        close(r.elo.error, 30.43, 0.01);
        close(r.nelo.value, 49.77, 0.01);
        close(r.nelo.error, 36.77, 0.01);
        close(100.0 * r.los, 99.60, 0.01);
        los_prints_as(&r, "99.60 %");
        close(r.score, 0.558, 0.001);
    }

    #[test]
    fn trinomial_vector_34_356_0() {
        // "EloWDL 3": no draws (the empty cell is regularised to 1e-3 games).
        let r = elo_report(&Trinomial::new(34, 356, 0));
        close(r.nelo.value, -508.44, 0.01);
        close(r.nelo.error, 34.48, 0.01);
        close(r.score, 0.087, 0.001);
    }

    #[test]
    fn pentanomial_vector_34_54_63_64_75() {
        // "EloPentanomial 1": Stats(34, 54, 31, 32, 64, 75).
        let r = elo_report(&Pentanomial([34, 54, 63, 64, 75]));
        close(r.elo.value, 55.58, 0.01);
        close(r.elo.error, 27.65, 0.01);
        close(r.nelo.value, 57.94, 0.01);
        close(r.nelo.error, 28.28, 0.01);
        los_prints_as(&r, "100.00 %");
        close(r.score, 0.579, 0.001);
    }

    #[test]
    fn pentanomial_vector_332_433_498_333_334() {
        // "EloPentanomial 2": Stats(332, 433, 457, 41, 333, 334).
        let r = elo_report(&Pentanomial([332, 433, 498, 333, 334]));
        close(r.elo.value, -8.64, 0.01);
        close(r.elo.error, 10.33, 0.01);
        close(r.nelo.value, -9.17, 0.01);
        close(r.nelo.error, 10.96, 0.01);
        close(100.0 * r.los, 5.05, 0.01);
        los_prints_as(&r, "5.05 %");
        close(r.score, 0.488, 0.001);
    }

    #[test]
    fn pentanomial_vector_7895_8757_5685_568_9999() {
        // "EloPentanomial 3": Stats(7895, 8757, 5485, 200, 568, 9999).
        let r = elo_report(&Pentanomial([7895, 8757, 5685, 568, 9999]));
        close(r.nelo.value, -19.01, 0.01);
        close(r.nelo.error, 2.65, 0.01);
        close(r.elo.value, -21.04, 0.01);
        close(r.elo.error, 2.95, 0.01);
        los_prints_as(&r, "0.00 %");
        close(r.score, 0.470, 0.001);
    }

    #[test]
    fn elo_score_round_trip() {
        for elo in [-800.0, -100.0, 0.0, 3.5, 400.0] {
            close(score_to_elo(elo_to_score(elo)), elo, 1e-9);
        }
        close(elo_to_score(400.0), 10.0 / 11.0, 1e-12);
    }

    #[test]
    fn degenerate_counts_stay_finite() {
        let all = [
            elo_report(&Trinomial::default()),
            elo_report(&Trinomial::new(50, 0, 0)),
            elo_report(&Trinomial::new(0, 50, 0)),
            elo_report(&Trinomial::new(0, 0, 50)),
            elo_report(&Pentanomial::default()),
            elo_report(&Pentanomial([0, 0, 0, 0, 5550])),
            elo_report(&Pentanomial([7, 0, 0, 0, 0])),
        ];
        for r in all {
            for x in [
                r.score,
                r.elo.value,
                r.elo.error,
                r.nelo.value,
                r.nelo.error,
                r.los,
            ] {
                assert!(x.is_finite(), "{r:?}");
            }
        }
        let wins = elo_report(&Trinomial::new(50, 0, 0));
        assert!(wins.elo.value > 1000.0 && wins.los > 0.999);
        let none = elo_report(&Trinomial::default());
        close(none.elo.value, 0.0, 1e-9);
        close(none.los, 0.5, 1e-9);
        let draws = elo_report(&Trinomial::new(0, 0, 50));
        close(draws.elo.value, 0.0, 1e-9);
    }
}
