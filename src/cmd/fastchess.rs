//! `harness fastchess ...` (or the harness started as `fastchess` / `fastchess-ob`): a match or
//! SPRT from fastchess's command line, with fastchess's output on stdout.

use super::legacy_resume;
use super::sprt_args::Stored;
use crate::fastchess::args::{self, Action};
use crate::fastchess::{output, translate};
use crate::plumbing::interrupt;
use crate::stats::{Model, Sprt};
use crate::tournament::cli::build_config;
use crate::tournament::config::Stop;
use crate::tournament::{run_match, MatchConfig};
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
            errln!("error: {e}");
            return Ok(EXIT_FAILURE);
        }
    };
    match a.action {
        Action::Version => {
            outln!("{}", output::version());
            return Ok(0);
        }
        Action::Help => {
            outln!("{}", output::usage());
            return Ok(0);
        }
        Action::Run => {}
    }
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let plan = match translate::plan(&a, cpus) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
            return Ok(EXIT_FAILURE);
        }
    };
    let mut cfg = config(&plan)?;
    cfg.game_line = Some(output::game_line);
    interrupt::install();
    let start = std::time::Instant::now();
    let outcome = run_match(&cfg)?;
    out!("{}", output::final_report(&cfg, &outcome, start.elapsed()));
    Ok(match &outcome.stopped {
        None => 0,
        Some(Stop::Interrupted) => interrupt::EXIT_INTERRUPTED,
        Some(_) => EXIT_FAILURE,
    })
}

/// The match configuration of `plan`: built from its words as `harness sprt` builds its own,
/// or read from the record of the saved run it resumes (its SPRT included).
fn config(plan: &translate::Plan) -> anyhow::Result<MatchConfig> {
    let kind = if plan.sprt { "sprt" } else { "match" };
    let parsed = Stored::try_parse_from(&plan.words)
        .context("the harness's words for this command line do not parse")?
        .args;
    if let Some(path) = &plan.resume {
        let mut now = parsed.match_args;
        now.resume = Some(path.clone());
        now.rounds = None;
        return legacy_resume::build(now, kind, None)
            .with_context(|| format!("-config file={}", path.display()));
    }
    let mut cfg = build_config(parsed.match_args, kind, None)?;
    // A run saves its results only where -config outname= says (see translate::Plan).
    cfg.results = plan.results.clone();
    if plan.sprt {
        let model: Model = parsed.model;
        cfg.sprt = Some(Sprt::new(
            parsed.elo0,
            parsed.elo1,
            parsed.alpha,
            parsed.beta,
            model,
        )?);
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_of(line: &str) -> translate::Plan {
        let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        translate::plan(&args::parse(&words).unwrap(), 64).unwrap()
    }

    #[test]
    fn translated_words_parse_as_harness_sprt_with_the_values_asked_for() {
        let plan = plan_of(
            "-engine cmd=a name=A tc=inf nodes=2000 -engine cmd=b name=B plies=4 \
             -openings file=x.epd format=epd order=random start=3 -srand 9 -concurrency 2 \
             -rounds 7 -games 2 -recover -draw movenumber=30 movecount=8 score=8 \
             -sprt elo0=0 elo1=5 alpha=0.1 beta=0.1 -ratinginterval 3 \
             -pgnout file=o.pgn nodes=true seldepth=true -maxmoves 200 -tbadjudicate DRAW",
        );
        assert!(plan.sprt);
        assert_eq!((plan.results.clone(), plan.resume.clone()), (None, None));
        let p = Stored::try_parse_from(&plan.words).unwrap().args;
        let m = &p.match_args;
        assert_eq!(
            m.engine.0,
            [
                vec!["cmd=a", "name=A", "tc=inf", "nodes=2000"],
                vec!["cmd=b", "name=B", "depth=4"]
            ]
        );
        assert_eq!(
            m.openings,
            ["file=x.epd", "format=epd", "order=random", "start=3"]
        );
        assert_eq!(
            (m.seed, m.concurrency, m.rounds, m.games),
            (9, Some(2), Some(7), 2)
        );
        assert!(m.recover && m.pgn_fastchess && m.pgn_nodes && m.pgn_seldepth);
        assert_eq!(m.pgnout.as_deref(), Some("o.pgn"));
        // fastchess counts the interval in pairs.
        assert_eq!(m.ratinginterval, 6);
        assert_eq!((m.maxmoves, m.draw.len()), (Some(200), 3));
        assert_eq!((p.elo0, p.elo1, p.alpha, p.beta), (0.0, 5.0, 0.1, 0.1));
    }

    #[test]
    fn fastchess_defaults_and_limits() {
        // Two rounds of pairs, books in order, every game from the start position without one.
        let words = plan_of("-engine cmd=a -engine cmd=b").words;
        let m = Stored::try_parse_from(&words).unwrap().args.match_args;
        assert_eq!((m.rounds, m.games), (Some(2), 2));
        assert_eq!(m.openings, ["startpos"]);
        let m = plan_of("-engine cmd=a -engine cmd=b -openings file=b.epd").words;
        assert!(m.contains(&"order=sequential".to_owned()));
        // -games above 2 trades places with -rounds, as in fastchess.
        let words = plan_of("-engine cmd=a -engine cmd=b -games 50 -rounds 1").words;
        let m = Stored::try_parse_from(&words).unwrap().args.match_args;
        assert_eq!((m.rounds, m.games), (Some(50), 1));
        let a = |s: &str| {
            args::parse(&s.split_whitespace().map(str::to_owned).collect::<Vec<_>>()).unwrap()
        };
        let too_many = translate::plan(&a("-engine cmd=a -engine cmd=b -concurrency 9"), 8);
        assert!(too_many
            .unwrap_err()
            .to_string()
            .contains("-force-concurrency"));
        assert!(translate::plan(
            &a("-engine cmd=a -engine cmd=b -concurrency 9 -force-concurrency"),
            8
        )
        .is_ok());
        assert!(translate::plan(&a("-engine cmd=a"), 8)
            .unwrap_err()
            .to_string()
            .contains("two -engine"));
        assert!(translate::plan(&a("-engine cmd=a -engine cmd=b -games 3 -rounds 3"), 8).is_err());
        let p =
            translate::plan(&a("-engine cmd=a -engine cmd=b -config outname=r.json"), 8).unwrap();
        assert_eq!(p.results, Some("r.json".into()));
    }
}
