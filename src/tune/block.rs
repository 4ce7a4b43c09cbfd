//! A block of consecutive records with their headers decoded once into arrays, for the kernel.
//!
//! The kernel reads every position's header three times (the evaluation, the sigmoid, the
//! gradient's scatter). Decoded once per block, the values the sigmoid needs (result and the
//! two tapering weights) lie side by side in arrays, so the sigmoid pass is a plain loop over
//! arrays, and the term loops find each record's two groups without decoding its header again.

use super::record::Rec;
use super::store::Records;

/// A record's chain, far terms and other terms.
pub type Groups<'a> = (&'a [u8], &'a [u8], &'a [u8]);

/// Positions per block: small enough that a block's records stay in the first-level cache
/// between the evaluation and the scatter.
pub const BLOCK: usize = 64;

/// The headers and term groups of up to [`BLOCK`] records.
pub struct Block<'a> {
    /// Positions decoded.
    pub n: usize,
    /// Training target of each position.
    pub result: [f64; BLOCK],
    /// Middlegame weight of each position (phase / 24).
    pub rho_mg: [f64; BLOCK],
    /// Endgame weight of each position ((24 - phase) * scale / (128 * 24)).
    pub rho_eg: [f64; BLOCK],
    /// Untunable centipawns of each position: the fixed part plus the fixed end-game part
    /// tapered and scaled (`fixed + eg_fixed * rho_eg`), so the kernel adds one constant.
    pub fixed: [f64; BLOCK],
    /// The chain, far and other terms of each position ([`super::record`]).
    pub groups: [Groups<'a>; BLOCK],
}

impl<'a> Block<'a> {
    /// An empty block.
    pub fn new() -> Block<'a> {
        Block {
            n: 0,
            result: [0.0; BLOCK],
            rho_mg: [0.0; BLOCK],
            rho_eg: [0.0; BLOCK],
            fixed: [0.0; BLOCK],
            groups: [(&[], &[], &[]); BLOCK],
        }
    }

    /// Decodes the next up to [`BLOCK`] records of `recs`; returns how many (0 at the end).
    pub fn fill(&mut self, recs: &mut Records<'a>) -> usize {
        let mut n = 0;
        for r in recs.by_ref().take(BLOCK) {
            self.put(n, &r);
            n += 1;
        }
        self.n = n;
        n
    }

    #[inline(always)]
    fn put(&mut self, j: usize, r: &Rec<'a>) {
        self.result[j] = r.result;
        self.rho_mg[j] = r.rho_mg();
        self.rho_eg[j] = r.rho_eg();
        self.fixed[j] = r.fixed as f64 + r.eg_fixed as f64 * self.rho_eg[j];
        self.groups[j] = (r.unit, r.far, r.general);
    }
}

impl Default for Block<'_> {
    fn default() -> Self {
        Block::new()
    }
}

#[cfg(test)]
mod tests {
    use super::super::record::Coefs;
    use super::super::store::Store;
    use super::*;

    #[test]
    fn a_block_holds_the_headers_and_groups_of_its_records() {
        let mut s = Store::new();
        let mut want = Vec::new();
        for p in 0..150u16 {
            let mut c = Coefs {
                phase: (p % 25) as i32,
                scale: 100 + (p % 29) as i32,
                fixed: p as i32 - 70,
                eg_fixed: 40 - (p % 90) as i32,
                terms: vec![
                    (p, 1),
                    (p + 1, -2),
                    (p + 2, 7),
                    (3 * p + 200, -1),
                    (600, -130),
                ],
            };
            s.push(&c, (p % 3) as f64 / 2.0).unwrap();
            c.terms.sort();
            want.push(c);
        }
        let mut b = Block::new();
        let mut recs = s.records(0..s.len());
        let mut p = 0;
        while b.fill(&mut recs) > 0 {
            for j in 0..b.n {
                let r = s.rec(p);
                assert_eq!(b.groups[j], (r.unit, r.far, r.general), "position {p}");
                let c = &want[p];
                assert_eq!(s.coefs(p), *c);
                assert!((b.rho_mg[j] - c.phase as f64 / 24.0).abs() < 1e-15);
                let eg = ((24 - c.phase) * c.scale) as f64 / (128.0 * 24.0);
                assert!((b.rho_eg[j] - eg).abs() < 1e-15);
                let fixed = c.fixed as f64 + c.eg_fixed as f64 * eg;
                assert!((b.fixed[j] - fixed).abs() < 1e-12);
                assert_eq!(b.result[j], (p % 3) as f64 / 2.0);
                p += 1;
            }
        }
        assert_eq!(p, 150);
    }
}
