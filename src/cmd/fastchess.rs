//! `harness fastchess ...` (or the harness started as `fastchess` / `fastchess-ob`): a match or
//! SPRT from fastchess's command line, with fastchess's output on stdout.

use crate::fastchess::args::{self, Action};
use crate::fastchess::{output, translate};
use crate::stats::{Model, Sprt};
use crate::tournament::cli::{build_config_from_words, parse_stored, resumed_config};
use crate::tournament::config::Stop;
use crate::tournament::{interrupt, run_match, MatchConfig};
use anyhow::Context;
use clap::Parser;

/// fastchess's exit code for a refused command line or a failed run.
const EXIT_FAILURE: i32 = 1;

/// Runs fastchess's command line `argv` (without the program name). Exit code: 0 when the
/// games were played (whatever an SPRT decided, as fastchess), 1 for a refused command line or
/// a run that stopped without its games (an engine that does not start, faults in a row), 130
/// when interrupted.
pub fn run(argv: &[String]) -> anyhow::Result<i32> {
    let a = match args::parse(argv) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_FAILURE);
        }
    };
    match a.action {
        Action::Version => {
            println!("{}", output::version());
            return Ok(0);
        }
        Action::Help => {
            println!("{}", output::usage());
            return Ok(0);
        }
        Action::Run => {}
    }
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let plan = match translate::plan(&a, cpus) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_FAILURE);
        }
    };
    let mut cfg = config(&plan)?;
    cfg.game_line = Some(output::game_line);
    interrupt::install();
    let outcome = run_match(&cfg)?;
    print!("{}", output::final_report(&cfg, &outcome));
    Ok(match &outcome.stopped {
        None => 0,
        Some(Stop::Interrupted) => interrupt::EXIT_INTERRUPTED,
        Some(_) => EXIT_FAILURE,
    })
}

/// The match configuration of `plan`: built from its words as `harness sprt` builds its own,
/// or that of the saved run it resumes.
fn config(plan: &translate::Plan) -> anyhow::Result<MatchConfig> {
    let kind = if plan.sprt { "sprt" } else { "match" };
    let (args, mut cfg) = match &plan.resume {
        Some(path) => {
            let (old, words) = parse_stored::<super::sprt::Stored>(path)
                .with_context(|| format!("-config file={}", path.display()))?;
            let mut now = old.args.match_args.clone();
            now.resume = Some(path.clone());
            now.rounds = None;
            let cfg = resumed_config(old.args.match_args.clone(), &now, kind, None, words)?;
            (old.args, cfg)
        }
        None => {
            let parsed = super::sprt::Stored::try_parse_from(&plan.words)
                .context("the harness's words for this command line do not parse")?;
            let cfg = build_config_from_words(
                parsed.args.match_args.clone(),
                kind,
                None,
                plan.words.clone(),
            )?;
            (parsed.args, cfg)
        }
    };
    // A run saves its results only where -config outname= says (see translate::Plan).
    if plan.resume.is_none() {
        cfg.results = plan.results.clone();
    }
    // A resumed SPRT gets its bounds back from its stored words.
    if words_have_sprt(&cfg.args) {
        let model: Model = args.model;
        cfg.sprt = Some(
            Sprt::new(args.elo0, args.elo1, args.alpha, args.beta, model)
                .map_err(anyhow::Error::msg)?,
        );
    }
    Ok(cfg)
}

/// Whether stored words are those of an SPRT (they carry its bounds).
fn words_have_sprt(words: &[String]) -> bool {
    words.iter().any(|w| w == "--elo0")
}
