//! `harness epd`: run tactical EPD suites against any UCI engine, score them, compare with a
//! baseline.

use std::path::PathBuf;
use std::time::Duration;

use crate::suites::epd::{read_suite, Suite};
use crate::suites::epd_report::{
    compare_baseline, csv_rows, failures, read_csv, summary, write_csv,
};
use crate::suites::epd_run::{run_epd, EpdConfig, Limit};
use crate::tournament::preflight::missing_program;
use crate::uci::engine_spec;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// EPD files to run (operations bm, am, id, dm, c0 with STS points, c9).
    // Not required here: files written after --engine's words reach clap as engine words, and
    // `run` takes them back (`uci::engine_spec`) before it checks that there is one.
    pub suites: Vec<PathBuf>,
    /// The UCI engine as key=value words, as for `harness match` (cmd=PATH name=X args="-x 1"
    /// option.Hash=16 dir=DIR), or the older form: the program with its arguments in one word
    /// ("sable" or "/path/engine -x").
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", required = true)]
    pub engine: Vec<String>,
    /// A UCI option as Name=Value (the same as option.Name=Value), sent with setoption; repeat
    /// for several. Default: none.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Milliseconds per position (`go movetime`). Default 1000 when no limit is given.
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    pub movetime: Option<u64>,
    /// Nodes per position (`go nodes`): deterministic for single-threaded engines.
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Depth per position (`go depth`).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Engine processes searching in parallel.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Write one row per position to this CSV file (never an existing one, unless --force).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Replace output files that exist already; without it a file named here that exists
    /// stops the command before any work.
    #[arg(long)]
    pub force: bool,
    /// Compare with an earlier run's CSV: list newly failed/solved positions; exit code 1 when the
    /// solved count drops by more than --tolerance.
    #[arg(long, value_name = "FILE.csv")]
    pub baseline: Option<PathBuf>,
    /// How many fewer solved positions than the baseline are still accepted.
    #[arg(long, default_value_t = 0)]
    pub tolerance: usize,
    /// Stop at the first unreadable EPD line (file:line: cause, exit code 2), for CI on suites
    /// known to be clean. By default such lines are skipped with a warning and counted.
    #[arg(long)]
    pub strict: bool,
    /// Seconds a search may run past its limit (or at all, for --nodes/--depth) before the engine
    /// counts as hung and is restarted; the position counts as failed.
    #[arg(long, default_value_t = 30)]
    pub hang_timeout: u64,
    /// Do not list the failed positions.
    #[arg(long)]
    pub no_failures: bool,
}

/// Runs the subcommand; returns the process exit code.
pub fn run(mut args: Args) -> anyhow::Result<i32> {
    let (engine, rest) = engine_spec(&args.engine, &args.options)?;
    args.suites.extend(rest.into_iter().map(PathBuf::from));
    if args.suites.is_empty() {
        anyhow::bail!("give at least one EPD suite (harness epd SUITE.epd... --engine ...)");
    }
    if args.concurrency == 0 {
        anyhow::bail!("--concurrency must be at least 1");
    }
    let limit = Limit::from_flags(args.nodes, args.depth, args.movetime, Limit::Movetime(1000));
    // Every input is read, and the output claimed, before any engine starts: a missing
    // baseline or a taken CSV must not cost a run.
    let csv = crate::plumbing::output::named(args.csv.as_deref(), args.force, "--csv")?;
    let baseline = match &args.baseline {
        Some(path) => Some(read_csv(path).map_err(|e| anyhow::anyhow!("--baseline: {e:#}"))?),
        None => None,
    };
    let suites = read_suites(&args)?;
    if let Some(why) = missing_program(&engine) {
        anyhow::bail!("{why}");
    }
    let config = EpdConfig {
        suites,
        engine,
        limit,
        concurrency: args.concurrency,
        hang_timeout: Duration::from_secs(args.hang_timeout),
        progress: true,
    };
    let report = run_epd(&config)?;
    if !args.no_failures {
        out!("{}", failures(&report));
    }
    out!("{}", summary(&report));
    let rows = csv_rows(&report);
    if let Some(path) = &csv {
        write_csv(path, &rows)?;
    }
    if let Some(old) = &baseline {
        let diff = compare_baseline(&rows, old, args.tolerance);
        out!("{diff}");
        if diff.regressed {
            return Ok(1);
        }
    }
    Ok(0)
}

/// Reads every suite, refusing one with nothing to solve (it would report `0 / 0` and exit 0:
/// a gate that cannot fail) before any engine starts.
fn read_suites(args: &Args) -> anyhow::Result<Vec<Suite>> {
    let suites = args
        .suites
        .iter()
        .map(|p| {
            read_suite(p, !args.strict).map_err(|e| {
                anyhow::anyhow!(
                    "{e:#}\n(--strict stops at the first unreadable line; without it such lines \
                     are skipped with a warning and counted)"
                )
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    for (suite, path) in suites.iter().zip(&args.suites) {
        for e in &suite.skipped {
            errln!("warning: skipped {e}");
        }
        // A suite with nothing to solve would report `0 / 0` and exit 0: a gate that cannot
        // fail. Refuse it before any engine starts.
        if suite.positions.is_empty() {
            match suite.skipped.first() {
                None => anyhow::bail!(
                    "{}: no position (the file holds only blank lines and comments)",
                    path.display()
                ),
                Some(first) => anyhow::bail!(
                    "{}: no readable position ({} lines skipped, the first: {first})",
                    path.display(),
                    suite.skipped.len()
                ),
            }
        }
    }
    Ok(suites)
}
