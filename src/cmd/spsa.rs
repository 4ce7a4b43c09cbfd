//! `harness spsa`: tune an engine's search parameters by SPSA over self-play games, as OpenBench
//! does, on this machine. The command line becomes a [`crate::spsa::run::Config`]; the loop is
//! [`crate::spsa::run::run`]; this prints its progress and the tuned values.

use crate::game::Variant;
use crate::openings::openings_from_words;
use crate::plumbing::interrupt;
use crate::plumbing::progress::{Reporter, Unit};
use crate::spsa::run::{self as spsa_run, Ended, Outcome};
use crate::spsa::{format_value, parse_input};
use crate::tablebase::TbArgs;
use crate::tournament::cli::syzygy_rule;
use crate::tournament::engine_args::{adjudication, engine_from_words};
use anyhow::Context;
use std::path::PathBuf;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The engine to tune, as key=value words: cmd=PATH|rev:REV (a tuning build: `make -C engine
    /// EXE=sable-tune TUNE=1`), option.NAME=VALUE, args=, dir=.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", required = true)]
    engine: Vec<String>,
    /// Limits and options for both sides: tc=..., nodes=..., option.Hash=16, timemargin=...
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// OpenBench SPSA input (`Name, int|float, value, min, max, c_end, r_end` per line).
    /// Default: what `<engine> spsa` prints.
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// Iterations.
    #[arg(long, default_value_t = 100)]
    iterations: u32,
    /// Game pairs per iteration (theta+ and theta- each play both colours of an opening).
    #[arg(long = "pairs-per", default_value_t = 4)]
    pairs_per: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Opening book words as for `harness match` (default: the built-in book).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    openings: Vec<String>,
    /// The rules: standard or fischerandom (sets UCI_Chess960 on the engine).
    #[arg(long, default_value = "standard")]
    variant: Variant,
    /// Seed of the perturbations and of the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One row per iteration: iteration, wins, losses, draws, then every value after it. Every
    /// other file of the run (the chart, the lock) is named after it. Default: engine and date,
    /// e.g. spsa-sable-tune-2026-11-25.csv (numbered -2, -3, ... when taken).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Continue the run recorded in `--out` (same parameters, engine and settings); without
    /// --out, the newest default-named run of this engine in this folder.
    #[arg(long)]
    resume: bool,
    /// Where to draw the parameters' paths (SVG). Default: --out's name with .svg.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Replace the --plot file when it exists (without it, a new run refuses a --plot file that
    /// exists; a resumed run redraws its own chart).
    #[arg(long)]
    force: bool,
    /// Write the tuned values as the defaults of a `search_params!` table (e.g.
    /// engine/src/search/params.rs).
    #[arg(long = "emit-rust", value_name = "FILE")]
    emit_rust: Option<PathBuf>,
    /// Draw adjudication: movenumber=N movecount=M score=CP.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Vec<String>,
    /// Resign adjudication: movecount=M score=CP twosided=true|false.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Vec<String>,
    /// Adjudicate a draw after this many full moves.
    #[arg(long)]
    maxmoves: Option<u32>,
    /// Syzygy adjudication: a game whose position is in the tables ends with their result.
    #[command(flatten)]
    tb: TbArgs,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs the tuner; exit code 0 when the planned iterations are done, 130 when interrupted
/// (resumable), 4 when the engine's faults stopped it.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let cfg = config(&args)?;
    interrupt::install();
    // The bar, or off a terminal (a log file, CI) one line an iteration; nothing with --quiet.
    let mut bar = Reporter::new(!args.quiet, "SPSA", Unit::ITERATIONS, 0)
        .with_lines("SPSA", Unit::ITERATIONS);
    let outcome = spsa_run::run(&cfg, &mut bar)?;
    bar.clear();
    match &outcome.ended {
        Ended::NotStarted(why) => {
            errln!("SPSA stopped before it started: {why}");
            return Ok(crate::tournament::EXIT_NO_VERDICT);
        }
        Ended::Stopped(k, why) => {
            errln!("SPSA stopped in iteration {k}, no update from it: {why}");
            return Ok(crate::tournament::EXIT_NO_VERDICT);
        }
        Ended::Interrupted(k) => outln!(
            "Interrupted in iteration {k}: {} iterations recorded in {}. To continue: \
             harness spsa ... --resume (the same command with --resume)",
            k - 1,
            outcome.out.display()
        ),
        Ended::Done if outcome.faults > 0 => errln!(
            "warning: {} engine faults over the run (each cost its game)",
            outcome.faults
        ),
        Ended::Done => {}
    }
    print_values(&outcome);
    Ok(match outcome.ended {
        Ended::Interrupted(_) => interrupt::EXIT_INTERRUPTED,
        _ => 0,
    })
}

/// The run's [`spsa_run::Config`]: every input file is read here, before anything slow happens
/// (a `rev:` build, the engine's start).
fn config(args: &Args) -> anyhow::Result<spsa_run::Config> {
    // A new run's picture follows the output rule; a resumed run redraws its own.
    let plot = match args.resume {
        true => args.plot.clone(),
        false => crate::plumbing::output::named(args.plot.as_deref(), args.force, "--plot")?,
    };
    let mut engine = engine_from_words(&args.each, &args.engine)?;
    if args.variant == Variant::Chess960 {
        engine.spec.set_option("UCI_Chess960", "true");
    }
    spsa_run::check_counts(args.iterations, args.pairs_per)?;
    let params = match &args.params {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!("cannot read the SPSA input (--params) {}", path.display())
            })?;
            Some(parse_input(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let (book, book_name) = openings_from_words(&args.openings, args.seed, args.variant)?;
    let mut adjudication = adjudication(&args.draw, &args.resign, args.maxmoves)?;
    adjudication.syzygy = syzygy_rule(&args.tb, args.quiet)?;
    Ok(spsa_run::Config {
        engine,
        params,
        iterations: args.iterations,
        pairs_per: args.pairs_per,
        concurrency: args.concurrency,
        book,
        book_name,
        adjudication,
        variant: args.variant,
        seed: args.seed,
        out: args.out.clone(),
        resume: args.resume,
        plot,
        emit_rust: args.emit_rust.clone(),
        verbose: !args.quiet,
    })
}

/// The values (OpenBench's output form and `setoption` lines) and the files written.
fn print_values(outcome: &Outcome) {
    outln!("Tuned values (OpenBench's output form):");
    for p in &outcome.params {
        outln!("{}, {}", p.name, format_value(p, p.value));
    }
    outln!("As UCI commands:");
    for (p, s) in outcome.params.iter().zip(&outcome.start) {
        outln!(
            "setoption name {} value {}    (start {})",
            p.name,
            format_value(p, p.value),
            format_value(p, *s)
        );
    }
    outln!("Iterations: {}", outcome.out.display());
    if let Some(plot) = &outcome.chart {
        outln!("Paths: {}", plot.display());
    }
    if let Some(path) = &outcome.emitted {
        outln!("Defaults written to {}", path.display());
    }
}
