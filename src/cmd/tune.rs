//! `harness tune DATA...`: Texel tuning of the evaluation weights.
//!
//! Loads labelled positions, extracts the engine's trace of each once (optionally after a
//! quiescence resolution), fits K, runs Adam with a held-out validation split, and writes the
//! weights file the engine loads (`setoption name EvalFile value FILE`). The run itself is
//! [`crate::tune::run`]; this module parses the arguments.

use super::legacy_resume;
use crate::plumbing::output::{self, Policy};
use crate::tournament::resume::{ResultsFile, StoredRun};
use crate::tune::adopt::SprtEvidence;
use crate::tune::run::{self, parse_init, Adoption, Init, Options};
use crate::tune::TuneError;
use anyhow::Context;
use std::path::{Path, PathBuf};

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Labelled positions: EPD `FEN c9 "1-0";`, `FEN [1.0]` or CSV `fen,result,score` (mixed freely).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Skip (and count) malformed dataset lines instead of stopping at the first.
    #[arg(long)]
    pub skip_bad: bool,
    /// Resolve every position to the quiet leaf of the engine's quiescence PV before tracing.
    #[arg(long)]
    pub qsearch: bool,
    /// Number of epochs.
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    /// Adam learning rate (about the largest change of a weight per step, in centipawns).
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Positions per mini-batch; 0 = full batch (one Adam step per epoch).
    #[arg(long, default_value_t = 0)]
    pub batch: usize,
    /// L2 penalty per squared centipawn of each weight's distance from its starting value
    /// (e.g. 1e-7): holds back the weights few positions speak for. 0 = none
    #[arg(long, default_value_t = 0.0, value_parser = non_negative)]
    pub l2: f64,
    /// The sigmoid scale K in `1 / (1 + 10^(-K * eval / 400))`; fitted on the data when absent.
    #[arg(long)]
    pub k: Option<f64>,
    /// Weight of the game result in each position's target. The rest is the position's recorded
    /// search score (the CSV's third column, e.g. a strong engine's eval extracted from its
    /// games), mapped to an expected score by `1 / (1 + 10^(-score-k * score / 400))`; positions
    /// without a score keep their result. 1 = results only.
    #[arg(long, default_value_t = 1.0, value_parser = unit_interval)]
    pub lambda: f64,
    /// The sigmoid scale that turns a recorded score into an expected score (see `--lambda`).
    #[arg(long, default_value_t = 1.0, value_parser = non_negative)]
    pub score_k: f64,
    /// Starting weights: `current` (the engine's compiled-in defaults), `material` (classic
    /// material values 100/300/300/500/900, everything else 0), `zero`, or the path of a JSON
    /// weights file (as written by `--out`; it must name every weight of the current layout).
    #[arg(long, value_parser = parse_init, default_value = "current")]
    pub init: Init,
    /// Groups (`material`, `pst`) or blocks (`king.shelter`) of terms that keep their
    /// starting values, comma separated.
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
    /// Tune only these groups or blocks, comma separated; every other weight keeps its starting
    /// value (what a newly added term wants: fit it without moving the rest).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Fraction of the positions held out for the validation loss: the LAST positions in file
    /// order, so that with datagen/extract output (a game's positions are consecutive) whole
    /// games are held out and the validation loss is not flattered by positions of the same game.
    #[arg(long, default_value_t = 0.1)]
    pub valid: f64,
    /// Seed of the shuffle of the training positions (matters for mini-batches).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Checkpoint file (none by default); written every `--checkpoint-every` epochs.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Epochs between checkpoints.
    #[arg(long, default_value_t = 10)]
    pub checkpoint_every: usize,
    /// Continue from `--checkpoint` (same data and options) instead of starting afresh.
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
    /// Output weights file (JSON, loadable by the engine as EvalFile). Default: tuned.json
    /// (numbered tuned-2.json, ... when taken).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Replace output files that exist already (`--out`, `--curve` and its CSV); without it a
    /// file named here that exists stops the command before any work, and the default
    /// tuned.json, when taken, becomes tuned-2.json (and so on).
    #[arg(long)]
    pub force: bool,
    /// Also write the weights as Rust source of the engine's compiled-in defaults (e.g.
    /// engine/src/eval/defaults.rs). Needs `--sprt` (or `--unverified`).
    #[arg(long)]
    pub emit_rust: Option<PathBuf>,
    /// The results file of an SPRT that the `--init` weights (as the first engine's EvalFile)
    /// won against the shipped engine (the same program without EvalFile), H1 at elo0 >= 0:
    /// the evidence `--emit-rust` needs. Refused with exit 1 when it does not show that.
    #[arg(long, value_name = "RESULTS.json", requires = "emit_rust")]
    pub sprt: Option<PathBuf>,
    /// Compile the weights in without an SPRT's evidence (you vouch for them).
    #[arg(long, requires = "emit_rust", conflicts_with = "sprt")]
    pub unverified: bool,
    /// Allow an output (`--out`, `--emit-rust`, `--curve`, `--checkpoint`) to be the `--init`
    /// weights file itself; without it such a run stops before it starts.
    #[arg(long)]
    pub overwrite_init: bool,
    /// Print the tuned tables (PSTs in the 8x8 layout, rank 8 on top).
    #[arg(long)]
    pub tables: bool,
    /// Loss-curve picture (SVG); its data goes to a CSV with the same stem.
    #[arg(long)]
    pub curve: Option<PathBuf>,
    /// Write the final weights even when an earlier epoch had a lower validation loss (by default
    /// the weights of the best validation epoch are written: early stopping).
    #[arg(long)]
    pub last: bool,
    /// Binary cache of the traced positions: used when it was made from the same data, weights
    /// layout and options, else (re)built from the text; tuning reads it memory-mapped.
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Speed benchmark: replicate the loaded positions up to N training positions.
    #[arg(long, default_value_t = 0)]
    pub replicate: usize,
}

/// Runs the subcommand on a pool of `--threads` workers; returns the process exit code: 0 done,
/// 1 weights not compiled in for want of a won SPRT (`--sprt`), 2 an error.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.threads > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global()?;
    }
    let adoption = match (&args.sprt, args.unverified) {
        (Some(path), _) => Adoption::Evidence(Box::new(evidence(path)?)),
        (None, true) => Adoption::Unverified,
        (None, false) => Adoption::Required,
    };
    let mut options = options(args)?;
    options.adoption = adoption;
    match run::run(&options) {
        Ok(_) => Ok(0),
        Err(TuneError::Adopt(e)) => {
            errln!("not compiled in: {:#}", anyhow::Error::from(e));
            Ok(1)
        }
        Err(e) => Err(e.into()),
    }
}

/// What an `harness sprt` results file says of its run: the verdict, and from the run's record
/// the bounds and the engines as they were started (a file of version 1, which kept only its
/// command line, is read through the legacy parser).
fn evidence(path: &Path) -> anyhow::Result<SprtEvidence> {
    let file = ResultsFile::load(path)?;
    let (decision, stopped) = (file.decision.clone(), file.stopped.clone());
    let (sprt, engines) = match file.stored_run(path)? {
        StoredRun::Record(record) => (
            record.sprt,
            record.engines.into_iter().map(|e| e.spec).collect(),
        ),
        StoredRun::Legacy(words) => {
            let old = legacy_resume::parse(path, &words)?;
            let engines = legacy_resume::engine_specs(&old.match_args)?;
            (Some(legacy_resume::sprt_of(&old)), engines)
        }
    };
    let sprt = sprt.with_context(|| {
        format!(
            "{}: the results of a match, not of an SPRT (`harness sprt`)",
            path.display()
        )
    })?;
    Ok(SprtEvidence {
        file: path.to_path_buf(),
        decision,
        stopped,
        elo0: sprt.elo0,
        elo1: sprt.elo1,
        engines,
    })
}

/// The library's options from the command line's, with the outputs claimed
/// (`plumbing::output`'s rule) before any work.
fn options(a: Args) -> anyhow::Result<Options> {
    let out_path = a.out.as_deref().unwrap_or(Path::new("tuned.json"));
    // `--overwrite-init` is the user saying that the init file is to be replaced.
    let is_init = matches!(&a.init, Init::File(init) if init == out_path);
    let out = output::resolve(
        a.out.as_deref(),
        out_path,
        a.force || (a.overwrite_init && is_init),
        "--out",
    )?;
    let curve = match &a.curve {
        // The picture and the CSV beside it (`tune::output::write_curve`) are one output.
        Some(svg) => {
            let policy = Policy::for_output(true, a.force, "--curve");
            output::claim(&svg.with_extension("csv"), policy)?;
            Some(output::claim(svg, policy)?.path)
        }
        None => None,
    };
    Ok(Options {
        data: a.data,
        skip_bad: a.skip_bad,
        qsearch: a.qsearch,
        epochs: a.epochs,
        lr: a.lr,
        batch: a.batch,
        l2: a.l2,
        k: a.k,
        lambda: a.lambda,
        score_k: a.score_k,
        init: a.init,
        freeze: a.freeze,
        only: a.only,
        valid: a.valid,
        seed: a.seed,
        checkpoint: a.checkpoint,
        checkpoint_every: a.checkpoint_every,
        resume: a.resume,
        out,
        emit_rust: a.emit_rust,
        adoption: Adoption::Required,
        overwrite_init: a.overwrite_init,
        tables: a.tables,
        curve,
        last: a.last,
        cache: a.cache,
        replicate: a.replicate,
        bar: true,
    })
}

/// Parses a finite number >= 0 (clap value parser).
fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("expected a number >= 0, got '{s}'")),
    }
}

/// Parses a number from 0 to 1 (clap value parser).
fn unit_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("expected a number from 0 to 1, got '{s}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_parsers_check_their_ranges() {
        assert!(unit_interval("1.5").is_err() && unit_interval("0.25") == Ok(0.25));
        assert!(non_negative("-1").is_err() && non_negative("inf").is_err());
        assert_eq!(non_negative("3e-9"), Ok(3e-9));
        assert_eq!(parse_init("zero"), Ok(Init::Zero));
        assert_eq!(
            parse_init("w.json"),
            Ok(Init::File(PathBuf::from("w.json")))
        );
    }
}
