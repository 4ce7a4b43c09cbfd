//! `harness datagen`: labelled positions from self-play of the in-process engine. The command
//! line becomes a [`crate::datagen::run::Config`]; the loop is [`crate::datagen::run::run`].

use crate::datagen::run::{self as datagen_run, read_book};
use crate::datagen::selfplay::GameOptions;
use crate::plumbing::interrupt;
use crate::plumbing::progress::{Reporter, Unit};
use crate::report::plural;
use crate::tablebase::{SyzygyRule, TbArgs};
use crate::uci::limit::Limit;
use std::path::PathBuf;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output file (CSV `fen,result,score`, score from White's view); appended to.
    #[arg(short, long)]
    pub out: PathBuf,
    /// Stop when the file holds this many positions (counting those already there).
    #[arg(long, default_value_t = 10_000)]
    pub positions: usize,
    /// Nodes searched per move (ignored when --depth is given).
    #[arg(long, default_value_t = 5_000)]
    pub nodes: u64,
    /// Search depth per move instead of a node count.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Random legal plies at the start of each game (after the book position, if any).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Opening book (EPD or FEN lines); a random line starts each game. Default: the start position.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Worker threads, each with its own searcher (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Transposition table per worker, in MB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// Seed of the random openings (a resumed run mixes in the positions already written).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Win adjudication: |score| >= this many centipawns ...
    #[arg(long, default_value_t = 1000)]
    pub win_score: i32,
    /// ... for this many consecutive plies.
    #[arg(long, default_value_t = 6)]
    pub win_plies: usize,
    /// Draw adjudication: |score| <= this many centipawns ...
    #[arg(long, default_value_t = 10)]
    pub draw_score: i32,
    /// ... for this many consecutive plies ...
    #[arg(long, default_value_t = 12)]
    pub draw_plies: usize,
    /// ... after this many plies.
    #[arg(long, default_value_t = 60)]
    pub draw_after: usize,
    /// Games longer than this are drawn.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Syzygy tables: games end with the tables' result, positions in them get their exact one.
    #[command(flatten)]
    pub tb: TbArgs,
}

/// Runs the subcommand; returns the process exit code (130 after Ctrl-C or SIGTERM: the
/// finished games are in the file and the same command continues it).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let book = args
        .book
        .as_deref()
        .map(read_book)
        .transpose()?
        .unwrap_or_default();
    let syzygy = match args.tb.rule()? {
        Some((rule, warnings)) => {
            errln!("Syzygy: {}", rule.tables.describe());
            warnings.iter().for_each(|w| errln!("warning: {w}"));
            Some(rule)
        }
        None => None,
    };
    let cfg = datagen_run::Config {
        out: args.out.clone(),
        positions: args.positions,
        game: game_options(&args, syzygy),
        book,
        threads: args.threads,
        hash: args.hash,
        seed: args.seed,
    };
    let mut bar = Reporter::new(true, "", Unit::POSITIONS, cfg.positions as u64);
    interrupt::install();
    let s = datagen_run::run(&cfg, &mut bar, &interrupt::requested)?;
    if s.games == 0 && s.total >= cfg.positions {
        // The file had enough: the run played nothing.
        bar.clear();
        outln!("{}: already {} positions", args.out.display(), s.total);
        return Ok(0);
    }
    bar.finish();
    if s.interrupted {
        errln!(
            "interrupted: {} holds {} positions, {} new from {} finished games (the games in \
             flight were dropped); to continue to {}, run the same command again",
            args.out.display(),
            s.total,
            s.new,
            s.games,
            cfg.positions
        );
        return Ok(interrupt::EXIT_INTERRUPTED);
    }
    outln!(
        "{}: {} positions ({} new from {} games in {:.1}s, {:.0} positions/s)",
        args.out.display(),
        s.total,
        s.new,
        s.games,
        s.seconds,
        s.new as f64 / s.seconds
    );
    let k = s.skipped;
    outln!(
        "skipped: {} in check, {} whose best move was a capture or promotion, {} with a mate \
         score (none is a quiet label), {} already in the file",
        plural(k.in_check, "position"),
        k.tactical,
        k.mate,
        plural(s.duplicates, "duplicate")
    );
    Ok(0)
}

/// How each game is played and adjudicated.
fn game_options(args: &Args, syzygy: Option<SyzygyRule>) -> GameOptions {
    GameOptions {
        // --nodes has a default, so it is the limit's default, not a flag given.
        limits: Limit::from_flags(None, args.depth, None, Limit::Nodes(args.nodes)).search_limits(),
        random_plies: args.random_plies,
        win_score: args.win_score,
        win_plies: args.win_plies,
        draw_score: args.draw_score,
        draw_plies: args.draw_plies,
        draw_after: args.draw_after,
        max_plies: args.max_plies,
        syzygy,
    }
}
