//! `harness tune DATA...`: Texel tuning of the evaluation weights.
//!
//! Loads labelled positions, extracts the engine's trace of each once (optionally after a
//! quiescence resolution), fits K, runs Adam with a held-out validation split, and writes the
//! weights file the engine loads (`setoption name EvalFile value FILE`).

use crate::stats::elo::elo_to_score;
use crate::tune::optimise::{self, Checkpoint, Config, EpochStat, Progress};
use crate::tune::{dataset, kfit, load, model, output, store::Store};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sable::eval::Params;
use std::path::PathBuf;
use std::time::Instant;

/// Starting weights.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// The engine's compiled-in defaults.
    Current,
    /// Classic material values (100/300/300/500/900), everything else 0.
    Material,
    /// Every weight 0.
    Zero,
    /// A JSON weights file (as written by `--out`, or loaded by the engine as `EvalFile`),
    /// naming every weight of the current layout.
    File(PathBuf),
}

/// Parses `--init`: a keyword, or else the path of a weights file (clap value parser).
fn parse_init(s: &str) -> Result<Init, String> {
    Ok(match s {
        "current" => Init::Current,
        "material" => Init::Material,
        "zero" => Init::Zero,
        "" => return Err("expected current, material, zero or a weights file".into()),
        path => Init::File(PathBuf::from(path)),
    })
}

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
    /// Groups of terms that keep their starting values, comma separated (e.g. `material,pst`).
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
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
    /// Output weights file (JSON, loadable by the engine as EvalFile).
    #[arg(short, long, default_value = "tuned.json")]
    pub out: PathBuf,
    /// Also write the weights as Rust source of the engine's compiled-in defaults.
    #[arg(long)]
    pub emit_rust: Option<PathBuf>,
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

/// Draws the epoch bar.
struct Bar(ProgressBar, usize);

impl Progress for Bar {
    fn epoch(&mut self, s: &EpochStat) {
        self.0.set_position(s.epoch as u64);
        self.0.set_message(format!(
            "loss {:.6}  valid {:.6}  {:.2} M pos/s ({:.2} M/thread)",
            s.train,
            s.valid,
            s.pos_per_s / 1e6,
            s.pos_per_s / 1e6 / self.1 as f64
        ));
    }
}

/// Loads the positions (from the text, or from the `--cache` file), shuffled for mini-batches.
fn load(args: &Args) -> anyhow::Result<(Store, Store)> {
    let o = load::Options {
        data: args.data.clone(),
        skip_bad: args.skip_bad,
        qsearch: args.qsearch,
        valid: args.valid,
        cache: args.cache.clone(),
        target_options: format!("lambda={} score_k={}", args.lambda, args.score_k),
    };
    let (mut train, valid) = load::load(&o, &|r: &dataset::Record| {
        target(r, args.lambda, args.score_k)
    })?;
    if args.batch > 0 {
        // mini-batches must not follow the file's order (a batch would be a few games)
        train = train.shuffled(args.seed, args.batch);
    }
    Ok((train, valid))
}

/// The frozen mask from `--freeze` group names (unknown names are an error listing the groups).
fn frozen_mask(groups: &[String]) -> anyhow::Result<Vec<bool>> {
    let n = Params::len();
    let all: std::collections::BTreeSet<&str> = (0..n).map(Params::group).collect();
    for g in groups {
        anyhow::ensure!(
            all.contains(g.as_str()),
            "unknown group `{g}` for --freeze (groups: {all:?})"
        );
    }
    Ok((0..n)
        .map(|i| groups.iter().any(|g| g == Params::group(i)))
        .collect())
}

/// Runs the subcommand; returns the process exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    guard_init(&args)?;
    if args.threads > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global()?;
    }
    anyhow::ensure!(
        (0.0..1.0).contains(&args.valid),
        "--valid must be in [0, 1)"
    );
    let threads = rayon::current_num_threads();
    let (mut train, valid) = load(&args)?;
    if args.replicate > train.len() {
        let base = train.clone();
        while train.len() < args.replicate {
            train.extend(&base);
        }
        train.split_off(args.replicate);
        eprintln!(
            "replicated to {} positions ({:.0} MB)",
            train.len(),
            train.bytes() as f64 / 1e6
        );
    }
    let n = Params::len();
    anyhow::ensure!(
        train.width().max(valid.width()) <= n,
        "the trace uses a parameter index beyond Params::len() = {n}"
    );
    let init = match &args.init {
        Init::Current => output::to_f64(&Params::default()),
        Init::Material => output::to_f64(&Params::material_only()),
        Init::Zero => vec![[0.0; 2]; n],
        Init::File(path) => output::to_f64(&Params::load(path)?),
    };
    let frozen = frozen_mask(&args.freeze)?;
    let state = if args.resume {
        let path = args
            .checkpoint
            .as_ref()
            .expect("clap requires --checkpoint");
        let c = Checkpoint::load(path)?;
        eprintln!("resuming {} at epoch {}", path.display(), c.epoch);
        c
    } else {
        let k = match args.k {
            Some(k) => k,
            None => fit_k(&train)?,
        };
        optimise::fresh(init, k, args.lr, (train.len(), valid.len()))
    };
    report_start(&train, &valid, &state)?;
    let cfg = Config {
        epochs: args.epochs,
        lr: args.lr,
        batch: args.batch,
        frozen,
        checkpoint: args.checkpoint.clone(),
        checkpoint_every: args.checkpoint_every,
        l2: args.l2,
    };
    let bar = ProgressBar::new(args.epochs as u64).with_position(state.epoch as u64);
    bar.set_style(ProgressStyle::with_template(
        "epoch {pos}/{len} [{elapsed_precise}] {wide_bar} {msg}",
    )?);
    let mut progress = Bar(bar, threads);
    let t = Instant::now();
    let cpu0 = cpu_seconds();
    let epochs_before = state.epoch;
    let done = optimise::run(&train, &valid, &cfg, state, &mut progress)?;
    progress.0.finish();
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    let timing = Timing {
        epochs: done.epoch - epochs_before,
        secs,
        cpu,
        threads,
    };
    finish(&args, &train, &valid, &done, timing)
}

/// Refuses a run whose outputs include its own `--init` weights file (the default `-o
/// tuned.json` after `--init tuned.json`, say), unless `--overwrite-init`: the tuning's input
/// would be lost the moment the run ends, and a run to compare with could not be repeated.
fn guard_init(args: &Args) -> anyhow::Result<()> {
    let Init::File(init) = &args.init else {
        return Ok(());
    };
    if args.overwrite_init {
        return Ok(());
    }
    let curve_csv = args.curve.as_ref().map(|c| c.with_extension("csv"));
    let outputs = [
        ("-o/--out", Some(&args.out)),
        ("--emit-rust", args.emit_rust.as_ref()),
        ("--curve", args.curve.as_ref()),
        ("--curve (its CSV)", curve_csv.as_ref()),
        ("--checkpoint", args.checkpoint.as_ref()),
    ];
    // Same file when both resolve to one path; an output that does not exist yet cannot be it.
    let same = |p: &std::path::Path| match (init.canonicalize(), p.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    for (flag, path) in outputs {
        if let Some(path) = path.filter(|p| same(p)) {
            anyhow::bail!(
                "{flag} {} is the --init weights file: the run would overwrite its own input. \
                 Write elsewhere (e.g. -o tuned2.json; -o defaults to tuned.json), or pass \
                 --overwrite-init to replace it",
                path.display()
            );
        }
    }
    Ok(())
}

/// Fits K on the training set at the engine's current weights, and says so.
fn fit_k(train: &Store) -> anyhow::Result<f64> {
    let w = model::to_dense(&output::to_f64(&Params::default())).map_err(anyhow::Error::msg)?;
    let evals = model::evals(train, &w, 0..train.len());
    let results = train.results();
    let (k, l) = kfit::fit_k(&evals, &results, 0.05, 10.0);
    eprintln!("fitted K = {k:.4} (loss {l:.6} at the current weights)");
    Ok(k)
}

fn report_start(train: &Store, valid: &Store, st: &Checkpoint) -> anyhow::Result<()> {
    let w = model::to_dense(&st.weights).map_err(anyhow::Error::msg)?;
    eprintln!(
        "{} training + {} validation positions, {} weights, K = {:.4}; starting loss {:.6} (validation {:.6})",
        train.len(),
        valid.len(),
        st.weights.len(),
        st.k,
        model::loss(train, &w, st.k, 0..train.len()),
        model::loss(valid, &w, st.k, 0..valid.len())
    );
    Ok(())
}

/// CPU seconds (user + system) this process has used, from /proc (None elsewhere). On a shared
/// machine the wall clock overstates the work; CPU time gives the per-thread throughput.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // fields after the parenthesised command name; utime and stime are the 12th and 13th
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ is 100 on Linux
}

/// How long the epochs took.
struct Timing {
    epochs: usize,
    secs: f64,
    cpu: Option<f64>,
    threads: usize,
}

fn finish(
    args: &Args,
    train: &Store,
    valid: &Store,
    done: &Checkpoint,
    tm: Timing,
) -> anyhow::Result<i32> {
    let Timing {
        epochs,
        secs,
        cpu,
        threads,
    } = tm;
    let chosen = match (&done.best, args.last) {
        (Some(b), false) => {
            println!(
                "best epoch       {} (validation loss {:.6}); its weights are written",
                b.epoch, b.valid
            );
            &b.weights
        }
        _ => &done.weights,
    };
    let w = model::to_dense(chosen).map_err(anyhow::Error::msg)?;
    let params = output::to_params(chosen);
    params
        .save(&args.out)
        .with_context(|| format!("writing {}", args.out.display()))?;
    if let Some(p) = &args.emit_rust {
        std::fs::write(p, params.to_rust()).with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(p) = &args.curve {
        output::write_curve(&done.history, p)?;
    }
    if args.tables {
        println!("{}", params.display_tables());
    }
    let per_epoch = secs / epochs.max(1) as f64;
    println!("K                {:.4}", done.k);
    println!(
        "training loss    {:.6}",
        model::loss(train, &w, done.k, 0..train.len())
    );
    println!(
        "validation loss  {:.6}",
        model::loss(valid, &w, done.k, 0..valid.len())
    );
    println!(
        "epochs           {} in {:.2}s ({:.4}s/epoch, {:.2} M pos/s on {} threads = {:.2} M pos/s/thread)",
        epochs,
        secs,
        per_epoch,
        train.len() as f64 / per_epoch / 1e6,
        threads,
        train.len() as f64 / per_epoch / 1e6 / threads as f64
    );
    if let Some(cpu) = cpu {
        println!(
            "cpu time         {:.2}s ({:.2} M pos per CPU-second; validation and checkpoints included)",
            cpu,
            (train.len() * epochs) as f64 / cpu.max(1e-9) / 1e6
        );
    }
    println!(
        "memory           {:.1} MB for {} positions ({:.0} bytes each)",
        (train.bytes() + valid.bytes()) as f64 / 1e6,
        train.len() + valid.len(),
        (train.bytes() + valid.bytes()) as f64 / (train.len() + valid.len()) as f64
    );
    if let Some(note) = load::resident_note() {
        println!("resident         {note}");
    }
    println!("weights          {}", args.out.display());
    Ok(0)
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

/// The training target of a record: its result blended with its recorded score (`--lambda`),
/// read as the Elo model's expected score of `score_k * score` centipawns.
fn target(r: &dataset::Record, lambda: f64, score_k: f64) -> f64 {
    match r.score {
        Some(cp) if lambda < 1.0 => {
            lambda * r.result + (1.0 - lambda) * elo_to_score(score_k * cp as f64)
        }
        _ => r.result,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_blend_result_and_score() {
        let rec = |result, score| dataset::Record {
            fen: String::new(),
            result,
            score,
        };
        assert_eq!(target(&rec(1.0, Some(-300)), 1.0, 1.0), 1.0);
        assert_eq!(target(&rec(0.5, None), 0.3, 1.0), 0.5);
        assert!((target(&rec(1.0, Some(0)), 0.5, 1.0) - 0.75).abs() < 1e-12);
        let (even, up) = (
            target(&rec(0.0, Some(0)), 0.0, 1.0),
            target(&rec(0.0, Some(400)), 0.0, 1.0),
        );
        assert!((even - 0.5).abs() < 1e-12 && (up - 10.0 / 11.0).abs() < 1e-12);
        assert!(unit_interval("1.5").is_err() && unit_interval("0.25") == Ok(0.25));
    }

    #[test]
    fn freeze_groups_are_checked_and_masked() {
        let m = frozen_mask(&["material".to_string()]).unwrap();
        assert_eq!(m.iter().filter(|&&f| f).count(), 5);
        assert!(m[0] && !m[Params::len() - 1]);
        let e = frozen_mask(&["nonsense".to_string()])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown group `nonsense`") && e.contains("pst"),
            "{e}"
        );
    }
}
