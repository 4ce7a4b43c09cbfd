//! What `harness bisect` prints: the plan and its statistics before anything runs, one line per
//! step with its evidence, and the answer with the Elo across it. Pure functions to text.

use super::history::{Commit, History};
use super::plan::{Classes, Verdict};
use super::state::{Settings, Step};
use crate::stats::sprt::Bounds;
use std::fmt::Write as _;

/// `1 commit`, `2 commits`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `1a2b3c4d5e6f "Subject"`.
pub fn named(c: &Commit) -> String {
    format!("{} \"{}\"", c.short(), c.subject)
}

/// The plan, before anything is built or played: the range, the commits skipped for their
/// Bench and why, the test of each step and its bounds, and the error of the whole search.
pub fn header(h: &History, classes: &Classes, s: &Settings, state_file: &str) -> String {
    let mut out = String::new();
    let bad = h.commits.last().expect("a range has commits");
    let _ = writeln!(
        out,
        "Bisecting {} after good {} up to bad {}",
        count(h.commits.len(), "commit"),
        named(&h.good),
        named(bad)
    );
    let _ = writeln!(
        out,
        "  (bad's first-parent line: git rev-list --first-parent {}..{})",
        h.good.short(),
        bad.short()
    );
    out.push_str(&not_candidates(h, classes));
    let _ = writeln!(
        out,
        "Candidates: {} (each with the commits that keep its Bench)",
        classes.classes.len()
    );
    if classes.classes.is_empty() {
        return out;
    }
    out.push_str(&each_step(classes, s));
    let build = match s.build.as_str() {
        "sable" => "sable at each revision, through the rev: cache (target/sable-revs/)".into(),
        "none" => "none (the test builds what it needs)".to_owned(),
        cmd => format!(
            "`{cmd}` in a worktree of each revision, engine {}",
            s.engine_path.as_deref().unwrap_or("")
        ),
    };
    let _ = writeln!(out, "Build: {build}");
    let _ = writeln!(
        out,
        "State: {state_file} (Ctrl-C stops; the same command resumes)"
    );
    out
}

/// The commits skipped without a game because their Bench equals their parent's, each with
/// the commit it plays as (good's, or its class head's); empty when there are none.
fn not_candidates(h: &History, classes: &Classes) -> String {
    let mut skipped: Vec<(usize, Option<usize>)> = classes
        .same_as_good
        .iter()
        .map(|&i| (i, None))
        .chain(classes.classes.iter().flat_map(|c| {
            let head = c.members[0];
            c.members[1..].iter().map(move |&i| (i, Some(head)))
        }))
        .collect();
    let mut out = String::new();
    if skipped.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "Not candidates, their Bench: equals their parent's (same games, no match of their own):"
    );
    skipped.sort_unstable();
    for (i, head) in skipped {
        let c = &h.commits[i];
        let bench = c
            .bench
            .map_or_else(String::new, |b| format!("Bench: {b}, "));
        let like = match head {
            None => "plays as good".to_owned(),
            Some(head) => format!("plays as {}", h.commits[head].short()),
        };
        let _ = writeln!(out, "  {}: {bench}{like}", named(c));
    }
    out
}

/// What each step does: the SPRT with its bounds and the whole search's error, or the test
/// command with git bisect run's reading of its exit codes.
fn each_step(classes: &Classes, s: &Settings) -> String {
    let mut out = String::new();
    let Some(p) = &s.sprt else {
        let _ = writeln!(
            out,
            "Each step: `{}` in the commit's worktree (exit 0 good, 125 skip, 1-127 bad; \
             git bisect run's rule); good and bad are tested first; at most {} more steps",
            s.mode.trim_start_matches("test: "),
            super::plan::max_tests(classes.classes.len()).saturating_sub(1)
        );
        return out;
    };
    let (lo, hi) = match Bounds::new(p.per_step, p.per_step) {
        Ok(b) => (b.lower, b.upper),
        Err(_) => (f64::NAN, f64::NAN),
    };
    let _ = writeln!(
        out,
        "Each step: an SPRT of the commit (dev) against good (base), {} Elo:\n  \
         H0 \"bad\" elo = {}, H1 \"good\" elo = {}, alpha = beta = {:.4} \
         (LLR bounds {lo:.2}, {hi:.2})",
        p.model, p.elo0, p.elo1, p.per_step
    );
    let _ = writeln!(
        out,
        "Whole search: at most {} (1 to confirm bad, then ceil(log2 {})); by the union \
         bound it names a wrong commit with probability at most {} x {:.4} = {:.3} \
         (--max-error), if each commit is as strong as good or at least {} weaker and \
         the weakening stays",
        count(p.max_tests, "SPRT"),
        classes.classes.len(),
        p.max_tests,
        p.per_step,
        p.max_tests as f64 * p.per_step,
        p.elo1 - p.elo0
    );
    out
}

/// One step: `label  commit "subject": evidence: verdict`.
pub fn step_line(label: &str, step: &Step) -> String {
    let short = super::history::short(&step.commit);
    let head = format!("{label} {short} \"{}\"", step.subject);
    let verdict = match step.verdict {
        Verdict::Good => "good",
        Verdict::Bad => "bad",
        Verdict::Skip => "skipped",
    };
    match &step.evidence {
        Some(e) => format!(
            "{head}: {} games, W/L/D {}/{}/{}, Elo {:.1} +/- {:.1}, LLR {:.2} ({:.2}, {:.2}): {verdict}",
            e.games, e.wld[0], e.wld[1], e.wld[2], e.elo[0], e.elo[1], e.llr, e.bounds[0], e.bounds[1]
        ),
        None => format!("{head}: {verdict} ({})", step.reason),
    }
}

/// The Elo across the first bad commit: its match against good minus that of the newest good
/// commit before it (zero for good itself), with the two errors added in quadrature (the
/// matches are independent).
pub fn elo_across(bad: Option<&Step>, good: Option<&Step>) -> Option<[f64; 2]> {
    let b = bad?.evidence.as_ref()?.elo;
    let g = match good {
        Some(step) => step.evidence.as_ref()?.elo,
        None => [0.0, 0.0],
    };
    Some([b[0] - g[0], b[1].hypot(g[1])])
}

/// The cost of the search against an SPRT of every commit: `Games: G in S SPRTs; ...`.
pub fn cost(steps: &[Step], commits: usize) -> String {
    let games: Vec<u64> = steps
        .iter()
        .filter_map(|s| s.evidence.as_ref().map(|e| e.games))
        .collect();
    let total: u64 = games.iter().sum();
    if games.is_empty() {
        let runs = steps.iter().filter(|s| s.ran()).count();
        return format!(
            "Cost: {runs} test runs, no games (testing every commit: {} runs)",
            commits + 1
        );
    }
    let mean = total as f64 / games.len() as f64;
    format!(
        "Games: {total} in {}; an SPRT of each of the {commits} commits would take about \
         {commits} x {mean:.1} = {:.0} games",
        count(games.len(), "SPRT"),
        commits as f64 * mean
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bisect::state::Evidence;

    fn step(verdict: Verdict, elo: Option<[f64; 2]>) -> Step {
        Step {
            commit: "0123456789abcdef0123".into(),
            subject: "Halve the queen".into(),
            verdict,
            reason: "exit code 1".into(),
            evidence: elo.map(|elo| Evidence {
                games: 20,
                wld: [1, 15, 4],
                elo,
                llr: -3.05,
                bounds: [-2.94, 2.94],
                results: "r.json".into(),
            }),
            exit_code: None,
        }
    }

    #[test]
    fn the_elo_across_a_commit_subtracts_its_last_good_neighbour() {
        let bad = step(Verdict::Bad, Some([-300.0, 40.0]));
        let good = step(Verdict::Good, Some([-20.0, 30.0]));
        assert_eq!(elo_across(Some(&bad), Some(&good)), Some([-280.0, 50.0]));
        assert_eq!(elo_across(Some(&bad), None), Some([-300.0, 40.0]));
        assert_eq!(elo_across(Some(&step(Verdict::Bad, None)), None), None);
    }

    #[test]
    fn step_lines_show_the_evidence() {
        let line = step_line("[2/4]", &step(Verdict::Bad, Some([-300.0, 40.0])));
        assert_eq!(
            line,
            "[2/4] 0123456789ab \"Halve the queen\": 20 games, W/L/D 1/15/4, Elo -300.0 +/- 40.0, \
             LLR -3.05 (-2.94, 2.94): bad"
        );
        let line = step_line("[skip]", &step(Verdict::Skip, None));
        assert!(line.ends_with("skipped (exit code 1)"), "{line}");
    }

    #[test]
    fn the_cost_compares_with_an_sprt_of_every_commit() {
        let steps = [
            step(Verdict::Bad, Some([0.0, 0.0])),
            step(Verdict::Skip, None),
            step(Verdict::Good, Some([0.0, 0.0])),
        ];
        assert_eq!(
            cost(&steps, 9),
            "Games: 40 in 2 SPRTs; an SPRT of each of the 9 commits would take about 9 x 20.0 = 180 games"
        );
    }
}
