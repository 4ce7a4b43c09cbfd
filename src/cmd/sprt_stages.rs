//! `harness sprt --stc "..." --ltc "..."`: the two-stage SPRT's adapter. The stage logic
//! (specifications, file names, order, report) is `tournament::stages`; this builds each
//! stage's match from the command line and plays it with `cmd::sprt::play`.

use super::sprt::{play, Args, Stored};
use crate::stats::Sprt;
use crate::tournament::cli::{build_config_from_words, own_words, parse_stored};
use crate::tournament::naming::{main_of, stage_file};
use crate::tournament::report::summaries;
use crate::tournament::resume::ResultsFile;
use crate::tournament::revision::{build_revision, repo_root};
use crate::tournament::stages::{
    pin_revisions, report, run_stages, verdict_words, StageResult, StageSpec, STAGES,
};
use crate::tournament::{interrupt, MatchConfig};
use anyhow::{bail, Context as _};
use clap::Parser as _;
use std::path::PathBuf;

/// Runs the two stages when the command asks for them (`--stc`/`--ltc`, or `--resume` of a
/// stage's file); `None` for an ordinary SPRT.
pub fn run_if_staged(now: &Args) -> anyhow::Result<Option<i32>> {
    let Some(staged) = staged(now)? else {
        return Ok(None);
    };
    let args = &staged.args;
    let specs = [
        StageSpec::parse("stc", args.stc.as_deref().unwrap_or_default())
            .map_err(anyhow::Error::msg)?,
        StageSpec::parse("ltc", args.ltc.as_deref().unwrap_or_default())
            .map_err(anyhow::Error::msg)?,
    ];
    let bounds = specs
        .clone()
        .map(|s| (s.elo0.unwrap_or(args.elo0), s.elo1.unwrap_or(args.elo1)));
    if staged.resumed.is_some() && !stage_file(&staged.main, STAGES[0]).exists() {
        bail!(
            "{} is missing: the first stage's results are needed to resume",
            stage_file(&staged.main, STAGES[0]).display()
        );
    }
    interrupt::install();
    let (done, code) = run_stages(|k| {
        let (mut cfg, results) = stage_config(now, &staged, &specs[k], k)?;
        let spec = &specs[k];
        let sprt = Sprt::new(
            bounds[k].0,
            bounds[k].1,
            spec.alpha.unwrap_or(args.alpha),
            spec.beta.unwrap_or(args.beta),
            args.model,
        )
        .map_err(anyhow::Error::msg)?;
        println!(
            "\n{} stage: {} [{:.2}, {:.2}], results {}",
            STAGES[k].to_uppercase(),
            spec.limits(),
            bounds[k].0,
            bounds[k].1,
            results.display()
        );
        let plot = args.plot.as_ref().map(|p| stage_file(p, STAGES[k]));
        let (exit, outcome) = play(&mut cfg, sprt, plot.as_deref())?;
        // The final figures, games in flight at the decision included: the ones the stage's
        // report above printed and its results file holds (not the history's point at the
        // decision), so a run has one set of figures.
        let last = summaries(&cfg, &outcome).into_iter().next();
        Ok(StageResult {
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
    print!("{}", report(&specs, &bounds, &done));
    Ok(Some(code))
}

/// A two-stage SPRT's command line: its words (with `rev:` engines pinned to their builds),
/// the main results file the stages' files are named after, and the stage whose file a
/// `--resume` named.
struct Staged {
    args: Args,
    words: Vec<String>,
    main: PathBuf,
    resumed: Option<usize>,
}

/// The two-stage SPRT this command asks for, if any: the stored one of a stage's file being
/// resumed, or a new one (its revisions built here, once for both stages).
fn staged(now: &Args) -> anyhow::Result<Option<Staged>> {
    if let Some(path) = &now.match_args.resume {
        let (old, words) = parse_stored::<Stored>(path)?;
        if old.args.stc.is_none() {
            return Ok(None);
        }
        let (main, k) = main_of(path).with_context(|| {
            format!(
                "{}: a two-stage SPRT's file is named <main>.stc.json or <main>.ltc.json",
                path.display()
            )
        })?;
        let (args, resumed) = (old.args, Some(k));
        return Ok(Some(Staged {
            args,
            words,
            main,
            resumed,
        }));
    }
    if now.stc.is_none() {
        return Ok(None);
    }
    let mut log = |line: &str| {
        if !now.match_args.quiet {
            eprintln!("{line}");
        }
    };
    let words = pin_revisions(&own_words(), |rev| {
        let repo = repo_root()?;
        build_revision(&repo, rev, &mut log).map(|p| p.to_string_lossy().into_owned())
    })
    .map_err(anyhow::Error::msg)?;
    let args = Stored::try_parse_from(&words)
        .context("the command line with its revisions built")?
        .args;
    let main = args
        .match_args
        .results
        .clone()
        .unwrap_or_else(|| PathBuf::from("sprt.json"));
    Ok(Some(Staged {
        args,
        words,
        main,
        resumed: None,
    }))
}

/// Stage `k`'s match and its results file: the stored words with the stage's own, resuming
/// the stage's file when it exists.
fn stage_config(
    now: &Args,
    staged: &Staged,
    spec: &StageSpec,
    k: usize,
) -> anyhow::Result<(MatchConfig, PathBuf)> {
    let results = stage_file(&staged.main, STAGES[k]);
    let mut m = staged.args.match_args.clone();
    m.each.extend(spec.each.iter().cloned());
    m.results = Some(results.clone());
    m.resume = None;
    m.quiet = now.match_args.quiet;
    m.rounds = spec.rounds.or(m.rounds);
    // The resuming call's --rounds extends the stage whose file it names.
    if staged.resumed == Some(k) && now.match_args.rounds.is_some() {
        m.rounds = now.match_args.rounds;
    }
    let resume = results.exists();
    if resume {
        // A stage extended by an earlier --rounds keeps its length.
        let recorded = ResultsFile::load(&results)?.scheduled;
        let per_round = u64::from(m.games.max(1));
        let rounds = u32::try_from(recorded / per_round).unwrap_or(u32::MAX);
        m.rounds = Some(m.rounds.unwrap_or(100_000).max(rounds));
    }
    let mut cfg = build_config_from_words(m, "sprt", Some(100_000), staged.words.clone())?;
    cfg.resume = resume && staged.resumed.is_some();
    Ok((cfg, results))
}
