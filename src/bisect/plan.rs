//! The search itself, without git, builds or games: which commits can be the first bad one
//! (the Bench classes), which one to test next, when the search is over, and the error budget
//! of each SPRT. Pure functions over indices, so every rule is unit-tested.
//!
//! The commits of the range are numbered 0.. oldest first; the last is `bad`, and `good` (not in
//! the list) comes before the first. A commit whose `Bench:` signature equals its parent's plays
//! the same games as its parent, so it cannot be the first weaker commit: it joins its parent's
//! class. The classes are searched instead of the commits, and testing any member of a class
//! tests the whole class.

/// A commit's place in the range, as far as the plan needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanCommit {
    /// Its `Bench: N` signature, if its message has one.
    pub bench: Option<u64>,
}

/// Commits that play the same games: a head whose Bench differs from its parent's (or who has
/// none) and the commits after it that keep the head's Bench.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// Indices into the range, oldest first; `members[0]` is the head.
    pub members: Vec<usize>,
}

/// The range split into classes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classes {
    /// Commits with the good revision's own Bench (before any change of it): they play as good
    /// does and are good without a test.
    pub same_as_good: Vec<usize>,
    /// The classes in order; the last one holds `bad`.
    pub classes: Vec<Class>,
}

/// Splits the range into classes. `good_bench` is the good revision's signature; with
/// `bench_skip` off every commit is its own class.
pub fn classes(good_bench: Option<u64>, commits: &[PlanCommit], bench_skip: bool) -> Classes {
    let mut out = Classes {
        same_as_good: Vec::new(),
        classes: Vec::new(),
    };
    let mut parent = good_bench;
    for (i, c) in commits.iter().enumerate() {
        let same = bench_skip && c.bench.is_some() && c.bench == parent;
        match (same, out.classes.last_mut()) {
            (true, Some(class)) => class.members.push(i),
            (true, None) => out.same_as_good.push(i),
            (false, _) => out.classes.push(Class { members: vec![i] }),
        }
        parent = c.bench;
    }
    out
}

/// What a step found about a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// As strong as good (or the test passes).
    Good,
    /// Weaker than good (or the test fails).
    Bad,
    /// Could not be told: no member builds, or the test said 125, or its match gave no verdict.
    Skip,
}

/// What to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Test this class (index into the classes).
    Test(usize),
    /// The search is over.
    Done(Answer),
}

/// The end of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// `bad` is not weaker than `good` (the last class tested good).
    NoRegression,
    /// The last class could not be tested, so nothing can be bisected.
    BadUntestable,
    /// The first bad class is `culprit`; `last_good` is the newest class known good (`None`:
    /// the good revision itself).
    Found {
        /// The first bad class.
        culprit: usize,
        /// The newest good class before it.
        last_good: Option<usize>,
    },
    /// The first bad class is one of `candidates` (skipped classes, then the first known bad
    /// one), as `git bisect` says when only skipped commits are left.
    Ambiguous {
        /// The skipped classes and the first bad one, oldest first.
        candidates: Vec<usize>,
        /// The newest class known good (`None`: the good revision itself).
        last_good: Option<usize>,
    },
}

/// The next step, from the verdicts so far (`verdicts[c]` for class `c`). The last class (bad's)
/// is tested first, to confirm the regression; then the untested, unskipped classes between the
/// newest good and the oldest bad one are halved by rank, so skipped classes cost no step and
/// the number of tests stays within [`max_tests`].
pub fn next(verdicts: &[Option<Verdict>]) -> Next {
    let Some(last) = verdicts.len().checked_sub(1) else {
        return Next::Done(Answer::NoRegression);
    };
    match verdicts[last] {
        None => return Next::Test(last),
        Some(Verdict::Good) => return Next::Done(Answer::NoRegression),
        Some(Verdict::Skip) => return Next::Done(Answer::BadUntestable),
        Some(Verdict::Bad) => {}
    }
    let hi = (0..=last)
        .find(|&c| verdicts[c] == Some(Verdict::Bad))
        .expect("the last class is bad");
    let lo = (0..hi).rev().find(|&c| verdicts[c] == Some(Verdict::Good));
    let start = lo.map_or(0, |l| l + 1);
    let unknown: Vec<usize> = (start..hi).filter(|&c| verdicts[c].is_none()).collect();
    if !unknown.is_empty() {
        // The upper median: whatever it says, at most half of the unknown classes remain.
        return Next::Test(unknown[unknown.len() / 2]);
    }
    if start == hi {
        Next::Done(Answer::Found {
            culprit: hi,
            last_good: lo,
        })
    } else {
        Next::Done(Answer::Ambiguous {
            candidates: (start..=hi).collect(),
            last_good: lo,
        })
    }
}

/// The most tests a search of `classes` classes can need: one for bad's class, then
/// ceil(log2(classes)) to halve the rest (each test leaves at most half of the unknown
/// classes; a skip removes one without a test).
pub fn max_tests(classes: usize) -> usize {
    if classes == 0 {
        return 0;
    }
    1 + ceil_log2(classes)
}

/// ceil(log2(n)) for n >= 1.
fn ceil_log2(n: usize) -> usize {
    (usize::BITS - (n - 1).leading_zeros()) as usize
}

/// The error budget of each SPRT: the whole search names a wrong commit only if one of its at
/// most `tests` SPRTs errs, so with alpha = beta = `max_error / tests` per step the union bound
/// keeps that probability at or below `max_error`.
pub fn per_step_error(max_error: f64, tests: usize) -> f64 {
    max_error / tests.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Bad, Good, Skip};

    fn commits(benches: &[Option<u64>]) -> Vec<PlanCommit> {
        benches.iter().map(|&bench| PlanCommit { bench }).collect()
    }

    fn members(c: &Classes) -> Vec<Vec<usize>> {
        c.classes.iter().map(|c| c.members.clone()).collect()
    }

    #[test]
    fn commits_keeping_their_parents_bench_join_its_class() {
        let range = commits(&[Some(1), Some(2), Some(2), None, None, Some(5), Some(5)]);
        let c = classes(Some(1), &range, true);
        assert_eq!(c.same_as_good, [0]);
        // No Bench line proves nothing: each such commit is its own class.
        assert_eq!(members(&c), [vec![1, 2], vec![3], vec![4], vec![5, 6]]);
        let off = classes(Some(1), &range, false);
        assert!(off.same_as_good.is_empty());
        assert_eq!(off.classes.len(), range.len());
    }

    /// Runs the search against a truth table (`bad[c]` for class c; `skip[c]` = untestable)
    /// and returns the answer and the classes tested, in order.
    fn search(bad: &[bool], skip: &[bool]) -> (Answer, Vec<usize>) {
        let mut verdicts = vec![None; bad.len()];
        let mut tested = Vec::new();
        loop {
            match next(&verdicts) {
                Next::Test(c) => {
                    assert!(verdicts[c].is_none(), "class {c} tested twice");
                    tested.push(c);
                    verdicts[c] = Some(match (skip[c], bad[c]) {
                        (true, _) => Skip,
                        (false, true) => Bad,
                        (false, false) => Good,
                    });
                }
                Next::Done(a) => return (a, tested),
            }
        }
    }

    #[test]
    fn every_first_bad_class_is_found_within_the_planned_tests() {
        for n in 1..=40 {
            for first in 0..n {
                let bad: Vec<bool> = (0..n).map(|c| c >= first).collect();
                let (answer, tested) = search(&bad, &vec![false; n]);
                let last_good = first.checked_sub(1);
                assert_eq!(
                    answer,
                    Answer::Found {
                        culprit: first,
                        last_good
                    },
                    "n={n}"
                );
                assert!(
                    tested.len() <= max_tests(n),
                    "n={n} first={first} {tested:?}"
                );
                assert_eq!(tested[0], n - 1, "bad's class is confirmed first");
            }
        }
    }

    #[test]
    fn skipped_classes_cost_no_test_and_widen_the_answer_only_when_adjacent() {
        // Class 2 is untestable; the regression starts at 4: the answer is exact.
        let bad = [false, false, false, false, true, true, true, true];
        let mut skip = [false; 8];
        skip[2] = true;
        let (answer, tested) = search(&bad, &skip);
        assert_eq!(
            answer,
            Answer::Found {
                culprit: 4,
                last_good: Some(3)
            }
        );
        assert!(tested.len() <= max_tests(8));
        // Classes 3 and 4 untestable, the regression starts at 4: it could be 3, 4 or 5.
        skip[2] = false;
        skip[3] = true;
        skip[4] = true;
        let (answer, tested) = search(&bad, &skip);
        assert_eq!(
            answer,
            Answer::Ambiguous {
                candidates: vec![3, 4, 5],
                last_good: Some(2)
            }
        );
        assert!(tested.iter().filter(|&&c| !skip[c]).count() <= max_tests(8));
    }

    #[test]
    fn the_search_ends_early_when_bad_is_not_bad() {
        assert_eq!(
            search(&[false; 5], &[false; 5]),
            (Answer::NoRegression, vec![4])
        );
        let mut skip = [false; 5];
        skip[4] = true;
        assert_eq!(search(&[true; 5], &skip), (Answer::BadUntestable, vec![4]));
        assert_eq!(next(&[]), Next::Done(Answer::NoRegression));
    }

    #[test]
    fn the_test_budget_is_one_plus_ceil_log2() {
        let expected = [
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 3),
            (5, 4),
            (8, 4),
            (9, 5),
        ];
        for (classes, tests) in expected {
            assert_eq!(max_tests(classes), tests, "{classes} classes");
        }
        assert!((per_step_error(0.1, 4) - 0.025).abs() < 1e-12);
        assert!((per_step_error(0.1, 0) - 0.1).abs() < 1e-12);
    }
}
