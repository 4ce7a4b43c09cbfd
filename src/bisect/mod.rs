//! `harness bisect`: the first commit between a good and a bad revision where the engine got
//! weaker (SPRTs of commits against good), or where a test command starts to fail (`--test`,
//! no games), on bad's first-parent line. How it decides and why: docs/bisect.md.
//!
//! - [`history`]: the commits of the range from git, with subjects and `Bench:` signatures.
//! - [`plan`]: the Bench classes, the next class to test, the end, the error budget (pure).
//! - [`build`]: one build per revision (the `rev:` cache, or `--build CMD` in a worktree).
//! - [`step`]: one SPRT through the match runner, or one run of the test command.
//! - [`state`]: `bisect.json`, the finished steps, for resuming.
//! - [`report`]: the text printed.

pub mod build;
pub mod history;
pub mod plan;
pub mod report;
pub mod state;
pub mod step;

use crate::stats::{Model, Sprt};
use crate::tournament::cli::MatchArgs;
use crate::tournament::{interrupt, lock};
use build::{BuildSpec, Builder, Built};
use history::{Commit, History};
use plan::{Answer, Class, Classes, Next, PlanCommit, Verdict};
use state::{Settings, SprtSettings, State, Step};
use std::path::PathBuf;
use step::StepEnd;

/// Exit code: the first bad commit was found (one commit).
pub const EXIT_FOUND: i32 = 0;
/// Exit code: bad is not weaker than good (or passes the test): nothing to find.
pub const EXIT_NO_REGRESSION: i32 = 1;
/// Exit code: an SPRT did not decide within `--rounds`; a rerun with more rounds continues.
pub const EXIT_UNDECIDED: i32 = 3;
/// Exit code: the search cannot start or go on (good does not build or fails its test, bad
/// cannot be tested, broken engines).
pub const EXIT_CANNOT: i32 = 4;
/// Exit code: only skipped commits are left; the first bad commit is one of several.
pub const EXIT_AMBIGUOUS: i32 = 5;

/// What each step tests.
#[derive(Debug, Clone)]
pub enum Mode {
    /// An SPRT of the commit against good: H0 (bad) `elo0`, H1 (good) `elo1`.
    Games {
        /// The match options (time control, openings, concurrency, ...).
        args: Box<MatchArgs>,
        /// Elo of a bad commit against good.
        elo0: f64,
        /// Elo of a good commit against good.
        elo1: f64,
        /// The scale of `elo0` and `elo1`.
        model: Model,
        /// The bound on the probability that the search names a wrong commit.
        max_error: f64,
    },
    /// A shell command, judged by its exit code like `git bisect run`.
    Test(String),
}

/// A bisection to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The repository.
    pub repo: PathBuf,
    /// The good revision, as given.
    pub good: String,
    /// The bad revision, as given.
    pub bad: String,
    /// What each step tests.
    pub mode: Mode,
    /// How each revision is built.
    pub build: BuildSpec,
    /// Skip commits that keep their parent's `Bench:`.
    pub bench_skip: bool,
    /// The folder of `bisect.json`, the step results and the logs.
    pub dir: PathBuf,
    /// Progress bars and spinners.
    pub verbose: bool,
    /// The command line, for the lock file.
    pub command_line: String,
}

/// The match options that change games, in words (the state file compares them).
fn match_words(a: &MatchArgs) -> String {
    format!(
        "each={:?} openings={:?} variant={:?} games={} draw={:?} resign={:?} maxmoves={:?} \
         recover={} max_consecutive_faults={:?} max_fault_share={:?} seed={}",
        a.each,
        a.openings,
        a.variant,
        a.games,
        a.draw,
        a.resign,
        a.maxmoves,
        a.recover,
        a.max_consecutive_faults,
        a.max_fault_share,
        a.seed
    )
}

/// The settings of this bisection, with the error budget fixed from the number of classes.
fn settings(o: &Options, h: &History, classes: usize) -> anyhow::Result<(Settings, Option<Sprt>)> {
    let (mode, sprt, words) = match &o.mode {
        Mode::Games {
            args,
            elo0,
            elo1,
            model,
            max_error,
        } => {
            if !(*max_error > 0.0 && *max_error < 1.0) {
                anyhow::bail!("--max-error must lie between 0 and 1 (got {max_error})");
            }
            let max_tests = plan::max_tests(classes);
            let per_step = plan::per_step_error(*max_error, max_tests);
            let sprt =
                Sprt::new(*elo0, *elo1, per_step, per_step, *model).map_err(anyhow::Error::msg)?;
            let s = SprtSettings {
                elo0: *elo0,
                elo1: *elo1,
                model: model.to_string(),
                max_error: *max_error,
                max_tests,
                per_step,
            };
            ("games".to_owned(), Some((s, sprt)), match_words(args))
        }
        Mode::Test(cmd) => (format!("test: {cmd}"), None, String::new()),
    };
    let settings = Settings {
        good: h.good.hash.clone(),
        bad: h.commits.last().expect("a range has commits").hash.clone(),
        mode,
        build: o.build.describe(),
        engine_path: match &o.build {
            BuildSpec::Command { engine_path, .. } => Some(engine_path.clone()),
            _ => None,
        },
        bench_skip: o.bench_skip,
        sprt: sprt.as_ref().map(|(s, _)| s.clone()),
        match_options: words,
    };
    Ok((settings, sprt.map(|(_, t)| t)))
}

/// Runs a bisection and returns its exit code (see the `EXIT_` constants; 130 after Ctrl-C).
pub fn run(o: &Options) -> anyhow::Result<i32> {
    let h = history::read(&o.repo, &o.good, &o.bad)?;
    let plan_commits: Vec<PlanCommit> = h
        .commits
        .iter()
        .map(|c| PlanCommit { bench: c.bench })
        .collect();
    let classes = plan::classes(h.good.bench, &plan_commits, o.bench_skip);
    let (settings, sprt) = settings(o, &h, classes.classes.len())?;
    std::fs::create_dir_all(&o.dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", o.dir.display()))?;
    let state_file = o.dir.join("bisect.json");
    let _lock = lock::acquire(&state_file, &o.command_line)?;
    let state = State::load(&state_file, &settings)?.unwrap_or_else(|| State::new(settings));
    state.save(&state_file)?;
    print!(
        "{}",
        report::header(
            &h,
            &classes,
            &state.settings,
            &state_file.display().to_string()
        )
    );
    if classes.classes.is_empty() {
        println!(
            "Every commit keeps good's Bench: bad plays the same games as good; nothing to find \
             (--bench-skip off tests them anyway)"
        );
        return Ok(EXIT_NO_REGRESSION);
    }
    for s in &state.steps {
        println!("{}", report::step_line("[recorded]", s));
    }
    let builder = Builder::new(
        &o.repo,
        o.build.clone(),
        matches!(o.mode, Mode::Test(_)),
        &o.dir,
        o.verbose,
    );
    let mut b = Bisection {
        o,
        h: &h,
        classes: &classes,
        builder,
        state,
        state_file,
        sprt,
        good: None,
    };
    b.run()
}

/// A bisection under way.
struct Bisection<'a> {
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

impl Bisection<'_> {
    fn record(&mut self, label: &str, step: Step) -> anyhow::Result<()> {
        println!("{}", report::step_line(label, &step));
        self.state.steps.push(step);
        self.state.save(&self.state_file)?;
        Ok(())
    }

    fn interrupted(&self) -> i32 {
        println!(
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

    fn run(&mut self) -> anyhow::Result<i32> {
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
            match end {
                StepEnd::Done(step) => self.record(&label, step)?,
                StepEnd::Interrupted => {
                    if let Mode::Games { .. } = self.o.mode {
                        println!(
                            "The SPRT of {} stopped; its finished games are kept in {}",
                            report::named(commit),
                            self.results_file(commit).display()
                        );
                    }
                    return Ok(self.interrupted());
                }
                StepEnd::Undecided { games, llr } => {
                    println!(
                        "{label} {}: no decision after {games} games (LLR {llr:.2}); rerun \
                         with a larger --rounds to continue this SPRT",
                        report::named(commit)
                    );
                    return Ok(EXIT_UNDECIDED);
                }
                StepEnd::NoVerdict(why) if last => {
                    println!("Cannot confirm that bad is weaker: {why}");
                    return Ok(EXIT_CANNOT);
                }
                StepEnd::NoVerdict(why) => {
                    self.record("[skip]", skip(commit, format!("no verdict: {why}")))?;
                }
            }
        }
    }

    /// The results file of the SPRT of `commit`.
    fn results_file(&self, commit: &Commit) -> PathBuf {
        self.o.dir.join(format!("sprt-{}.json", commit.short()))
    }

    /// Runs the step of mode for `commit`.
    fn test(&self, commit: &Commit, built: &Built) -> anyhow::Result<StepEnd> {
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
                println!(
                    "The good revision {} does not build: {why}",
                    report::named(&self.h.good)
                );
                Some(EXIT_CANNOT)
            }
        }
    }

    /// Test mode: runs the test on good, which must pass. `Some(code)` when the search cannot
    /// go on.
    fn prepare_good(&mut self) -> anyhow::Result<Option<i32>> {
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
            println!(
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
                println!(
                    "Bad {} is not weaker than good ({}): no regression to find at these bounds",
                    report::named(self.h.commits.last().expect("a range has commits")),
                    step.reason
                );
                EXIT_NO_REGRESSION
            }
            Answer::BadUntestable => {
                println!(
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
                println!(
                    "Only skipped commits are left: the first bad commit, after {after}, is one of"
                );
                for &c in candidates {
                    let head = &self.h.commits[self.classes.classes[c].members[0]];
                    let why = self
                        .deciding_step(c)
                        .map(|s| s.reason.clone())
                        .or_else(|| self.state.step(&head.hash).map(|s| s.reason.clone()))
                        .unwrap_or_default();
                    println!("  {} \"{}\": {why}", head.hash, head.subject);
                }
                EXIT_AMBIGUOUS
            }
        };
        println!("{}", report::cost(&self.state.steps, self.h.commits.len()));
        self.builder.remove_trees();
        code
    }

    fn print_found(&self, culprit: usize, last_good: Option<usize>) {
        let class: &Class = &self.classes.classes[culprit];
        let head = &self.h.commits[class.members[0]];
        println!("First bad commit: {}", head.hash);
        println!("  {}", head.subject);
        let bad_step = self.deciding_step(culprit);
        if let Some(s) = bad_step.filter(|s| s.commit != head.hash) {
            println!(
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
            Some([elo, err]) => println!(
                "  Elo across it: {elo:.1} +/- {err:.1} (its SPRT against good minus {before})"
            ),
            None => {
                if let Some(s) = bad_step {
                    println!("  Its test: {}", s.reason);
                }
            }
        }
        if head.merge {
            println!(
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

/// Used by the `bisect` command to find the repository of the current folder.
pub fn repo_root() -> anyhow::Result<PathBuf> {
    crate::tournament::revision::repo_root()
        .map_err(|e| anyhow::anyhow!("harness bisect runs inside a git repository: {e}"))
}
