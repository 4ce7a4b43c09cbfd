//! `harness stats`: the Elo / LOS / SPRT calculator on counts typed on the command line.

use std::fmt::Write as _;

use anyhow::Context as _;

use crate::stats::{elo_report, Model, Pentanomial, ScoreCounts, Sprt, Trinomial};

/// The SPRT model as a command-line value.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelArg {
    /// Bounds in normalized Elo (nElo), as fishtest and fastchess by default.
    Normalized,
    /// Bounds in logistic (classic) Elo.
    Logistic,
}

impl From<ModelArg> for Model {
    fn from(m: ModelArg) -> Model {
        match m {
            ModelArg::Normalized => Model::Normalized,
            ModelArg::Logistic => Model::Logistic,
        }
    }
}

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("counts").required(true).args(["penta", "wdl"])))]
#[command(after_help = "Examples:\n  \
    harness stats --penta 365,16618,36229,16974,390 --elo0 0 --elo1 2\n  \
    harness stats --wdl 136,96,111 --model logistic --elo0 0 --elo1 10")]
pub struct Args {
    /// Game-pair counts LL,LD,WL+DD,WD,WW (pairs of games on one opening with colours swapped,
    /// by the pair's score 0, 1/4, 1/2, 3/4, 1; from engine 1's view). Five non-negative integers.
    // Hyphen values allowed so "-1,2,3" is reported as a bad count, not an unknown option.
    #[arg(
        long,
        value_name = "LL,LD,WLDD,WD,WW",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    penta: Option<Vec<u64>>,

    /// Game counts W,L,D (wins, losses, draws of engine 1). Three non-negative integers.
    #[arg(
        long,
        value_name = "W,L,D",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    wdl: Option<Vec<u64>>,

    /// Elo under H0 (no improvement), in the scale of --model.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    elo0: f64,

    /// Elo under H1 (the gain to detect), in the scale of --model; must exceed --elo0.
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    elo1: f64,

    /// Scale of --elo0/--elo1: normalized (nElo, independent of the draw rate) or logistic.
    #[arg(long, value_enum, default_value_t = ModelArg::Normalized)]
    model: ModelArg,

    /// False positive rate: probability of accepting H1 when H0 holds; in (0, 1).
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,

    /// False negative rate: probability of accepting H0 when H1 holds; in (0, 1).
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
}

/// Runs the subcommand; returns the process exit code (0).
pub fn run(args: Args) -> anyhow::Result<i32> {
    out!("{}", report(&args)?);
    Ok(0)
}

/// The whole text output for `args`.
fn report(args: &Args) -> anyhow::Result<String> {
    let sprt = Sprt::new(
        args.elo0,
        args.elo1,
        args.alpha,
        args.beta,
        args.model.into(),
    )
    .context("invalid SPRT parameters")?;
    if let Some(v) = &args.penta {
        let counts: [u64; 5] = v.as_slice().try_into().map_err(|_| {
            anyhow::anyhow!("--penta takes 5 counts LL,LD,WL+DD,WD,WW, got {}", v.len())
        })?;
        let p = Pentanomial(counts);
        let head = format!(
            "Ptnml(0-2): {:?} ({} pairs, {} games)\nDrawRatio:  {:.2} % of pairs (WL+DD)\n",
            counts,
            p.pairs(),
            p.games(),
            100.0 * p.draw_ratio()
        );
        return Ok(head + &body(&p, p.games() as f64, &sprt));
    }
    let v = args.wdl.as_deref().unwrap_or_default();
    let &[wins, losses, draws] = v else {
        anyhow::bail!("--wdl takes 3 counts W,L,D, got {}", v.len());
    };
    let t = Trinomial::new(wins, losses, draws);
    let head = format!(
        "Games: {}, Wins: {wins}, Losses: {losses}, Draws: {draws}\nDrawRatio:  {:.2} %\n",
        t.games(),
        100.0 * t.draw_ratio()
    );
    Ok(head + &body(&t, t.games() as f64, &sprt))
}

/// Score, Elo, nElo, LOS, LLR and decision lines.
fn body<C: ScoreCounts>(counts: &C, games: f64, sprt: &Sprt) -> String {
    let r = elo_report(counts);
    let (llr, decision) = sprt.status(counts);
    let mut s = String::new();
    // Writing into a String cannot fail.
    let _ = writeln!(
        s,
        "Score:      {:.2} % ({:.1} points)",
        100.0 * r.score,
        r.score * games
    );
    let _ = writeln!(s, "Elo:        {:.2} +/- {:.2}", r.elo.value, r.elo.error);
    let _ = writeln!(s, "nElo:       {:.2} +/- {:.2}", r.nelo.value, r.nelo.error);
    let _ = writeln!(s, "LOS:        {:.2} %", 100.0 * r.los);
    let _ = writeln!(
        s,
        "LLR:        {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}] {} model",
        llr, sprt.bounds.lower, sprt.bounds.upper, sprt.elo0, sprt.elo1, sprt.model
    );
    let _ = writeln!(s, "Decision:   {decision}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn parse(argv: &[&str]) -> Result<Args, clap::Error> {
        Cli::try_parse_from(std::iter::once("stats").chain(argv.iter().copied())).map(|c| c.args)
    }

    #[test]
    fn parses_penta_and_reports_the_published_llr() {
        let a = parse(&[
            "--penta",
            "365,16618,36229,16974,390",
            "--elo0",
            "0",
            "--elo1",
            "2",
        ])
        .unwrap();
        assert_eq!(a.penta, Some(vec![365, 16618, 36229, 16974, 390]));
        assert_eq!(a.model, ModelArg::Normalized);
        assert_eq!((a.alpha, a.beta), (0.05, 0.05));
        let out = report(&a).unwrap();
        assert!(
            out.contains("LLR:        2.25 (-2.94, 2.94) [0.00, 2.00]"),
            "{out}"
        );
        assert!(out.contains("Decision:   continue"), "{out}");
        assert!(out.contains("141152 games"), "{out}");
    }

    #[test]
    fn parses_wdl_with_logistic_model_and_negative_elo0() {
        let a = parse(&[
            "--wdl",
            "136,96,111",
            "--model",
            "logistic",
            "--elo0",
            "-5",
            "--elo1",
            "5",
        ])
        .unwrap();
        assert_eq!(a.wdl, Some(vec![136, 96, 111]));
        assert_eq!(a.model, ModelArg::Logistic);
        assert_eq!(a.elo0, -5.0);
        let out = report(&a).unwrap();
        assert!(out.contains("Elo:        40.70 +/- 30.43"), "{out}");
        assert!(out.contains("nElo:       49.77 +/- 36.77"), "{out}");
        assert!(out.contains("LOS:        99.60 %"), "{out}");
        assert!(out.contains("logistic model"), "{out}");
    }

    #[test]
    fn alpha_and_beta_reach_the_bounds_in_their_order() {
        // ln(0.10 / 0.95) = -2.25 and ln(0.90 / 0.05) = 2.89; swapped they would be -2.89, 2.25.
        let a = parse(&["--wdl", "136,96,111", "--alpha", "0.05", "--beta", "0.10"]).unwrap();
        assert_eq!((a.alpha, a.beta), (0.05, 0.10));
        let out = report(&a).unwrap();
        assert!(out.contains("(-2.25, 2.89)"), "{out}");
    }

    #[test]
    fn rejects_bad_input_without_panicking() {
        // Not numbers, negative, empty, none or both count kinds.
        for argv in [
            &["--wdl", "1,x,3"][..],
            &["--wdl", "1,-2,3"],
            &["--wdl", "-1,2,3"],
            &["--penta", "-1,2,3,4,5"],
            &["--penta", ""],
            &[],
            &["--wdl", "1,2,3", "--penta", "1,2,3,4,5"],
            &["--wdl", "1,2,3", "--model", "bayes"],
            &["--wdl", "1,2,3", "--alpha", "lots"],
        ] {
            assert!(parse(argv).is_err(), "{argv:?}");
        }
        // Wrong number of counts or bad SPRT parameters: a clear error from run.
        for (argv, msg) in [
            (&["--penta", "1,2,3,4"][..], "5 counts"),
            (&["--wdl", "1,2"], "3 counts"),
            (&["--wdl", "1,2,3,4"], "3 counts"),
            (&["--wdl", "1,2,3", "--elo0", "5", "--elo1", "0"], "elo0"),
            (&["--wdl", "1,2,3", "--alpha", "1.5"], "alpha"),
        ] {
            let err = report(&parse(argv).unwrap()).unwrap_err();
            assert!(format!("{err:#}").contains(msg), "{argv:?}: {err:#}");
        }
    }

    #[test]
    fn zero_counts_give_finite_output() {
        let out = report(&parse(&["--penta", "0,0,0,0,0"]).unwrap()).unwrap();
        assert!(!out.contains("NaN") && !out.contains("inf"), "{out}");
        // All wins: huge but finite Elo. The GSPRT gains only ln(s1 / s0) per game here
        // (both hypotheses sit near a score of 1/2), so it leans to H1 without stopping yet.
        for model in ["logistic", "normalized"] {
            let out = report(&parse(&["--wdl", "100,0,0", "--model", model]).unwrap()).unwrap();
            assert!(!out.contains("NaN") && !out.contains("inf"), "{out}");
            assert!(out.contains("LLR:        1.43 "), "{out}");
            assert!(out.contains("LOS:        100.00 %"), "{out}");
        }
    }
}
