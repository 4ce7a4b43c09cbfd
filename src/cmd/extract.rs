//! `harness extract GAMES.pgn`: labelled quiet positions from PGN games.

use crate::datagen::extract::{self, Options};
use crate::datagen::labels::LabelWriter;
use anyhow::Context;
use std::path::PathBuf;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// PGN files to read (games from `harness match`, or any engine's games).
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// Output file (CSV `fen,result,score`); appended to, positions already there are not repeated.
    #[arg(short, long)]
    pub out: PathBuf,
    /// Keep at most N positions per game, sampled at random (0 = every position that passes).
    #[arg(long, default_value_t = 0)]
    pub per_game: usize,
    /// Skip the first N plies of every game (opening book moves).
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
    /// Seed of the per-game sampling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the subcommand; returns the process exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut w = LabelWriter::open(&args.out)?;
    let before = w.count;
    let opt = Options {
        per_game: args.per_game,
        skip_plies: args.skip_plies,
        seed: args.seed,
    };
    for path in &args.pgn {
        let file =
            std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
        let (recs, sum, problems) = extract::from_pgn(std::io::BufReader::new(file), &opt)
            .with_context(|| format!("reading {}", path.display()))?;
        for p in problems.iter().take(5) {
            eprintln!("{}: {p} (skipped)", path.display());
        }
        let mut new = 0;
        for r in &recs {
            new += w.write(r)? as usize;
        }
        eprintln!(
            "{}: {} games ({} skipped), {} quiet positions, {} new",
            path.display(),
            sum.games,
            sum.bad_games,
            sum.positions,
            new
        );
    }
    w.flush()?;
    println!(
        "{}: {} positions ({} added)",
        args.out.display(),
        w.count,
        w.count - before
    );
    Ok(0)
}
