//! The tactical step of `harness check`: sable on the shipped suites (`suites/mates.epd`,
//! `suites/tactics.epd`) at the node limits their baselines were made with, compared with the
//! committed baselines in `suites/baselines/`. Node limits make the runs deterministic, so any
//! drop is a real change in what the engine finds.

use super::{CheckError, Profile, Verdict};
use crate::suites::epd_embedded::{run_check_plan, CheckPlan, CHECK_PLANS};
use crate::suites::epd_report::BaselineDiff;
use crate::suites::epd_run::Status;

/// Runs every check plan; fails when any suite's solved count fell past its tolerance.
pub fn run(profile: Profile) -> Result<Verdict, CheckError> {
    let engine = super::sable_engine_spec("sable")?;
    let mut outcomes = Vec::new();
    for plan in plans_for(profile) {
        let (report, diff) = run_check_plan(plan, &engine, 2)?;
        outcomes.push(PlanOutcome {
            plan: *plan,
            positions: report.results.len(),
            trouble: trouble(report.results.iter().map(|r| &r.status)),
            diff,
        });
    }
    Ok(combine(&outcomes))
}

/// The plans a profile runs: the quick one only the mates.
fn plans_for(profile: Profile) -> Vec<&'static CheckPlan> {
    CHECK_PLANS
        .iter()
        .filter(|p| profile != Profile::Quick || p.suite == "mates")
        .collect()
}

/// Positions that crashed, hung or got an illegal move.
fn trouble<'a>(statuses: impl Iterator<Item = &'a Status>) -> usize {
    statuses.filter(|s| **s != Status::Ok).count()
}

/// What one plan's run gave.
struct PlanOutcome {
    plan: CheckPlan,
    positions: usize,
    trouble: usize,
    diff: BaselineDiff,
}

/// The step's verdict: it passes only when every plan passes.
fn combine(outcomes: &[PlanOutcome]) -> Verdict {
    let (mut parts, mut details, mut passed) = (Vec::new(), Vec::new(), true);
    for o in outcomes {
        let (ok, why) = plan_verdict(
            o.plan.suite,
            o.trouble,
            &o.diff,
            o.plan.tolerance,
            o.plan.baseline,
        );
        parts.push(format!(
            "{} {}/{} (baseline {}, {} nodes)",
            o.plan.suite, o.diff.current_solved, o.positions, o.diff.baseline_solved, o.plan.nodes
        ));
        passed &= ok;
        details.extend(why);
    }
    Verdict {
        passed,
        summary: parts.join(", "),
        details,
    }
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
    fn one_failing_suite_fails_the_step_and_quick_runs_only_the_mates() {
        let baseline = rows(&[true, true, true]);
        let ok = compare_baseline(&rows(&[true, true, true]), &baseline, 0);
        let bad = compare_baseline(&rows(&[true, false, false]), &baseline, 0);
        let outcome = |plan: usize, diff: BaselineDiff, trouble| PlanOutcome {
            plan: CHECK_PLANS[plan],
            positions: 3,
            trouble,
            diff,
        };
        let v = combine(&[outcome(0, ok.clone(), 0), outcome(1, ok.clone(), 0)]);
        assert!(v.passed, "{v:?}");
        assert!(v
            .summary
            .starts_with("mates 3/3 (baseline 3, 200000 nodes), tactics 3/3"));
        assert!(!combine(&[outcome(0, ok.clone(), 0), outcome(1, bad.clone(), 0)]).passed);
        assert!(!combine(&[outcome(0, bad, 0), outcome(1, ok.clone(), 0)]).passed);
        assert!(!combine(&[outcome(0, ok, 1)]).passed);
        let quick: Vec<&str> = plans_for(Profile::Quick).iter().map(|p| p.suite).collect();
        assert_eq!(quick, ["mates"]);
        assert_eq!(plans_for(Profile::Standard).len(), CHECK_PLANS.len());
        let statuses = [
            Status::Ok,
            Status::Hung,
            Status::Ok,
            Status::Crashed("exit status: 3".into()),
            Status::Illegal("a1a1".into()),
        ];
        assert_eq!(trouble(statuses.iter()), 3);
        assert_eq!(trouble([Status::Ok].iter()), 0);
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
