//! `harness spsa`: tune an engine's search parameters by SPSA over self-play games, as OpenBench
//! does, on this machine. Each iteration plays `--pairs-per` game pairs of theta + c against
//! theta - c through the match runner (books, adjudication, fault rules, logs: the same games as
//! `harness match`), then moves theta. One CSV row per iteration is the record and the resume
//! file; `--plot` draws every parameter's path.

use crate::game::Variant;
use crate::openings::openings_from_words;
use crate::report::plot::{write_svg, LineChart};
use crate::spsa::defaults::write_rust_defaults;
use crate::spsa::{
    format_value, history, iteration_openings, params_from_engine, parse_input, perturb, update,
    Param, Schedule,
};
use crate::tablebase::TbArgs;
use crate::tournament::cli::syzygy_rule;
use crate::tournament::config::Stop;
use crate::tournament::engine_args::{adjudication, engine_from_words};
use crate::tournament::preflight::missing_program;
use crate::tournament::revision::resolve_engine_revision;
use crate::tournament::{interrupt, lock, naming, run_match, MatchConfig};
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

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
    let mut engine = engine_from_words(&args.each, &args.engine).map_err(anyhow::Error::msg)?;
    if args.variant == Variant::Chess960 {
        engine.spec.set_option("UCI_Chess960", "true");
    }
    if args.iterations == 0 || args.pairs_per == 0 {
        bail!("--iterations and --pairs-per must be at least 1");
    }
    // Every input file is read before anything slow happens (a `rev:` build, the engine's start).
    let given_params = match &args.params {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!("cannot read the SPSA input (--params) {}", path.display())
            })?;
            Some(parse_input(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let (book, book_name) = openings_from_words(&args.openings, args.seed, args.variant)?;
    let mut adjudication =
        adjudication(&args.draw, &args.resign, args.maxmoves).map_err(anyhow::Error::msg)?;
    adjudication.syzygy = syzygy_rule(&args.tb, args.quiet)?;
    resolve_engine_revision(&mut engine, !args.quiet).map_err(anyhow::Error::msg)?;
    if let Some(why) = missing_program(&engine.spec) {
        eprintln!("SPSA stopped before it started: {why}");
        return Ok(crate::tournament::EXIT_NO_VERDICT);
    }
    let out = out_file(&args, &engine.spec.display_name())?;
    let plot = args
        .plot
        .clone()
        .unwrap_or_else(|| naming::sibling(&out, "svg"));
    let mut params = match given_params {
        Some(params) => params,
        None => params_from_engine(&engine.spec)?,
    };
    let run_lock = lock::acquire(&out, "harness spsa")?;
    if let Some(note) = &run_lock.taken_over {
        eprintln!("note: {note}");
    }
    let mut done = 0;
    if args.resume {
        done = history::resume(&out, &mut params)?;
    } else if out.exists() {
        bail!(
            "{} already holds an SPSA run; it is never overwritten. Continue it with the same \
             command and --resume, or choose another file with --out",
            out.display()
        );
    } else {
        history::create(&out, &params)?;
    }
    let start_values: Vec<f64> = params.iter().map(|p| p.value).collect();
    let schedule = Schedule::new(args.iterations);
    interrupt::install();
    let bar = progress(&args, done);
    let mut faults = 0;
    for k in done + 1..=args.iterations {
        let d = perturb(&params, &schedule, args.seed, k);
        let side = |name: &str, values: Vec<f64>| {
            let mut e = engine.clone();
            e.spec.name = Some(name.into());
            for (p, v) in params.iter().zip(values) {
                e.spec.set_option(&p.name, &format_value(p, v));
            }
            e
        };
        let dev = side("theta+c", d.iter().map(|x| x.dev).collect());
        let base = side("theta-c", d.iter().map(|x| x.base).collect());
        let mut cfg = MatchConfig::new(
            vec![dev, base],
            iteration_openings(&book, k, args.pairs_per),
        );
        cfg.book_name = book_name.clone();
        cfg.rounds = args.pairs_per;
        cfg.concurrency = args.concurrency;
        cfg.adjudication = adjudication;
        cfg.event = format!("SPSA iteration {k}");
        cfg.variant = args.variant;
        let outcome = run_match(&cfg)?;
        faults += outcome.total_faults().total();
        match &outcome.stopped {
            None => {}
            Some(Stop::Interrupted) => {
                bar.finish_and_clear();
                println!(
                    "Interrupted in iteration {k}: {} iterations recorded in {}. To continue: \
                     harness spsa ... --resume (the same command with --resume)",
                    k - 1,
                    out.display()
                );
                finish(&args, &params, &start_values, (&out, &plot))?;
                return Ok(interrupt::EXIT_INTERRUPTED);
            }
            Some(why) => {
                bar.finish_and_clear();
                eprintln!("SPSA stopped in iteration {k}, no update from it: {why}");
                return Ok(crate::tournament::EXIT_NO_VERDICT);
            }
        }
        let t = outcome.pairings[0].tracker.trinomial();
        update(&mut params, &d, t.wins as f64 - t.losses as f64);
        history::append_row(&out, k, [t.wins, t.losses, t.draws], &params)?;
        bar.inc(1);
        bar.set_message(summary_message(&params));
    }
    bar.finish_and_clear();
    if faults > 0 {
        eprintln!("warning: {faults} engine faults over the run (each cost its game)");
    }
    finish(&args, &params, &start_values, (&out, &plot))?;
    Ok(0)
}

/// The run's CSV: `--out`, else the default name (kind, engine, date). With `--resume` and no
/// `--out`, the newest default-named run of this engine here (a run started yesterday resumes
/// today); without `--resume`, a default name already taken is numbered.
fn out_file(args: &Args, engine: &str) -> anyhow::Result<PathBuf> {
    if let Some(out) = &args.out {
        return Ok(out.clone());
    }
    let today = naming::default_results("spsa", &[engine.to_owned()], &naming::today(), "csv");
    if !args.resume {
        let (free, numbered) = naming::first_free(&today);
        if numbered {
            eprintln!(
                "note: {} is taken by an earlier run (continue that one with the same command \
                 and --resume --out {}); this run writes {}",
                today.display(),
                today.display(),
                free.display()
            );
        }
        return Ok(free);
    }
    let prefix = naming::default_results("spsa", &[engine.to_owned()], "", "csv");
    let prefix = prefix.to_string_lossy();
    let prefix = prefix.trim_end_matches(".csv");
    let newest = std::fs::read_dir(".")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            // The date follows the prefix: `spsa-sable-` is no prefix of `spsa-sable-tune-...`.
            name.strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
                && name.ends_with(".csv")
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max();
    match newest {
        Some((_, path)) => {
            let path = path.strip_prefix(".").map(PathBuf::from).unwrap_or(path);
            eprintln!(
                "Resuming {} (give --out FILE to resume another)",
                path.display()
            );
            Ok(path)
        }
        None => bail!(
            "--resume: no SPSA run of {engine} here ({prefix}*.csv); give its file with --out FILE"
        ),
    }
}

fn progress(args: &Args, done: u32) -> ProgressBar {
    if args.quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(u64::from(args.iterations)).with_style(
        ProgressStyle::with_template(
            "SPSA [{bar:30}] {pos}/{len} iterations, {elapsed} (eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(u64::from(done));
    bar
}

fn summary_message(params: &[Param]) -> String {
    params
        .iter()
        .take(3)
        .map(|p| format!("{}={}", p.name, format_value(p, p.value)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Prints the values (OpenBench's output form and `setoption` lines), draws the paths and
/// writes the Rust defaults when asked.
fn finish(
    args: &Args,
    params: &[Param],
    start: &[f64],
    (out, plot): (&Path, &Path),
) -> anyhow::Result<()> {
    println!("Tuned values (OpenBench's output form):");
    for p in params {
        println!("{}, {}", p.name, format_value(p, p.value));
    }
    println!("As UCI commands:");
    for (p, s) in params.iter().zip(start) {
        println!(
            "setoption name {} value {}    (start {})",
            p.name,
            format_value(p, p.value),
            format_value(p, *s)
        );
    }
    let paths = history::read_paths(out, params.len());
    if !paths.is_empty() {
        let charts: Vec<LineChart> = params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let points = paths.iter().map(|(k, v)| (f64::from(*k), v[i])).collect();
                LineChart::new(&p.name, "iteration", "value")
                    .series(&p.name, points)
                    .ref_line(start[i], "start")
                    .size(640.0, 200.0)
            })
            .collect();
        write_svg(&charts, plot)?;
        println!("Paths: {}", plot.display());
    }
    if let Some(path) = &args.emit_rust {
        write_rust_defaults(path, params)?;
        println!("Defaults written to {}", path.display());
    }
    Ok(())
}
