//! The project's own suites, compiled into the binary so `harness check` works from any
//! directory: `suites/mates.epd` and `suites/tactics.epd`, with their committed baselines.

use super::epd::{parse_suite, Suite};
use super::epd_report::{compare_baseline, csv_rows, parse_csv, BaselineDiff, CsvRow};
use super::epd_run::{run_epd, EpdConfig, EpdReport, Limit};
use super::error::SuiteError;

/// A suite shipped inside the binary.
#[derive(Clone, Copy, Debug)]
pub struct EmbeddedSuite {
    /// The suite's name (its file stem), as used in reports and baselines.
    pub name: &'static str,
    /// The path of the file in the repository.
    pub path: &'static str,
    /// The EPD text.
    pub text: &'static str,
}

/// The shipped suites.
pub const EMBEDDED: &[EmbeddedSuite] = &[
    EmbeddedSuite {
        name: "mates",
        path: "suites/mates.epd",
        text: include_str!("../../suites/mates.epd"),
    },
    EmbeddedSuite {
        name: "tactics",
        path: "suites/tactics.epd",
        text: include_str!("../../suites/tactics.epd"),
    },
];

/// Parses a shipped suite by name (`mates` or `tactics`).
pub fn embedded_suite(name: &str) -> Result<Suite, SuiteError> {
    let e = EMBEDDED
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| SuiteError::UnknownSuite {
            name: name.to_string(),
        })?;
    Ok(parse_suite(e.name, e.path, e.text, false)?)
}

/// A committed baseline CSV (`suites/baselines/*.csv`) compiled in, by file stem.
pub const BASELINES: &[(&str, &str)] = &[
    (
        "sable-mates",
        include_str!("../../suites/baselines/sable-mates.csv"),
    ),
    (
        "sable-tactics",
        include_str!("../../suites/baselines/sable-tactics.csv"),
    ),
];

/// How `harness check` runs sable on a shipped suite: the suite, the node limit the baseline was
/// made with (node limits are deterministic), the baseline, and the accepted drop.
#[derive(Clone, Copy, Debug)]
pub struct CheckPlan {
    /// The embedded suite's name.
    pub suite: &'static str,
    /// Nodes per position.
    pub nodes: u64,
    /// The embedded baseline's name.
    pub baseline: &'static str,
    /// Solved positions that may be lost before the check fails.
    pub tolerance: usize,
}

/// The tactical part of `harness check`.
pub const CHECK_PLANS: &[CheckPlan] = &[
    CheckPlan {
        suite: "mates",
        nodes: 200_000,
        baseline: "sable-mates",
        tolerance: 1,
    },
    CheckPlan {
        suite: "tactics",
        nodes: 50_000,
        baseline: "sable-tactics",
        tolerance: 2,
    },
];

/// Parses a compiled-in baseline by file stem, e.g. `sable-tactics`.
pub fn embedded_baseline(name: &str) -> Result<Vec<CsvRow>, SuiteError> {
    let (_, text) =
        BASELINES
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| SuiteError::UnknownBaseline {
                name: name.to_string(),
            })?;
    parse_csv(name, text)
}

/// Runs one plan: the embedded suite on `engine` at the plan's node limit, compared with the
/// embedded baseline. `diff.regressed` says whether the check fails.
pub fn run_check_plan(
    plan: &CheckPlan,
    engine: &crate::uci::EngineSpec,
    concurrency: usize,
) -> Result<(EpdReport, BaselineDiff), SuiteError> {
    let config = EpdConfig {
        suites: vec![embedded_suite(plan.suite)?],
        engine: engine.clone(),
        limit: Limit::Nodes(plan.nodes),
        concurrency,
        hang_timeout: std::time::Duration::from_secs(30),
        progress: false,
    };
    let report = run_epd(&config)?;
    let baseline = embedded_baseline(plan.baseline)?;
    let diff = compare_baseline(&csv_rows(&report), &baseline, plan.tolerance);
    Ok((report, diff))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::epd_mate::{has_mate_within, shortest_mate};

    #[test]
    fn shipped_suites_parse_and_ids_are_unique() {
        for e in EMBEDDED {
            let suite = embedded_suite(e.name).unwrap();
            assert!(
                suite.positions.len() >= 100,
                "{}: {}",
                e.name,
                suite.positions.len()
            );
            let ids: std::collections::HashSet<_> = suite.positions.iter().map(|p| &p.id).collect();
            assert_eq!(ids.len(), suite.positions.len());
            assert!(suite.positions.iter().all(|p| !p.bm.is_empty()));
        }
        assert!(embedded_suite("nope").is_err());
    }

    #[test]
    fn every_check_plan_has_its_suite_and_a_matching_baseline() {
        for plan in CHECK_PLANS {
            let suite = embedded_suite(plan.suite).unwrap();
            let rows = embedded_baseline(plan.baseline).unwrap();
            assert_eq!(rows.len(), suite.positions.len(), "{}", plan.baseline);
            assert!(rows.iter().all(|r| r.suite == plan.suite));
        }
        assert!(embedded_baseline("nope").is_err());
    }

    /// Our own exhaustive search confirms every shipped mate in 1 and 2, and that none is shorter.
    #[test]
    fn shipped_mates_in_one_and_two_are_exact() {
        let suite = embedded_suite("mates").unwrap();
        let mut checked = 0;
        for p in &suite.positions {
            let n = p.dm.expect("every mates position has dm");
            assert!((1..=4).contains(&n), "{}", p.id);
            if n <= 2 {
                assert_eq!(shortest_mate(&p.position, 2), Some(n), "{}", p.id);
                checked += 1;
            } else {
                assert!(!has_mate_within(&p.position, 1), "{}", p.id);
            }
        }
        assert!(checked >= 40, "{checked}");
    }
}
