//! `harness bisect`: the first commit between a good and a bad revision where the engine got
//! weaker (SPRTs of commits against good), or where a test command starts to fail (`--test`,
//! no games), on bad's first-parent line. How it decides and why: docs/bisect.md.
//!
//! - [`history`]: the commits of the range from git, with subjects and `Bench:` signatures.
//! - [`plan`]: the Bench classes, the next class to test, the end, the error budget (pure).
//! - [`build`]: one build per revision (the `rev:` cache, or `--build CMD` in a worktree).
//! - [`step`]: one SPRT through the match runner, or one run of the test command.
//! - [`state`]: `bisect.json`, the finished steps, for resuming.
//! - `search`: the loop that asks the plan, builds, runs the steps and records them.
//! - [`report`]: the text printed.

pub mod build;
pub mod error;
pub mod history;
pub mod plan;
pub mod report;
mod search;
pub mod state;
pub mod step;

use crate::plumbing::lock;
use crate::stats::{Model, Sprt};
use crate::tournament::cli::MatchArgs;
use build::{BuildSpec, Builder};
pub use error::BisectError;
use history::History;
use plan::PlanCommit;
use state::{Settings, SprtSettings, State};
use std::path::PathBuf;

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
fn settings(
    o: &Options,
    h: &History,
    classes: usize,
) -> Result<(Settings, Option<Sprt>), BisectError> {
    let (mode, sprt, words) = match &o.mode {
        Mode::Games {
            args,
            elo0,
            elo1,
            model,
            max_error,
        } => {
            if !(*max_error > 0.0 && *max_error < 1.0) {
                return Err(BisectError::MaxError { got: *max_error });
            }
            let max_tests = plan::max_tests(classes);
            let per_step = plan::per_step_error(*max_error, max_tests);
            let sprt = Sprt::new(*elo0, *elo1, per_step, per_step, *model)?;
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
pub fn run(o: &Options) -> Result<i32, BisectError> {
    let h = history::read(&o.repo, &o.good, &o.bad)?;
    let plan_commits: Vec<PlanCommit> = h
        .commits
        .iter()
        .map(|c| PlanCommit { bench: c.bench })
        .collect();
    let classes = plan::classes(h.good.bench, &plan_commits, o.bench_skip);
    let (settings, sprt) = settings(o, &h, classes.classes.len())?;
    std::fs::create_dir_all(&o.dir).map_err(|source| BisectError::CreateDir {
        path: o.dir.clone(),
        source,
    })?;
    let state_file = o.dir.join("bisect.json");
    let run_lock = lock::acquire(&state_file, &o.command_line)?;
    if let Some(note) = &run_lock.taken_over {
        errln!("note: {note}");
    }
    let state = State::load(&state_file, &settings)?.unwrap_or_else(|| State::new(settings));
    state.save(&state_file)?;
    out!(
        "{}",
        report::header(
            &h,
            &classes,
            &state.settings,
            &state_file.display().to_string()
        )
    );
    if classes.classes.is_empty() {
        outln!(
            "Every commit keeps good's Bench: bad plays the same games as good; nothing to find \
             (--bench-skip off tests them anyway)"
        );
        return Ok(EXIT_NO_REGRESSION);
    }
    for s in &state.steps {
        outln!("{}", report::step_line("[recorded]", s));
    }
    let builder = Builder::new(
        &o.repo,
        o.build.clone(),
        matches!(o.mode, Mode::Test(_)),
        &o.dir,
        o.verbose,
    );
    search::Bisection::new(o, &h, &classes, builder, state, state_file, sprt).run()
}

/// Used by the `bisect` command to find the repository of the current folder.
pub fn repo_root() -> Result<PathBuf, BisectError> {
    crate::plumbing::revision::repo_root().map_err(|source| BisectError::NotInRepo { source })
}
