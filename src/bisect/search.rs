//! The search under way: asks the plan for the next class, builds one of its commits, runs the
//! step, records it in `bisect.json`, and prints the answer at the end. Ctrl-C, an undecided
//! SPRT or a revision that cannot be tested end it with the exit code that says so.

use super::build::{Builder, Built};
use super::history::{self, Commit, History};
use super::plan::{self, Answer, Class, Classes, Next, Verdict};
use super::state::{State, Step};
use super::step::{self, StepEnd};
use super::BisectError;
use super::{report, Mode, Options};
use super::{EXIT_AMBIGUOUS, EXIT_CANNOT, EXIT_FOUND, EXIT_NO_REGRESSION, EXIT_UNDECIDED};
use crate::plumbing::interrupt;
use crate::stats::Sprt;
use std::path::PathBuf;

/// A bisection under way.
pub(super) struct Bisection<'a> {
    o: &'a Options,
    h: &'a History,
    classes: &'a Classes,
    builder: Builder,
    state: State,
    state_file: PathBuf,
    sprt: Option<Sprt>,
    /// The good revision's build (games mode: the base of every SPRT).
    good: Option<Built>,
}

impl<'a> Bisection<'a> {
    /// A search of `classes` of `h`, going on from `state`.
    pub(super) fn new(
        o: &'a Options,
        h: &'a History,
        classes: &'a Classes,
        builder: Builder,
        state: State,
        state_file: PathBuf,
        sprt: Option<Sprt>,
    ) -> Self {
        Bisection {
            o,
            h,
            classes,
            builder,
            state,
            state_file,
            sprt,
            good: None,
        }
    }

    fn record(&mut self, label: &str, step: Step) -> Result<(), BisectError> {
        outln!("{}", report::step_line(label, &step));
        self.state.steps.push(step);
        self.state.save(&self.state_file)?;
        Ok(())
    }

    fn interrupted(&self) -> i32 {
        outln!(
            "Interrupted: {} steps recorded in {}; the same command continues",
            self.state.steps.len(),
            self.state_file.display()
        );
        interrupt::EXIT_INTERRUPTED
    }

    /// The members of class `c` in the order they are tried: the head first (the commit that
    /// changed the Bench), but bad itself first for bad's class, as the user named it.
    fn members(&self, c: usize) -> Vec<usize> {
        let mut m = self.classes.classes[c].members.clone();
        if c + 1 == self.classes.classes.len() {
            m.reverse();
        }
        m
    }

    /// The verdict of class `c` from the recorded steps: its members' first good or bad one;
    /// skip once every member is skipped; `None` while a member is untried.
    fn verdict(&self, c: usize) -> Option<Verdict> {
        for i in self.members(c) {
            match self.state.step(&self.h.commits[i].hash) {
                Some(s) if s.verdict != Verdict::Skip => return Some(s.verdict),
                Some(_) => {}
                None => return None,
            }
        }
        Some(Verdict::Skip)
    }

    /// The recorded step that decided class `c` (good or bad).
    fn deciding_step(&self, c: usize) -> Option<&Step> {
        self.members(c).into_iter().find_map(|i| {
            self.state
                .step(&self.h.commits[i].hash)
                .filter(|s| s.verdict != Verdict::Skip)
        })
    }

    /// `[k/max]` for the k-th SPRT, `[k]` for the k-th test run; `what` names bad or good.
    fn label(&self, what: &str) -> String {
        let done = self.state.steps.iter().filter(|s| s.ran()).count();
        let what = if what.is_empty() {
            String::new()
        } else {
            format!(" {what}")
        };
        match &self.state.settings.sprt {
            Some(p) => format!("[{}/{}]{what}", done + 1, p.max_tests),
            None => format!("[{}]{what}", done + 1),
        }
    }

    /// Runs the search to its end (or to a stop) and returns the exit code.
    pub(super) fn run(&mut self) -> Result<i32, BisectError> {
        // A copy of the reference, so that commits borrowed from it outlive `&mut self` calls.
        let h = self.h;
        if let Some(code) = self.prepare_good()? {
            return Ok(code);
        }
        loop {
            let verdicts: Vec<Option<Verdict>> = (0..self.classes.classes.len())
                .map(|c| self.verdict(c))
                .collect();
            let c = match plan::next(&verdicts) {
                Next::Test(c) => c,
                Next::Done(answer) => return Ok(self.finish(&answer)),
            };
            if interrupt::requested() {
                return Ok(self.interrupted());
            }
            let member = self
                .members(c)
                .into_iter()
                .find(|&i| self.state.step(&h.commits[i].hash).is_none())
                .expect("an undecided class has an untried member");
            if let Some(code) = self.ensure_good() {
                return Ok(code);
            }
            let commit = &h.commits[member];
            let built = match self.builder.build(&commit.hash) {
                Ok(b) => b,
                Err(_) if interrupt::requested() => return Ok(self.interrupted()),
                Err(why) => {
                    self.record("[skip]", skip(commit, format!("does not build: {why}")))?;
                    continue;
                }
            };
            let last = c + 1 == self.classes.classes.len();
            let label = self.label(if last { "bad" } else { "" });
            let end = self.test(commit, &built)?;
            if let Some(code) = self.take_end(end, commit, &label, last)? {
                return Ok(code);
            }
        }
    }

    /// Records a step's end, or says why the search stops there: `Some(code)` to stop.
    fn take_end(
        &mut self,
        end: StepEnd,
        commit: &Commit,
        label: &str,
        last: bool,
    ) -> Result<Option<i32>, BisectError> {
        match end {
            StepEnd::Done(step) => self.record(label, step)?,
            StepEnd::Interrupted => {
                if let Mode::Games { .. } = self.o.mode {
                    outln!(
                        "The SPRT of {} stopped; its finished games are kept in {}",
                        report::named(commit),
                        self.results_file(commit).display()
                    );
                }
                return Ok(Some(self.interrupted()));
            }
            StepEnd::Undecided { games, llr } => {
                outln!(
                    "{label} {}: no decision after {games} games (LLR {llr:.2}); rerun \
                     with a larger --rounds to continue this SPRT",
                    report::named(commit)
                );
                return Ok(Some(EXIT_UNDECIDED));
            }
            StepEnd::NoVerdict(why) if last => {
                outln!("Cannot confirm that bad is weaker: {why}");
                return Ok(Some(EXIT_CANNOT));
            }
            StepEnd::NoVerdict(why) => {
                self.record("[skip]", skip(commit, format!("no verdict: {why}")))?;
            }
        }
        Ok(None)
    }

    /// The results file of the SPRT of `commit`.
    fn results_file(&self, commit: &Commit) -> PathBuf {
        self.o.dir.join(format!("sprt-{}.json", commit.short()))
    }

    /// Runs the step of mode for `commit`.
    fn test(&self, commit: &Commit, built: &Built) -> Result<StepEnd, BisectError> {
        match &self.o.mode {
            Mode::Games { args, .. } => {
                let results = self.results_file(commit);
                let good = self.good.as_ref().expect("good is built first");
                let sprt = self.sprt.expect("games mode has an SPRT");
                step::sprt_step(args, sprt, good, commit, built, &results)
            }
            Mode::Test(cmd) => {
                let log = self.o.dir.join(format!("test-{}.log", commit.short()));
                step::test_step(cmd, commit, built, &log, self.o.verbose)
            }
        }
    }

    /// Games: builds good, the base of every SPRT, when the first SPRT needs it. `Some(code)`
    /// when it does not build.
    fn ensure_good(&mut self) -> Option<i32> {
        if self.good.is_some() || matches!(self.o.mode, Mode::Test(_)) {
            return None;
        }
        match self.builder.build(&self.h.good.hash) {
            Ok(b) => {
                self.good = Some(b);
                None
            }
            Err(_) if interrupt::requested() => Some(self.interrupted()),
            Err(why) => {
                outln!(
                    "The good revision {} does not build: {why}",
                    report::named(&self.h.good)
                );
                Some(EXIT_CANNOT)
            }
        }
    }

    /// Test mode: runs the test on good, which must pass. `Some(code)` when the search cannot
    /// go on.
    fn prepare_good(&mut self) -> Result<Option<i32>, BisectError> {
        let good = self.h.good.clone();
        if let Mode::Games { .. } = self.o.mode {
            return Ok(None);
        }
        if self.state.step(&good.hash).is_none() {
            let label = self.label("good");
            match self.builder.build(&good.hash) {
                Ok(built) => match self.test(&good, &built)? {
                    StepEnd::Done(step) => self.record(&label, step)?,
                    StepEnd::Interrupted => return Ok(Some(self.interrupted())),
                    other => unreachable!("a test step ends done or interrupted: {other:?}"),
                },
                Err(_) if interrupt::requested() => return Ok(Some(self.interrupted())),
                Err(why) => {
                    self.record("[skip]", skip(&good, format!("does not build: {why}")))?;
                }
            }
        }
        let step = self.state.step(&good.hash).expect("recorded above");
        if step.verdict != Verdict::Good {
            outln!(
                "The good revision {} does not pass the test ({}): nothing to bisect",
                report::named(&good),
                step.reason
            );
            return Ok(Some(EXIT_CANNOT));
        }
        Ok(None)
    }

    /// Prints the answer and the cost, removes the worktrees, and returns the exit code.
    fn finish(&self, answer: &Answer) -> i32 {
        let code = match answer {
            Answer::NoRegression => {
                let last = self.classes.classes.len() - 1;
                let step = self.deciding_step(last).expect("bad's class was decided");
                let bad = report::named(self.h.commits.last().expect("a range has commits"));
                match self.o.mode {
                    Mode::Games { .. } => outln!(
                        "Bad {bad} is not weaker than good ({}): no regression to find at these \
                         bounds",
                        step.reason
                    ),
                    Mode::Test(_) => outln!(
                        "Bad {bad} passes the test ({}): nothing to bisect",
                        step.reason
                    ),
                }
                EXIT_NO_REGRESSION
            }
            Answer::BadUntestable => {
                outln!(
                    "No commit of bad's class could be tested (see the skips above): nothing to \
                     bisect"
                );
                EXIT_CANNOT
            }
            Answer::Found { culprit, last_good } => {
                self.print_found(*culprit, *last_good);
                EXIT_FOUND
            }
            Answer::Ambiguous {
                candidates,
                last_good,
            } => {
                let after = last_good.map_or_else(
                    || format!("good {}", self.h.good.short()),
                    |g| report::named(&self.h.commits[self.classes.classes[g].members[0]]),
                );
                outln!(
                    "Only skipped commits are left: the first bad commit, after {after}, is one of"
                );
                for &c in candidates {
                    let head = &self.h.commits[self.classes.classes[c].members[0]];
                    let why = self
                        .deciding_step(c)
                        .map(|s| s.reason.clone())
                        .or_else(|| self.state.step(&head.hash).map(|s| s.reason.clone()))
                        .unwrap_or_default();
                    outln!("  {} \"{}\": {why}", head.hash, head.subject);
                }
                EXIT_AMBIGUOUS
            }
        };
        outln!("{}", report::cost(&self.state.steps, self.h.commits.len()));
        self.builder.remove_trees();
        code
    }

    fn print_found(&self, culprit: usize, last_good: Option<usize>) {
        let class: &Class = &self.classes.classes[culprit];
        let head = &self.h.commits[class.members[0]];
        outln!("First bad commit: {}", head.hash);
        outln!("  {}", head.subject);
        let bad_step = self.deciding_step(culprit);
        if let Some(s) = bad_step.filter(|s| s.commit != head.hash) {
            outln!(
                "  (tested as {}, which keeps its Bench)",
                history::short(&s.commit)
            );
        }
        let good_step = last_good.and_then(|g| self.deciding_step(g));
        let before = match last_good {
            Some(_) => good_step.map_or(String::new(), |s| {
                format!("that of {}, the last good", history::short(&s.commit))
            }),
            None => "good's own 0".to_owned(),
        };
        match report::elo_across(bad_step, good_step) {
            Some([elo, err]) => outln!(
                "  Elo across it: {elo:.1} +/- {err:.1} (its SPRT against good minus {before})"
            ),
            None => {
                if let Some(s) = bad_step {
                    outln!("  Its test: {}", s.reason);
                }
            }
        }
        if head.merge {
            outln!(
                "  It is a merge: bisect its branch with --good $(git merge-base {h}^1 {h}^2) \
                 --bad {h}^2",
                h = head.short()
            );
        }
    }
}

/// A skip step for `commit`.
fn skip(commit: &Commit, reason: String) -> Step {
    Step {
        commit: commit.hash.clone(),
        subject: commit.subject.clone(),
        verdict: Verdict::Skip,
        reason,
        evidence: None,
        exit_code: None,
    }
}
