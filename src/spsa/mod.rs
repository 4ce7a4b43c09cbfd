//! SPSA (simultaneous perturbation stochastic approximation) as OpenBench runs it: the
//! parameters in OpenBench's input format, its schedule for the perturbation `c` and the
//! learning rate `r`, the perturbed pair (theta + c, theta - c) of each iteration, and the update
//! from the pair's games. The games themselves are played by the match runner, in the loop of
//! [`run`] (which `harness spsa` calls); [`history`] is the run's record and resume file,
//! [`defaults`] writes the tuned values back into the engine's source.
//!
//! The schedule (OpenBench's `spsa_utils.py`): with N iterations, alpha 0.602, gamma 0.101 and
//! A = 0.1 N, a parameter with final step `c_end` and final rate `r_end` has
//! `c_k = max(c_end N^gamma / k^gamma, 0.5 for integers)` and
//! `r_k = r_end c_end^2 (A + N)^alpha / (A + k)^alpha / c_k^2` at iteration k (1-based), and is
//! updated by `theta += r_k c_k (wins - losses) flip`, clipped to its range.

pub mod defaults;
pub mod error;
pub mod history;
pub mod run;

use crate::game::Opening;
use crate::uci::EngineSpec;
pub use error::SpsaError;
use sable::rng::Rng;
use std::fmt;

/// One parameter as OpenBench reads it: `Name, int|float, value, min, max, c_end, r_end`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The UCI option name.
    pub name: String,
    /// Whether values are rounded to integers when sent.
    pub is_float: bool,
    /// The current value (the start value before the first iteration).
    pub value: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Final perturbation.
    pub c_end: f64,
    /// Final learning rate.
    pub r_end: f64,
}

/// A malformed input line: its number and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// 1-based line number.
    pub line: usize,
    /// The cause.
    pub cause: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.cause)
    }
}

/// Parses OpenBench's SPSA input (blank lines and `#` comments skipped), with its checks:
/// min <= value <= max, r_end > 0, and c_end > 0 for floats.
pub fn parse_input(text: &str) -> Result<Vec<Param>, InputError> {
    let mut params: Vec<Param> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let p = parse_param(line, i + 1)?;
        if params.iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
            return Err(InputError {
                line: i + 1,
                cause: format!("{} appears twice", p.name),
            });
        }
        params.push(p);
    }
    if params.is_empty() {
        return Err(InputError {
            line: 0,
            cause: "no parameters".into(),
        });
    }
    Ok(params)
}

/// Line `number` (from 1) of the input as a parameter, with its checks.
fn parse_param(line: &str, number: usize) -> Result<Param, InputError> {
    let err = |cause: String| InputError {
        line: number,
        cause,
    };
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if fields.len() != 7 {
        return Err(err(format!(
            "expected `Name, int|float, value, min, max, c_end, r_end`, got {} fields",
            fields.len()
        )));
    }
    let num = |k: usize, what: &str| -> Result<f64, InputError> {
        fields[k]
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| err(format!("{what} `{}` is not a number", fields[k])))
    };
    let is_float = match fields[1] {
        "int" => false,
        "float" => true,
        other => return Err(err(format!("type `{other}` is neither int nor float"))),
    };
    let p = Param {
        name: fields[0].to_owned(),
        is_float,
        value: num(2, "value")?,
        min: num(3, "min")?,
        max: num(4, "max")?,
        c_end: num(5, "c_end")?,
        r_end: num(6, "r_end")?,
    };
    if p.name.is_empty() || p.name.contains(char::is_whitespace) {
        return Err(err(format!("bad name `{}`", p.name)));
    }
    if !(p.min <= p.value && p.value <= p.max) {
        return Err(err(format!("{}: needs min <= value <= max", p.name)));
    }
    if p.r_end <= 0.0 || (p.is_float && p.c_end <= 0.0) || p.c_end < 0.0 {
        return Err(err(format!(
            "{}: needs r_end > 0 and c_end > 0 (c_end >= 0 for ints)",
            p.name
        )));
    }
    Ok(p)
}

/// OpenBench's schedule constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Iterations planned.
    pub iterations: u32,
    /// Learning-rate decay exponent (0.602).
    pub alpha: f64,
    /// Perturbation decay exponent (0.101).
    pub gamma: f64,
    /// Stability constant as a share of the iterations (0.1).
    pub a_ratio: f64,
}

impl Schedule {
    /// OpenBench's defaults for `iterations` iterations.
    pub fn new(iterations: u32) -> Schedule {
        Schedule {
            iterations,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
        }
    }

    /// `(c_k, r_k)` of `p` at iteration `k` (1-based).
    pub fn c_and_r(&self, p: &Param, k: u32) -> (f64, f64) {
        let n = f64::from(self.iterations);
        let c_value = p.c_end * n.powf(self.gamma);
        let a_value = p.r_end * p.c_end * p.c_end * (self.a_ratio * n + n).powf(self.alpha);
        let floor = if p.is_float { 0.0 } else { 0.5 };
        let c = (c_value / f64::from(k).powf(self.gamma)).max(floor);
        let r = a_value / (self.a_ratio * n + f64::from(k)).powf(self.alpha) / (c * c);
        (c, r)
    }
}

/// The two sides of one iteration for one parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Perturbation {
    /// +1 or -1: which way `dev` moved.
    pub flip: f64,
    /// The value played by the first engine (theta + flip c, rounded and clipped).
    pub dev: f64,
    /// The value played by the second engine (theta - flip c, rounded and clipped).
    pub base: f64,
    /// This iteration's perturbation.
    pub c: f64,
    /// This iteration's learning rate.
    pub r: f64,
}

/// The perturbed pair of iteration `k` (1-based), drawn from a generator seeded by `seed` and
/// `k` alone, so that a resumed run draws the same pairs. Integers are rounded the way OpenBench
/// rounds them: `floor(x + u)` with one uniform `u` per parameter for both sides.
pub fn perturb(params: &[Param], schedule: &Schedule, seed: u64, k: u32) -> Vec<Perturbation> {
    let mut rng = Rng::new((seed ^ u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
    params
        .iter()
        .map(|p| {
            let (c, r) = schedule.c_and_r(p, k);
            let flip = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let side = |x: f64| {
                let x = if p.is_float { x } else { (x + u).floor() };
                x.clamp(p.min, p.max)
            };
            Perturbation {
                flip,
                dev: side(p.value + flip * c),
                base: side(p.value - flip * c),
                c,
                r,
            }
        })
        .collect()
}

/// Applies one iteration's result (`wins - losses` of the `dev` side over its games) to the
/// parameters: `theta += r c result flip`, clipped.
pub fn update(params: &mut [Param], perturbations: &[Perturbation], result: f64) {
    for (p, d) in params.iter_mut().zip(perturbations) {
        p.value = (p.value + d.r * d.c * result * d.flip).clamp(p.min, p.max);
    }
}

/// A value as sent to the engine: integers without decimals.
pub fn format_value(p: &Param, v: f64) -> String {
    if p.is_float {
        format!("{v:.4}")
    } else {
        format!("{}", v.round() as i64)
    }
}

/// The SPSA input the engine prints with `spsa` (a tuning build of sable does).
pub fn params_from_engine(engine: &EngineSpec) -> Result<Vec<Param>, SpsaError> {
    let out = std::process::Command::new(&engine.cmd)
        .args(&engine.args)
        .arg("spsa")
        .output()
        .map_err(SpsaError::io(format!("cannot run `{} spsa`", engine.cmd)))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || text.trim().is_empty() {
        return Err(SpsaError::NoParams {
            cmd: engine.cmd.clone(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    parse_input(&text).map_err(|source| SpsaError::EngineInput {
        cmd: engine.cmd.clone(),
        source,
    })
}

/// The `pairs` openings of iteration `k` (from 1): the book read on from where the last
/// iteration stopped, so that iterations do not replay each other's openings. Pair rounds are
/// counted over the whole run, and each takes its opening by the openings' one rule
/// ([`crate::openings::for_round`]), as a match's rounds do.
pub fn iteration_openings(book: &[Opening], k: u32, pairs: u32) -> Vec<Opening> {
    if book.is_empty() {
        return Vec::new();
    }
    let first = (k - 1) * pairs;
    (0..pairs)
        .map(|i| book[crate::openings::for_round(first + i, book.len())].clone())
        .collect()
}

#[cfg(test)]
mod run_tests;
#[cfg(test)]
mod tests;
