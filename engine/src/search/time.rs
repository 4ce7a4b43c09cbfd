//! Time management: a soft limit (start no new iteration past it) and a hard limit (abort the
//! search), both derived from the UCI clock fields and the `Move Overhead` option.

use super::{params, Limits};
use crate::types::Color;
use std::time::{Duration, Instant};

/// The time budget of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Budget for the side `us` under `limits`, keeping `overhead` in reserve for the GUI and
    /// the pipe. Without a clock or movetime, no time limit at all.
    pub fn new(limits: &Limits, us: Color, overhead: Duration) -> TimeManager {
        let start = Instant::now();
        let (soft, hard) = budget(limits, us, overhead);
        TimeManager { start, soft, hard }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True once the soft limit is spent: start no new iteration.
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s)
    }

    /// Like [`TimeManager::soft_expired`], with the soft limit of a clock game multiplied by
    /// `scale` (more when the best move keeps changing, less when it is settled) and kept
    /// below the hard limit. A `movetime` search is not scaled: it was asked for that time.
    pub fn soft_expired_scaled(&self, scale: f64) -> bool {
        let (Some(soft), Some(hard)) = (self.soft, self.hard) else {
            return self.soft_expired();
        };
        if soft >= hard {
            return self.soft_expired();
        }
        // Anything past the hard limit is the hard limit; a NaN or infinite scale would panic.
        let scale = if scale.is_finite() {
            scale.clamp(0.0, 16.0)
        } else {
            1.0
        };
        self.elapsed() >= soft.mul_f64(scale).min(hard)
    }

    /// True once the hard limit is spent: abort the search now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// The soft limit, if any.
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard limit, if any.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }
}

/// (soft, hard) limits. `movetime` wins over the clock because it is the stricter promise.
fn budget(limits: &Limits, us: Color, overhead: Duration) -> (Option<Duration>, Option<Duration>) {
    let min = Duration::from_millis(1);
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead).max(min);
        return (Some(t), Some(t));
    }
    if limits.infinite {
        return (None, None);
    }
    let Some(left) = limits.time[us.index()] else {
        return (None, None);
    };
    let inc = limits.inc[us.index()];
    let avail = left.saturating_sub(overhead);
    // Moves we assume are left when the GUI does not say (`movestogo` absent).
    let default_mtg = params::moves_to_go() as u32;
    let mtg = limits
        .movestogo
        .unwrap_or(default_mtg)
        .clamp(1, default_mtg * 2);
    // Spend an even share of the clock plus most of the increment, never more than what is left.
    // The soft limit is low because an iteration started just before it may run on to the
    // hard limit; the hard cap keeps a reserve for the latency of a loaded machine.
    let share = avail / mtg + inc * 3 / 4;
    let hard_cap = if mtg == 1 { avail * 3 / 4 } else { avail / 5 };
    let hard = (share * params::hard_limit_pct() as u32 / 100)
        .min(hard_cap)
        .max(min);
    let soft = (share * params::soft_limit_pct() as u32 / 100)
        .min(hard)
        .max(min);
    (Some(soft), Some(hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// A clock of `t` milliseconds for White and none for Black.
    fn white_clock(t: u64) -> Limits {
        Limits {
            time: [Some(ms(t)), None],
            ..Limits::default()
        }
    }

    #[test]
    fn movetime_minus_overhead() {
        let tm = TimeManager::new(&Limits::movetime(ms(100)), Color::White, ms(10));
        assert_eq!(tm.soft(), Some(ms(90)));
        assert_eq!(tm.hard(), Some(ms(90)));
    }

    #[test]
    fn no_clock_means_no_limit() {
        let tm = TimeManager::new(&Limits::depth(5), Color::White, ms(10));
        assert_eq!((tm.soft(), tm.hard()), (None, None));
        assert!(!tm.hard_expired());
    }

    #[test]
    fn clock_uses_own_side_and_stays_well_inside() {
        let limits = Limits {
            time: [Some(ms(1000)), Some(ms(60_000))],
            inc: [ms(10), ms(0)],
            ..Limits::default()
        };
        let w = TimeManager::new(&limits, Color::White, ms(10));
        let b = TimeManager::new(&limits, Color::Black, ms(10));
        let (ws, wh) = (w.soft().unwrap(), w.hard().unwrap());
        assert!(ws <= wh && wh <= ms(200), "{ws:?} {wh:?}");
        assert!(b.soft().unwrap() > ws * 10);
    }

    #[test]
    fn scaled_soft_limit_stays_under_the_hard_limit_and_leaves_movetime_alone() {
        let tm = TimeManager::new(&white_clock(60_000), Color::White, ms(0));
        assert!(tm.soft().unwrap() < tm.hard().unwrap());
        // A settled search may stop at once; an unsettled one waits past the soft limit but
        // never past the hard one (which is seconds away here).
        assert!(tm.soft_expired_scaled(0.0));
        assert!(!tm.soft_expired_scaled(1e9));
        assert!(!tm.soft_expired_scaled(f64::INFINITY) && !tm.soft_expired_scaled(f64::NAN));
        let mt = TimeManager::new(&Limits::movetime(ms(60_000)), Color::White, ms(0));
        assert!(!mt.soft_expired_scaled(0.0), "movetime is used in full");
    }

    #[test]
    fn almost_flagged_still_gets_a_millisecond() {
        let tm = TimeManager::new(&white_clock(3), Color::White, ms(10));
        assert_eq!(tm.hard(), Some(ms(1)));
    }

    #[test]
    fn last_move_before_control_may_use_more() {
        let limits = Limits {
            movestogo: Some(1),
            ..white_clock(1000)
        };
        let tm = TimeManager::new(&limits, Color::White, ms(0));
        assert!(tm.hard().unwrap() <= ms(750));
        assert!(tm.soft().unwrap() >= ms(400));
    }
}
