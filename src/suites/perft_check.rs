//! Checking positions against the referee outside a suite: one position depth by depth
//! (`harness perft --fen`), and random playouts from seed positions (`harness perft --random`).

use super::error::SuiteError;
use super::perft::parallel_perft;
use super::perft_referee::{
    cross_check_with, random_positions, referee_position, shakmaty_count, CrossCheckFailure,
    RefereeCount,
};
use sable::board::Board;
use std::time::{Duration, Instant};

/// The depths `--random` compares, 1 to this one: shallow, so many positions fit in seconds.
pub const RANDOM_CHECK_DEPTH: u32 = 3;

/// Our count and the referee's for one position at one depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthCheck {
    /// The depth.
    pub depth: u32,
    /// Our perft count.
    pub ours: u64,
    /// The referee's count.
    pub theirs: u64,
    /// How long our count took (the referee's time is not ours to report).
    pub elapsed: Duration,
}

impl DepthCheck {
    /// Whether the two counts are equal.
    pub fn agrees(&self) -> bool {
        self.ours == self.theirs
    }

    /// Our speed at this depth, in nodes per second.
    pub fn nps(&self) -> f64 {
        self.ours as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Compares our perft of `fen` with shakmaty's at depths 1..=depth, stopping at the first
/// disagreement (the last entry then disagrees). `on_depth` sees each depth as it finishes, so a
/// deep check shows its progress.
pub fn check_position(
    fen: &str,
    depth: u32,
    on_depth: &mut dyn FnMut(&DepthCheck),
) -> Result<Vec<DepthCheck>, SuiteError> {
    check_position_with(fen, depth, &shakmaty_count, on_depth)
}

/// [`check_position`] against any referee.
pub fn check_position_with(
    fen: &str,
    depth: u32,
    referee: &RefereeCount,
    on_depth: &mut dyn FnMut(&DepthCheck),
) -> Result<Vec<DepthCheck>, SuiteError> {
    let board = Board::from_fen(fen).map_err(SuiteError::fen(format!("bad FEN '{fen}'")))?;
    let pos = referee_position(fen)?;
    sable::attacks::init();
    let mut checks = Vec::new();
    for d in 1..=depth {
        let t = Instant::now();
        let ours = parallel_perft(&board, d);
        let elapsed = t.elapsed();
        let check = DepthCheck {
            depth: d,
            ours,
            theirs: referee(&pos, d),
            elapsed,
        };
        on_depth(&check);
        let agrees = check.agrees();
        checks.push(check);
        if !agrees {
            break;
        }
    }
    Ok(checks)
}

/// `count` random playouts from `seeds` (reproducible from `seed`), each compared with shakmaty
/// at depths 1..=[`RANDOM_CHECK_DEPTH`]; returns the positions where the counts differ.
/// `on_done` is called once per compared position.
pub fn random_check(
    seeds: &[String],
    count: usize,
    seed: u64,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<CrossCheckFailure>, SuiteError> {
    random_check_with(seeds, count, seed, &shakmaty_count, on_done)
}

/// [`random_check`] against any referee.
pub fn random_check_with(
    seeds: &[String],
    count: usize,
    seed: u64,
    referee: &RefereeCount,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<CrossCheckFailure>, SuiteError> {
    let fens = random_positions(seeds, count, seed)?;
    cross_check_with(&fens, RANDOM_CHECK_DEPTH, referee, on_done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::perft_referee::CPW_POSITIONS;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn a_known_position_agrees_with_shakmaty_at_every_depth() {
        let mut seen = Vec::new();
        let checks = check_position(KIWIPETE, 3, &mut |c| seen.push(c.depth)).unwrap();
        assert_eq!(seen, vec![1, 2, 3], "each depth reported as it finishes");
        // The published Kiwipete counts (Chess Programming Wiki), an oracle apart from both
        // generators.
        let counts: Vec<(u64, u64)> = checks.iter().map(|c| (c.ours, c.theirs)).collect();
        assert_eq!(counts, vec![(48, 48), (2039, 2039), (97862, 97862)]);
        assert!(checks.iter().all(DepthCheck::agrees));
    }

    #[test]
    fn a_wrong_count_is_reported_at_its_depth_and_the_check_stops() {
        // A referee that miscounts from depth 2 on: the check must stop there and show both.
        let wrong = |pos: &shakmaty::Chess, d: u32| shakmaty::perft(pos, d) + u64::from(d >= 2);
        let checks = check_position_with(KIWIPETE, 4, &wrong, &mut |_| {}).unwrap();
        assert_eq!(checks.len(), 2, "no depth past the first disagreement");
        assert!(checks[0].agrees());
        let last = &checks[1];
        assert!(!last.agrees());
        assert_eq!((last.depth, last.ours, last.theirs), (2, 2039, 2040));
    }

    #[test]
    fn a_bad_fen_is_an_error_naming_it() {
        let err = check_position("8/8/8 w - - 0 1", 2, &mut |_| {}).unwrap_err();
        assert!(format!("{err:#}").contains("8/8/8 w - - 0 1"), "{err:#}");
    }

    #[test]
    fn random_playouts_agree_with_shakmaty_and_count_every_position() {
        let seeds: Vec<String> = CPW_POSITIONS.iter().map(|s| s.to_string()).collect();
        let done = AtomicUsize::new(0);
        let failures = random_check(&seeds, 50, 7, &|| {
            done.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        assert!(failures.is_empty(), "{failures:?}");
        assert_eq!(done.load(Ordering::Relaxed), 50);
    }

    #[test]
    fn a_referee_disagreeing_at_the_last_depth_fails_every_random_position() {
        let seeds: Vec<String> = CPW_POSITIONS.iter().map(|s| s.to_string()).collect();
        let wrong = |pos: &shakmaty::Chess, d: u32| {
            shakmaty::perft(pos, d) + u64::from(d == RANDOM_CHECK_DEPTH)
        };
        let failures = random_check_with(&seeds, 20, 7, &wrong, &|| {}).unwrap();
        assert_eq!(failures.len(), 20, "every position is reported once");
        for f in &failures {
            assert_eq!(f.depth, RANDOM_CHECK_DEPTH, "{f:?}");
            assert_eq!(f.theirs, f.ours + 1, "{f:?}");
        }
    }
}
