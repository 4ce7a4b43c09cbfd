//! A small deterministic random generator (xorshift64*) for everything that must be
//! reproducible from a seed: magic-number search, `genfens` openings, and in the harness random
//! playouts, generated suites, SPSA and book shuffling. Not for anything that needs statistical quality.

/// xorshift64* state. The state must not be zero (zero stays zero); callers seed with `| 1` or
/// a fixed non-zero constant.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator starting from `state` (non-zero).
    pub const fn new(state: u64) -> Rng {
        Rng(state)
    }

    /// A generator for a user's seed (any value, zero included): the seed is spread over the
    /// state's bits by the golden-ratio multiplier and made odd, so nearby seeds start far
    /// apart and the state is never zero.
    pub const fn from_seed(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0; the modulo bias is negligible for our sizes).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_is_reproducible_and_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
        assert!(xs.iter().all(|&x| x == b.next_u64()));
        assert!(xs.windows(2).all(|w| w[0] != w[1]));
        assert!((0..1000).all(|_| a.below(10) < 10));
        assert_eq!(a.below(0), 0);
    }
}
