//! The kernel: the loss and its exact gradient over a store, summed in parallel with rayon (two
//! gradient accumulators per chunk, one a slot of the dictionary's table and one a weight for
//! the terms without a slot, then reduced; the slots' sums are unfolded into the weights'
//! gradient at the end, [`super::dict::Dict::unfold`]).
//!
//! Each chunk goes a block of [`BLOCK`] positions at a time: the block is decoded once
//! ([`Block`]), then three passes: every position's evaluation, every sigmoid and its
//! derivative (a loop over arrays), and the scatter of every position's share of the gradient
//! to its terms' slots. The passes of neighbouring positions are independent, so the processor
//! overlaps them, and the block's bytes are still in the first-level cache for the scatter.

use super::block::{Block, Groups, BLOCK};
use super::model::{logistic, zero_dense, Dense, LN10_400};
use super::store::Store;
use rayon::prelude::*;
use std::ops::Range;

/// Defines `$name`, which calls `$imp` compiled for the widest vector unit the processor has
/// (AVX-512, AVX2, or the baseline SSE2): the sigmoids of a block run in eight, four or two
/// lanes (AVX-512 made an epoch 1.2 times faster than SSE2). The arithmetic is the same
/// operations in the same order in every width (no fused multiply-add), so the results are
/// the same to the bit.
macro_rules! widest {
    ($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $imp:ident) => {
        $(#[$doc])*
        fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f")]
                fn avx512($($arg: $ty),*) -> $ret {
                    $imp($($arg),*)
                }
                #[target_feature(enable = "avx2")]
                fn avx2($($arg: $ty),*) -> $ret {
                    $imp($($arg),*)
                }
                if std::arch::is_x86_feature_detected!("avx512f") {
                    // SAFETY: the processor has AVX-512F, checked on the line above.
                    return unsafe { avx512($($arg),*) };
                }
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the processor has AVX2, checked on the line above.
                    return unsafe { avx2($($arg),*) };
                }
            }
            $imp($($arg),*)
        }
    };
}

/// A block of records whose term slots fall outside the weight tables: the store's bytes are
/// not those checked when it was opened (a cache file damaged, or changed while mapped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotError {
    /// The first position of the block.
    pub block: usize,
}

impl std::fmt::Display for SlotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "positions from {}: a term outside the weight tables; the data changed after it \
             was checked (a cache file damaged or rewritten while the tuner read it: delete it \
             and run again to rebuild it)",
            self.block
        )
    }
}

impl std::error::Error for SlotError {}

/// Whether every term of the block's records indexes within tables of `slots` slots and
/// `others` weights: each chain's last slot (the sum of its gaps: a chain only climbs), every
/// far slot, and each record's last other term (the sum of its gaps). Taken only for a block
/// whose evaluations hold a NaN ([`refused`]): the reads themselves are checked ([`at`],
/// [`add_at`]), so this only tells a changed file from weights that diverged.
fn within(b: &Block<'_>, slots: usize, others: usize) -> bool {
    b.groups[..b.n].iter().all(|&(chain, far, general)| {
        let last_chain: usize = chain.iter().map(|&g| g as usize).sum();
        let far_ok = far
            .chunks_exact(2)
            .all(|f| usize::from(u16::from_le_bytes([f[0], f[1]])) < slots);
        let last_other: usize = general.chunks_exact(2).map(|t| t[0] as usize).sum();
        (chain.is_empty() || last_chain < slots)
            && far_ok
            && (general.len() < 2 || last_other < others)
    })
}

/// What a slot outside the table reads: NaN, which poisons the position's evaluation; the
/// kernel looks for NaN after each block and then checks the block's slots ([`within`]).
const OUTSIDE: [f64; 2] = [f64::NAN, f64::NAN];

/// Whether the block must be refused: one of its evaluations is NaN and its slots are not all
/// within the tables (NaN weights, which a diverging run can reach, are not the data's fault and
/// go on as before).
#[inline(always)]
fn refused(b: &Block<'_>, x: &[f64; BLOCK], slots: usize, others: usize) -> bool {
    x[..b.n].iter().any(|v| v.is_nan()) && !within(b, slots, others)
}

/// The pair in slot `j` (checked: [`OUTSIDE`] past the end).
#[inline(always)]
fn at(ws: &[[f64; 2]], j: usize) -> [f64; 2] {
    *ws.get(j).unwrap_or(&OUTSIDE)
}

/// Adds `v` to the pair in slot `j` (checked: nothing past the end; the evaluation of the
/// same position read [`OUTSIDE`] there, so the block is refused).
#[inline(always)]
fn add_at(gs: &mut [[f64; 2]], j: usize, v: [f64; 2]) {
    if let Some(x) = gs.get_mut(j) {
        x[0] += v[0];
        x[1] += v[1];
    }
}

/// The sum of the slots of a chain, in two independent sums (one sum would wait on the
/// addition's latency at every term).
#[inline(always)]
fn sum_chain(gaps: &[u8], ws: &[[f64; 2]]) -> [f64; 2] {
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

/// The sum of the far slots, in two independent sums as [`sum_chain`].
#[inline(always)]
fn sum_far(far: &[u8], ws: &[[f64; 2]]) -> [f64; 2] {
    let (mut a, mut b) = ([0.0f64; 2], [0.0f64; 2]);
    let slot = |f: &[u8]| u16::from_le_bytes([f[0], f[1]]) as usize;
    let mut quads = far.chunks_exact(4);
    for q in &mut quads {
        let (x, y) = (at(ws, slot(&q[..2])), at(ws, slot(&q[2..])));
        a = [a[0] + x[0], a[1] + x[1]];
        b = [b[0] + y[0], b[1] + y[1]];
    }
    if let [f0, f1] = quads.remainder() {
        let x = at(ws, slot(&[*f0, *f1]));
        a = [a[0] + x[0], a[1] + x[1]];
    }
    [a[0] + b[0], a[1] + b[1]]
}

/// The (mg, eg) sums of one record: its chain's slots plus its other terms (coefficient times
/// weight).
#[inline(always)]
fn dot((chain, far, others): Groups<'_>, ws: &[[f64; 2]], w: &Dense) -> [f64; 2] {
    let (u, v) = (sum_chain(chain, ws), sum_far(far, ws));
    let mut g = [v[0], v[1]];
    let mut i = 0usize;
    for t in others.chunks_exact(2) {
        i += t[0] as usize;
        let c = t[1] as i8 as f64;
        let x = at(w, i);
        g[0] += c * x[0];
        g[1] += c * x[1];
    }
    [u[0] + g[0], u[1] + g[1]]
}

/// The White-view evals of the block's positions, into `x[..b.n]`.
#[inline(always)]
fn eval_block(b: &Block<'_>, ws: &[[f64; 2]], w: &Dense, x: &mut [f64; BLOCK]) {
    for (j, xj) in x[..b.n].iter_mut().enumerate() {
        let [mg, eg] = dot(b.groups[j], ws, w);
        *xj = mg * b.rho_mg[j] + eg * b.rho_eg[j] + b.fixed[j];
    }
}

/// Adds `d` to the gradient slot of every chain term, and `coef * d` to the dense gradient of
/// every other term.
#[inline(always)]
fn scatter(
    (chain, far, others): Groups<'_>,
    d: [f64; 2],
    gs: &mut [[f64; 2]],
    gd: &mut [[f64; 2]],
) {
    let mut j = 0usize;
    for &b in chain {
        j += b as usize;
        add_at(gs, j, d);
    }
    for f in far.chunks_exact(2) {
        add_at(gs, u16::from_le_bytes([f[0], f[1]]) as usize, d);
    }
    let mut i = 0usize;
    for t in others.chunks_exact(2) {
        i += t[0] as usize;
        let c = t[1] as i8 as f64;
        add_at(gd, i, [c * d[0], c * d[1]]);
    }
}

/// Splits `0..n` into contiguous chunks for the rayon workers (a few per thread for balance).
fn chunks(n: usize) -> Vec<Range<usize>> {
    let parts = (rayon::current_num_threads() * 4).clamp(1, n.max(1));
    let size = n.div_ceil(parts).max(1);
    (0..n).step_by(size).map(|a| a..(a + size).min(n)).collect()
}

/// Mean squared error over positions `range` at weights `w` and scale `k`.
pub fn loss(s: &Store, w: &Dense, k: f64, range: Range<usize>) -> Result<f64, SlotError> {
    let n = range.len();
    if n == 0 {
        return Ok(0.0);
    }
    let base = range.start;
    let ws = s.dict().table(w);
    let kk = k * LN10_400;
    let sse: f64 = chunks(n)
        .into_par_iter()
        .map(|r| loss_chunk(s, (&ws, w), kk, r.start + base..r.end + base))
        .try_reduce(|| 0.0, |a, b| Ok(a + b))?;
    Ok(sse / n as f64)
}

type Sums = Result<f64, SlotError>;

widest! {
    /// Sum of squared errors over `r` (`kk`: the scale K times ln 10 / 400).
    fn loss_chunk(s: &Store, tables: (&[[f64; 2]], &Dense), kk: f64, r: Range<usize>) -> Sums =
        loss_chunk_any
}

#[inline(always)]
fn loss_chunk_any(s: &Store, (ws, w): (&[[f64; 2]], &Dense), kk: f64, r: Range<usize>) -> Sums {
    let mut b = Block::new();
    let mut x = [0.0f64; BLOCK];
    let mut at = r.start;
    let mut recs = s.records(r);
    let mut acc = 0.0;
    while b.fill(&mut recs) > 0 {
        eval_block(&b, ws, w, &mut x);
        if refused(&b, &x, ws.len(), w.len()) {
            return Err(SlotError { block: at });
        }
        at += b.n;
        for (&xj, &rj) in x[..b.n].iter().zip(&b.result) {
            let d = rj - logistic(kk * xj);
            acc += d * d;
        }
    }
    Ok(acc)
}

/// Mean squared error over `range` and its gradient with respect to every weight (mg, eg),
/// written into `grad` (which is overwritten; entries past the store's width are zero).
pub fn loss_and_grad(
    s: &Store,
    w: &Dense,
    k: f64,
    range: Range<usize>,
    grad: &mut [[f64; 2]],
) -> Result<f64, SlotError> {
    let n = range.len();
    grad.fill([0.0; 2]);
    if n == 0 {
        return Ok(0.0);
    }
    let width = s.width().min(grad.len());
    let base = range.start;
    let ws = s.dict().table(w);
    let (sse, mut gs, mut gd) = chunks(n)
        .into_par_iter()
        .map(|r| {
            let mut gs = vec![[0.0; 2]; ws.len()];
            let mut gd = zero_dense();
            let sse = grad_chunk(
                s,
                (&ws, w),
                k,
                r.start + base..r.end + base,
                &mut gs,
                &mut gd,
            )?;
            Ok((sse, gs, gd))
        })
        .try_reduce_with(|(a, mut gsa, mut gda), (b, gsb, gdb)| {
            add_into(&mut gsa, &gsb);
            add_into(&mut gda[..width], &gdb[..width]);
            Ok((a + b, gsa, gda))
        })
        .expect("at least one chunk")?;
    s.dict().unfold(&mut gs, &mut gd[..]);
    let inv = 1.0 / n as f64;
    for (o, x) in grad[..width].iter_mut().zip(&gd[..width]) {
        *o = [x[0] * inv, x[1] * inv];
    }
    Ok(sse * inv)
}

fn add_into(a: &mut [[f64; 2]], b: &[[f64; 2]]) {
    for (x, y) in a.iter_mut().zip(b) {
        x[0] += y[0];
        x[1] += y[1];
    }
}

widest! {
    /// The single-thread kernel: sum of squared errors over `r`, adding the unnormalised
    /// gradient to `gs` (the table's slots) and `gd` (the other terms' weights).
    fn grad_chunk(
        s: &Store,
        tables: (&[[f64; 2]], &Dense),
        k: f64,
        r: Range<usize>,
        gs: &mut [[f64; 2]],
        gd: &mut Dense
    ) -> Sums = grad_chunk_any
}

#[inline(always)]
fn grad_chunk_any(
    s: &Store,
    (ws, w): (&[[f64; 2]], &Dense),
    k: f64,
    r: Range<usize>,
    gs: &mut [[f64; 2]],
    gd: &mut Dense,
) -> Sums {
    let kk = k * LN10_400;
    let mut sse = 0.0;
    let mut b = Block::new();
    let mut x = [0.0f64; BLOCK];
    let (mut dm, mut de, mut e2) = ([0.0f64; BLOCK], [0.0f64; BLOCK], [0.0f64; BLOCK]);
    let mut at = r.start;
    let mut recs = s.records(r);
    // The gradient tables have the weight tables' lengths (the proof below covers both).
    let (slots, others) = (ws.len().min(gs.len()), w.len().min(gd.len()));
    while b.fill(&mut recs) > 0 {
        let n = b.n;
        eval_block(&b, ws, w, &mut x);
        if refused(&b, &x, slots, others) {
            return Err(SlotError { block: at });
        }
        at += n;
        // no running sum inside this loop, so the compiler can vectorise it; the squared
        // errors are summed after it, in the same order as before
        for j in 0..n {
            let sig = logistic(kk * x[j]);
            let d = sig - b.result[j];
            e2[j] = d * d;
            // d/d eval of (sig - r)^2 = 2 (sig - r) sig (1 - sig) K ln10 / 400
            let f = 2.0 * d * sig * (1.0 - sig) * kk;
            dm[j] = f * b.rho_mg[j];
            de[j] = f * b.rho_eg[j];
        }
        for &e in &e2[..n] {
            sse += e;
        }
        for j in 0..n {
            scatter(b.groups[j], [dm[j], de[j]], gs, &mut gd[..]);
        }
    }
    Ok(sse)
}

/// White-view evals of positions `range` (for K fitting, where the weights do not move).
pub fn evals(s: &Store, w: &Dense, range: Range<usize>) -> Result<Vec<f64>, SlotError> {
    let base = range.start;
    let ws = s.dict().table(w);
    let parts: Vec<Vec<f64>> = chunks(range.len())
        .into_par_iter()
        .map(|r| {
            let mut b = Block::new();
            let mut x = [0.0f64; BLOCK];
            let mut out = Vec::with_capacity(r.len());
            let mut at = r.start + base;
            let mut recs = s.records(r.start + base..r.end + base);
            while b.fill(&mut recs) > 0 {
                eval_block(&b, &ws, w, &mut x);
                if refused(&b, &x, ws.len(), w.len()) {
                    return Err(SlotError { block: at });
                }
                at += b.n;
                out.extend_from_slice(&x[..b.n]);
            }
            Ok(out)
        })
        .collect::<Result<_, _>>()?;
    Ok(parts.concat())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::dict::Dict;
    use super::super::model::{eval_pos, to_dense, zero_dense};
    use super::super::record::Coefs;
    use super::*;

    /// A small synthetic store with varied phases and coefficients (deterministic), its
    /// dictionary learnt from its positions.
    pub(crate) fn synthetic(n: usize, params: u16) -> Store {
        let mut rng = sable::rng::Rng::from_seed(0x9E37_79B9);
        let mut next = || rng.next_u64();
        let mut all = Vec::new();
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
                eg_fixed: (next() % 101) as i32 - 50,
                terms,
            };
            all.push((c, (next() % 3) as f64 / 2.0));
        }
        coded(&all, params as usize)
    }

    /// A store of `positions` with a dictionary learnt from them.
    fn coded(positions: &[(Coefs, f64)], params: usize) -> Store {
        let sample: Vec<Coefs> = positions.iter().map(|p| p.0.clone()).collect();
        let mut s = Store::with_dict(std::sync::Arc::new(Dict::learn(&sample, params)));
        for (c, r) in positions {
            s.push(c, *r).unwrap();
        }
        s
    }

    #[test]
    fn a_dictionary_changes_no_eval_loss_or_gradient() {
        let mut rng = sable::rng::Rng::from_seed(5);
        let positions: Vec<(Coefs, f64)> = crate::tune::dict::tests::planted(3000, 100, 7)
            .into_iter()
            .map(|mut c| {
                c.phase = rng.below(25) as i32;
                c.scale = 64 + rng.below(65) as i32;
                c.fixed = rng.below(21) as i32 - 10;
                c.eg_fixed = rng.below(101) as i32 - 50;
                (c, rng.below(3) as f64 / 2.0)
            })
            .collect();
        let s = coded(&positions, 100);
        let mut plain = Store::new();
        assert!(plain.encode_all(&s).is_empty());
        assert!(s.dict().pairs() > 0);
        let (mut chain, mut terms) = (0, 0);
        for (p, (c, _)) in positions.iter().enumerate() {
            assert_eq!(s.coefs(p), plain.coefs(p), "position {p}");
            let r = s.rec(p);
            chain += r.unit.len() + r.far.len() / 2 + r.general.len() / 2;
            terms += c.terms.len();
        }
        assert!(3 * chain < 2 * terms, "{chain} chain terms for {terms}");
        let w0: Vec<[f64; 2]> = (0..100)
            .map(|i| [3.0 * i as f64 - 140.0, 60.5 - 1.5 * i as f64])
            .collect();
        let w = to_dense(&w0).unwrap();
        let (e1, e2) = (
            evals(&s, &w, 0..s.len()).unwrap(),
            evals(&plain, &w, 0..s.len()).unwrap(),
        );
        for p in 0..s.len() {
            assert!((e1[p] - e2[p]).abs() < 1e-9, "position {p}");
            assert!(
                (e1[p] - eval_pos(&plain, p, &w)).abs() < 1e-9,
                "position {p}"
            );
        }
        let (mut g1, mut g2) = (zero_dense(), zero_dense());
        let l1 = loss_and_grad(&s, &w, 1.2, 0..s.len(), &mut g1[..]).unwrap();
        let l2 = loss_and_grad(&plain, &w, 1.2, 0..s.len(), &mut g2[..]).unwrap();
        assert!((l1 - l2).abs() < 1e-12);
        for i in 0..100 {
            for ph in 0..2 {
                let (a, b) = (g1[i][ph], g2[i][ph]);
                assert!(
                    (a - b).abs() <= 1e-12 * (1.0 + b.abs()),
                    "{i}/{ph}: {a} {b}"
                );
            }
        }
    }

    #[test]
    fn kernel_evals_equal_the_plain_formula() {
        let s = synthetic(700, 40);
        let w0: Vec<[f64; 2]> = (0..40)
            .map(|i| [13.0 * i as f64 - 200.0, 77.5 - 5.0 * i as f64])
            .collect();
        let w = to_dense(&w0).unwrap();
        let e = evals(&s, &w, 0..s.len()).unwrap();
        for (p, &x) in e.iter().enumerate() {
            assert!((x - eval_pos(&s, p, &w)).abs() < 1e-9, "position {p}");
        }
        let part = evals(&s, &w, 130..131).unwrap();
        assert_eq!(part, vec![e[130]]);
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
        let l = loss_and_grad(&s, &w, k, 0..s.len(), &mut g[..]).unwrap();
        assert!((l - loss(&s, &w, k, 0..s.len()).unwrap()).abs() < 1e-12);
        let h = 1e-4;
        for i in 0..12 {
            for ph in 0..2 {
                let mut wp = w.clone();
                let mut wm = w.clone();
                wp[i][ph] += h;
                wm[i][ph] -= h;
                let fd = (loss(&s, &wp, k, 0..s.len()).unwrap()
                    - loss(&s, &wm, k, 0..s.len()).unwrap())
                    / (2.0 * h);
                let a = g[i][ph];
                assert!(
                    (fd - a).abs() <= 1e-7 + 1e-4 * a.abs(),
                    "param {i}/{ph}: fd {fd} vs {a}"
                );
            }
        }
    }

    #[test]
    fn grouping_sorts_inside_windows_and_keeps_loss_and_gradient() {
        let s = synthetic(500, 30);
        let grouped = s.grouped(128);
        assert_eq!(grouped.len(), s.len());
        for (wi, win) in (0..s.len()).collect::<Vec<_>>().chunks(128).enumerate() {
            let lens: Vec<_> = win.iter().map(|&p| grouped.rec(p).lengths()).collect();
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
        let l1 = loss_and_grad(&s, &w, 1.1, 0..s.len(), &mut g1[..30]).unwrap();
        let l2 = loss_and_grad(&grouped, &w, 1.1, 0..s.len(), &mut g2[..30]).unwrap();
        assert!((l1 - l2).abs() < 1e-12);
        for i in 0..30 {
            assert!((g1[i][0] - g2[i][0]).abs() < 1e-12 && (g1[i][1] - g2[i][1]).abs() < 1e-12);
        }
    }

    #[test]
    fn slots_outside_the_tables_are_an_error_in_every_kernel() {
        let s = synthetic(300, 30);
        let w = to_dense(&vec![[1.0, 2.0]; 30]).unwrap();
        let ws = s.dict().table(&w[..]);
        assert!(ws.len() > 1);
        let short = &ws[..ws.len() / 2];
        let kk = LN10_400;
        assert_eq!(
            loss_chunk(&s, (short, &w), kk, 0..s.len()),
            Err(SlotError { block: 0 })
        );
        let (mut gs, mut gd) = (vec![[0.0; 2]; short.len()], zero_dense());
        let got = grad_chunk(&s, (short, &w), 1.0, 0..s.len(), &mut gs, &mut gd);
        assert_eq!(got, Err(SlotError { block: 0 }));
        // The same tables in full pass.
        assert!(loss_chunk(&s, (&ws, &w), kk, 0..s.len()).is_ok());
    }

    #[test]
    fn every_vector_width_gives_the_same_bits() {
        let s = synthetic(900, 30);
        let w = to_dense(&vec![[11.0, -4.5]; 30]).unwrap();
        let ws = s.dict().table(&w[..]);
        let run = |wide: bool| {
            let (mut gs, mut gd) = (vec![[0.0; 2]; ws.len()], zero_dense());
            let sse = if wide {
                grad_chunk(&s, (&ws, &w), 1.1, 0..s.len(), &mut gs, &mut gd)
            } else {
                grad_chunk_any(&s, (&ws, &w), 1.1, 0..s.len(), &mut gs, &mut gd)
            };
            (sse.unwrap().to_bits(), gs, gd[..30].to_vec())
        };
        // the dispatched kernel (AVX-512 or AVX2 where the processor has them) and the
        // baseline one
        assert_eq!(run(true), run(false));
        let kk = 1.1 * LN10_400;
        let a = loss_chunk(&s, (&ws, &w), kk, 0..s.len());
        let b = loss_chunk_any(&s, (&ws, &w), kk, 0..s.len());
        assert_eq!(a.unwrap().to_bits(), b.unwrap().to_bits());
    }

    #[test]
    fn parallel_sum_equals_serial_sum() {
        let s = synthetic(1000, 20);
        let w = to_dense(&vec![[7.0, -3.0]; 20]).unwrap();
        let mut g = zero_dense();
        let l = loss_and_grad(&s, &w, 1.0, 0..s.len(), &mut g[..]).unwrap();
        let ws = s.dict().table(&w[..]);
        let mut gs = vec![[0.0; 2]; ws.len()];
        let mut g1 = zero_dense();
        let sse = grad_chunk(&s, (&ws, &w), 1.0, 0..s.len(), &mut gs, &mut g1).unwrap();
        s.dict().unfold(&mut gs, &mut g1[..]);
        assert!((l - sse / 1000.0).abs() < 1e-12);
        for i in 0..20 {
            let (a, b) = (g[i], [g1[i][0] / 1000.0, g1[i][1] / 1000.0]);
            assert!((a[0] - b[0]).abs() < 1e-12 && (a[1] - b[1]).abs() < 1e-12);
        }
    }
}
