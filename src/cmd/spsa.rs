//! `harness spsa`: tune an engine's search parameters by SPSA over self-play games, as OpenBench
//! does, on this machine. Each iteration plays `--pairs-per` game pairs of theta + c against
//! theta - c through the match runner (books, adjudication, fault rules, logs: the same games as
//! `harness match`), then moves theta. One CSV row per iteration is the record and the resume
//! file; `--plot` draws every parameter's path.

use crate::game::{Opening, Variant};
use crate::report::plot::{write_svg, LineChart};
use crate::spsa::{format_value, parse_input, perturb, update, Param, Schedule};
use crate::tournament::book::openings_from_words;
use crate::tournament::config::Stop;
use crate::tournament::engine_args::{adjudication, engine_from_words};
use crate::tournament::revision::resolve_engine_revision;
use crate::tournament::{interrupt, lock, run_match, EngineConfig, MatchConfig};
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
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
    /// One row per iteration: iteration, wins, losses, draws, then every value after it.
    #[arg(long, default_value = "spsa.csv")]
    out: PathBuf,
    /// Continue the run recorded in `--out` (same parameters, engine and settings).
    #[arg(long)]
    resume: bool,
    /// Where to draw the parameters' paths (SVG).
    #[arg(long, default_value = "spsa.svg")]
    plot: PathBuf,
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
    resolve_engine_revision(&mut engine, !args.quiet).map_err(anyhow::Error::msg)?;
    let mut params = match &args.params {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            parse_input(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        }
        None => params_from_engine(&engine)?,
    };
    if args.iterations == 0 || args.pairs_per == 0 {
        bail!("--iterations and --pairs-per must be at least 1");
    }
    let (book, book_name) = openings_from_words(&args.openings, args.seed, args.variant)?;
    let adjudication =
        adjudication(&args.draw, &args.resign, args.maxmoves).map_err(anyhow::Error::msg)?;
    let _lock = lock::acquire(&args.out, "harness spsa")?;
    let mut done = 0;
    if args.resume {
        done = resume_from(&args.out, &mut params)?;
    } else if args.out.exists() {
        bail!(
            "{} already holds an SPSA run; it is never overwritten. Continue it with --resume, \
             or choose another file with --out",
            args.out.display()
        );
    } else {
        write_header(&args.out, &params)?;
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
        let mut cfg = MatchConfig::new(vec![dev, base], openings_for(&book, k, args.pairs_per));
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
                    args.out.display()
                );
                finish(&args, &params, &start_values)?;
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
        append_row(&args.out, k, [t.wins, t.losses, t.draws], &params)?;
        bar.inc(1);
        bar.set_message(summary_message(&params));
    }
    bar.finish_and_clear();
    if faults > 0 {
        eprintln!("warning: {faults} engine faults over the run (each cost its game)");
    }
    finish(&args, &params, &start_values)?;
    Ok(0)
}

/// The SPSA input the engine prints with `spsa` (a tuning build of sable does).
fn params_from_engine(engine: &EngineConfig) -> anyhow::Result<Vec<Param>> {
    let out = std::process::Command::new(&engine.spec.cmd)
        .args(&engine.spec.args)
        .arg("spsa")
        .output()
        .with_context(|| format!("cannot run `{} spsa`", engine.spec.cmd))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || text.trim().is_empty() {
        bail!(
            "`{} spsa` listed no parameters ({}); build the tuning build (`make -C engine \
             EXE=sable-tune TUNE=1`) or give --params FILE",
            engine.spec.cmd,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    parse_input(&text).map_err(|e| anyhow::anyhow!("`{} spsa`: {e}", engine.spec.cmd))
}

/// The `pairs` openings of iteration `k`: the book read on from where the last iteration
/// stopped, so that iterations do not replay each other's openings.
fn openings_for(book: &[Opening], k: u32, pairs: u32) -> Vec<Opening> {
    if book.is_empty() {
        return Vec::new();
    }
    let first = (k as usize - 1) * pairs as usize;
    (0..pairs as usize)
        .map(|i| book[(first + i) % book.len()].clone())
        .collect()
}

fn header(params: &[Param]) -> String {
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    format!("iteration,wins,losses,draws,{}", names.join(","))
}

fn write_header(path: &Path, params: &[Param]) -> anyhow::Result<()> {
    std::fs::write(path, format!("{}\n", header(params)))
        .with_context(|| format!("cannot write {}", path.display()))
}

fn append_row(path: &Path, k: u32, wld: [u64; 3], params: &[Param]) -> anyhow::Result<()> {
    let values: Vec<String> = params.iter().map(|p| format!("{:.6}", p.value)).collect();
    let line = format!(
        "{k},{},{},{},{}\n",
        wld[0],
        wld[1],
        wld[2],
        values.join(",")
    );
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    f.write_all(line.as_bytes())
        .and_then(|_| f.flush())
        .with_context(|| format!("writing {}", path.display()))
}

/// Reads a run's CSV: the values after its last complete row, and that row's iteration. A row
/// cut short by a kill is ignored (that iteration is played again).
fn resume_from(path: &Path, params: &mut [Param]) -> anyhow::Result<u32> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = text.lines();
    let want = header(params);
    if lines.next() != Some(want.as_str()) {
        bail!(
            "{}: recorded for other parameters (its header is not `{want}`)",
            path.display()
        );
    }
    let rows = text.lines().count() - 1;
    let mut done = 0;
    for (i, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        let complete = i + 1 < rows || text.ends_with('\n');
        let parsed: Option<Vec<f64>> = fields
            .iter()
            .skip(4)
            .map(|f| f.parse::<f64>().ok())
            .collect();
        match (fields.first().and_then(|f| f.parse::<u32>().ok()), parsed) {
            (Some(k), Some(values)) if values.len() == params.len() && k == done + 1 => {
                for (p, v) in params.iter_mut().zip(values) {
                    p.value = v;
                }
                done = k;
            }
            _ if !complete => break,
            _ => bail!("{}:{}: not an SPSA row: `{line}`", path.display(), i + 2),
        }
    }
    Ok(done)
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
fn finish(args: &Args, params: &[Param], start: &[f64]) -> anyhow::Result<()> {
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
    let paths = read_paths(&args.out, params.len())?;
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
        write_svg(&charts, &args.plot)?;
        println!("Paths: {}", args.plot.display());
    }
    if let Some(path) = &args.emit_rust {
        emit_rust(path, params)?;
        println!("Defaults written to {}", path.display());
    }
    Ok(())
}

fn read_paths(path: &Path, n: usize) -> anyhow::Result<Vec<(u32, Vec<f64>)>> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let k = f.first()?.parse().ok()?;
            let v: Option<Vec<f64>> = f.iter().skip(4).map(|x| x.parse().ok()).collect();
            v.filter(|v| v.len() == n).map(|v| (k, v))
        })
        .collect())
}

/// Rewrites the defaults in a `search_params!` table: each line `func: "Name" = D in ...` of a
/// tuned parameter gets the tuned value (rounded), everything else stays as it is.
fn emit_rust(path: &Path, params: &[Param]) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = String::with_capacity(text.len());
    let mut found = 0;
    for line in text.split_inclusive('\n') {
        let replaced = params.iter().find_map(|p| {
            let key = format!("\"{}\" = ", p.name);
            let at = line.find(&key)? + key.len();
            let end = at + line[at..].find(" in ")?;
            Some(format!(
                "{}{}{}",
                &line[..at],
                format_value(p, p.value),
                &line[end..]
            ))
        });
        if replaced.is_some() {
            found += 1;
        }
        out.push_str(replaced.as_deref().unwrap_or(line));
    }
    if found != params.len() {
        bail!(
            "{}: found {found} of the {} parameters as `\"Name\" = value in ...` lines",
            path.display(),
            params.len()
        );
    }
    let tmp = path.with_extension("rs.tmp");
    std::fs::write(&tmp, out).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Vec<Param> {
        parse_input("A, int, 80, 30, 200, 8, 0.002\nB, float, 0.5, 0, 1, 0.05, 0.002\n").unwrap()
    }

    #[test]
    fn the_csv_resumes_from_its_last_complete_row() {
        let path = std::env::temp_dir().join(format!("sable-spsa-{}.csv", std::process::id()));
        let mut ps = params();
        write_header(&path, &ps).unwrap();
        ps[0].value = 81.5;
        append_row(&path, 1, [2, 1, 5], &ps).unwrap();
        ps[0].value = 82.25;
        append_row(&path, 2, [1, 1, 6], &ps).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("3,1,0,7,83.0"); // killed while writing row 3
        std::fs::write(&path, &text).unwrap();
        let mut fresh = params();
        assert_eq!(resume_from(&path, &mut fresh).unwrap(), 2);
        assert_eq!(fresh[0].value, 82.25);
        assert_eq!(read_paths(&path, 2).unwrap().len(), 2);
        // Other parameters: refused.
        let mut other = parse_input("C, int, 1, 0, 2, 1, 0.002\n").unwrap();
        assert!(resume_from(&path, &mut other)
            .unwrap_err()
            .to_string()
            .contains("other parameters"));
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn rust_defaults_are_rewritten_in_place() {
        let path = std::env::temp_dir().join(format!("sable-emit-{}.rs", std::process::id()));
        std::fs::write(
            &path,
            "search_params! {\n    /// doc\n    a: \"A\" = 80 in 30..=200, c_end 8.0;\n    b: \"B\" = 1 in 0..=1, c_end 1.0;\n}\n",
        )
        .unwrap();
        let mut ps =
            parse_input("A, int, 80, 30, 200, 8, 0.002\nB, int, 1, 0, 1, 1, 0.002\n").unwrap();
        ps[0].value = 96.6;
        emit_rust(&path, &ps).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("a: \"A\" = 97 in 30..=200, c_end 8.0;"),
            "{text}"
        );
        assert!(text.contains("b: \"B\" = 1 in 0..=1"), "{text}");
        assert!(text.contains("/// doc"));
        let missing = parse_input("Z, int, 1, 0, 2, 1, 0.002\n").unwrap();
        assert!(emit_rust(&path, &missing).is_err());
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn iterations_read_the_book_on() {
        let book: Vec<Opening> = (0..5)
            .map(|i| Opening {
                origin: Some(format!("line {i}")),
                ..Opening::default()
            })
            .collect();
        let o = |k| {
            openings_for(&book, k, 2)
                .iter()
                .map(|o| o.origin.clone().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(o(1), ["line 0", "line 1"]);
        assert_eq!(o(2), ["line 2", "line 3"]);
        assert_eq!(o(3), ["line 4", "line 0"]);
        assert!(openings_for(&[], 1, 2).is_empty());
    }
}
