//! A tuning run from start to end, without the command line: load (text or cache), fit K,
//! run the epochs with a progress bar, and write the outputs (`harness tune` parses its
//! arguments into [`Options`] and calls [`run`]).

use super::adopt::{self, SprtEvidence};
pub use super::error::InitError;
use super::optimise::{self, Checkpoint, Config};
use super::tune_error::TuneError;
use super::{dataset, kernel, kfit, load, model, output, store::Store};
use crate::plumbing::progress::{Reporter, Unit};
use crate::stats::elo::elo_to_score;
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
pub fn parse_init(s: &str) -> Result<Init, InitError> {
    Ok(match s {
        "current" => Init::Current,
        "material" => Init::Material,
        "zero" => Init::Zero,
        "" => return Err(InitError),
        path => Init::File(PathBuf::from(path)),
    })
}

/// Everything a run needs (the command line's options; see `harness tune --help`).
#[derive(Clone, Debug)]
pub struct Options {
    /// Labelled positions, in order.
    pub data: Vec<PathBuf>,
    /// Skip (and count) malformed lines.
    pub skip_bad: bool,
    /// Resolve every position to its quiescence leaf before tracing.
    pub qsearch: bool,
    /// Number of epochs.
    pub epochs: usize,
    /// Adam learning rate.
    pub lr: f64,
    /// Positions per mini-batch; 0 = full batch.
    pub batch: usize,
    /// L2 penalty towards the starting weights.
    pub l2: f64,
    /// The sigmoid scale K; fitted when absent.
    pub k: Option<f64>,
    /// Weight of the game result in each target (the rest is the recorded score).
    pub lambda: f64,
    /// The sigmoid scale of the recorded scores.
    pub score_k: f64,
    /// Starting weights.
    pub init: Init,
    /// Groups or blocks of terms that keep their starting values.
    pub freeze: Vec<String>,
    /// If not empty, the only groups or blocks tuned (every other weight keeps its value).
    pub only: Vec<String>,
    /// Fraction of the positions (the last ones) held out for validation.
    pub valid: f64,
    /// Seed of the mini-batch shuffle.
    pub seed: u64,
    /// Checkpoint file.
    pub checkpoint: Option<PathBuf>,
    /// Epochs between checkpoints.
    pub checkpoint_every: usize,
    /// Continue from the checkpoint.
    pub resume: bool,
    /// Output weights file.
    pub out: PathBuf,
    /// Also write the weights as Rust source.
    pub emit_rust: Option<PathBuf>,
    /// What vouches for the weights `emit_rust` compiles in.
    pub adoption: Adoption,
    /// Allow an output to be the `--init` weights file.
    pub overwrite_init: bool,
    /// Print the tuned tables.
    pub tables: bool,
    /// Loss-curve picture (SVG, with a CSV beside it).
    pub curve: Option<PathBuf>,
    /// Write the final weights rather than the best validation epoch's.
    pub last: bool,
    /// Binary cache of the traced positions.
    pub cache: Option<PathBuf>,
    /// Speed benchmark: replicate the training positions up to this many.
    pub replicate: usize,
    /// Draw the epoch bar (the command line does; tests do not).
    pub bar: bool,
}

impl Options {
    /// The defaults of `harness tune` for `data`.
    pub fn new(data: Vec<PathBuf>) -> Options {
        Options {
            data,
            skip_bad: false,
            qsearch: false,
            epochs: 300,
            lr: 1.0,
            batch: 0,
            l2: 0.0,
            k: None,
            lambda: 1.0,
            score_k: 1.0,
            init: Init::Current,
            freeze: Vec::new(),
            only: Vec::new(),
            valid: 0.1,
            seed: 1,
            checkpoint: None,
            checkpoint_every: 10,
            resume: false,
            out: PathBuf::from("tuned.json"),
            emit_rust: None,
            adoption: Adoption::Required,
            overwrite_init: false,
            tables: false,
            curve: None,
            last: false,
            cache: None,
            replicate: 0,
            bar: false,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The finished state (history, final and best weights).
    pub state: Checkpoint,
    /// The weights written to `out`.
    pub written: Vec<[f64; 2]>,
    /// Training and validation loss of the written weights.
    pub losses: (f64, f64),
    /// Training and validation positions.
    pub sizes: (usize, usize),
}

/// Loads the positions (from the text, or from the `--cache` file), shuffled for mini-batches
/// and replicated for `--replicate`.
fn load(o: &Options) -> Result<(Store, Store), TuneError> {
    let lo = load::Options {
        data: o.data.clone(),
        skip_bad: o.skip_bad,
        qsearch: o.qsearch,
        valid: o.valid,
        cache: o.cache.clone(),
        target_options: format!("lambda={} score_k={}", o.lambda, o.score_k),
    };
    let (mut train, valid) =
        load::load(&lo, &|r: &dataset::Record| target(r, o.lambda, o.score_k))?;
    if o.batch > 0 {
        // mini-batches must not follow the file's order (a batch would be a few games)
        train = train.shuffled(o.seed, o.batch);
    }
    if o.replicate > train.len() && !train.is_empty() {
        let base = train.clone();
        while train.len() < o.replicate {
            train.extend(&base);
        }
        train.split_off(o.replicate);
        errln!(
            "replicated to {} positions ({:.0} MB)",
            train.len(),
            train.bytes() as f64 / 1e6
        );
    }
    Ok((train, valid))
}

/// The frozen mask from `--freeze` and `--only`: each names groups (`king`) or blocks
/// (`king.shelter`); a weight is frozen when `--freeze` names it or when `--only` is given and
/// does not. Unknown names are an error listing the groups.
fn frozen_mask(freeze: &[String], only: &[String]) -> Result<Vec<bool>, TuneError> {
    let n = Params::len();
    let known: std::collections::BTreeSet<&str> = (0..n)
        .flat_map(|i| [Params::group(i), Params::block(i)])
        .collect();
    if let Some(g) = freeze
        .iter()
        .chain(only)
        .find(|g| !known.contains(g.as_str()))
    {
        return Err(TuneError::UnknownGroup {
            group: g.clone(),
            groups: (0..n).map(|i| Params::group(i).to_string()).collect(),
        });
    }
    let names = |list: &[String], i: usize| {
        list.iter()
            .any(|g| g == Params::group(i) || g == Params::block(i))
    };
    Ok((0..n)
        .map(|i| names(freeze, i) || (!only.is_empty() && !names(only, i)))
        .collect())
}

/// Runs the tuning described by `o` on the current rayon pool; writes the outputs and returns
/// what it did.
pub fn run(o: &Options) -> Result<Summary, TuneError> {
    guard_init(o)?;
    guard_emit(o)?;
    if !(0.0..1.0).contains(&o.valid) {
        return Err(TuneError::ValidFraction);
    }
    let threads = rayon::current_num_threads();
    let (train, valid) = load(o)?;
    let n = Params::len();
    if train.width().max(valid.width()) > n {
        return Err(TuneError::IndexBeyond { n });
    }
    let init = initial_weights(&o.init, n)?;
    let frozen = frozen_mask(&o.freeze, &o.only)?;
    let state = start_state(o, init, &train, &valid)?;
    report_start(&train, &valid, &state)?;
    report_data_per_weight(train.len(), &frozen);
    let cfg = Config {
        epochs: o.epochs,
        lr: o.lr,
        batch: o.batch,
        frozen,
        checkpoint: o.checkpoint.clone(),
        checkpoint_every: o.checkpoint_every,
        l2: o.l2,
    };
    let mut progress = Reporter::new(o.bar, "", Unit::EPOCHS, o.epochs as u64);
    progress.set_position(state.epoch as u64);
    let t = Instant::now();
    let cpu0 = cpu_seconds();
    let epochs_before = state.epoch;
    let done = optimise::run(&train, &valid, &cfg, state, &mut progress)?;
    progress.finish();
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    let timing = Timing {
        epochs: done.epoch - epochs_before,
        secs,
        cpu,
        threads,
    };
    finish(o, &train, &valid, done, timing)
}

/// The `--init` weights, `n` of them.
fn initial_weights(init: &Init, n: usize) -> Result<Vec<[f64; 2]>, TuneError> {
    Ok(match init {
        Init::Current => output::to_f64(&Params::default()),
        Init::Material => output::to_f64(&Params::material_only()),
        Init::Zero => vec![[0.0; 2]; n],
        Init::File(path) => output::to_f64(&Params::load(path)?),
    })
}

/// The state the epochs start from: the checkpoint with `--resume`, else `init` with K given
/// or fitted.
fn start_state(
    o: &Options,
    init: Vec<[f64; 2]>,
    train: &Store,
    valid: &Store,
) -> Result<Checkpoint, TuneError> {
    if o.resume {
        let path = o
            .checkpoint
            .as_ref()
            .ok_or(TuneError::ResumeWithoutCheckpoint)?;
        let c = Checkpoint::load(path)?;
        errln!("resuming {} at epoch {}", path.display(), c.epoch);
        return Ok(c);
    }
    let k = match o.k {
        Some(k) => k,
        None => fit_k(train)?,
    };
    Ok(optimise::fresh(init, k, o.lr, (train.len(), valid.len())))
}

/// Refuses a run whose outputs include its own `--init` weights file (the default `-o
/// tuned.json` after `--init tuned.json`, say), unless `--overwrite-init`: the tuning's input
/// would be lost the moment the run ends, and a run to compare with could not be repeated.
fn guard_init(o: &Options) -> Result<(), TuneError> {
    let Init::File(init) = &o.init else {
        return Ok(());
    };
    if o.overwrite_init {
        return Ok(());
    }
    let curve_csv = o.curve.as_ref().map(|c| c.with_extension("csv"));
    let outputs = [
        ("-o/--out", Some(&o.out)),
        ("--emit-rust", o.emit_rust.as_ref()),
        ("--curve", o.curve.as_ref()),
        ("--curve (its CSV)", curve_csv.as_ref()),
        ("--checkpoint", o.checkpoint.as_ref()),
    ];
    // Same file when both resolve to one path; an output that does not exist yet cannot be it.
    let same = |p: &std::path::Path| match (init.canonicalize(), p.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    for (flag, path) in outputs {
        if let Some(path) = path.filter(|p| same(p)) {
            return Err(TuneError::OverwritesInit {
                flag,
                path: path.display().to_string(),
            });
        }
    }
    Ok(())
}

/// What vouches for weights compiled in by `--emit-rust` (see [`super::adopt`]).
#[derive(Debug, Clone)]
pub enum Adoption {
    /// Nothing yet: `--emit-rust` is refused.
    Required,
    /// An SPRT's results, checked against the `--init` weights before the run.
    Evidence(Box<SprtEvidence>),
    /// The user vouches (`--unverified`): compiled in with a warning.
    Unverified,
}

/// Refuses `--emit-rust` unless an SPRT shows the weights it would write beating the shipped
/// ones (or the user says `--unverified`), before any position is loaded. With evidence, the
/// weights compiled in are the `--init` file's, unchanged (`--epochs 0`): weights this run
/// makes cannot have been SPRT-ed yet. A refusal for want of a won SPRT is an [`AdoptError`].
fn guard_emit(o: &Options) -> Result<(), TuneError> {
    let Some(target) = &o.emit_rust else {
        return Ok(());
    };
    let evidence = match &o.adoption {
        Adoption::Unverified => {
            errln!(
                "warning: --unverified: compiling weights into {} that no SPRT here showed \
                 beating the shipped ones",
                target.display()
            );
            return Ok(());
        }
        Adoption::Required => {
            return Err(TuneError::EmitNeedsSprt {
                target: target.display().to_string(),
            })
        }
        Adoption::Evidence(e) => e,
    };
    let Init::File(init) = &o.init else {
        return Err(TuneError::SprtInitNotFile {
            init: format!("{:?}", o.init),
        });
    };
    if o.epochs != 0 || o.resume {
        return Err(TuneError::SprtTunesFurther { epochs: o.epochs });
    }
    let weights = Params::load(init)?;
    let cwd = std::env::current_dir().map_err(|source| TuneError::Io {
        context: "the current directory".into(),
        source,
    })?;
    adopt::check(evidence, &weights, &cwd)?;
    adopt::check_defaults_file(target)?;
    errln!(
        "{}: H1 accepted for {} against the shipped weights (elo0 {}, elo1 {}): compiling them \
         into {}",
        evidence.file.display(),
        init.display(),
        evidence.elo0,
        evidence.elo1,
        target.display()
    );
    Ok(())
}

/// Fits K on the training set at the engine's current weights, and says so.
fn fit_k(train: &Store) -> Result<f64, TuneError> {
    let w = model::to_dense(&output::to_f64(&Params::default()))?;
    let evals = kernel::evals(train, &w, 0..train.len())?;
    let results = train.results();
    let (k, l) = kfit::fit_k(&evals, &results, 0.05, 10.0);
    errln!("fitted K = {k:.4} (loss {l:.6} at the current weights)");
    Ok(k)
}

fn report_start(train: &Store, valid: &Store, st: &Checkpoint) -> Result<(), TuneError> {
    let w = model::to_dense(&st.weights)?;
    errln!(
        "{} training + {} validation positions, {} weights, K = {:.4}; starting loss {:.6} (validation {:.6})",
        train.len(),
        valid.len(),
        st.weights.len(),
        st.k,
        kernel::loss(train, &w, st.k, 0..train.len())?,
        kernel::loss(valid, &w, st.k, 0..valid.len())?
    );
    Ok(())
}

/// Training positions per tuned number below which a run is warned that it fits noise. The
/// README's recipe tunes all 1,324 numbers (662 weights, middle and end game) on 900,000
/// positions (about 680 a number) and gains; the 10,000 shipped positions give 7 a number, and
/// their weights lost hundreds of Elo (docs/results-tune.md, "positions per weight").
pub const MIN_POSITIONS_PER_NUMBER: usize = 100;

/// Says how many training positions there are for each tuned number (two a weight: middle and
/// end game), and warns when there are too few to tune them.
fn report_data_per_weight(positions: usize, frozen: &[bool]) {
    let numbers = 2 * frozen.iter().filter(|f| !**f).count();
    if numbers == 0 {
        return;
    }
    let per = positions / numbers;
    errln!("{positions} training positions for {numbers} tuned numbers: {per} a number");
    if per < MIN_POSITIONS_PER_NUMBER {
        errln!(
            "warning: {per} positions a tuned number is too few (fewer than \
             {MIN_POSITIONS_PER_NUMBER}): the weights will fit noise and may play much weaker. \
             Use more positions (harness datagen) or tune fewer groups (--freeze), and SPRT \
             the result against the shipped engine before using it"
        );
    }
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

/// The training target of a record: its result blended with its recorded score (`--lambda`),
/// read as the Elo model's expected score of `score_k * score` centipawns.
pub fn target(r: &dataset::Record, lambda: f64, score_k: f64) -> f64 {
    match r.score {
        Some(cp) if lambda < 1.0 => {
            lambda * r.result + (1.0 - lambda) * elo_to_score(score_k * cp as f64)
        }
        _ => r.result,
    }
}

/// How long the epochs took.
struct Timing {
    epochs: usize,
    secs: f64,
    cpu: Option<f64>,
    threads: usize,
}

/// Writes the outputs and reports the run.
fn finish(
    o: &Options,
    train: &Store,
    valid: &Store,
    done: Checkpoint,
    tm: Timing,
) -> Result<Summary, TuneError> {
    let chosen = match (&done.best, o.last) {
        (Some(b), false) => {
            outln!(
                "best epoch       {} (validation loss {:.6}); its weights are written",
                b.epoch,
                b.valid
            );
            &b.weights
        }
        _ => &done.weights,
    };
    let chosen = chosen.clone();
    let w = model::to_dense(&chosen)?;
    write_outputs(o, &output::to_params(&chosen), &done)?;
    outln!("K                {:.4}", done.k);
    let losses = (
        kernel::loss(train, &w, done.k, 0..train.len())?,
        kernel::loss(valid, &w, done.k, 0..valid.len())?,
    );
    outln!("training loss    {:.6}", losses.0);
    outln!("validation loss  {:.6}", losses.1);
    report_speed(train, valid, &tm);
    outln!("weights          {}", o.out.display());
    Ok(Summary {
        written: chosen,
        state: done,
        losses,
        sizes: (train.len(), valid.len()),
    })
}

/// Writes the weights (JSON, and the Rust defaults with `--emit-rust`) and the loss curve, and
/// prints the tables with `--tables`.
fn write_outputs(o: &Options, params: &Params, done: &Checkpoint) -> Result<(), TuneError> {
    // Both may replace files the user keeps (--overwrite-init, a source file): whole or not.
    crate::plumbing::atomic::write(&o.out, params.to_json())?;
    if let Some(p) = &o.emit_rust {
        crate::plumbing::atomic::write(p, params.to_rust())?;
    }
    if let Some(p) = &o.curve {
        output::write_curve(&done.history, p)?;
    }
    if o.tables {
        outln!("{}", params.display_tables());
    }
    Ok(())
}

/// Prints the epochs' speed (wall and CPU time, per thread) and the memory the positions took.
fn report_speed(train: &Store, valid: &Store, tm: &Timing) {
    let Timing {
        epochs,
        secs,
        cpu,
        threads,
    } = *tm;
    let per_epoch = secs / epochs.max(1) as f64;
    outln!(
        "epochs           {} in {:.2}s ({:.4}s/epoch, {:.2} M pos/s on {} threads = {:.2} M pos/s/thread)",
        epochs,
        secs,
        per_epoch,
        train.len() as f64 / per_epoch / 1e6,
        threads,
        train.len() as f64 / per_epoch / 1e6 / threads as f64
    );
    if let Some(cpu) = cpu {
        outln!(
            "cpu time         {:.2}s ({:.2} M pos per CPU-second; validation and checkpoints included)",
            cpu,
            (train.len() * epochs) as f64 / cpu.max(1e-9) / 1e6
        );
    }
    outln!(
        "memory           {:.1} MB for {} positions ({:.0} bytes each)",
        (train.bytes() + valid.bytes()) as f64 / 1e6,
        train.len() + valid.len(),
        (train.bytes() + valid.bytes()) as f64 / (train.len() + valid.len()) as f64
    );
    if let Some(note) = load::resident_note() {
        outln!("resident         {note}");
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
    }

    #[test]
    fn freeze_groups_are_checked_and_masked() {
        let m = frozen_mask(&["material".to_string()], &[]).unwrap();
        assert_eq!(m.iter().filter(|&&f| f).count(), 5);
        assert!(m[0] && !m[Params::len() - 1]);
        let e = frozen_mask(&["nonsense".to_string()], &[])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown group `nonsense`") && e.contains("pst"),
            "{e}"
        );
    }

    /// `--only` leaves exactly the named blocks and groups free, `--freeze` takes blocks too,
    /// and a name that is neither is refused.
    #[test]
    fn only_tunes_the_named_blocks_and_groups() {
        let free = |m: &[bool]| -> Vec<usize> { (0..m.len()).filter(|&i| !m[i]).collect() };
        let m = frozen_mask(&[], &["king.shelter".into(), "tempo".into()]).unwrap();
        let expect: Vec<usize> = (0..Params::len())
            .filter(|&i| Params::block(i) == "king.shelter" || Params::group(i) == "tempo")
            .collect();
        assert_eq!(free(&m), expect);
        assert_eq!(expect.len(), 29);
        let m = frozen_mask(&["king.shelter".into()], &["king".into()]).unwrap();
        assert!(free(&m)
            .iter()
            .all(|&i| Params::group(i) == "king" && Params::block(i) != "king.shelter"));
        assert!(frozen_mask(&[], &["king.nothing".into()]).is_err());
    }

    /// A run on the first 600 positions of the shipped sample, from material values: the
    /// written file holds the weights of the best validation epoch, which beat the start, and
    /// the frozen material weights kept their values.
    #[test]
    fn a_run_writes_its_best_epochs_weights_and_keeps_frozen_ones() {
        let dir = crate::test_dir("tune-run");
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.csv"))
            .unwrap();
        let data = dir.join("part.csv");
        let lines: Vec<&str> = text.lines().take(600).collect();
        std::fs::write(&data, lines.join("\n") + "\n").unwrap();
        let mut o = Options::new(vec![data]);
        o.epochs = 8;
        o.lr = 2.0;
        o.k = Some(1.2);
        o.init = Init::Material;
        o.freeze = vec!["material".into()];
        o.out = dir.join("w.json");
        let s = run(&o).unwrap();
        assert_eq!(s.sizes, (540, 60));
        assert_eq!(s.state.history.len(), 8);
        let best = s.state.best.as_ref().unwrap();
        assert_eq!(s.written, best.weights);
        // an epoch beat the starting weights, and the best is the lowest validation loss
        assert!(best.epoch > 0, "{best:?}");
        let min = s
            .state
            .history
            .iter()
            .map(|h| h.valid)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(best.valid, min);
        let written = output::to_f64(&Params::load(&o.out).unwrap());
        let rounded: Vec<[f64; 2]> = output::to_f64(&output::to_params(&s.written));
        assert_eq!(written, rounded);
        let material = output::to_f64(&Params::material_only());
        for i in (0..Params::len()).filter(|&i| Params::group(i) == "material") {
            assert_eq!(s.written[i], material[i], "weight {i}");
        }
        // the validation loss reported is the written weights' own
        let w = model::to_dense(&s.written).unwrap();
        let (train, valid) = load(&o).unwrap();
        assert!(
            (kernel::loss(&valid, &w, 1.2, 0..valid.len()).unwrap() - s.losses.1).abs() < 1e-15
        );
        assert!(
            (kernel::loss(&train, &w, 1.2, 0..train.len()).unwrap() - s.losses.0).abs() < 1e-15
        );
        // an output onto the --init file is refused before anything runs
        let mut again = o.clone();
        again.init = Init::File(o.out.clone());
        let e = run(&again).unwrap_err().to_string();
        assert!(e.contains("is the --init weights file"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
