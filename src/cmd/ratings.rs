//! `harness ratings FILE.pgn...`: one rating list for every engine in the games.

use crate::plumbing::output;
use crate::stats::ratings::{self, games::PgnGames, Anchor, Model};
use anyhow::{bail, Context as _};
use std::path::PathBuf;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    harness ratings rr.pgn\n  \
    harness ratings a.pgn b.pgn --anchor stockfish=3000 --csv list.csv --json list.json")]
pub struct Args {
    /// PGN files (ours, fastchess's, cutechess's, any tournament's).
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// Fix the scale by one engine's rating, NAME=ELO (the name as in the games); default:
    /// the mean rating is 0.
    #[arg(long, value_name = "NAME=ELO")]
    pub anchor: Option<String>,
    /// Also write the list as CSV (one row per engine, LOS against each engine in columns).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also write the list as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Replace output files that exist already; without it a file named here that exists
    /// stops the command before any work.
    #[arg(long)]
    pub force: bool,
    /// The likelihood: `logistic` (default) puts ratings on the scale of every other Elo of
    /// the tool and of Ordo (expected score logistic in the difference, a draw half a point);
    /// `davidson` models draws and a white advantage, and its rating differences are the Elo
    /// of the decisive games (larger when there are draws). See docs/ratings.md.
    #[arg(long, value_enum, default_value_t = ModelArg::Logistic)]
    pub model: ModelArg,
}

/// `--model`'s words.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelArg {
    /// Draws as half points, no white advantage (Ordo's default, `harness stats`'s Elo).
    Logistic,
    /// Davidson's draw model with a white advantage.
    Davidson,
}

impl From<ModelArg> for Model {
    fn from(m: ModelArg) -> Model {
        match m {
            ModelArg::Logistic => Model::Logistic,
            ModelArg::Davidson => Model::Davidson,
        }
    }
}

/// Runs the subcommand: 0 when a list was printed, 2 for bad input (no games, unknown anchor).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let csv = output::named(args.csv.as_deref(), args.force, "--csv")?;
    let json = output::named(args.json.as_deref(), args.force, "--json")?;
    let mut input = PgnGames::default();
    for path in &args.pgn {
        // Every game is replayed by the one PGN reader: a large file takes a while.
        let what = format!("reading {}", path.display());
        crate::plumbing::progress::spin(true, &what, || input.read(path))?;
    }
    if input.games.is_empty() {
        bail!(
            "no finished games between two named engines in {} ({})",
            args.pgn
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            match input.skipped().join("; ") {
                s if s.is_empty() => "the files hold no games".to_owned(),
                s => s,
            }
        );
    }
    // Games of one engine against itself (one name) rate nothing: a list of one is no answer.
    if input.names.len() < 2 {
        bail!(
            "the games in {} are all played by one engine ({}): a rating list needs games \
             between at least two engines",
            args.pgn
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            input.names.join(", ")
        );
    }
    let anchor = match &args.anchor {
        None => Anchor::Mean,
        Some(word) => parse_anchor(word, &input.names)?,
    };
    let mut list = ratings::rate(&input.names, &input.games, anchor, args.model.into());
    list.notes.extend(input.skipped());
    out!("{}", ratings::table(&list));
    if let Some(path) = &csv {
        std::fs::write(path, ratings::csv(&list)?)
            .with_context(|| format!("writing {}", path.display()))?;
        outln!("CSV: {}", path.display());
    }
    if let Some(path) = &json {
        std::fs::write(path, serde_json::to_string_pretty(&list)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
        outln!("JSON: {}", path.display());
    }
    Ok(0)
}

/// `NAME=ELO`, the name one of `names` (the last `=` splits, so names may hold one).
fn parse_anchor(word: &str, names: &[String]) -> anyhow::Result<Anchor> {
    let Some((name, elo)) = word.rsplit_once('=') else {
        bail!("--anchor {word}: expected NAME=ELO");
    };
    let elo: f64 = elo
        .trim()
        .parse()
        .ok()
        .filter(|e: &f64| e.is_finite())
        .with_context(|| format!("--anchor {word}: `{elo}` is not a number"))?;
    let Some(index) = names.iter().position(|n| n == name) else {
        bail!(
            "--anchor {word}: no engine called `{name}` in the games (engines: {})",
            names.join(", ")
        );
    };
    Ok(Anchor::Engine { index, elo })
}
