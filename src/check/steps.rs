//! The bodies of the check steps. Each uses the suites embedded in the binary, so the gate runs
//! the same from any directory.

use super::signature;
use super::{run_step, Profile, StepOutcome, Verdict};
use crate::suites::perft::{default_suite, PerftCase, DEFAULT_MAX_DEPTH};
use crate::suites::perft960::chess960_suite;
use crate::suites::perft_referee::{cross_check, random_positions};
use std::path::Path;

/// Runs the named step under the profile.
pub fn run(step: &str, profile: Profile) -> StepOutcome {
    match step {
        "perft" => run_step(step, || perft(profile)),
        "perft960" => run_step(step, || perft960(profile)),
        "bench" => run_step(step, bench),
        "tactics" => run_step(step, || super::tactics::run(profile)),
        "match" => run_step(step, || super::sanity_match::run(profile)),
        other => run_step(other, || anyhow::bail!("unknown step {other}")),
    }
}

/// The built-in perft suite to a depth set by the profile.
fn perft(profile: Profile) -> anyhow::Result<Verdict> {
    let max_depth = match profile {
        Profile::Quick => 4,
        Profile::Standard => DEFAULT_MAX_DEPTH,
        Profile::Full => DEFAULT_MAX_DEPTH,
    };
    let cases = default_suite()?;
    let (passed, mut summary, mut details) = run_perft_suite(&cases, max_depth);
    if profile == Profile::Full {
        // The full gate also plays random games out of the suite positions and compares every
        // count at depths 1-3 with shakmaty, the independent referee.
        let seeds: Vec<String> = cases.iter().map(|c| c.fen.clone()).collect();
        let fens = random_positions(&seeds, FULL_RANDOM_POSITIONS, 1)?;
        let failures = cross_check(&fens, 3, &|| {})?;
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
fn perft960(profile: Profile) -> anyhow::Result<Verdict> {
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
    let report = crate::cmd::perft::run_with_progress("check", cases, max_depth);
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
fn bench() -> anyhow::Result<Verdict> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let expected = signature::expected(repo)
        .ok_or_else(|| anyhow::anyhow!("no bench signature: suites/bench.txt has no number"))?;
    let result = sable::bench::run(sable::bench::DEFAULT_DEPTH, |_, _, _| {});
    let passed = result.nodes == expected.nodes;
    let summary = format!(
        "{} nodes, {} nps (expected {} from {})",
        result.nodes,
        result.nps(),
        expected.nodes,
        expected.source
    );
    let details = if passed {
        Vec::new()
    } else {
        vec![
            "the search signature changed: if that is intended, record the new count in".into(),
            "suites/bench.txt and put `Bench: N` in the commit message".into(),
        ]
    };
    Ok(Verdict {
        passed,
        summary,
        details,
    })
}
