//! The tuner's model: the engine's tapered linear evaluation in f64, the Texel loss
//! `mean (result - sigmoid(K * eval / 400))^2` with `sigmoid(x) = 1 / (1 + 10^-x)`, and its
//! gradient, summed in parallel with rayon (one dense gradient buffer per chunk, then reduced).

use super::store::{Store, Term, MAX_PARAMS};
use rayon::prelude::*;
use std::ops::Range;

/// Capacity of the dense weight and gradient arrays, in parameters.
pub const CAP: usize = MAX_PARAMS;

/// Dense (mg, eg) array indexed by parameter, one pair of padding past [`CAP`]: 65,552 bytes,
/// so 16 bytes at any `u16` byte offset ([`Term::off`]) lie inside it (see [`pair_at`]).
pub type Dense = [[f64; 2]; CAP + 1];

/// A zeroed dense array on the heap (`calloc`: pages are zeroed lazily, when first touched).
pub fn zero_dense() -> Box<Dense> {
    vec![[0.0; 2]; CAP + 1]
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

/// Expected score for a White-view eval in centipawns: `1 / (1 + 10^(-K * eval / 400))`, the Elo
/// model's expected score of `K * eval` ([`crate::stats::elo::elo_to_score`]). Computed here with
/// the inline [`exp`] because it is the tuner's innermost loop (the test below ties the two).
#[inline]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    logistic(k * LN10_400 * eval)
}

/// `1 / (1 + e^-x)` with the inline [`exp`] below.
#[inline(always)]
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + exp(-x))
}

/// `1/12!, 1/11!, ..., 1/1!, 1/0!`: the Taylor coefficients of `e^g`, highest first (Horner).
const TAYLOR: [f64; 13] = [
    1.0 / 479_001_600.0,
    1.0 / 39_916_800.0,
    1.0 / 3_628_800.0,
    1.0 / 362_880.0,
    1.0 / 40_320.0,
    1.0 / 5_040.0,
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    1.0 / 2.0,
    1.0,
    1.0,
];

/// `e^x` to about 1e-15 relative error, branchless and inline, for `x` clamped to ±700.
///
/// libm's `exp` is an out-of-line call: it cost about 15 % of an epoch, most of it in the
/// registers spilled around the call, and it keeps the compiler from vectorising the
/// sigmoid over a block of positions. Here `e^x = 2^n * e^g` with `n = round(x / ln 2)` and
/// `|g| <= ln 2 / 2`, and `e^g` is its Taylor polynomial to degree 12 (truncation < 1e-16).
#[inline(always)]
pub fn exp(x: f64) -> f64 {
    // 1.5 * 2^52: adding it rounds to an integer held in the low mantissa bits (no SSE4.1 needed)
    const ROUND: f64 = 6_755_399_441_055_744.0;
    // ln 2 split so that n * LN2_HI is exact (fdlibm's constants)
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    let x = x.clamp(-700.0, 700.0);
    let t = x * std::f64::consts::LOG2_E + ROUND;
    let n = t - ROUND;
    // Cody-Waite: ln 2 in two parts keeps g exact to the last bits
    let g = (x - n * LN2_HI) - n * LN2_LO;
    let mut p = TAYLOR[0];
    for c in &TAYLOR[1..] {
        p = p * g + c;
    }
    let bits = ((t.to_bits() as i64 as i32 as i64 + 1023) as u64) << 52;
    p * f64::from_bits(bits)
}

/// The White-view eval of position `p` in f64: `mg*phase/24 + eg*(24-phase)*scale/(128*24) + fixed`.
#[inline(always)]
pub fn eval_pos(s: &Store, p: usize, w: &Dense) -> f64 {
    let e = &s.entries[p];
    let [mg, eg] = dots(&s.terms[s.range(p)], w);
    mg * e.rho_mg() + eg * e.rho_eg() + e.fixed as f64
}

/// Every i8 coefficient as an f64 pair `[c, c]`, indexed by its bit pattern: one load that feeds
/// the packed multiply directly, where converting the i8 would cost a conversion and a broadcast
/// per term (the kernel is bound by instructions per term, not by memory).
static COEF: [[f64; 2]; 256] = {
    let mut t = [[0.0; 2]; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8 as i8 as f64;
        t[i] = [c, c];
        i += 1;
    }
    t
};

/// The (mg, eg) pair at byte offset `off` of `d`.
#[inline(always)]
fn pair_at(d: &Dense, off: u16) -> [f64; 2] {
    // SAFETY: `Dense` is 16 * (CAP + 1) = 65,552 bytes and `off` is at most 65,535, so the 16
    // bytes read lie inside it; the read is unaligned, so any offset is sound (stored offsets
    // are multiples of 16, where this is the pair of parameter `off / 16`).
    unsafe {
        d.as_ptr()
            .cast::<u8>()
            .add(off as usize)
            .cast::<[f64; 2]>()
            .read_unaligned()
    }
}

/// Adds `v` to the (mg, eg) pair at byte offset `off` of `d`.
#[inline(always)]
fn add_at(d: &mut Dense, off: u16, v: [f64; 2]) {
    // SAFETY: as in `pair_at`: 16 bytes at any u16 offset lie inside the 65,552-byte array.
    unsafe {
        let p = d
            .as_mut_ptr()
            .cast::<u8>()
            .add(off as usize)
            .cast::<[f64; 2]>();
        let x = p.read_unaligned();
        p.write_unaligned([x[0] + v[0], x[1] + v[1]]);
    }
}

/// `coef * w[idx]` as an (mg, eg) pair.
#[inline(always)]
fn product(t: Term, w: &Dense) -> [f64; 2] {
    let wi = pair_at(w, t.off);
    let c = COEF[t.coef as u8 as usize];
    [c[0] * wi[0], c[1] * wi[1]]
}

/// The middlegame and endgame dot products over one position's terms, in one pass.
/// Two independent accumulator pairs break the floating-point add chain (the loop would
/// otherwise wait on the add latency for every term); four measured slower.
#[inline(always)]
fn dots(terms: &[Term], w: &Dense) -> [f64; 2] {
    let mut acc = [[0.0f64; 2]; 2];
    let mut tc = terms.chunks_exact(2);
    for t2 in &mut tc {
        for (a, t) in acc.iter_mut().zip(t2) {
            let p = product(*t, w);
            a[0] += p[0];
            a[1] += p[1];
        }
    }
    if let [t] = tc.remainder() {
        let p = product(*t, w);
        acc[1][0] += p[0];
        acc[1][1] += p[1];
    }
    [acc[0][0] + acc[1][0], acc[0][1] + acc[1][1]]
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
/// written into `grad` (which is overwritten; entries past the store's width are zero).
pub fn loss_and_grad(
    s: &Store,
    w: &Dense,
    k: f64,
    range: Range<usize>,
    grad: &mut [[f64; 2]],
) -> f64 {
    let n = range.len();
    grad.fill([0.0; 2]);
    if n == 0 {
        return 0.0;
    }
    let width = s.width.min(grad.len());
    let base = range.start;
    let (sse, g) = chunks(n)
        .into_par_iter()
        .map(|r| {
            let mut g = zero_dense();
            let sse = grad_chunk(s, w, k, r.start + base..r.end + base, &mut g);
            (sse, g)
        })
        .reduce_with(|(a, mut ga), (b, gb)| {
            for (x, y) in ga[..width].iter_mut().zip(gb[..width].iter()) {
                x[0] += y[0];
                x[1] += y[1];
            }
            (a + b, ga)
        })
        .expect("at least one chunk");
    let inv = 1.0 / n as f64;
    for (o, x) in grad[..width].iter_mut().zip(g[..width].iter()) {
        *o = [x[0] * inv, x[1] * inv];
    }
    sse * inv
}

/// Positions per block in [`grad_chunk`]: evals, then sigmoids, then gradient scatters, so the
/// three phases of neighbouring positions overlap instead of waiting on each other.
const BLOCK: usize = 64;

/// The single-thread kernel: sum of squared errors over `r`, adding the unnormalised gradient to `g`.
fn grad_chunk(s: &Store, w: &Dense, k: f64, r: Range<usize>, g: &mut Dense) -> f64 {
    let kk = k * LN10_400;
    let mut sse = 0.0;
    let mut x = [0.0f64; BLOCK];
    let mut de = [[0.0f64; 2]; BLOCK];
    let mut p0 = r.start;
    while p0 < r.end {
        let n = (r.end - p0).min(BLOCK);
        for (i, xi) in x[..n].iter_mut().enumerate() {
            *xi = kk * eval_pos(s, p0 + i, w);
        }
        for i in 0..n {
            let e = &s.entries[p0 + i];
            let sig = logistic(x[i]);
            let d = sig - e.result as f64;
            sse += d * d;
            // d/d eval of (sig - r)^2 = 2 (sig - r) sig (1 - sig) K ln10 / 400
            let f = 2.0 * d * sig * (1.0 - sig) * kk;
            de[i] = [f * e.rho_mg(), f * e.rho_eg()];
        }
        for (i, d) in de[..n].iter().enumerate() {
            scatter(&s.terms[s.range(p0 + i)], *d, g);
        }
        p0 += n;
    }
    sse
}

/// Adds `coef * d` to the gradient pair of every term.
#[inline(always)]
fn scatter(terms: &[Term], d: [f64; 2], g: &mut Dense) {
    for t in terms {
        let c = COEF[t.coef as u8 as usize];
        add_at(g, t.off, [c[0] * d[0], c[1] * d[1]]);
    }
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
    fn sigmoid_is_the_elo_models_expected_score() {
        for k in [0.5, 1.0, 1.6] {
            for eval in [-3000.0, -400.0, -35.5, 0.0, 12.0, 400.0, 2500.0] {
                let elo = crate::stats::elo::elo_to_score(k * eval);
                assert!((sigmoid(k, eval) - elo).abs() < 1e-14, "K {k} eval {eval}");
            }
        }
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
        let l = loss_and_grad(&s, &w, k, 0..s.len(), &mut g[..]);
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
    fn inline_exp_matches_libm() {
        let mut x: f64 = -745.0;
        while x < 745.0 {
            let want = x.clamp(-700.0, 700.0).exp();
            let got = exp(x);
            assert!(
                (got - want).abs() <= 4e-16 * want,
                "exp({x}) = {got}, libm {want}"
            );
            x += 0.0137;
        }
        assert_eq!(exp(0.0), 1.0);
    }

    #[test]
    fn grouping_sorts_inside_windows_and_keeps_loss_and_gradient() {
        let s = synthetic(500, 30);
        let grouped = s.grouped(128);
        assert_eq!(grouped.len(), s.len());
        for (wi, win) in (0..s.len()).collect::<Vec<_>>().chunks(128).enumerate() {
            let lens: Vec<usize> = win.iter().map(|&p| grouped.range(p).len()).collect();
            assert!(
                lens.windows(2).all(|l| l[0] <= l[1]),
                "window {wi}: {lens:?}"
            );
            // the same positions, only reordered inside the window
            let mut a: Vec<_> = win.iter().map(|&p| format!("{:?}", s.coefs(p))).collect();
            let mut b: Vec<_> = win
                .iter()
                .map(|&p| format!("{:?}", grouped.coefs(p)))
                .collect();
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
        let w = to_dense(&vec![[5.0, -2.0]; 30]).unwrap();
        let (mut g1, mut g2) = (zero_dense(), zero_dense());
        let l1 = loss_and_grad(&s, &w, 1.1, 0..s.len(), &mut g1[..30]);
        let l2 = loss_and_grad(&grouped, &w, 1.1, 0..s.len(), &mut g2[..30]);
        assert!((l1 - l2).abs() < 1e-12);
        for i in 0..30 {
            assert!((g1[i][0] - g2[i][0]).abs() < 1e-12 && (g1[i][1] - g2[i][1]).abs() < 1e-12);
        }
    }

    #[test]
    fn parallel_sum_equals_serial_sum() {
        let s = synthetic(1000, 20);
        let w = to_dense(&vec![[7.0, -3.0]; 20]).unwrap();
        let mut g = zero_dense();
        let l = loss_and_grad(&s, &w, 1.0, 0..s.len(), &mut g[..]);
        let mut g1 = zero_dense();
        let sse = grad_chunk(&s, &w, 1.0, 0..s.len(), &mut g1);
        assert!((l - sse / 1000.0).abs() < 1e-12);
        for i in 0..20 {
            assert!((g[i][0] - g1[i][0] / 1000.0).abs() < 1e-12);
        }
    }
}
