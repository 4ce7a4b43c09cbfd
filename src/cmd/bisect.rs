//! `harness bisect`: the first commit between two revisions where the engine got weaker (SPRTs
//! against the good revision) or where a test command starts to fail (`--test`).

use crate::bisect::{self, build::BuildSpec, Mode, Options};
use crate::plumbing::interrupt;
use crate::stats::Model;
use crate::tournament::cli::MatchArgs;
use std::path::PathBuf;

/// `--bench-skip on|off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Switch {
    /// Skip them.
    On,
    /// Test them like any commit.
    Off,
}

/// Options of this subcommand: the range, the test, the build, and the match options. The
/// match options that name engines or a results file are hidden from the help (bisect chooses
/// those itself); given anyway, `run` refuses them with what to do instead, which says more
/// than clap's "unexpected argument".
#[derive(clap::Args, Debug)]
#[command(
    mut_arg("engine", |a| a.hide(true)),
    mut_arg("dev", |a| a.hide(true)),
    mut_arg("base", |a| a.hide(true)),
    mut_arg("results", |a| a.hide(true)),
    mut_arg("resume", |a| a.hide(true))
)]
pub struct Args {
    /// A revision where the engine is good (the base of every SPRT).
    #[arg(long, value_name = "REV")]
    good: String,
    /// A later revision where it is bad: the search covers good..bad on bad's first-parent line.
    #[arg(long, value_name = "REV")]
    bad: String,
    /// Bisect a functional failure instead, with no games: run CMD (sh -c) in each revision's
    /// worktree, with $BISECT_ENGINE (the built engine, if any), $BISECT_COMMIT, $BISECT_TREE;
    /// exit 0 = good, 125 = skip, 1-127 = bad, as `git bisect run` reads it.
    #[arg(long, value_name = "CMD")]
    test: Option<String>,
    /// How to build each revision: `sable` (the rev: cache, target/sable-revs/; the default for
    /// games), `none` (the default with --test), or a shell command run in a worktree of the
    /// revision.
    #[arg(long, value_name = "sable|none|CMD")]
    build: Option<String>,
    /// With a build command: the engine it makes, relative to the worktree (the engine runs
    /// there). Default target/release/sable.
    #[arg(long, value_name = "PATH")]
    engine_path: Option<String>,
    /// Skip commits whose `Bench:` line equals their parent's (they play the same games):
    /// on|off. Default on for games, off for --test.
    #[arg(long, value_enum)]
    bench_skip: Option<Switch>,
    /// Elo of a bad commit against good (H0 of each SPRT, in --model's scale).
    #[arg(long, default_value_t = -10.0, allow_hyphen_values = true)]
    elo0: f64,
    /// Elo of a good commit against good (H1 of each SPRT).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    elo1: f64,
    /// The most probability of naming a wrong commit: each of the at most 1 + ceil(log2 N)
    /// SPRTs gets alpha = beta = max-error / their number (a union bound).
    #[arg(long, default_value_t = 0.1)]
    max_error: f64,
    /// Elo scale of elo0/elo1: normalized or logistic.
    #[arg(long, default_value = "normalized")]
    model: Model,
    /// Folder of bisect.json (the finished steps; rerun the same command to resume), each
    /// step's results file and the build and test logs.
    #[arg(long, default_value = "bisect")]
    dir: PathBuf,
    #[command(flatten)]
    match_args: MatchArgs,
}

/// Runs the bisection. Exit code: 0 = the first bad commit found, 1 = bad is not weaker (or
/// passes), 3 = an SPRT undecided within --rounds, 4 = cannot bisect (good does not build or
/// fails, bad untestable, broken engines), 5 = only skipped commits left, 130 = interrupted.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let m = &args.match_args;
    for (given, option) in [
        (!m.engine.is_empty(), "--engine"),
        (m.dev.is_some(), "--dev"),
        (m.base.is_some(), "--base"),
        (m.results.is_some(), "--results"),
        (m.resume.is_some(), "--resume"),
    ] {
        if given {
            anyhow::bail!(
                "harness bisect chooses the engines and results files itself: leave out \
                 {option} (engine settings go in --each; rerun the same command to resume)"
            );
        }
    }
    let build = args.build.as_deref().unwrap_or(match args.test {
        Some(_) => "none",
        None => "sable",
    });
    let build = BuildSpec::parse(build, args.engine_path.as_deref())?;
    let mode = match &args.test {
        Some(cmd) => Mode::Test(cmd.clone()),
        None => {
            if build == BuildSpec::Nothing {
                anyhow::bail!("games need an engine: --build none goes only with --test");
            }
            Mode::Games {
                args: Box::new(args.match_args.clone()),
                elo0: args.elo0,
                elo1: args.elo1,
                model: args.model,
                max_error: args.max_error,
            }
        }
    };
    let options = Options {
        repo: bisect::repo_root()?,
        good: args.good,
        bad: args.bad,
        bench_skip: args
            .bench_skip
            .map_or(args.test.is_none(), |s| s == Switch::On),
        mode,
        build,
        dir: args.dir,
        verbose: !args.match_args.quiet,
        command_line: std::env::args().collect::<Vec<_>>().join(" "),
    };
    interrupt::install();
    Ok(bisect::run(&options)?)
}
