//! The tuner's model: the engine's tapered linear evaluation in f64, the Texel loss
//! `mean (result - sigmoid(K * eval / 400))^2` with `sigmoid(x) = 1 / (1 + 10^-x)`, and its
//! gradient, summed in parallel with rayon (one dense gradient buffer per chunk, then reduced).

use super::store::{Rec, Store, MAX_PARAMS};
use rayon::prelude::*;
use std::ops::Range;

/// Capacity of the dense weight and gradient arrays, in parameters.
pub const CAP: usize = MAX_PARAMS;

/// Dense (mg, eg) array indexed by parameter: every index a [`Store`] holds is below [`CAP`]
/// (checked when a position is stored or a cache file is opened), so the kernel indexes it
/// without bounds checks.
pub type Dense = [[f64; 2]; CAP];

/// A zeroed dense array on the heap (`calloc`: pages are zeroed lazily, when first touched).
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

/// The White-view eval of position `p` in f64: `mg*phase/24 + eg*(24-phase)*scale/(128*24) + fixed`,
/// from its decoded coefficients (the slow, plain path: tests hold the kernel to it).
pub fn eval_pos(s: &Store, p: usize, w: &Dense) -> f64 {
    let r = s.rec(p);
    let (mut mg, mut eg) = (0.0, 0.0);
    for (i, c) in r.coefs().terms {
        mg += c as f64 * w[i as usize][0];
        eg += c as f64 * w[i as usize][1];
    }
    mg * r.rho_mg() + eg * r.rho_eg() + r.fixed as f64
}

/// Every weight pair twice: slot 2i holds weight i, slot 2i + 1 its negation, so a stored ±1
/// term (a signed slot, see [`super::store`]) is one addition without a sign test.
type Slots = [[f64; 2]; 2 * CAP];

/// Zeroed slots on the heap (`calloc`: pages are zeroed lazily, when first touched).
fn zero_slots() -> Box<Slots> {
    vec![[0.0; 2]; 2 * CAP]
        .into_boxed_slice()
        .try_into()
        .expect("2 * CAP elements")
}

/// The signed slots of `w`.
fn slots(w: &Dense) -> Box<Slots> {
    let mut s = zero_slots();
    for (i, x) in w.iter().enumerate() {
        s[2 * i] = *x;
        s[2 * i + 1] = [-x[0], -x[1]];
    }
    s
}

/// The White-view eval of a stored record.
#[inline(always)]
fn eval_rec(r: &Rec<'_>, ws: &Slots) -> f64 {
    let [mg, eg] = dot(r, ws);
    mg * r.rho_mg() + eg * r.rho_eg() + r.fixed as f64
}

/// The pair in slot `j`.
#[inline(always)]
fn at(ws: &Slots, j: usize) -> [f64; 2] {
    debug_assert!(j < 2 * CAP);
    // SAFETY: records only come from a `Store`, whose indices are all below MAX_PARAMS = CAP
    // (`Store::push` and `Store::from_bytes` refuse any other), so every slot is below 2 * CAP.
    unsafe { *ws.get_unchecked(j) }
}

/// Adds `v` to the pair in slot `j`.
#[inline(always)]
fn add_at(gs: &mut Slots, j: usize, v: [f64; 2]) {
    debug_assert!(j < 2 * CAP);
    // SAFETY: as in `at`.
    let x = unsafe { gs.get_unchecked_mut(j) };
    x[0] += v[0];
    x[1] += v[1];
}

/// The sum of the slots of a unit group, in two independent sums (the loop would otherwise
/// wait on the addition's latency at every term).
#[inline(always)]
fn sum_unit(gaps: &[u8], ws: &Slots) -> [f64; 2] {
    let (mut a, mut b) = ([0.0f64; 2], [0.0f64; 2]);
    let mut j = 0usize;
    let mut pairs = gaps.chunks_exact(2);
    for g in &mut pairs {
        j += g[0] as usize;
        let x = at(ws, j);
        j += g[1] as usize;
        let y = at(ws, j);
        a = [a[0] + x[0], a[1] + x[1]];
        b = [b[0] + y[0], b[1] + y[1]];
    }
    if let [g] = pairs.remainder() {
        let x = at(ws, j + *g as usize);
        a = [a[0] + x[0], a[1] + x[1]];
    }
    [a[0] + b[0], a[1] + b[1]]
}

/// The middlegame and endgame dot products of one record: the unit terms' slots plus the
/// general terms (coefficient times weight), two independent sums.
#[inline(always)]
fn dot(r: &Rec<'_>, ws: &Slots) -> [f64; 2] {
    let u = sum_unit(r.unit, ws);
    let mut g = [0.0f64; 2];
    let mut i = 0usize;
    for t in r.general.chunks_exact(2) {
        i += t[0] as usize;
        let c = t[1] as i8 as f64;
        let x = at(ws, 2 * i);
        g[0] += c * x[0];
        g[1] += c * x[1];
    }
    [u[0] + g[0], u[1] + g[1]]
}

/// Adds `d` to the gradient slot of every unit term and `coef * d` to the +1 slot of the others
/// (the slots are folded into one gradient per weight afterwards: [`fold`]).
#[inline(always)]
fn scatter(r: &Rec<'_>, d: [f64; 2], gs: &mut Slots) {
    let mut j = 0usize;
    for &b in r.unit {
        j += b as usize;
        add_at(gs, j, d);
    }
    let mut i = 0usize;
    for t in r.general.chunks_exact(2) {
        i += t[0] as usize;
        let c = t[1] as i8 as f64;
        add_at(gs, 2 * i, [c * d[0], c * d[1]]);
    }
}

/// The gradient of each weight from its two slots: d/dw of a -w term is minus its slot's sum.
fn fold(gs: &Slots, out: &mut [[f64; 2]], scale: f64) {
    for (i, o) in out.iter_mut().enumerate() {
        let (p, m) = (gs[2 * i], gs[2 * i + 1]);
        *o = [(p[0] - m[0]) * scale, (p[1] - m[1]) * scale];
    }
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
    let ws = slots(w);
    let sse: f64 = chunks(n)
        .into_par_iter()
        .map(|r| {
            let mut acc = 0.0;
            for rec in s.records(r.start + base..r.end + base) {
                let d = rec.result - sigmoid(k, eval_rec(&rec, &ws));
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
    let width = s.width().min(grad.len());
    let base = range.start;
    let ws = slots(w);
    let (sse, g) = chunks(n)
        .into_par_iter()
        .map(|r| {
            let mut g = zero_slots();
            let sse = grad_chunk(s, &ws, k, r.start + base..r.end + base, &mut g);
            (sse, g)
        })
        .reduce_with(|(a, mut ga), (b, gb)| {
            for (x, y) in ga[..2 * width].iter_mut().zip(gb[..2 * width].iter()) {
                x[0] += y[0];
                x[1] += y[1];
            }
            (a + b, ga)
        })
        .expect("at least one chunk");
    let inv = 1.0 / n as f64;
    fold(&g, &mut grad[..width], inv);
    sse * inv
}

/// Positions per block in [`grad_chunk`]: evals, then sigmoids, then gradient scatters, so the
/// three phases of neighbouring positions overlap instead of waiting on each other.
const BLOCK: usize = 64;

/// The single-thread kernel: sum of squared errors over `r`, adding the unnormalised gradient to `g`.
fn grad_chunk(s: &Store, ws: &Slots, k: f64, r: Range<usize>, g: &mut Slots) -> f64 {
    let kk = k * LN10_400;
    let mut sse = 0.0;
    let mut x = [0.0f64; BLOCK];
    let mut de = [[0.0f64; 2]; BLOCK];
    let mut recs = s.records(r.clone());
    let mut block: Vec<Rec<'_>> = Vec::with_capacity(BLOCK);
    loop {
        block.clear();
        block.extend(recs.by_ref().take(BLOCK));
        if block.is_empty() {
            break;
        }
        let n = block.len();
        for (xi, rec) in x[..n].iter_mut().zip(&block) {
            *xi = kk * eval_rec(rec, ws);
        }
        for i in 0..n {
            let e = &block[i];
            let sig = logistic(x[i]);
            let d = sig - e.result;
            sse += d * d;
            // d/d eval of (sig - r)^2 = 2 (sig - r) sig (1 - sig) K ln10 / 400
            let f = 2.0 * d * sig * (1.0 - sig) * kk;
            de[i] = [f * e.rho_mg(), f * e.rho_eg()];
        }
        for (rec, d) in block.iter().zip(&de[..n]) {
            scatter(rec, *d, g);
        }
    }
    sse
}

/// White-view evals of positions `range` (for K fitting, where the weights do not move).
pub fn evals(s: &Store, w: &Dense, range: Range<usize>) -> Vec<f64> {
    let base = range.start;
    let ws = slots(w);
    chunks(range.len())
        .into_par_iter()
        .map(|r| {
            s.records(r.start + base..r.end + base)
                .map(|rec| eval_rec(&rec, &ws))
                .collect::<Vec<f64>>()
        })
        .flatten()
        .collect()
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
            let lens: Vec<(usize, usize)> = win
                .iter()
                .map(|&p| {
                    let r = grouped.rec(p);
                    (r.unit.len(), r.general.len())
                })
                .collect();
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
        let mut gs = zero_slots();
        let sse = grad_chunk(&s, &slots(&w), 1.0, 0..s.len(), &mut gs);
        let mut g1 = zero_dense();
        fold(&gs, &mut g1[..20], 1.0 / 1000.0);
        assert!((l - sse / 1000.0).abs() < 1e-12);
        for i in 0..20 {
            assert!((g[i][0] - g1[i][0]).abs() < 1e-12 && (g[i][1] - g1[i][1]).abs() < 1e-12);
        }
    }
}
