//! The tactical step of `harness check`: sable on the shipped suites (`suites/mates.epd`,
//! `suites/tactics.epd`) at the node limits their baselines were made with, compared with the
//! committed baselines in `suites/baselines/`. Node limits make the runs deterministic, so any
//! drop is a real change in what the engine finds.

use super::{Profile, Verdict};
use crate::suites::epd_embedded::{run_check_plan, CHECK_PLANS};
use crate::suites::epd_report::BaselineDiff;
use crate::suites::epd_run::Status;

/// Runs every check plan; fails when any suite's solved count fell past its tolerance.
pub fn run(profile: Profile) -> anyhow::Result<Verdict> {
    let engine = super::sanity_match::self_engine_spec("sable")?;
    let plans = CHECK_PLANS
        .iter()
        .filter(|p| profile != Profile::Quick || p.suite == "mates");
    let (mut parts, mut details, mut passed) = (Vec::new(), Vec::new(), true);
    for plan in plans {
        let (report, diff) = run_check_plan(plan, &engine, 2)?;
        let trouble = report
            .results
            .iter()
            .filter(|r| r.status != Status::Ok)
            .count();
        let (ok, why) = plan_verdict(plan.suite, trouble, &diff, plan.tolerance, plan.baseline);
        parts.push(format!(
            "{} {}/{} (baseline {}, {} nodes)",
            plan.suite,
            diff.current_solved,
            report.results.len(),
            diff.baseline_solved,
            plan.nodes
        ));
        passed &= ok;
        details.extend(why);
    }
    Ok(Verdict {
        passed,
        summary: parts.join(", "),
        details,
    })
}

/// One suite's part of the verdict: it fails when any position crashed, hung or got an illegal
/// move (`trouble`), or when the solved count fell past the tolerance; the details list what
/// changed either way.
fn plan_verdict(
    suite: &str,
    trouble: usize,
    diff: &BaselineDiff,
    tolerance: usize,
    baseline: &str,
) -> (bool, Vec<String>) {
    let mut details = Vec::new();
    if trouble > 0 {
        details.push(format!(
            "{suite}: {trouble} positions crashed, hung or got an illegal move"
        ));
    }
    // The ids already name their suite (`mates m3`).
    for id in &diff.newly_failed {
        details.push(format!("newly failed {id}"));
    }
    for id in &diff.newly_solved {
        details.push(format!("newly solved {id}"));
    }
    if diff.regressed {
        details.push(format!(
            "{suite}: solved count fell by more than {tolerance}; if intended, regenerate \
             suites/baselines/{baseline}.csv in a commit that says why"
        ));
    }
    (!diff.regressed && trouble == 0, details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::epd_report::{compare_baseline, CsvRow};

    fn rows(solved: &[bool]) -> Vec<CsvRow> {
        solved
            .iter()
            .enumerate()
            .map(|(i, &s)| CsvRow {
                suite: "mates".into(),
                id: format!("m{i}"),
                solved: u8::from(s),
                points: None,
                max_points: None,
                played: String::new(),
                expected: String::new(),
                solved_ms: None,
                solved_depth: None,
                depth: None,
                score: String::new(),
                status: "ok".into(),
            })
            .collect()
    }

    #[test]
    fn a_tactics_score_below_its_baseline_fails_the_step() {
        let baseline = rows(&[true, true, true, true, false]);
        // Same count: passes, and lists what moved.
        let same = compare_baseline(&rows(&[true, true, true, false, true]), &baseline, 0);
        let (ok, details) = plan_verdict("mates", 0, &same, 0, "sable-mates");
        assert!(ok, "{details:?}");
        assert_eq!(details, ["newly failed mates m3", "newly solved mates m4"]);
        // One fewer solved with tolerance 0: fails and says how to accept it.
        let fewer = compare_baseline(&rows(&[true, true, true, false, false]), &baseline, 0);
        let (ok, details) = plan_verdict("mates", 0, &fewer, 0, "sable-mates");
        assert!(!ok);
        assert!(details
            .last()
            .unwrap()
            .contains("suites/baselines/sable-mates.csv"));
        // Within a tolerance of 1 it passes.
        let within = compare_baseline(&rows(&[true, true, true, false, false]), &baseline, 1);
        assert!(plan_verdict("mates", 0, &within, 1, "sable-mates").0);
        // A crash or hang fails even with every position solved.
        let (ok, details) = plan_verdict("mates", 2, &same, 0, "sable-mates");
        assert!(!ok);
        assert!(details[0].contains("2 positions crashed"));
    }
}
