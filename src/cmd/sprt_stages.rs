//! `harness sprt --stc "..." --ltc "..."`: the two-stage SPRT's adapter. The stage logic
//! (specifications, file names, order, report) is `tournament::stages`; this builds each
//! stage's match from the command line and plays it with `cmd::sprt::play`.

use super::sprt::{play, Args, Stored};
use crate::stats::Sprt;
use crate::tournament::cli::{build_config_from_words, own_words, parse_stored};
use crate::tournament::interrupt;
use crate::tournament::naming::{main_of, stage_file};
use crate::tournament::resume::ResultsFile;
use crate::tournament::revision::{build_revision, repo_root};
use crate::tournament::stages::{
    pin_revisions, report, run_stages, verdict_words, StageResult, StageSpec, STAGES,
};
use anyhow::{bail, Context as _};
use clap::Parser as _;
use std::path::PathBuf;

/// Runs the two stages when the command asks for them (`--stc`/`--ltc`, or `--resume` of a
/// stage's file); `None` for an ordinary SPRT.
pub fn run_if_staged(now: &Args) -> anyhow::Result<Option<i32>> {
    let (args, words, main, resumed) = match &now.match_args.resume {
        Some(path) => {
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
            (old.args, words, main, Some(k))
        }
        None if now.stc.is_some() => {
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
            (args, words, main, None)
        }
        None => return Ok(None),
    };
    let specs = [
        StageSpec::parse("stc", args.stc.as_deref().unwrap_or_default())
            .map_err(anyhow::Error::msg)?,
        StageSpec::parse("ltc", args.ltc.as_deref().unwrap_or_default())
            .map_err(anyhow::Error::msg)?,
    ];
    let bounds = specs
        .clone()
        .map(|s| (s.elo0.unwrap_or(args.elo0), s.elo1.unwrap_or(args.elo1)));
    if resumed.is_some() && !stage_file(&main, STAGES[0]).exists() {
        bail!(
            "{} is missing: the first stage's results are needed to resume",
            stage_file(&main, STAGES[0]).display()
        );
    }
    interrupt::install();
    let (done, code) = run_stages(|k| {
        let results = stage_file(&main, STAGES[k]);
        let spec = &specs[k];
        let mut m = args.match_args.clone();
        m.each.extend(spec.each.iter().cloned());
        m.results = Some(results.clone());
        m.resume = None;
        m.quiet = now.match_args.quiet;
        m.rounds = spec.rounds.or(m.rounds);
        // The resuming call's --rounds extends the stage whose file it names.
        if resumed == Some(k) && now.match_args.rounds.is_some() {
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
        let mut cfg = build_config_from_words(m, "sprt", Some(100_000), words.clone())?;
        cfg.resume = resume && resumed.is_some();
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
        let (exit, outcome) = play(
            &mut cfg,
            sprt,
            args.plot
                .as_ref()
                .map(|p| stage_file(p, STAGES[k]))
                .as_deref(),
        )?;
        let last = outcome.history.last();
        Ok(StageResult {
            exit,
            games: outcome.games,
            elo: last.map(|p| (p.elo, p.elo_error)),
            llr: last.map(|p| (p.llr, sprt.bounds.lower, sprt.bounds.upper)),
            verdict: verdict_words(exit, outcome.decision),
            results,
        })
    })?;
    print!("{}", report(&specs, &bounds, &done));
    Ok(Some(code))
}
