//! The tuner's model: the engine's tapered linear evaluation in f64 and the Texel loss
//! `mean (result - sigmoid(K * eval / 400))^2` with `sigmoid(x) = 1 / (1 + 10^-x)`; the kernel
//! that sums it and its gradient over a store is [`super::kernel`].

use super::error::CapacityError;
use super::record::MAX_PARAMS;
use super::store::Store;

/// Capacity of the dense weight and gradient arrays, in parameters.
pub const CAP: usize = MAX_PARAMS;

/// Dense (mg, eg) array indexed by parameter: every index a [`Store`] holds is below [`CAP`]
/// (checked when a position is stored or a cache file is opened; the kernel's reads are
/// checked again, `tune::kernel::at`).
pub type Dense = [[f64; 2]; CAP];

/// A zeroed dense array on the heap (`calloc`: pages are zeroed lazily, when first touched).
pub fn zero_dense() -> Box<Dense> {
    vec![[0.0; 2]; CAP]
        .into_boxed_slice()
        .try_into()
        .expect("CAP elements")
}

/// Dense array holding `w` (the rest zero). Fails if `w` is longer than [`CAP`].
pub fn to_dense(w: &[[f64; 2]]) -> Result<Box<Dense>, CapacityError> {
    if w.len() > CAP {
        return Err(CapacityError { params: w.len() });
    }
    let mut d = zero_dense();
    d[..w.len()].copy_from_slice(w);
    Ok(d)
}

/// `ln(10) / 400`: turns `K * eval` in centipawns into the natural-log argument of the sigmoid.
pub(super) const LN10_400: f64 = std::f64::consts::LN_10 / 400.0;

/// Expected score for a White-view eval in centipawns: `1 / (1 + 10^(-K * eval / 400))`, the Elo
/// model's expected score of `K * eval` ([`crate::stats::elo::elo_to_score`]). Computed here with
/// the inline [`exp`] because it is the tuner's innermost loop (the test below ties the two).
#[inline]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    logistic(k * LN10_400 * eval)
}

/// `1 / (1 + e^-x)` with the inline [`exp`] below.
#[inline(always)]
pub(super) fn logistic(x: f64) -> f64 {
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

/// The White-view eval of position `p` in f64:
/// `mg*phase/24 + (eg + eg_fixed)*(24-phase)*scale/(128*24) + fixed`, from its decoded
/// coefficients (the slow, plain path: tests hold the kernel to it).
pub fn eval_pos(s: &Store, p: usize, w: &Dense) -> f64 {
    let r = s.rec(p);
    let (mut mg, mut eg) = (0.0, 0.0);
    for (i, c) in s.coefs(p).terms {
        mg += c as f64 * w[i as usize][0];
        eg += c as f64 * w[i as usize][1];
    }
    mg * r.rho_mg() + (eg + r.eg_fixed as f64) * r.rho_eg() + r.fixed as f64
}

#[cfg(test)]
mod tests {
    use super::super::record::Coefs;
    use super::*;

    #[test]
    fn eval_matches_the_documented_formula() {
        let mut s = Store::new();
        let c = Coefs {
            phase: 6,
            scale: 64,
            fixed: 5,
            eg_fixed: -30,
            terms: vec![(0, 2), (1, -1)],
        };
        s.push(&c, 1.0).unwrap();
        let w = to_dense(&[[100.0, 200.0], [30.0, 50.0]]).unwrap();
        // mg = 170, eg = 350 - 30: 170*6/24 + 320*18*64/(128*24) + 5
        let want = 170.0 * 6.0 / 24.0 + 320.0 * 18.0 * 64.0 / (128.0 * 24.0) + 5.0;
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
}
