//! `harness sprt`: a match between two engines that stops when the GSPRT decides.

use crate::stats::{chart::sprt_chart, Decision, Model, Sprt};
use crate::tournament::cli::{build_config, parse_stored, resumed_config, MatchArgs};
use crate::tournament::config::Stop;
use crate::tournament::report::{print_final, print_speed};
use crate::tournament::syzygy_report::print_syzygy_line;
use crate::tournament::{interrupt, naming, run_match, MatchConfig, EXIT_NO_VERDICT};
use clap::Parser;
use std::path::PathBuf;

/// Options of this subcommand: the match options plus the test.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    match_args: MatchArgs,
    /// Elo under H0 (in the model's scale).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    elo0: f64,
    /// Elo under H1 (in the model's scale).
    #[arg(long, default_value_t = 5.0, allow_hyphen_values = true)]
    elo1: f64,
    /// False positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// False negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Elo scale of elo0/elo1: normalized or logistic.
    #[arg(long, default_value = "normalized")]
    model: Model,
    /// Where to draw the LLR/Elo picture (SVG). Default: beside the results file, with its
    /// name (sprt-dev-vs-base-2026-11-25.svg).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

/// Re-parses stored `sprt` command-line words (for `--resume`: the bounds come back too).
#[derive(Parser, Debug)]
#[command(no_binary_name = true)]
struct Stored {
    #[command(flatten)]
    args: Args,
}

/// Runs the SPRT. Exit code: 0 = H1 accepted (dev is better), 1 = H0 accepted, 3 = no decision
/// within the games allowed, 4 = no verdict: the run was stopped by a broken setup or faulty
/// engines (see docs/match.md, "Faults and verdicts").
pub fn run(args: Args) -> anyhow::Result<i32> {
    let (args, mut cfg) = match &args.match_args.resume {
        Some(path) => {
            let (old, words) = parse_stored::<Stored>(path)?;
            let old = old.args;
            let cfg = resumed_config(
                old.match_args,
                &args.match_args,
                "sprt",
                Some(100_000),
                words,
            )?;
            (
                Args {
                    match_args: args.match_args,
                    ..old
                },
                cfg,
            )
        }
        None => {
            let cfg = build_config(args.match_args.clone(), "sprt", Some(100_000))?;
            (args, cfg)
        }
    };
    let sprt = Sprt::new(args.elo0, args.elo1, args.alpha, args.beta, args.model)
        .map_err(anyhow::Error::msg)?;
    check_two_engines(&cfg)?;
    cfg.sprt = Some(sprt);
    interrupt::install();
    let start = std::time::Instant::now();
    let outcome = run_match(&cfg)?;
    print_final(&cfg, &outcome);
    print_syzygy_line(&cfg)?;
    print_speed(&outcome, start.elapsed());
    if !outcome.history.is_empty() {
        let title = format!("{} vs {}", outcome.names[0], outcome.names[1]);
        let plot = match (&args.plot, &cfg.results) {
            (Some(plot), _) => plot.clone(),
            (None, Some(results)) => naming::sibling(results, "svg"),
            (None, None) => PathBuf::from("sprt.svg"),
        };
        sprt_chart(&outcome.history, &sprt, &title, &plot)?;
        println!("Chart: {}", plot.display());
    }
    match &outcome.stopped {
        Some(Stop::Interrupted) => {
            println!("SPRT: not finished (interrupted)");
            return Ok(interrupt::EXIT_INTERRUPTED);
        }
        Some(_) => {
            println!("SPRT: no verdict");
            return Ok(EXIT_NO_VERDICT);
        }
        None => {}
    }
    let decision = outcome.decision.unwrap_or(Decision::Continue);
    println!("SPRT: {decision}");
    Ok(match decision {
        Decision::AcceptH1 => 0,
        Decision::AcceptH0 => 1,
        Decision::Continue => 3,
    })
}

/// An SPRT compares two engines; `--engine` can name more, which clap cannot forbid.
fn check_two_engines(cfg: &MatchConfig) -> anyhow::Result<()> {
    if cfg.engines.len() != 2 {
        anyhow::bail!(
            "an SPRT needs exactly two engines (got {})",
            cfg.engines.len()
        );
    }
    Ok(())
}
