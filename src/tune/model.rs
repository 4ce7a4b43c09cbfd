//! The tuner's model: the engine's tapered linear evaluation in f64, the Texel loss
//! `mean (result - sigmoid(K * eval / 400))^2` with `sigmoid(x) = 1 / (1 + 10^-x)`, and its
//! gradient, summed in parallel with rayon (one dense gradient buffer per chunk, then reduced).

use super::store::Store;
use rayon::prelude::*;
use std::ops::Range;

/// Capacity of the dense weight and gradient arrays (a power of two so a masked index needs no
/// bounds check in the hot loop). The tuner checks that every stored index is below it.
pub const CAP: usize = 4096;

/// Dense (mg, eg) array indexed by parameter.
pub type Dense = [[f64; 2]; CAP];

/// A zeroed dense array on the heap.
pub fn zero_dense() -> Box<Dense> {
    vec![[0.0; 2]; CAP]
        .into_boxed_slice()
        .try_into()
        .expect("CAP elements")
}

/// Dense array holding `w` (the rest zero). Fails if `w` is longer than [`CAP`].
pub fn to_dense(w: &[[f64; 2]]) -> Result<Box<Dense>, String> {
    if w.len() > CAP {
        return Err(format!(
            "{} parameters exceed the tuner's capacity {CAP}",
            w.len()
        ));
    }
    let mut d = zero_dense();
    d[..w.len()].copy_from_slice(w);
    Ok(d)
}

/// `ln(10) / 400`: turns `K * eval` in centipawns into the natural-log argument of the sigmoid.
const LN10_400: f64 = std::f64::consts::LN_10 / 400.0;

/// Expected score for a White-view eval in centipawns: `1 / (1 + 10^(-K * eval / 400))`.
#[inline]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * LN10_400 * eval).exp())
}

/// The White-view eval of position `p` in f64: `mg*phase/24 + eg*(24-phase)*scale/(128*24) + fixed`.
#[inline]
pub fn eval_pos(s: &Store, p: usize, w: &Dense) -> f64 {
    let (mg, eg) = dots(s, s.range(p), w);
    let e = &s.entries[p];
    mg * e.rho_mg() + eg * e.rho_eg() + e.fixed as f64
}

/// The middlegame and endgame dot products over one position's terms, in one pass.
/// Four independent accumulator pairs break the floating-point add chain (the loop would
/// otherwise wait on the add latency for every term).
#[inline]
fn dots(s: &Store, r: Range<usize>, w: &Dense) -> (f64, f64) {
    let terms = &s.terms[r];
    let mut acc = [[0.0f64; 2]; 4];
    let mut tc = terms.chunks_exact(4);
    for t4 in &mut tc {
        for j in 0..4 {
            let t = t4[j];
            let wi = w[t.idx as usize & (CAP - 1)];
            let c = t.coef as f64;
            acc[j][0] += c * wi[0];
            acc[j][1] += c * wi[1];
        }
    }
    for t in tc.remainder() {
        let t = *t;
        let wi = w[t.idx as usize & (CAP - 1)];
        acc[0][0] += t.coef as f64 * wi[0];
        acc[0][1] += t.coef as f64 * wi[1];
    }
    (
        (acc[0][0] + acc[1][0]) + (acc[2][0] + acc[3][0]),
        (acc[0][1] + acc[1][1]) + (acc[2][1] + acc[3][1]),
    )
}

/// Splits `0..n` into contiguous chunks for the rayon workers (a few per thread for balance).
fn chunks(n: usize) -> Vec<Range<usize>> {
    let parts = (rayon::current_num_threads() * 4).clamp(1, n.max(1));
    let size = n.div_ceil(parts).max(1);
    (0..n).step_by(size).map(|a| a..(a + size).min(n)).collect()
}

/// Mean squared error over positions `range` at weights `w` and scale `k`.
pub fn loss(s: &Store, w: &Dense, k: f64, range: Range<usize>) -> f64 {
    let n = range.len();
    if n == 0 {
        return 0.0;
    }
    let base = range.start;
    let sse: f64 = chunks(n)
        .into_par_iter()
        .map(|r| {
            let mut acc = 0.0;
            for p in r.start + base..r.end + base {
                let d = s.entries[p].result as f64 - sigmoid(k, eval_pos(s, p, w));
                acc += d * d;
            }
            acc
        })
        .sum();
    sse / n as f64
}

/// Mean squared error over `range` and its gradient with respect to every weight (mg, eg),
/// written into `grad` (which is overwritten).
pub fn loss_and_grad(s: &Store, w: &Dense, k: f64, range: Range<usize>, grad: &mut Dense) -> f64 {
    let n = range.len();
    for g in grad.iter_mut() {
        *g = [0.0; 2];
    }
    if n == 0 {
        return 0.0;
    }
    let base = range.start;
    let (sse, g) = chunks(n)
        .into_par_iter()
        .map(|r| {
            let mut g = zero_dense();
            let sse = grad_chunk(s, w, k, r.start + base..r.end + base, &mut g);
            (sse, g)
        })
        .reduce_with(|(a, mut ga), (b, gb)| {
            for (x, y) in ga.iter_mut().zip(gb.iter()) {
                x[0] += y[0];
                x[1] += y[1];
            }
            (a + b, ga)
        })
        .expect("at least one chunk");
    let inv = 1.0 / n as f64;
    for (o, x) in grad.iter_mut().zip(g.iter()) {
        *o = [x[0] * inv, x[1] * inv];
    }
    sse * inv
}

/// The single-thread kernel: sum of squared errors over `r`, adding the unnormalised gradient to `g`.
fn grad_chunk(s: &Store, w: &Dense, k: f64, r: Range<usize>, g: &mut Dense) -> f64 {
    let kk = k * LN10_400;
    let mut sse = 0.0;
    for p in r {
        let e = &s.entries[p];
        let tr = s.range(p);
        let (mg, eg) = dots(s, tr.clone(), w);
        let (rm, re) = (e.rho_mg(), e.rho_eg());
        let eval = mg * rm + eg * re + e.fixed as f64;
        let sig = 1.0 / (1.0 + (-kk * eval).exp());
        let d = sig - e.result as f64;
        sse += d * d;
        // d/d eval of (sig - r)^2 = 2 (sig - r) sig (1 - sig) K ln10 / 400
        let de = 2.0 * d * sig * (1.0 - sig) * kk;
        let (gm, ge) = (de * rm, de * re);
        for t in &s.terms[tr] {
            let t = *t;
            let c = t.coef as f64;
            let gi = &mut g[t.idx as usize & (CAP - 1)];
            gi[0] += c * gm;
            gi[1] += c * ge;
        }
    }
    sse
}

/// White-view evals of positions `range` (for K fitting, where the weights do not move).
pub fn evals(s: &Store, w: &Dense, range: Range<usize>) -> Vec<f64> {
    range.into_par_iter().map(|p| eval_pos(s, p, w)).collect()
}

#[cfg(test)]
mod tests {
    use super::super::store::Coefs;
    use super::*;

    /// A small synthetic store with varied phases and coefficients (deterministic).
    pub(crate) fn synthetic(n: usize, params: u16) -> Store {
        let mut s = Store::new();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..n {
            let mut terms: Vec<(u16, i16)> = Vec::new();
            for i in 0..params {
                if next() % 3 == 0 {
                    terms.push((i, (next() % 7) as i16 - 3));
                }
            }
            terms.retain(|t| t.1 != 0);
            let c = Coefs {
                phase: (next() % 25) as i32,
                scale: 64 + (next() % 65) as i32,
                fixed: (next() % 21) as i32 - 10,
                terms,
            };
            s.push(&c, (next() % 3) as f64 / 2.0).unwrap();
        }
        s
    }

    #[test]
    fn eval_matches_the_documented_formula() {
        let mut s = Store::new();
        let c = Coefs {
            phase: 6,
            scale: 64,
            fixed: 5,
            terms: vec![(0, 2), (1, -1)],
        };
        s.push(&c, 1.0).unwrap();
        let w = to_dense(&[[100.0, 200.0], [30.0, 50.0]]).unwrap();
        // mg = 170, eg = 350: 170*6/24 + 350*18*64/(128*24) + 5
        let want = 170.0 * 6.0 / 24.0 + 350.0 * 18.0 * 64.0 / (128.0 * 24.0) + 5.0;
        assert!((eval_pos(&s, 0, &w) - want).abs() < 1e-9);
        assert!((sigmoid(1.0, 400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn analytic_gradient_matches_finite_differences() {
        let s = synthetic(300, 12);
        let mut w0 = vec![[0.0; 2]; 12];
        for (i, x) in w0.iter_mut().enumerate() {
            *x = [10.0 * i as f64 - 40.0, 25.0 - 3.0 * i as f64];
        }
        let w = to_dense(&w0).unwrap();
        let k = 1.3;
        let mut g = zero_dense();
        let l = loss_and_grad(&s, &w, k, 0..s.len(), &mut g);
        assert!((l - loss(&s, &w, k, 0..s.len())).abs() < 1e-12);
        let h = 1e-4;
        for i in 0..12 {
            for ph in 0..2 {
                let mut wp = w.clone();
                let mut wm = w.clone();
                wp[i][ph] += h;
                wm[i][ph] -= h;
                let fd = (loss(&s, &wp, k, 0..s.len()) - loss(&s, &wm, k, 0..s.len())) / (2.0 * h);
                let a = g[i][ph];
                assert!(
                    (fd - a).abs() <= 1e-7 + 1e-4 * a.abs(),
                    "param {i}/{ph}: fd {fd} vs {a}"
                );
            }
        }
    }

    #[test]
    fn parallel_sum_equals_serial_sum() {
        let s = synthetic(1000, 20);
        let w = to_dense(&vec![[7.0, -3.0]; 20]).unwrap();
        let mut g = zero_dense();
        let l = loss_and_grad(&s, &w, 1.0, 0..s.len(), &mut g);
        let mut g1 = zero_dense();
        let sse = grad_chunk(&s, &w, 1.0, 0..s.len(), &mut g1);
        assert!((l - sse / 1000.0).abs() < 1e-12);
        for i in 0..20 {
            assert!((g[i][0] - g1[i][0] / 1000.0).abs() < 1e-12);
        }
    }
}
