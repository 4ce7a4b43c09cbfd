//! `harness label DATA --engine stockfish --nodes 2000 --out OUT.csv`: give every labelled
//! position a reference engine's score (the CSV's third column), keeping its game result, so that
//! `harness tune --lambda` can learn from a stronger engine's judgement of each position as well
//! as from how the game ended. The labelling is `datagen::labels::label_records`.
//!
//! With `--tb DIR`, a position in the Syzygy tables gets its exact result from them instead (the
//! result column, and a score of +-3000 or 0 from White's view, as for a forced mate or a draw),
//! without a search.
//!
//! The output keeps the input's order, and is written a chunk at a time: an interrupted run
//! re-started with the same command skips the positions already in OUT and goes on.

use crate::datagen::labels::{already_labelled, label_records, ReferenceLabels};
use crate::plumbing::progress::{Reporter, Unit};
use crate::tablebase::{SyzygyRule, TbResults, TbTableArgs};
use crate::tune::dataset;
use crate::uci::engine_spec;
use crate::uci::limit::Limit;
use crate::uci::pool::PoolConfig;
use std::path::PathBuf;

/// Failed positions listed one by one (the rest are counted).
const SHOWN_FAILURES: usize = 10;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Labelled positions: EPD `FEN c9 "1-0";`, `FEN [1.0]` or CSV `fen,result,score`.
    // Not required here: files written after --engine's words reach clap as engine words, and
    // `run` takes them back (`uci::engine_spec`) before it checks that there is one.
    pub data: Vec<PathBuf>,
    /// The reference engine as key=value words, as for `harness match` (cmd=PATH name=X
    /// args="..." option.Hash=64), or the older form: the program with its arguments in one word
    /// ("/usr/games/stockfish").
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", required = true)]
    pub engine: Vec<String>,
    /// A UCI option for the engine as Name=Value (the same as option.Name=Value); repeat for
    /// several.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Nodes per position.
    #[arg(long, default_value_t = 2000, conflicts_with = "depth")]
    pub nodes: u64,
    /// Depth per position instead of a node count.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Engine processes in parallel (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub concurrency: usize,
    /// Skip (and count) malformed dataset lines instead of stopping at the first.
    #[arg(long)]
    pub skip_bad: bool,
    /// Output CSV `fen,result,score` (score from White's view); an existing file is continued.
    #[arg(short, long)]
    pub out: PathBuf,
    /// Syzygy tables: positions in them get their exact result and score, unsearched.
    #[command(flatten)]
    pub tb: TbTableArgs,
}

/// Runs the subcommand; returns the process exit code.
pub fn run(mut args: Args) -> anyhow::Result<i32> {
    let (spec, rest) = engine_spec(&args.engine, &args.options)?;
    args.data.extend(rest.into_iter().map(PathBuf::from));
    if args.data.is_empty() {
        anyhow::bail!("give at least one file of positions (harness label DATA... --engine ...)");
    }
    let syzygy = tables(&args)?;
    let records = read_records(&args)?;
    let done = already_labelled(&args.out)?;
    anyhow::ensure!(
        done <= records.len(),
        "{} already holds {done} positions, more than the {} given: not the same input?",
        args.out.display(),
        records.len()
    );
    if done > 0 {
        errln!(
            "{}: {done} positions already labelled, going on",
            args.out.display()
        );
    }
    // --nodes has a default, so it is the limit's default, not a flag given.
    let search = Limit::from_flags(None, args.depth, None, Limit::Nodes(args.nodes)).go_params();
    let engines = match args.concurrency {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let config = ReferenceLabels {
        syzygy,
        ..ReferenceLabels::new(PoolConfig::new(spec, engines), search)
    };
    let bar = Reporter::new(true, "", Unit::POSITIONS, records.len() as u64);
    bar.set_position(done as u64);
    let summary = label_records(&records[done..], done + 1, &args.out, &config, &mut || {
        bar.inc(1)
    });
    bar.clear();
    let summary = summary?;
    for restored in &summary.restored {
        errln!("warning: {restored}");
    }
    for failure in summary.failures.iter().take(SHOWN_FAILURES) {
        errln!("no score: {failure}");
    }
    if summary.failures.len() > SHOWN_FAILURES {
        errln!("no score: {} more", summary.failures.len() - SHOWN_FAILURES);
    }
    errln!(
        "{}: {} positions labelled ({} from the tables; {} without a score: the engine failed \
         on them)",
        args.out.display(),
        summary.labelled,
        summary.from_tables,
        summary.failures.len()
    );
    Ok(0)
}

/// The Syzygy tables of `--tb`, said aloud with their warnings.
fn tables(args: &Args) -> anyhow::Result<Option<SyzygyRule>> {
    Ok(match args.tb.rule(TbResults::Both)? {
        Some((rule, warnings)) => {
            errln!("Syzygy: {}", rule.tables.describe());
            warnings.iter().for_each(|w| errln!("warning: {w}"));
            Some(rule)
        }
        None => None,
    })
}

/// The positions of every file, in order; a file that gives none is refused.
fn read_records(args: &Args) -> anyhow::Result<Vec<dataset::Record>> {
    let mut records = Vec::new();
    for path in &args.data {
        let before = records.len();
        let skipped = dataset::for_each_in_file(path, args.skip_bad, |r| records.push(r))?;
        if skipped > 0 {
            errln!("{}: {skipped} bad lines skipped", path.display());
        }
        // A file that gives nothing to label is the wrong file, not a finished job.
        anyhow::ensure!(
            records.len() > before,
            "{}: no position to label ({})",
            path.display(),
            match skipped {
                0 => "the file holds no position line".to_owned(),
                n => format!("all {n} lines unreadable"),
            }
        );
    }
    Ok(records)
}
