//! The maximum likelihood fit of one connected group of engines: Newton's method on the score
//! or the Davidson log likelihood ([`super::model`]), and the covariance of the ratings from
//! the inverse Fisher information, or from independent units of games (single games or
//! colour-swapped pairs: a sandwich estimator).

use super::linalg::{cholesky, inverse, solve, Matrix};
use super::model::{score_terms, terms, Model, Terms, Wdl, K};
use crate::game::Outcome;

/// One cell of games: the local indices of white and black and white's counts.
#[derive(Debug, Clone, Copy)]
pub struct Cell {
    /// White's local index.
    pub white: usize,
    /// Black's local index.
    pub black: usize,
    /// White's wins, draws, losses.
    pub counts: Wdl,
}

/// One real game, for the pair sums of the sandwich estimator.
#[derive(Debug, Clone, Copy)]
pub struct OneGame {
    /// White's local index.
    pub white: usize,
    /// Black's local index.
    pub black: usize,
    /// The result.
    pub outcome: Outcome,
}

/// The likelihood and what is fitted besides the ratings.
#[derive(Debug, Clone, Copy)]
pub struct Free {
    /// The likelihood; the score model has neither an advantage nor a draw parameter.
    pub model: Model,
    /// The white advantage is a parameter (else 0).
    pub advantage: bool,
    /// The draw parameter is a parameter (else 0: no draws in the data).
    pub draws: bool,
}

/// The fitted group: ratings in Elo with engine 0 at 0, their covariance, the white advantage
/// with its variance, and the draw parameter.
#[derive(Debug, Clone)]
pub struct Fit {
    /// Ratings, engine 0 at 0.
    pub ratings: Vec<f64>,
    /// Covariance of the ratings in Elo² (row and column 0 are zero: engine 0 is the origin).
    pub cov: Matrix,
    /// White advantage in Elo and its variance.
    pub advantage: (f64, f64),
    /// Draw parameter `nu`.
    pub nu: f64,
}

/// Why a group could not be fitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FitError {
    /// The information matrix is singular: some parameter is not determined by the games.
    Singular,
    /// Newton did not converge: the likelihood grows without bound (a rating is infinite).
    Diverged,
}

/// Parameter layout: ratings of engines 1..m, then the advantage, then `ln nu`.
struct Layout {
    m: usize,
    free: Free,
}

impl Layout {
    fn len(&self) -> usize {
        self.m - 1 + usize::from(self.free.advantage) + usize::from(self.free.draws)
    }
    fn rating(&self, i: usize) -> Option<usize> {
        (i > 0).then(|| i - 1)
    }
    fn advantage(&self) -> Option<usize> {
        self.free.advantage.then_some(self.m - 1)
    }
    fn draw(&self) -> Option<usize> {
        self.free
            .draws
            .then(|| self.m - 1 + usize::from(self.free.advantage))
    }
    /// The likelihood's terms of `counts` at log-odds `s` and draw parameter `nu`.
    fn terms(&self, s: f64, nu: f64, counts: Wdl) -> Terms {
        match self.free.model {
            Model::Logistic => score_terms(s, counts),
            Model::Davidson => terms(s, nu, counts),
        }
    }
    /// Log-odds `s` of white in a cell and `nu`, at parameters `x` (log-odds units).
    fn at(&self, x: &[f64], white: usize, black: usize) -> (f64, f64) {
        let r = |i: usize| self.rating(i).map_or(0.0, |k| x[k]);
        let a = self.advantage().map_or(0.0, |k| x[k]);
        let nu = self.draw().map_or(0.0, |k| x[k].exp());
        (r(white) - r(black) + a, nu)
    }
    /// The indices whose log-odds derivative is +1 / -1 for a cell.
    fn s_index(&self, white: usize, black: usize) -> [(Option<usize>, f64); 3] {
        [
            (self.rating(white), 1.0),
            (self.rating(black), -1.0),
            (self.advantage(), 1.0),
        ]
    }
    /// Adds a cell's gradient and information to `g` and `info`.
    fn accumulate(&self, t: &Terms, white: usize, black: usize, g: &mut [f64], info: &mut Matrix) {
        let si = self.s_index(white, black);
        let u = self.draw();
        for (i, sign_i) in si {
            let Some(i) = i else { continue };
            g[i] += sign_i * t.gs;
            for (j, sign_j) in si {
                if let Some(j) = j {
                    info.add(i, j, sign_i * sign_j * t.iss);
                }
            }
            if let Some(u) = u {
                info.add(i, u, sign_i * t.isu);
                info.add(u, i, sign_i * t.isu);
            }
        }
        if let Some(u) = u {
            g[u] += t.gu;
            info.add(u, u, t.iuu);
        }
    }
}

/// Log likelihood, gradient and information at `x`.
fn evaluate(layout: &Layout, cells: &[Cell], x: &[f64]) -> (f64, Vec<f64>, Matrix) {
    let n = layout.len();
    let mut g = vec![0.0; n];
    let mut info = Matrix::zeros(n);
    let mut ll = 0.0;
    for c in cells {
        let (s, nu) = layout.at(x, c.white, c.black);
        let t = layout.terms(s, nu, c.counts);
        ll += t.ll;
        layout.accumulate(&t, c.white, c.black, &mut g, &mut info);
    }
    (ll, g, info)
}

/// Log-odds beyond which a parameter counts as infinite (about 6000 Elo).
const DIVERGED: f64 = 35.0;

/// Fits `m` engines (local indices) to `cells`. With `units`, the ratings' covariance is the
/// sandwich `I⁻¹ (Σ g gᵀ) I⁻¹` over the score vectors `g` of the units (games or pairs of
/// games taken as independent); without, `I⁻¹`.
pub fn fit(
    m: usize,
    cells: &[Cell],
    free: Free,
    units: Option<&[Vec<OneGame>]>,
) -> Result<Fit, FitError> {
    let layout = Layout { m, free };
    let (x, info) = maximise(&layout, cells)?;
    let l = cholesky(&info).ok_or(FitError::Singular)?;
    let inv = inverse(&l);
    let cov = match units {
        None => inv,
        Some(units) => {
            let meat = meat(&layout, &x, units);
            inv.mul(&meat).mul(&inv)
        }
    };
    let mut ratings = vec![0.0; m];
    let mut rcov = Matrix::zeros(m);
    for i in 1..m {
        ratings[i] = x[i - 1] / K;
        for j in 1..m {
            rcov.a[i * m + j] = cov.at(i - 1, j - 1) / (K * K);
        }
    }
    let advantage = match layout.advantage() {
        Some(k) => (x[k] / K, cov.at(k, k) / (K * K)),
        None => (0.0, 0.0),
    };
    let nu = layout.draw().map_or(0.0, |k| x[k].exp());
    Ok(Fit {
        ratings,
        cov: rcov,
        advantage,
        nu,
    })
}

/// The parameters at the maximum and the information there: Newton's method from zero (the
/// draw parameter from the draw rate) with backtracking.
fn maximise(layout: &Layout, cells: &[Cell]) -> Result<(Vec<f64>, Matrix), FitError> {
    let mut x = vec![0.0; layout.len()];
    if let Some(u) = layout.draw() {
        // Start from the draw rate as if all engines were equal: nu / (2 + nu) = share.
        let (d, n) = cells
            .iter()
            .fold((0.0, 0.0), |(d, n), c| (d + c.counts.d, n + c.counts.n()));
        let share = (d / n).clamp(0.01, 0.99);
        x[u] = (2.0 * share / (1.0 - share)).ln();
    }
    let (mut ll, mut g, mut info) = evaluate(layout, cells, &x);
    for _ in 0..=200 {
        let l = cholesky(&info).ok_or(FitError::Singular)?;
        let step = solve(&l, &g);
        // Newton decrement: twice the predicted gain in log likelihood; below 1e-16 the
        // parameters are within about 1e-8 of the maximum, and this last full step (Newton
        // converges quadratically) takes them to rounding: two engines then get the Elo of
        // their score to the last digits.
        let decrement: f64 = step.iter().zip(&g).map(|(a, b)| a * b).sum();
        if decrement < 1e-16 {
            let last: Vec<f64> = x.iter().zip(&step).map(|(a, b)| a + b).collect();
            let (_, _, info2) = evaluate(layout, cells, &last);
            return Ok((last, info2));
        }
        // Backtracking: the likelihood is concave, so some fraction of the step gains.
        let mut t = 1.0;
        loop {
            let trial: Vec<f64> = x.iter().zip(&step).map(|(a, b)| a + t * b).collect();
            let (ll2, g2, info2) = evaluate(layout, cells, &trial);
            if ll2.is_finite() && ll2 >= ll - 1e-12 * ll.abs() {
                (x, ll, g, info) = (trial, ll2, g2, info2);
                break;
            }
            t *= 0.5;
            if t < 1e-12 {
                // No step gains: rounding at the maximum, or a likelihood without one.
                if decrement < 1e-8 {
                    return Ok((x, info));
                }
                return Err(FitError::Diverged);
            }
        }
        if x.iter().any(|v| v.abs() > DIVERGED) {
            return Err(FitError::Diverged);
        }
    }
    Err(FitError::Diverged)
}

/// `Σ g gᵀ` over the units, `g` the gradient of a unit's log likelihood at `x`.
fn meat(layout: &Layout, x: &[f64], units: &[Vec<OneGame>]) -> Matrix {
    let n = layout.len();
    let mut meat = Matrix::zeros(n);
    let mut scratch = Matrix::zeros(n);
    for unit in units {
        let mut gu = vec![0.0; n];
        for game in unit {
            let (s, nu) = layout.at(x, game.white, game.black);
            let mut one = Wdl::default();
            match game.outcome {
                Outcome::WhiteWins => one.w = 1.0,
                Outcome::Draw => one.d = 1.0,
                Outcome::BlackWins => one.l = 1.0,
            }
            let t = layout.terms(s, nu, one);
            layout.accumulate(&t, game.white, game.black, &mut gu, &mut scratch);
        }
        for i in 0..n {
            for j in 0..n {
                meat.add(i, j, gu[i] * gu[j]);
            }
        }
    }
    meat
}
