//! `harness sprt --stc "..." --ltc "..."`: the two-stage SPRT's adapter. The stage logic
//! (specifications, file names, order, report) is `tournament::stages`; this builds each
//! stage's match and plays it with `cmd::sprt_args::play`.
//!
//! Both stages are built before the first game (their `rev:` engines built once, their books
//! read), and each stage's results file records both (`tournament::record::StagesRecord`), so
//! `--resume` of either file continues the pipeline from the record alone.

use super::legacy_resume;
use super::sprt_args::{play, Args};
use crate::plumbing::interrupt;
use crate::plumbing::naming::{is_taken, main_of, stage_file};
use crate::plumbing::output::first_free;
use crate::stats::Sprt;
use crate::tournament::cli::build_config;
use crate::tournament::record::{StageRecord, StagesRecord};
use crate::tournament::report::summaries;
use crate::tournament::resume::{ResultsFile, StoredRun};
use crate::tournament::stages::{
    report, run_stages, verdict_words, StageResult, StageSpec, STAGES,
};
use crate::tournament::{MatchConfig, RunRecord};
use anyhow::{bail, Context as _};
use std::path::{Path, PathBuf};

/// Runs the two stages when the command asks for them (`--stc`/`--ltc`, or `--resume` of a
/// stage's file); `None` for an ordinary SPRT.
pub fn run_if_staged(now: &Args) -> anyhow::Result<Option<i32>> {
    let Some(staged) = staged(now)? else {
        return Ok(None);
    };
    let stages = &staged.stages.stages;
    let mut specs: [StageSpec; 2] = Default::default();
    let mut bounds = [(0.0, 0.0); 2];
    for k in 0..2 {
        specs[k] = StageSpec::parse(STAGES[k], &stages[k].words)?;
        bounds[k] = (stages[k].sprt.elo0, stages[k].sprt.elo1);
    }
    if staged.resumed.is_some() && !stage_file(&staged.main, STAGES[0]).exists() {
        bail!(
            "{} is missing: the first stage's results are needed to resume",
            stage_file(&staged.main, STAGES[0]).display()
        );
    }
    interrupt::install();
    let (done, code) = run_stages(|k| {
        let (mut cfg, results) = stage_config(now, &staged, k)?;
        let sprt = cfg.sprt.context("a stage's record has its SPRT")?;
        outln!(
            "\n{} stage: {} [{:.2}, {:.2}], results {}",
            STAGES[k].to_uppercase(),
            specs[k].limits(),
            bounds[k].0,
            bounds[k].1,
            results.display()
        );
        let plot = cfg.plot.clone();
        let (exit, outcome) = play(&mut cfg, sprt, plot.as_deref())?;
        // The final figures, games in flight at the decision included: the ones the stage's
        // report above printed and its results file holds (not the history's point at the
        // decision), so a run has one set of figures.
        let last = summaries(&cfg, &outcome).into_iter().next();
        Ok::<_, anyhow::Error>(StageResult {
            exit,
            games: outcome.games,
            elo: last.as_ref().map(|p| (p.elo[0], p.elo[1])),
            llr: last
                .as_ref()
                .and_then(|p| p.llr)
                .map(|l| (l, sprt.bounds.lower, sprt.bounds.upper)),
            verdict: verdict_words(exit, outcome.decision),
            results,
        })
    })?;
    out!("{}", report(&specs, &bounds, &done));
    Ok(Some(code))
}

/// A two-stage SPRT: its record (common settings, and both stages), the main results file the
/// stages' files are named after, and the stage whose file a `--resume` named.
struct Staged {
    record: RunRecord,
    stages: StagesRecord,
    main: PathBuf,
    resumed: Option<usize>,
}

/// The two-stage SPRT this command asks for, if any: the recorded one of a stage's file being
/// resumed, or a new one.
fn staged(now: &Args) -> anyhow::Result<Option<Staged>> {
    let quiet = now.match_args.quiet;
    let Some(path) = &now.match_args.resume else {
        if now.stc.is_none() {
            return Ok(None);
        }
        let main = now.match_args.results.clone().unwrap_or_else(default_main);
        let record = new_record(now, &main, quiet)?;
        return Ok(Some(Staged::of(record, main, None)));
    };
    let record = match ResultsFile::load(path)?.stored_run(path)? {
        StoredRun::Record(record) if record.stages.is_some() => *record,
        StoredRun::Record(_) => return Ok(None),
        StoredRun::Legacy(words) => {
            let old = legacy_resume::parse(path, &words)?;
            if old.stc.is_none() {
                return Ok(None);
            }
            let (main, _) = stage_of(path)?;
            new_record(&old, &main, quiet)?
        }
    };
    let (main, k) = stage_of(path)?;
    Ok(Some(Staged::of(record, main, Some(k))))
}

impl Staged {
    fn of(record: RunRecord, main: PathBuf, resumed: Option<usize>) -> Staged {
        let stages = record.stages.clone().expect("a two-stage record");
        Staged {
            record,
            stages,
            main,
            resumed,
        }
    }
}

/// The main name of a two-stage SPRT given no `--results`: `sprt.json` (stages `sprt.stc.json`,
/// `sprt.ltc.json`), numbered as a one-stage run's default name is (`sprt-2.json`) when an
/// earlier run used either stage's name, which is then said with how to continue that run.
fn default_main() -> PathBuf {
    let first = Path::new("sprt.json");
    let taken = |main: &Path| STAGES.iter().any(|s| is_taken(&stage_file(main, s)));
    let main = first_free(first, taken);
    if main != first {
        let old = stage_file(first, STAGES[0]);
        errln!(
            "note: {} is taken by an earlier run (continue that one with `harness sprt --resume \
             {}`); this run writes {} and {}",
            old.display(),
            old.display(),
            stage_file(&main, STAGES[0]).display(),
            stage_file(&main, STAGES[1]).display()
        );
    }
    main
}

/// The main results file and the stage of a stage's file.
fn stage_of(path: &Path) -> anyhow::Result<(PathBuf, usize)> {
    main_of(path, &STAGES).with_context(|| {
        format!(
            "{}: a two-stage SPRT's file is named <main>.stc.json or <main>.ltc.json",
            path.display()
        )
    })
}

/// The record of a new two-stage SPRT (or of a version 1 stage file's words): both stages
/// built from the options, each with its words added to `--each`, its bounds, rounds and files.
fn new_record(args: &Args, main: &Path, quiet: bool) -> anyhow::Result<RunRecord> {
    let texts = [args.stc.clone(), args.ltc.clone()].map(Option::unwrap_or_default);
    let mut stages = Vec::new();
    let mut first = None;
    for k in 0..2 {
        let spec = StageSpec::parse(STAGES[k], &texts[k])?;
        let sprt = Sprt::new(
            spec.elo0.unwrap_or(args.elo0),
            spec.elo1.unwrap_or(args.elo1),
            spec.alpha.unwrap_or(args.alpha),
            spec.beta.unwrap_or(args.beta),
            args.model,
        )?;
        let mut m = args.match_args.clone();
        m.each.extend(spec.each.iter().cloned());
        m.results = Some(stage_file(main, STAGES[k]));
        m.resume = None;
        m.quiet = quiet;
        m.rounds = spec.rounds.or(m.rounds);
        // The second build of a `rev:` engine finds the first in the cache.
        let cfg = build_config(m, "sprt", Some(100_000))?;
        stages.push(StageRecord {
            words: texts[k].clone(),
            engines: cfg.engines.clone(),
            sprt: (&sprt).into(),
            rounds: cfg.rounds,
            plot: crate::plumbing::output::named(
                args.plot
                    .as_ref()
                    .map(|p| stage_file(p, STAGES[k]))
                    .as_deref(),
                args.force,
                "--plot",
            )?,
            pgn_out: cfg.pgn_out.clone(),
        });
        first.get_or_insert(cfg);
    }
    let mut record = RunRecord::of(&first.expect("two stages"));
    record.stages = Some(StagesRecord { stage: 0, stages });
    Ok(record)
}

/// Stage `k`'s match and its results file: its own file's record when it exists (it may have
/// been extended by an earlier `--rounds`), else the stage as recorded in the pipeline's.
fn stage_config(now: &Args, staged: &Staged, k: usize) -> anyhow::Result<(MatchConfig, PathBuf)> {
    let results = stage_file(&staged.main, STAGES[k]);
    let resume = staged.resumed.is_some() && results.exists();
    let mut record = staged.record.stage(k)?;
    if resume {
        let file = ResultsFile::load(&results)?;
        let scheduled = file.scheduled;
        match file.stored_run(&results)? {
            StoredRun::Record(own) => record = *own,
            // A version 1 stage file: its length as scheduled.
            StoredRun::Legacy(_) => {
                let per_round = u64::from(record.games_per_round.max(1));
                let rounds = u32::try_from(scheduled / per_round).unwrap_or(u32::MAX);
                record.rounds = record.rounds.max(rounds);
            }
        }
    }
    // The resuming call's --rounds extends the stage whose file it names.
    if staged.resumed == Some(k) {
        if let Some(rounds) = now.match_args.rounds {
            record.rounds = rounds;
        }
    }
    let mut cfg = record.config(!now.match_args.quiet)?;
    cfg.results = Some(results.clone());
    cfg.resume = resume;
    cfg.progress = !now.match_args.quiet;
    Ok((cfg, results))
}
