//! `harness suite-gen`: make an EPD test suite from a PGN of games with a reference engine.

use crate::plumbing::progress::{Reporter, Unit};
use std::io::Write;
use std::path::PathBuf;

use crate::suites::epd_gen::{
    analyse_all, choose, collect_positions, random_playout_positions, Chosen, CollectOptions,
    Dropped, Output, Selection,
};
use crate::uci::engine_spec;
use crate::uci::limit::Limit;

/// Candidates the oracle failed on that are listed one by one (the rest are counted).
const SHOWN_FAILURES: usize = 10;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// PGN file of games (for example the output of `harness match`).
    #[arg(long, required_unless_present = "random_playouts")]
    pub pgn: Option<PathBuf>,
    /// Instead of a PGN, take positions from this many random playouts (seeded by --seed);
    /// useful with --mates-only.
    #[arg(long, conflicts_with_all = ["pgn", "player"])]
    pub random_playouts: Option<usize>,
    /// Seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Longest random playout, in plies.
    #[arg(long, default_value_t = 120)]
    pub playout_plies: usize,
    /// The reference engine as key=value words, as for `harness match` (cmd=PATH name=X
    /// args="..." option.Hash=64), or the older form: the program with its arguments in one word
    /// ("stockfish"). It runs with MultiPV 2.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", required = true)]
    pub oracle: Vec<String>,
    /// A UCI option for the oracle as Name=Value (the same as option.Name=Value); repeat for
    /// several. Default: none.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Oracle depth per position. Default 12 when no limit is given.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    pub depth: Option<u32>,
    /// Oracle milliseconds per position.
    #[arg(long, conflicts_with = "nodes")]
    pub movetime: Option<u64>,
    /// Oracle nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Keep a position when its best move beats the second by at least this many centipawns
    /// (a forced mate beats any centipawn score); with --player, also the move that player made
    /// (scored by the oracle with `go searchmoves MOVE`): a position where it played the best
    /// move, or one within the margin, is dropped.
    #[arg(long, default_value_t = 150, value_name = "CP")]
    pub margin: i64,
    /// Skip positions whose second-best line already scores this much or more (nothing to find).
    #[arg(long, default_value_t = 200)]
    pub max_second: i64,
    /// Keep only unique forced mates of at most N moves (mates in 1 and 2 are verified by our own
    /// exhaustive search; positions where it disagrees are dropped).
    #[arg(long, value_name = "N")]
    pub mates_only: Option<u32>,
    /// Also keep positions whose best move simply recaptures on the square just captured on.
    #[arg(long)]
    pub keep_recaptures: bool,
    /// Skip this many plies at the start of each game (the opening).
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
    /// Only positions where this player (substring of the White/Black tag) is to move and made a
    /// move the oracle finds worse than its best by --margin: a suite of that engine's own
    /// mistakes. Needs an oracle that supports `go searchmoves` (Stockfish does). Default: both
    /// sides, no check of the moves played.
    #[arg(long)]
    pub player: Option<String>,
    /// With --mates-only: keep at most this many mates of each length. Default: no limit.
    #[arg(long, requires = "mates_only")]
    pub max_per_mate: Option<usize>,
    /// Stop after this many selected positions. Default: no limit.
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// Prefix of the ids written (`PREFIX.1`, `PREFIX.2`, ...).
    #[arg(long, default_value = "gen")]
    pub id_prefix: String,
    /// Oracle processes in parallel.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Output EPD file (never an existing one, unless --force).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Replace output files that exist already; without it a file named here that exists
    /// stops the command before any work.
    #[arg(long)]
    pub force: bool,
}

/// Runs the subcommand; returns the process exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let limit = Limit::from_flags(args.nodes, args.depth, args.movetime, Limit::Depth(12));
    let path = crate::plumbing::output::resolve(Some(&args.out), &args.out, args.force, "--out")?;
    let (oracle, rest) = engine_spec(&args.oracle, &args.options)?;
    if let Some(word) = rest.first() {
        anyhow::bail!("--oracle: expected key=value, got `{word}`");
    }
    let collect = CollectOptions {
        skip_plies: args.skip_plies,
        player: args.player.clone(),
    };
    let candidates = match (&args.pgn, args.random_playouts) {
        (Some(pgn), _) => collect_positions(pgn, &collect)?,
        (None, Some(n)) => {
            random_playout_positions(n, args.playout_plies, args.skip_plies, args.seed)
        }
        (None, None) => anyhow::bail!("give --pgn FILE or --random-playouts N"),
    };
    if let (Some(pgn), true) = (&args.pgn, candidates.is_empty()) {
        // An empty PGN would write an empty suite and exit 0.
        anyhow::bail!(
            "{}: no candidate positions (the file holds no games, or none longer than \
             --skip-plies {})",
            pgn.display(),
            args.skip_plies
        );
    }
    errln!("{} distinct candidate positions", candidates.len());
    let bar = Reporter::new(true, "", Unit::POSITIONS, candidates.len() as u64);
    let analyses = analyse_all(&candidates, &oracle, limit, args.concurrency, &|| {
        bar.inc(1)
    })?;
    bar.clear();
    let selection = Selection {
        margin: args.margin,
        max_second: args.max_second,
        keep_recaptures: args.keep_recaptures,
        mates_only: args.mates_only,
    };
    let output = Output {
        max_per_mate: args.max_per_mate,
        max_positions: args.max_positions,
        id_prefix: args.id_prefix.clone(),
    };
    let chosen = choose(&candidates, &analyses, &selection, &output);
    report(&args, &path, &chosen)
}

/// Writes the suite and says what was left out.
fn report(args: &Args, path: &std::path::Path, chosen: &Chosen) -> anyhow::Result<i32> {
    let Chosen {
        lines,
        failed,
        unverified,
        dropped,
    } = chosen;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(path)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
    );
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    errln!(
        "wrote {} positions to {} ({} not analysed, {unverified} mates not verified)",
        lines.len(),
        path.display(),
        failed.len()
    );
    for failure in failed.iter().take(SHOWN_FAILURES) {
        errln!("not analysed: {failure}");
    }
    if failed.len() > SHOWN_FAILURES {
        errln!("not analysed: {} more", failed.len() - SHOWN_FAILURES);
    }
    for (why, n) in dropped {
        errln!(
            "dropped {n:>6}: {}",
            why.describe(args.margin, args.max_second)
        );
    }
    if dropped.contains_key(&Dropped::PlayedUnscored) {
        errln!("warning: the oracle does not restrict its search to `searchmoves`; --player needs one that does");
    }
    Ok(0)
}
