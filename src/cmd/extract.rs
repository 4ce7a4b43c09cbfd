//! `harness extract GAMES.pgn`: labelled quiet positions from PGN games.

use crate::datagen::extract::Options;
use crate::datagen::run::extract_files;
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
    let opt = Options {
        per_game: args.per_game,
        skip_plies: args.skip_plies,
        seed: args.seed,
    };
    let (total, added) = extract_files(&args.pgn, &args.out, &opt, |path, found| {
        for p in found.problems.iter().take(5) {
            errln!("{}: {p} (skipped)", path.display());
        }
        let sum = &found.summary;
        errln!(
            "{}: {} games ({} skipped), {} quiet positions, {} new",
            path.display(),
            sum.games,
            sum.bad_games,
            sum.positions,
            found.new
        );
    })?;
    outln!("{}: {total} positions ({added} added)", args.out.display());
    Ok(0)
}
