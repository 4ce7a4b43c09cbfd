//! The tactical step of `harness check`: sable on the shipped suites (`suites/mates.epd`,
//! `suites/tactics.epd`) at the node limits their baselines were made with, compared with the
//! committed baselines in `suites/baselines/`. Node limits make the runs deterministic, so any
//! drop is a real change in what the engine finds.

use super::{Profile, Verdict};
use crate::suites::epd_embedded::{run_check_plan, CHECK_PLANS};
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
        parts.push(format!(
            "{} {}/{} (baseline {}, {} nodes)",
            plan.suite,
            diff.current_solved,
            report.results.len(),
            diff.baseline_solved,
            plan.nodes
        ));
        if diff.regressed || trouble > 0 {
            passed = false;
        }
        if trouble > 0 {
            details.push(format!(
                "{}: {trouble} positions crashed, hung or got an illegal move",
                plan.suite
            ));
        }
        for id in &diff.newly_failed {
            details.push(format!("{}: newly failed {id}", plan.suite));
        }
        for id in &diff.newly_solved {
            details.push(format!("{}: newly solved {id}", plan.suite));
        }
        if diff.regressed {
            details.push(format!(
                "{}: solved count fell by more than {}; if intended, regenerate \
                 suites/baselines/{}.csv in a commit that says why",
                plan.suite, plan.tolerance, plan.baseline
            ));
        }
    }
    Ok(Verdict {
        passed,
        summary: parts.join(", "),
        details,
    })
}
