//! The list of games of a match: pairings, rounds, colours swapped within a pair.

use super::config::Mode;
use crate::openings::for_round;

/// One game to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameJob {
    /// Game number, 0-based, unique in the match (the resume key).
    pub id: u64,
    /// Pair number: both games of a pair share the opening, with colours swapped.
    pub pair: u64,
    /// Round, 0-based.
    pub round: u32,
    /// Game within the pair (0 or 1).
    pub game_in_pair: u32,
    /// Index of the pairing (see [`pairings`]).
    pub pairing: usize,
    /// Engine playing White.
    pub white: usize,
    /// Engine playing Black.
    pub black: usize,
    /// Opening index.
    pub opening: usize,
}

/// The pairings `(a, b)` of `n` engines: `a` is the engine whose view results take.
pub fn pairings(n: usize, mode: Mode) -> Vec<(usize, usize)> {
    match mode {
        _ if n < 2 => Vec::new(),
        Mode::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Mode::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// All games in playing order: round by round, pairing by pairing, a pair's games together.
pub fn schedule(
    n: usize,
    mode: Mode,
    rounds: u32,
    games_per_round: u32,
    openings: usize,
) -> Vec<GameJob> {
    let ps = pairings(n, mode);
    let mut jobs = Vec::new();
    for round in 0..rounds {
        for (k, &(a, b)) in ps.iter().enumerate() {
            let pair = round as u64 * ps.len() as u64 + k as u64;
            for g in 0..games_per_round {
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                let id = jobs.len() as u64;
                let opening = for_round(round, openings);
                jobs.push(GameJob {
                    id,
                    pair,
                    round,
                    game_in_pair: g,
                    pairing: k,
                    white,
                    black,
                    opening,
                });
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_on_the_same_opening() {
        let jobs = schedule(2, Mode::Gauntlet, 3, 2, 2);
        assert_eq!(jobs.len(), 6);
        assert_eq!(
            (jobs[0].white, jobs[0].black, jobs[1].white, jobs[1].black),
            (0, 1, 1, 0)
        );
        assert_eq!((jobs[0].pair, jobs[1].pair, jobs[2].pair), (0, 0, 1));
        assert_eq!(
            jobs.iter().map(|j| j.opening).collect::<Vec<_>>(),
            [0, 0, 1, 1, 0, 0]
        );
        assert!(jobs.iter().enumerate().all(|(i, j)| j.id == i as u64));
    }

    #[test]
    fn gauntlet_and_round_robin() {
        assert_eq!(pairings(4, Mode::Gauntlet), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairings(3, Mode::RoundRobin), [(0, 1), (0, 2), (1, 2)]);
        assert!(pairings(1, Mode::RoundRobin).is_empty());
        let jobs = schedule(3, Mode::RoundRobin, 2, 2, 10);
        assert_eq!(jobs.len(), 12);
        assert_eq!(jobs.iter().map(|j| j.pair).max(), Some(5));
    }
}
