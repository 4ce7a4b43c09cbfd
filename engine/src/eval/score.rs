//! `S`: a middle-game / end-game score pair packed into one `i32`.
//!
//! Packing both halves into one integer lets the evaluation add and scale pairs with a single
//! instruction; the end-game half lives in the upper 16 bits, the middle-game half in the lower
//! 16 bits (with the usual borrow correction when reading the upper half back).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A packed (middle game, end game) pair of centipawn values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct S(i32);

impl S {
    /// The zero pair.
    pub const ZERO: S = S(0);

    /// Packs `mg` and `eg`; each half must fit in an `i16`.
    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> S {
        S(((eg as u32) << 16) as i32 + mg)
    }

    /// The middle-game half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    /// The end-game half.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        ((self.0 as u32).wrapping_add(0x8000) >> 16) as i16 as i32
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0.wrapping_add(o.0))
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 = self.0.wrapping_add(o.0);
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0.wrapping_sub(o.0))
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.0 = self.0.wrapping_sub(o.0);
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(self.0.wrapping_neg())
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0.wrapping_mul(k))
    }
}

impl fmt::Debug for S {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

impl fmt::Display for S {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.mg(), self.eg())
    }
}

/// Serialised as the JSON array `[mg, eg]`.
impl Serialize for S {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        [self.mg(), self.eg()].serialize(s)
    }
}

impl<'de> Deserialize<'de> for S {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<S, D::Error> {
        let [mg, eg] = <[i16; 2]>::deserialize(d)?;
        Ok(S::new(mg as i32, eg as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::S;

    #[test]
    fn pack_unpack_and_arithmetic() {
        for &(mg, eg) in &[
            (0, 0),
            (1, -1),
            (-1, 1),
            (-300, 500),
            (32767, -32768),
            (-32768, 32767),
        ] {
            let s = S::new(mg, eg);
            assert_eq!((s.mg(), s.eg()), (mg, eg));
        }
        let a = S::new(-30, 70);
        let b = S::new(12, -5);
        assert_eq!(a + b, S::new(-18, 65));
        assert_eq!(a - b, S::new(-42, 75));
        assert_eq!(-a, S::new(30, -70));
        assert_eq!(a * -3, S::new(90, -210));
    }
}
