//! How long a run has left: the time to finish a fixed number of games at the pace so far, and
//! for an SPRT an estimate of the games still needed for a decision.
//!
//! The SPRT estimate extrapolates the LLR's drift. Under a fixed true Elo, each game pair adds
//! to the LLR a random amount of constant mean, so after `n` games the LLR is about `n · d` plus
//! noise that grows like √n. The average drift so far, `d = LLR / n`, is the best guess of that
//! mean, and the LLR reaches the bound it heads for after about `(bound − LLR) / d` more games.
//! The guess is poor early on and when the true Elo sits between elo0 and elo1 (the drift is then
//! near zero and the run ends on noise); it is shown only once enough games are in, and never
//! above the games the run has left. docs/stats.md ("How long an SPRT has left") says how good
//! it was on simulated runs.

use std::time::Duration;

/// Games before the SPRT estimate is shown: with fewer, the noise is larger than the drift.
pub const MIN_GAMES_FOR_SPRT_ESTIMATE: u64 = 40;

/// Games still needed for the LLR to reach `lower` or `upper` if it keeps drifting as it has over
/// the `games` played so far; None when there are too few games to say or no drift.
pub fn sprt_games_left(llr: f64, games: u64, lower: f64, upper: f64) -> Option<u64> {
    if games < MIN_GAMES_FOR_SPRT_ESTIMATE || !llr.is_finite() {
        return None;
    }
    if llr >= upper || llr <= lower {
        return Some(0);
    }
    let drift = llr / games as f64;
    if drift.abs() < 1e-9 {
        return None;
    }
    let target = if drift > 0.0 { upper } else { lower };
    let left = (target - llr) / drift;
    // Bounded so that a tiny drift does not print an absurd number.
    Some(left.clamp(0.0, 1e9).ceil() as u64)
}

/// The pace of a run: games finished in this run (resumed games excluded) and its wall time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pace {
    /// Games finished by this run.
    pub games: u64,
    /// Wall time this run has been going.
    pub elapsed: Duration,
}

impl Pace {
    /// Games per minute; None before the first game.
    pub fn per_minute(&self) -> Option<f64> {
        let secs = self.elapsed.as_secs_f64();
        (self.games > 0 && secs > 0.0).then(|| self.games as f64 * 60.0 / secs)
    }

    /// The time `left` more games take at this pace.
    pub fn time_for(&self, left: u64) -> Option<Duration> {
        let per_minute = self.per_minute()?;
        Some(Duration::from_secs_f64(left as f64 * 60.0 / per_minute))
    }
}

/// `1:02:03` or `12:03`: hours only when there are any.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{GameResult, InterimReport, Model, PairTracker, Sprt};

    #[test]
    fn the_drift_is_extrapolated_to_the_bound_it_heads_for() {
        // 1.0 after 100 games: 0.01 a game, 1.94 to go to 2.94.
        assert_eq!(sprt_games_left(1.0, 100, -2.94, 2.94), Some(194));
        // Heading down: -1.5 after 300 games, 1.44 to go at 0.005 a game.
        assert_eq!(sprt_games_left(-1.5, 300, -2.94, 2.94), Some(288));
        assert_eq!(sprt_games_left(3.0, 500, -2.94, 2.94), Some(0));
    }

    #[test]
    fn no_estimate_early_or_without_drift() {
        assert_eq!(
            sprt_games_left(1.0, MIN_GAMES_FOR_SPRT_ESTIMATE - 1, -2.94, 2.94),
            None
        );
        assert_eq!(sprt_games_left(0.0, 1000, -2.94, 2.94), None);
        assert_eq!(sprt_games_left(f64::NAN, 1000, -2.94, 2.94), None);
    }

    #[test]
    fn pace_and_time_left() {
        let p = Pace {
            games: 30,
            elapsed: Duration::from_secs(90),
        };
        assert_eq!(p.per_minute(), Some(20.0));
        assert_eq!(p.time_for(10), Some(Duration::from_secs(30)));
        let none = Pace {
            games: 0,
            elapsed: Duration::from_secs(5),
        };
        assert_eq!(none.per_minute(), None);
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(clock(Duration::from_secs(723)), "12:03");
    }

    /// A deterministic uniform stream in [0, 1) from the project's one generator.
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut rng = sable::rng::Rng::from_seed(seed);
        move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One simulated SPRT (games with win/loss probabilities `w`, `l`): the LLR after each pair.
    fn simulate(sprt: &Sprt, w: f64, l: f64, seed: u64) -> Vec<f64> {
        let mut rnd = uniform(seed);
        let mut t = PairTracker::new();
        let mut path = Vec::new();
        for id in 0..200_000u64 {
            for _ in 0..2 {
                let u = rnd();
                let r = if u < w {
                    GameResult::Win
                } else if u < w + l {
                    GameResult::Loss
                } else {
                    GameResult::Draw
                };
                t.add(id, r);
            }
            let report = InterimReport {
                engine: "dev",
                opponent: "base",
                conditions: "",
                tracker: &t,
                paired: true,
                sprt: Some(sprt),
            };
            let llr = report.llr().unwrap();
            path.push(llr);
            if llr >= sprt.bounds.upper || llr <= sprt.bounds.lower {
                break;
            }
        }
        path
    }

    /// How good the estimate is on finished runs: simulated SPRTs at several true strengths, the
    /// estimate taken at a quarter and at half of each run compared with the games that run
    /// really needed. Prints the figures docs/stats.md quotes; asserts only that the estimate
    /// is in the right range at half-way for clear cases (it is an estimate, not a promise).
    #[test]
    #[ignore = "a simulation for docs/stats.md: cargo test --release -p sable-harness --lib eta -- --ignored --nocapture"]
    fn accuracy_on_simulated_runs() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        // (label, win, loss): draws are the rest.
        let cases = [
            ("+15 Elo", 0.32, 0.26),
            ("+7 Elo", 0.30, 0.28),
            ("0 Elo", 0.29, 0.29),
            ("-7 Elo", 0.28, 0.30),
        ];
        for (label, w, l) in cases {
            let mut errors = [Vec::new(), Vec::new()];
            let mut lengths = Vec::new();
            for seed in 0..100u64 {
                let path = simulate(&sprt, w, l, 1000 + seed);
                let total = path.len() as u64 * 2;
                lengths.push(total);
                for (k, share) in [0.25, 0.5].into_iter().enumerate() {
                    let at = ((path.len() as f64 * share) as usize).max(1);
                    let games = at as u64 * 2;
                    let llr = path[at - 1];
                    let (lo, hi) = (sprt.bounds.lower, sprt.bounds.upper);
                    if let Some(left) = sprt_games_left(llr, games, lo, hi) {
                        let predicted = (games + left) as f64;
                        errors[k].push((predicted / total as f64).ln().abs());
                    }
                }
            }
            lengths.sort_unstable();
            let median = |v: &mut Vec<f64>| {
                v.sort_by(f64::total_cmp);
                v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
            };
            let (e25, e50) = (median(&mut errors[0]), median(&mut errors[1]));
            outln!(
                "{label}: runs of {} games (median); median error of the predicted length: \
                 x{:.2} at a quarter, x{:.2} at half-way",
                lengths[lengths.len() / 2],
                e25.exp(),
                e50.exp()
            );
            if label != "0 Elo" {
                assert!(
                    e50.exp() < 2.0,
                    "{label}: off by x{:.2} at half-way",
                    e50.exp()
                );
            }
        }
    }
}
