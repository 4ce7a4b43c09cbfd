//! The challengers of a gauntlet compared with each other on the openings they all played.
//!
//! In a gauntlet every challenger meets the first engine on the same openings, round by round.
//! Comparing two challengers' scores opening by opening removes most of the noise the openings
//! add (some are won or lost whoever plays them), so a difference between two versions of an
//! engine against a common opponent shows up with fewer games than their separate error bars
//! suggest.

use super::config::{MatchOutcome, PairingResult};

/// One challenger against the first challenger, on the rounds both finished.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedDifference {
    /// The challenger compared.
    pub challenger: String,
    /// The first challenger, the reference.
    pub reference: String,
    /// The common opponent (the gauntlet's first engine).
    pub opponent: String,
    /// Rounds (openings) both finished.
    pub rounds: usize,
    /// Mean points per game of the challenger minus the reference, over those rounds.
    pub difference: f64,
    /// Standard error of `difference`.
    pub error: f64,
}

/// The comparisons of a gauntlet with at least two challengers; empty otherwise.
pub fn challengers(o: &MatchOutcome) -> Vec<PairedDifference> {
    let gauntlet = o.pairings.len() >= 2 && o.pairings.iter().all(|p| p.a == 0);
    if !gauntlet {
        return Vec::new();
    }
    let reference = &o.pairings[0];
    o.pairings[1..]
        .iter()
        .filter_map(|p| {
            let (rounds, difference, error) = paired(reference, p)?;
            Some(PairedDifference {
                challenger: o.names[p.b].clone(),
                reference: o.names[reference.b].clone(),
                opponent: o.names[0].clone(),
                rounds,
                difference,
                error,
            })
        })
        .collect()
}

/// (rounds, mean difference per game, its standard error) of `p`'s challenger minus the
/// reference's; `None` with fewer than two shared rounds.
fn paired(reference: &PairingResult, p: &PairingResult) -> Option<(usize, f64, f64)> {
    // The pairings' points are the opponent's (engine `a`): the challenger's per-game score
    // difference is the reference's opponent score minus this one's.
    let diffs: Vec<f64> = reference
        .rounds
        .iter()
        .filter_map(|(round, &(ref_pts, ref_games))| {
            let &(pts, games) = p.rounds.get(round)?;
            (games == ref_games && games > 0).then(|| (ref_pts - pts) / games as f64)
        })
        .collect();
    let n = diffs.len();
    if n < 2 {
        return None;
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    Some((n, mean, (var / n as f64).sqrt()))
}

impl std::fmt::Display for PairedDifference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let z = if self.error > 0.0 {
            self.difference / self.error
        } else {
            0.0
        };
        write!(
            f,
            "{} - {} against {}, {} shared openings: {:+.1} ± {:.1} points per 100 games (z {:+.2})",
            self.challenger,
            self.reference,
            self.opponent,
            self.rounds,
            100.0 * self.difference,
            100.0 * self.error,
            z
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::PairTracker;
    use std::collections::BTreeMap;

    fn pairing(b: usize, opponent_points: &[f64]) -> PairingResult {
        PairingResult {
            a: 0,
            b,
            tracker: PairTracker::new(),
            rounds: opponent_points
                .iter()
                .enumerate()
                .map(|(r, &p)| (r as u32, (p, 2)))
                .collect::<BTreeMap<_, _>>(),
        }
    }

    fn outcome(pairings: Vec<PairingResult>) -> MatchOutcome {
        MatchOutcome {
            names: vec!["sf".into(), "old".into(), "new".into()],
            pairings,
            games: 0,
            resumed: 0,
            scheduled: 0,
            faults: Vec::new(),
            decision: None,
            history: Vec::new(),
            stopped: None,
            engine_games: Vec::new(),
            repeated_games: 0,
            late_games: 0,
            failures: Default::default(),
            games_rated: Vec::new(),
        }
    }

    #[test]
    fn differences_are_taken_opening_by_opening() {
        // The opponent's points per round of two games. "new" does half a point better than
        // "old" on rounds 0 and 1 and the same on round 2; round 3 only "old" finished.
        let o = outcome(vec![
            pairing(1, &[2.0, 1.0, 1.5, 0.0]),
            pairing(2, &[1.5, 0.5, 1.5]),
        ]);
        let c = challengers(&o);
        assert_eq!(c.len(), 1);
        let d = &c[0];
        assert_eq!(
            (d.challenger.as_str(), d.reference.as_str()),
            ("new", "old")
        );
        assert_eq!(d.rounds, 3);
        // Per game: +0.25, +0.25, 0 -> mean 1/6; sample sd of those is 0.1443, over sqrt(3).
        assert!((d.difference - 1.0 / 6.0).abs() < 1e-12);
        assert!((d.error - 0.144_337_567 / 3f64.sqrt()).abs() < 1e-6);
        assert!(
            d.to_string().contains("+16.7 ± 8.3 points per 100 games"),
            "{d}"
        );
    }

    #[test]
    fn two_engines_or_a_round_robin_give_nothing() {
        assert!(challengers(&outcome(vec![pairing(1, &[1.0, 1.0])])).is_empty());
        let mut rr = outcome(vec![pairing(1, &[1.0, 1.0]), pairing(2, &[1.0, 1.0])]);
        rr.pairings[1].a = 1;
        assert!(challengers(&rr).is_empty());
    }
}
