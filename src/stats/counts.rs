//! Game counts: trinomial (per game) and pentanomial (per game pair), and the tracker that
//! matches the two games of a pair by pair id whatever order they finish in.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// The result of one game from the point of view of engine 1 (the engine under test).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// Engine 1 won.
    Win,
    /// The game was drawn.
    Draw,
    /// Engine 1 lost.
    Loss,
}

impl GameResult {
    /// Points for engine 1 in half points: win 2, draw 1, loss 0.
    fn half_points(self) -> usize {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }
}

/// Per-game counts (win/loss/draw from engine 1's view).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trinomial {
    /// Games won by engine 1.
    pub wins: u64,
    /// Games lost by engine 1.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Trinomial {
    /// Counts from wins, losses and draws.
    pub fn new(wins: u64, losses: u64, draws: u64) -> Trinomial {
        Trinomial {
            wins,
            losses,
            draws,
        }
    }

    /// Adds one game.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points of engine 1 (a win is 1, a draw 1/2).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Fraction of drawn games (0 when there are no games).
    pub fn draw_ratio(&self) -> f64 {
        ratio(self.draws as f64, self.games() as f64)
    }
}

/// Index of each pentanomial bucket in [`Pentanomial`]'s array, by the pair's score.
pub mod bucket {
    /// Both games lost (pair score 0).
    pub const LL: usize = 0;
    /// One loss, one draw (pair score 1/4).
    pub const LD: usize = 1;
    /// One win and one loss, or two draws (pair score 1/2).
    pub const WL_DD: usize = 2;
    /// One win, one draw (pair score 3/4).
    pub const WD: usize = 3;
    /// Both games won (pair score 1).
    pub const WW: usize = 4;
}

/// Per-pair counts `[LL, LD, WL+DD, WD, WW]` (see [`bucket`]); a pair is two games on the same
/// opening with colours swapped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Number of complete pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Number of games in the complete pairs.
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Adds one complete pair.
    pub fn add(&mut self, first: GameResult, second: GameResult) {
        self.0[first.half_points() + second.half_points()] += 1;
    }

    /// PairsRatio as fastchess prints it: (WW + WD) / (LL + LD); 0 with no pairs at all and
    /// infinite when only the denominator is empty.
    pub fn pairs_ratio(&self) -> f64 {
        let good = (self.0[bucket::WW] + self.0[bucket::WD]) as f64;
        let bad = (self.0[bucket::LL] + self.0[bucket::LD]) as f64;
        ratio(good, bad)
    }

    /// Fraction of pairs in the middle bucket (WL + DD): the draw ratio of pairs.
    pub fn draw_ratio(&self) -> f64 {
        ratio(self.0[bucket::WL_DD] as f64, self.pairs() as f64)
    }
}

/// `num / den`, 0 for 0/0 and +inf for x/0.
fn ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 {
        num / den
    } else if num > 0.0 {
        f64::INFINITY
    } else {
        0.0
    }
}

/// Collects game results tagged with a pair id; a pair counts in the pentanomial as soon as
/// both its games are in, in whatever order games finish.
///
/// Every game counts in the trinomial at once. The middle bucket is also kept split into
/// win-loss pairs and draw-draw pairs for the WL/DD ratio. Serializable, so a match runner can
/// save it in its resume file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PairTracker {
    trinomial: Trinomial,
    pentanomial: Pentanomial,
    wl_pairs: u64,
    dd_pairs: u64,
    pending: HashMap<u64, GameResult>,
}

impl PairTracker {
    /// An empty tracker.
    pub fn new() -> PairTracker {
        PairTracker::default()
    }

    /// Adds one finished game of pair `pair_id`, with the result from engine 1's view.
    /// Returns the pair's [`bucket`] index when this game completes its pair.
    ///
    /// A third game with the same id starts a new pair (ids are expected to be unique per pair).
    pub fn add(&mut self, pair_id: u64, result: GameResult) -> Option<usize> {
        self.trinomial.add(result);
        let first = self.pending.remove(&pair_id);
        let Some(first) = first else {
            self.pending.insert(pair_id, result);
            return None;
        };
        self.pentanomial.add(first, result);
        match (first, result) {
            (GameResult::Draw, GameResult::Draw) => self.dd_pairs += 1,
            (GameResult::Win, GameResult::Loss) | (GameResult::Loss, GameResult::Win) => {
                self.wl_pairs += 1
            }
            _ => {}
        }
        Some(first.half_points() + result.half_points())
    }

    /// Counts of all games added so far, including those of unfinished pairs.
    pub fn trinomial(&self) -> Trinomial {
        self.trinomial
    }

    /// Counts of the complete pairs.
    pub fn pentanomial(&self) -> Pentanomial {
        self.pentanomial
    }

    /// Complete pairs with one win and one loss.
    #[cfg(test)]
    pub fn wl_pairs(&self) -> u64 {
        self.wl_pairs
    }

    /// Complete pairs with two draws.
    #[cfg(test)]
    pub fn dd_pairs(&self) -> u64 {
        self.dd_pairs
    }

    /// WL/DD ratio: win-loss pairs per draw-draw pair (0 with neither, +inf with no DD pair).
    pub fn wl_dd_ratio(&self) -> f64 {
        ratio(self.wl_pairs as f64, self.dd_pairs as f64)
    }

    /// Pairs of which only one game has finished.
    #[cfg(test)]
    pub fn pending_pairs(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use super::GameResult::{Draw, Loss, Win};
    use super::*;

    #[test]
    fn pairs_match_by_id_not_by_finishing_order() {
        let mut t = PairTracker::new();
        // Pair 1: W then L (WL); pair 2: D, D; pair 3: W, D; pair 4: L, L; pair 5 stays open.
        let games = [
            (1, Win),
            (2, Draw),
            (3, Win),
            (4, Loss),
            (5, Win),
            (3, Draw),
            (2, Draw),
            (4, Loss),
            (1, Loss),
        ];
        let completed: Vec<Option<usize>> = games.iter().map(|&(id, r)| t.add(id, r)).collect();
        assert_eq!(
            completed,
            vec![
                None,
                None,
                None,
                None,
                None,
                Some(bucket::WD),
                Some(bucket::WL_DD),
                Some(bucket::LL),
                Some(bucket::WL_DD)
            ]
        );
        assert_eq!(t.pentanomial(), Pentanomial([1, 0, 2, 1, 0]));
        assert_eq!(t.trinomial(), Trinomial::new(3, 3, 3));
        assert_eq!((t.wl_pairs(), t.dd_pairs()), (1, 1));
        assert_eq!(t.pending_pairs(), 1);
        assert_eq!(t.wl_dd_ratio(), 1.0);
    }

    #[test]
    fn every_bucket_is_reachable_and_symmetric() {
        for (a, b, want) in [
            (Loss, Loss, 0),
            (Loss, Draw, 1),
            (Draw, Loss, 1),
            (Win, Loss, 2),
            (Draw, Draw, 2),
            (Draw, Win, 3),
            (Win, Win, 4),
        ] {
            let mut p = Pentanomial::default();
            p.add(a, b);
            let mut expected = [0; 5];
            expected[want] = 1;
            assert_eq!(p.0, expected, "{a:?} {b:?}");
        }
    }

    #[test]
    fn tracker_survives_a_json_round_trip() {
        let mut t = PairTracker::new();
        t.add(7, Win);
        t.add(7, Draw);
        t.add(9, Loss);
        let json = serde_json::to_string(&t).unwrap();
        let mut back: PairTracker = serde_json::from_str(&json).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.add(9, Loss), Some(bucket::LL));
    }

    #[test]
    fn ratios_handle_empty_counts() {
        let p = Pentanomial([10, 100, 200, 150, 40]);
        assert!((p.pairs_ratio() - 190.0 / 110.0).abs() < 1e-12);
        assert_eq!(Pentanomial::default().pairs_ratio(), 0.0);
        assert_eq!(Pentanomial([0, 0, 0, 1, 0]).pairs_ratio(), f64::INFINITY);
        assert_eq!(Trinomial::default().draw_ratio(), 0.0);
        assert_eq!(Trinomial::new(1, 1, 2).draw_ratio(), 0.5);
    }
}
