//! The bodies of the check steps. Each uses the suites embedded in the binary, so the gate runs
//! the same from any directory.

use super::signature;
use super::{run_step, CheckError, Profile, StepOutcome, Verdict};
use crate::suites::perft::{default_suite, run_with_progress, PerftCase, DEFAULT_MAX_DEPTH};
use crate::suites::perft960::chess960_suite;
use crate::suites::perft_referee::{cross_check, random_positions, CrossCheckFailure};
use crate::suites::SuiteError;
use std::path::Path;

/// The steps of the gate, in the order they run.
pub const STEPS: &[&str] = &["perft", "perft960", "bench", "tactics", "match"];

/// Runs the named step under the profile.
pub fn run(step: &str, profile: Profile) -> StepOutcome {
    match step {
        "perft" => run_step(step, || perft(profile)),
        "perft960" => run_step(step, || perft960(profile)),
        "bench" => run_step(step, bench),
        "tactics" => run_step(step, || super::tactics::run(profile)),
        "match" => run_step(step, || super::sanity_match::run(profile)),
        other => run_step(other, || {
            Err(CheckError::UnknownStep {
                name: other.to_string(),
            })
        }),
    }
}

/// The built-in perft suite to a depth set by the profile.
fn perft(profile: Profile) -> Result<Verdict, CheckError> {
    let max_depth = match profile {
        Profile::Quick => 4,
        Profile::Standard => DEFAULT_MAX_DEPTH,
        Profile::Full => DEFAULT_MAX_DEPTH,
    };
    perft_on(&default_suite()?, max_depth, profile, &shakmaty_referee)
}

/// Compares our perft counts on positions with an independent referee's; returns the positions
/// where they differ.
type Referee = dyn Fn(&[String]) -> Result<Vec<CrossCheckFailure>, SuiteError>;

/// The full profile's referee: shakmaty's perft at depths 1-3.
fn shakmaty_referee(fens: &[String]) -> Result<Vec<CrossCheckFailure>, SuiteError> {
    cross_check(fens, 3, &|| {})
}

/// The perft step on `cases` (the built-in suite, or a test's own), with `referee` judging the
/// full profile's random positions (shakmaty, or a test's stand-in).
fn perft_on(
    cases: &[PerftCase],
    max_depth: u32,
    profile: Profile,
    referee: &Referee,
) -> Result<Verdict, CheckError> {
    let (passed, mut summary, mut details) = run_perft_suite(cases, max_depth);
    if profile == Profile::Full {
        // The full gate also plays random games out of the suite positions and compares every
        // count at depths 1-3 with shakmaty, the independent referee.
        let seeds: Vec<String> = cases.iter().map(|c| c.fen.clone()).collect();
        let fens = random_positions(&seeds, FULL_RANDOM_POSITIONS, 1)?;
        let failures = referee(&fens)?;
        summary.push_str(&format!(
            "; {} random positions vs shakmaty: {} mismatches",
            fens.len(),
            failures.len()
        ));
        details.extend(failures.iter().map(|f| {
            format!(
                "{} D{}: ours {}, shakmaty {}",
                f.fen, f.depth, f.ours, f.theirs
            )
        }));
    }
    Ok(Verdict {
        passed: passed && details.is_empty(),
        summary,
        details,
    })
}

/// The built-in Chess960 suite (start positions, castling edge cases, playouts; under a second
/// at depth 4 on 2 cores).
fn perft960(profile: Profile) -> Result<Verdict, CheckError> {
    let max_depth = match profile {
        Profile::Quick => 3,
        Profile::Standard => 4,
        Profile::Full => 5,
    };
    let (passed, summary, details) = run_perft_suite(&chess960_suite()?, max_depth);
    Ok(Verdict {
        passed,
        summary,
        details,
    })
}

/// Runs a perft suite: whether it passed, a one-line summary and one line per failure.
fn run_perft_suite(cases: &[PerftCase], max_depth: u32) -> (bool, String, Vec<String>) {
    let report = run_with_progress("check", cases, max_depth);
    let details = report
        .failures()
        .filter_map(|c| {
            let r = c.first_failure()?;
            Some(format!(
                "line {}: {} D{} expected {}, got {}",
                c.line, c.fen, r.depth, r.expected, r.got
            ))
        })
        .collect::<Vec<_>>();
    let summary = format!(
        "{}/{} positions to depth {max_depth}, {} nodes, {:.0} Mnps",
        report.cases.len() - details.len(),
        report.cases.len(),
        report.total_nodes,
        report.nps() / 1e6
    );
    (report.passed(), summary, details)
}

/// Random positions the full profile cross-checks against shakmaty.
const FULL_RANDOM_POSITIONS: usize = 2000;

/// `sable bench` in process: the node count must equal the expected signature.
fn bench() -> Result<Verdict, CheckError> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let expected = signature::expected(repo).ok_or(CheckError::NoSignature)?;
    let result = sable::bench::run(sable::bench::DEFAULT_DEPTH, |_, _, _| {});
    Ok(bench_verdict(result.nodes, result.nps(), &expected))
}

/// The bench step's verdict: pass exactly when the node count is the expected signature.
fn bench_verdict(nodes: u64, nps: u64, expected: &signature::Signature) -> Verdict {
    let passed = nodes == expected.nodes;
    let summary = format!(
        "{nodes} nodes, {nps} nps (expected {} from {})",
        expected.nodes, expected.source
    );
    let details = if passed {
        Vec::new()
    } else {
        vec![
            "the search signature changed: if that is intended, record the new count in".into(),
            "suites/bench.txt and put `Bench: N` in the commit message".into(),
        ]
    };
    Verdict {
        passed,
        summary,
        details,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::perft::parse_suite;

    #[test]
    fn the_bench_step_fails_on_any_other_node_count() {
        let expected = signature::Signature {
            nodes: 1_134_521,
            source: "`Bench:` in commit abc".into(),
        };
        let ok = bench_verdict(1_134_521, 2_000_000, &expected);
        assert!(ok.passed && ok.details.is_empty());
        assert_eq!(
            ok.summary,
            "1134521 nodes, 2000000 nps (expected 1134521 from `Bench:` in commit abc)"
        );
        for wrong in [1_134_520, 1_134_522, 0, 2_707_838] {
            let v = bench_verdict(wrong, 2_000_000, &expected);
            assert!(!v.passed, "{wrong}");
            assert!(
                v.details.iter().any(|d| d.contains("Bench: N")),
                "{:?}",
                v.details
            );
        }
    }

    #[test]
    fn the_perft_step_fails_on_a_wrong_count_and_names_it() {
        // The start position: 20, 400, 8902 (published); after 1. e4, D2 is 600, not 601.
        let text =
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 ;D1 20 ;D2 601
";
        let cases = parse_suite(text, "t.epd").unwrap();
        let v = perft_on(&cases[..1], 3, Profile::Standard, &shakmaty_referee).unwrap();
        assert!(v.passed, "{v:?}");
        assert!(
            !v.summary.contains("shakmaty"),
            "only the full profile cross-checks"
        );
        assert!(
            v.summary
                .starts_with("1/1 positions to depth 3, 9322 nodes"),
            "{}",
            v.summary
        );
        let v = perft_on(&cases, 3, Profile::Standard, &shakmaty_referee).unwrap();
        assert!(!v.passed);
        assert!(v.summary.starts_with("1/2 positions"), "{}", v.summary);
        assert_eq!(v.details.len(), 1);
        assert!(
            v.details[0].contains("line 2") && v.details[0].contains("D2 expected 601, got 600"),
            "{:?}",
            v.details
        );
    }

    #[test]
    fn the_full_perft_step_fails_when_the_referee_disagrees() {
        // A suite that passes: the start position to depth 2 (20, 400, published).
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n";
        let cases = parse_suite(text, "t.epd").unwrap();
        let agrees = |_: &[String]| Ok(Vec::new());
        let v = perft_on(&cases, 2, Profile::Full, &agrees).unwrap();
        assert!(v.passed && v.details.is_empty(), "{v:?}");
        assert!(
            v.summary
                .ends_with("; 2000 random positions vs shakmaty: 0 mismatches"),
            "{}",
            v.summary
        );
        // A referee that disagrees on the first random position: the suite still passes, the
        // gate must not.
        let disagrees = |fens: &[String]| {
            Ok(vec![CrossCheckFailure {
                fen: fens[0].clone(),
                depth: 1,
                ours: 20,
                theirs: 21,
            }])
        };
        let v = perft_on(&cases, 2, Profile::Full, &disagrees).unwrap();
        assert!(!v.passed, "{v:?}");
        assert!(v.summary.ends_with(": 1 mismatches"), "{}", v.summary);
        assert_eq!(v.details.len(), 1);
        assert!(
            v.details[0].ends_with("D1: ours 20, shakmaty 21"),
            "{:?}",
            v.details
        );
    }
}
