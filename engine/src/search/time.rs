//! Time management: a soft limit (start no new iteration past it) and a hard limit (abort the
//! search), both derived from the UCI clock fields and the `Move Overhead` option.

use super::{params, Limits};
use crate::types::Color;
use std::time::{Duration, Instant};

/// The default `Move Overhead`: time kept in reserve per move for the GUI and the pipes.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(25);

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
        self.scaled_soft(scale).is_some_and(|s| self.elapsed() >= s)
    }

    /// The soft limit scaled as [`TimeManager::soft_expired_scaled`] uses it (no clock is
    /// read, so tests can check it against the hard limit).
    fn scaled_soft(&self, scale: f64) -> Option<Duration> {
        let (Some(soft), Some(hard)) = (self.soft, self.hard) else {
            return self.soft;
        };
        if soft >= hard {
            return Some(soft);
        }
        // Anything past the hard limit is the hard limit; a NaN or infinite scale would panic.
        let scale = if scale.is_finite() {
            scale.clamp(0.0, 16.0)
        } else {
            1.0
        };
        Some(soft.mul_f64(scale).min(hard))
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

    /// Every clock the grid below covers: (remaining, increment, movestogo, Move Overhead).
    fn clock_grid() -> impl Iterator<Item = (u64, u64, Option<u32>, u64)> {
        let left = [
            1, 5, 20, 50, 100, 250, 300, 1000, 1100, 3000, 10_000, 60_000, 600_000,
        ];
        let inc = [0, 10, 100];
        let mtg = [None, Some(1), Some(2), Some(40)];
        let overhead = [0, 10, 100, 1000];
        left.into_iter().flat_map(move |l| {
            inc.into_iter().flat_map(move |i| {
                mtg.into_iter()
                    .flat_map(move |m| overhead.into_iter().map(move |o| (l, i, m, o)))
            })
        })
    }

    #[test]
    fn a_search_stopped_at_its_limits_never_flags() {
        // Simulated clock: the limits are durations measured from the start of the search, so
        // comparing them with the clock needs no waiting.
        for (left, inc, mtg, overhead) in clock_grid() {
            let limits = Limits {
                time: [Some(ms(left)), Some(ms(1))],
                inc: [ms(inc), ms(0)],
                movestogo: mtg,
                ..Limits::default()
            };
            let case = format!("wtime {left} winc {inc} movestogo {mtg:?} overhead {overhead}");
            let tm = TimeManager::new(&limits, Color::White, ms(overhead));
            let (soft, hard) = (tm.soft().unwrap(), tm.hard().unwrap());
            assert!(soft <= hard && hard >= ms(1), "{case}: {soft:?} {hard:?}");
            // However the search scales its soft limit, it stops by the hard one.
            for scale in [0.0, 0.5, 1.0, 3.5, 16.0, 1e9, f64::INFINITY, f64::NAN] {
                let stop = tm.scaled_soft(scale).unwrap();
                assert!(stop <= hard, "{case}, scale {scale}: {stop:?} > {hard:?}");
            }
            if left > overhead {
                // The search ends by the hard limit; the GUI's latency is the overhead.
                assert!(
                    hard + ms(overhead) <= ms(left),
                    "{case}: hard {hard:?} + overhead would flag"
                );
            } else {
                // Less on the clock than the overhead: nothing is safe, so the least there is,
                // one millisecond (the first iteration finishes anyway).
                assert_eq!(hard, ms(1), "{case}");
            }
        }
    }

    #[test]
    fn move_overhead_is_taken_off_the_clock() {
        // 300 ms left, 250 of them for the GUI: the engine has 50. On the last move before the
        // control it may spend 3/4 of what it has, 37.5 ms; ignoring the overhead would give
        // it 225 ms and lose on time.
        let limits = Limits {
            movestogo: Some(1),
            ..white_clock(300)
        };
        let tm = TimeManager::new(&limits, Color::White, ms(250));
        assert!(tm.hard().unwrap() < ms(50), "{:?}", tm.hard());
        assert_eq!(tm.hard(), Some(Duration::from_micros(37_500)));
        // Sudden death: 1100 ms left of which the GUI needs 1000: at most a fifth of 100 ms.
        let tm = TimeManager::new(&white_clock(1100), Color::White, ms(1000));
        assert!(tm.hard().unwrap() <= ms(20), "{:?}", tm.hard());
        // movetime: the same reserve comes off the fixed time.
        let tm = TimeManager::new(&Limits::movetime(ms(300)), Color::White, ms(250));
        assert_eq!(tm.hard(), Some(ms(50)));
    }

    /// The budget's arithmetic, worked out by hand from the defaults of the tunable numbers
    /// (asserted first, so a retuned default explains the failure).
    #[test]
    fn budget_matches_hand_computed_limits() {
        assert_eq!(
            (
                params::moves_to_go(),
                params::hard_limit_pct(),
                params::soft_limit_pct()
            ),
            (25, 250, 70),
            "the defaults these numbers were worked out from"
        );
        let clock = |left, inc, movestogo| Limits {
            time: [Some(ms(left)), None],
            inc: [ms(inc), ms(0)],
            movestogo,
            ..Limits::default()
        };
        let limits = |l: &Limits| {
            let tm = TimeManager::new(l, Color::White, ms(0));
            (tm.soft().unwrap(), tm.hard().unwrap())
        };
        // Sudden death, 60 s: a 25th of the clock is 2400 ms; hard 250 % of it, soft 70 %.
        assert_eq!(limits(&clock(60_000, 0, None)), (ms(1680), ms(6000)));
        // 10 s + 200 ms: 400 ms of clock plus 3/4 of the increment, 150 ms, is 550 ms.
        assert_eq!(limits(&clock(10_000, 200, None)), (ms(385), ms(1375)));
        // movestogo 100 is taken as 50 (twice the default): a share of 200 ms.
        assert_eq!(limits(&clock(10_000, 0, Some(100))), (ms(140), ms(500)));
        // The last move before the control: share 1000 + 750 ms, but the hard limit is capped at
        // 3/4 of the clock (750 ms), and the soft one never exceeds the hard one.
        assert_eq!(limits(&clock(1000, 1000, Some(1))), (ms(750), ms(750)));
        // Otherwise the cap is a fifth of the clock: 10 s + 5 s gives a share of 4150 ms, capped
        // at 2000.
        assert_eq!(limits(&clock(10_000, 5000, None)), (ms(2000), ms(2000)));
    }

    #[test]
    fn limits_expire_once_their_time_has_passed() {
        // An hour is not spent yet; a millisecond is, after a few milliseconds of sleep (a sleep
        // lasts at least as long as asked, so neither side of this test depends on the machine's
        // speed).
        let hour = TimeManager::new(&Limits::movetime(ms(3_600_000)), Color::White, ms(0));
        let milli = TimeManager::new(&Limits::movetime(ms(1)), Color::White, ms(0));
        std::thread::sleep(ms(3));
        assert!(milli.elapsed() >= ms(3), "{:?}", milli.elapsed());
        assert!(!hour.soft_expired() && !hour.hard_expired());
        assert!(!hour.soft_expired_scaled(1.0));
        assert!(milli.soft_expired() && milli.hard_expired());
        assert!(milli.soft_expired_scaled(1.0));
        // No clock: nothing ever expires.
        let free = TimeManager::new(&Limits::depth(3), Color::White, ms(0));
        assert!(!free.soft_expired() && !free.hard_expired());
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
