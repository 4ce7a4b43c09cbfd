//! Late move reductions: how many plies a late move at this depth and move number is reduced
//! before other adjustments, `LmrBase/100 + ln(depth) x ln(move number) / (LmrDivisor/100)`.
//!
//! The shipping build looks the reduction up in a table built once, since the two logarithms
//! were 1 % of the search's profile; the tuning build computes it each time, so that a
//! `setoption` of either parameter takes effect at once.

use super::params;
use crate::types::MAX_MOVES;

/// Depths the table covers; deeper ones share its last row.
const DEPTHS: usize = 64;

fn formula(depth: usize, move_number: usize) -> u8 {
    if depth == 0 || move_number == 0 {
        return 0;
    }
    let base = params::lmr_base() as f64 / 100.0;
    let divisor = params::lmr_divisor() as f64 / 100.0;
    (base + (depth as f64).ln() * (move_number as f64).ln() / divisor) as u8
}

/// The reduction in plies for a move at `depth` with this (1-based) move number.
#[cfg(not(feature = "tune"))]
pub fn reduction(depth: i32, move_number: usize) -> i32 {
    use std::sync::OnceLock;
    static TABLE: OnceLock<Box<[[u8; MAX_MOVES]; DEPTHS]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = Box::new([[0u8; MAX_MOVES]; DEPTHS]);
        for (d, row) in t.iter_mut().enumerate() {
            for (m, r) in row.iter_mut().enumerate() {
                *r = formula(d, m);
            }
        }
        t
    });
    let d = (depth.max(0) as usize).min(DEPTHS - 1);
    table[d][move_number.min(MAX_MOVES - 1)] as i32
}

/// The reduction in plies for a move at `depth` with this (1-based) move number.
#[cfg(feature = "tune")]
pub fn reduction(depth: i32, move_number: usize) -> i32 {
    let d = (depth.max(0) as usize).min(DEPTHS - 1);
    formula(d, move_number.min(MAX_MOVES - 1)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_follow_the_published_formula() {
        // 0.75 + ln(d) ln(m) / 2.25, truncated: hand-computed values.
        assert_eq!(reduction(1, 30), 0); // ln 1 = 0
        assert_eq!(reduction(3, 3), 1); // 0.75 + 1.0986^2 / 2.25 = 1.29
        assert_eq!(reduction(8, 20), 3); // 0.75 + 2.0794 x 2.9957 / 2.25 = 3.52
        assert_eq!(reduction(20, 60), 6); // 0.75 + 2.9957 x 4.0943 / 2.25 = 6.20
        assert_eq!(reduction(63, 255), 10); // the largest entry
        assert_eq!(reduction(200, 1000), 10, "clamped to the table");
        assert_eq!(reduction(-3, 5), 0);
    }
}
