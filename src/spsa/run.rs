//! The SPSA loop: each iteration plays `pairs_per` game pairs of theta + c against theta - c
//! through the match runner (books, adjudication, fault rules: the same games as
//! `harness match`), then moves theta. One CSV row per iteration ([`super::history`]) is the
//! record and the resume file; the paths' chart and the Rust defaults are written at the end.
//! `harness spsa` parses its command line into a [`Config`] and calls [`run`].

use super::defaults::write_rust_defaults;
use super::SpsaError;
use super::{
    format_value, history, iteration_openings, params_from_engine, perturb, update, Param,
    Perturbation, Schedule,
};
use crate::game::{Adjudication, Opening, Variant};
use crate::plumbing::progress::{Describe, Progress};
use crate::plumbing::{lock, naming};
use crate::report::plot::{write_svg, LineChart};
use crate::tournament::config::Stop;
use crate::tournament::preflight::missing_program;
use crate::tournament::revision::resolve_engine_revision;
use crate::tournament::{run_match, EngineConfig, MatchConfig};
use std::path::{Path, PathBuf};

/// One SPSA run, its inputs read and checked.
#[derive(Debug, Clone)]
pub struct Config {
    /// The engine to tune (a `rev:` engine is built when the run starts); its limits are both
    /// sides'.
    pub engine: EngineConfig,
    /// The parameters and their start values; `None`: what `<engine> spsa` prints.
    pub params: Option<Vec<Param>>,
    /// Iterations planned (at least 1).
    pub iterations: u32,
    /// Game pairs per iteration (at least 1).
    pub pairs_per: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// The book, read on from iteration to iteration.
    pub book: Vec<Opening>,
    /// The book's name, for the games' PGN context.
    pub book_name: String,
    /// Draw, resign, length and tablebase adjudication.
    pub adjudication: Adjudication,
    /// The rules (the engine has `UCI_Chess960` set already for Chess960).
    pub variant: Variant,
    /// Seed of the perturbations.
    pub seed: u64,
    /// The run's CSV; `None`: the default name ([`out_file`]).
    pub out: Option<PathBuf>,
    /// Continue the run recorded in the CSV.
    pub resume: bool,
    /// The chart of the paths; `None`: beside the CSV.
    pub plot: Option<PathBuf>,
    /// A `search_params!` table to rewrite with the tuned values.
    pub emit_rust: Option<PathBuf>,
    /// Say what a `rev:` build does.
    pub verbose: bool,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ended {
    /// Every planned iteration is done.
    Done,
    /// Interrupted (Ctrl-C) in this iteration, which is not recorded; resumable.
    Interrupted(u32),
    /// The runner stopped this iteration (a broken setup, faulty engines): no update from it.
    Stopped(u32, Stop),
    /// The engine's program is missing: nothing was started or written.
    NotStarted(String),
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub ended: Ended,
    /// The run's CSV (empty when it never started).
    pub out: PathBuf,
    /// The values at the end (empty when it never started).
    pub params: Vec<Param>,
    /// The values when this call began: the start values, or those a resumed run had reached.
    pub start: Vec<f64>,
    /// Engine faults over the iterations of this call (each cost its game).
    pub faults: u64,
    /// The chart written, if any (not for a stopped or unstarted run).
    pub chart: Option<PathBuf>,
    /// The Rust table rewritten, if asked and finished.
    pub emitted: Option<PathBuf>,
}

/// What the progress reporter shows after an iteration: the first three values.
impl Describe for [Param] {
    fn describe(&self) -> String {
        self.iter()
            .take(3)
            .map(|p| format!("{}={}", p.name, super::format_value(p, p.value)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Runs (or resumes) the tuner.
pub fn run(cfg: &Config, progress: &mut dyn Progress<[Param]>) -> Result<Outcome, SpsaError> {
    check_counts(cfg.iterations, cfg.pairs_per)?;
    let mut engine = cfg.engine.clone();
    resolve_engine_revision(&mut engine, cfg.verbose)?;
    let mut outcome = Outcome {
        ended: Ended::Done,
        out: PathBuf::new(),
        params: Vec::new(),
        start: Vec::new(),
        faults: 0,
        chart: None,
        emitted: None,
    };
    if let Some(why) = missing_program(&engine.spec) {
        outcome.ended = Ended::NotStarted(why.to_string());
        return Ok(outcome);
    }
    outcome.out = out_file(cfg.out.as_deref(), cfg.resume, &engine.spec.display_name())?;
    outcome.params = match &cfg.params {
        Some(params) => params.clone(),
        None => params_from_engine(&engine.spec)?,
    };
    let run_lock = lock::acquire(&outcome.out, "harness spsa")?;
    if let Some(note) = &run_lock.taken_over {
        errln!("note: {note}");
    }
    let done = open_history(&outcome.out, cfg.resume, &mut outcome.params)?;
    outcome.start = outcome.params.iter().map(|p| p.value).collect();
    progress.start(done.into(), cfg.iterations.into());
    if let Some(ended) = iterate(cfg, &engine, done, &mut outcome, progress)? {
        outcome.ended = ended;
        if !matches!(outcome.ended, Ended::Interrupted(_)) {
            return Ok(outcome);
        }
    }
    finish(cfg, &mut outcome)?;
    Ok(outcome)
}

/// A run plays at least one iteration of at least one pair (checked before anything slow).
pub fn check_counts(iterations: u32, pairs_per: u32) -> Result<(), SpsaError> {
    if iterations == 0 || pairs_per == 0 {
        return Err(SpsaError::Counts);
    }
    Ok(())
}

/// Resumes the CSV (the iterations it records) or starts it; a run is never overwritten.
fn open_history(out: &Path, resume: bool, params: &mut [Param]) -> Result<u32, SpsaError> {
    if resume {
        return history::resume(out, params);
    }
    if out.exists() {
        return Err(SpsaError::RunExists {
            path: out.to_owned(),
        });
    }
    history::create(out, params)?;
    Ok(0)
}

/// Plays iterations `done + 1 ..= iterations`, recording each; `Some` when one stopped the run.
fn iterate(
    cfg: &Config,
    engine: &EngineConfig,
    done: u32,
    outcome: &mut Outcome,
    progress: &mut dyn Progress<[Param]>,
) -> Result<Option<Ended>, SpsaError> {
    let schedule = Schedule::new(cfg.iterations);
    for k in done + 1..=cfg.iterations {
        let d = perturb(&outcome.params, &schedule, cfg.seed, k);
        let played = run_match(&iteration_match(cfg, engine, &outcome.params, &d, k))?;
        outcome.faults += played.total_faults().total();
        match played.stopped {
            None => {}
            Some(Stop::Interrupted) => return Ok(Some(Ended::Interrupted(k))),
            Some(why) => return Ok(Some(Ended::Stopped(k, why))),
        }
        let t = played.pairings[0].tracker.trinomial();
        update(&mut outcome.params, &d, t.wins as f64 - t.losses as f64);
        history::append_row(
            &outcome.out,
            k,
            [t.wins, t.losses, t.draws],
            &outcome.params,
        )?;
        progress.step(k.into(), &outcome.params);
    }
    Ok(None)
}

/// Iteration `k`'s match: the engine with the perturbed values as `theta+c` (dev) against the
/// engine with the opposite ones as `theta-c`, on the iteration's openings.
fn iteration_match(
    cfg: &Config,
    engine: &EngineConfig,
    params: &[Param],
    d: &[Perturbation],
    k: u32,
) -> MatchConfig {
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
    let mut m = MatchConfig::new(
        vec![dev, base],
        iteration_openings(&cfg.book, k, cfg.pairs_per),
    );
    m.book_name = cfg.book_name.clone();
    m.rounds = cfg.pairs_per;
    m.concurrency = cfg.concurrency;
    m.adjudication = cfg.adjudication;
    m.event = format!("SPSA iteration {k}");
    m.variant = cfg.variant;
    m
}

/// Draws every parameter's path beside the CSV (or at `--plot`) and writes the Rust defaults
/// when asked.
fn finish(cfg: &Config, outcome: &mut Outcome) -> Result<(), SpsaError> {
    let params = &outcome.params;
    let paths = history::read_paths(&outcome.out, params.len());
    if !paths.is_empty() {
        let charts: Vec<LineChart> = params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let points = paths.iter().map(|(k, v)| (f64::from(*k), v[i])).collect();
                LineChart::new(&p.name, "iteration", "value")
                    .series(&p.name, points)
                    .ref_line(outcome.start[i], "start")
                    .size(640.0, 200.0)
            })
            .collect();
        let plot = cfg
            .plot
            .clone()
            .unwrap_or_else(|| naming::sibling(&outcome.out, "svg"));
        write_svg(&charts, &plot)?;
        outcome.chart = Some(plot);
    }
    if let Some(path) = &cfg.emit_rust {
        write_rust_defaults(path, params)?;
        outcome.emitted = Some(path.clone());
    }
    Ok(())
}

/// The run's CSV: `out`, else the default name (kind, engine, date). With `resume` and no
/// `out`, the newest default-named run of this engine here (a run started yesterday resumes
/// today); without `resume`, a default name already taken is numbered.
pub fn out_file(out: Option<&Path>, resume: bool, engine: &str) -> Result<PathBuf, SpsaError> {
    if let Some(out) = out {
        return Ok(out.to_owned());
    }
    let today = naming::default_results(
        "spsa",
        &[engine.to_owned()],
        &crate::report::dates::today(),
        "csv",
    );
    if !resume {
        let (free, numbered) = naming::first_free(&today);
        if numbered {
            errln!(
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
    match newest_run(Path::new("."), prefix) {
        Some(path) => {
            errln!(
                "Resuming {} (give --out FILE to resume another)",
                path.display()
            );
            Ok(path)
        }
        None => Err(SpsaError::NothingToResume {
            engine: engine.to_string(),
            prefix: prefix.to_string(),
        }),
    }
}

/// The newest `<prefix><date>...csv` in `dir`, by modification time.
fn newest_run(dir: &Path, prefix: &str) -> Option<PathBuf> {
    let newest = std::fs::read_dir(dir)
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
        .max()?;
    let path = newest.1;
    Some(path.strip_prefix(".").map(PathBuf::from).unwrap_or(path))
}
