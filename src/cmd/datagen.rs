//! `harness datagen`: labelled positions from self-play of the in-process engine, one searcher
//! per rayon worker. Appends to its output and continues where a previous run stopped.

use crate::datagen::labels::LabelWriter;
use crate::datagen::selfplay::{self, GameOptions};
use crate::game::Variant;
use crate::openings as book;
use crate::tablebase::TbArgs;
use indicatif::{ProgressBar, ProgressStyle};
use sable::rng::Rng;
use sable::search::{Limits, Searcher};
use shakmaty::Chess;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

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
    pub depth: Option<i32>,
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

/// The book's positions (EPD or FEN lines, as a match's `--openings format=epd` reads them).
fn read_book(path: &Path) -> anyhow::Result<Vec<Chess>> {
    let openings = book::read_epd(path, Variant::Standard).map_err(anyhow::Error::msg)?;
    anyhow::ensure!(!openings.is_empty(), "{}: no positions", path.display());
    openings
        .iter()
        .map(|o| o.position(Variant::Standard).map_err(anyhow::Error::msg))
        .collect()
}

/// Runs the subcommand; returns the process exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let book = args
        .book
        .as_deref()
        .map(read_book)
        .transpose()?
        .unwrap_or_default();
    let mut writer = LabelWriter::open(&args.out)?;
    let start_count = writer.count;
    if start_count >= args.positions {
        println!("{}: already {} positions", args.out.display(), start_count);
        return Ok(0);
    }
    let syzygy = match args.tb.rule()? {
        Some((rule, warnings)) => {
            eprintln!("Syzygy: {}", rule.tables.describe());
            warnings.iter().for_each(|w| eprintln!("warning: {w}"));
            Some(rule)
        }
        None => None,
    };
    let opt = GameOptions {
        limits: match args.depth {
            Some(d) => Limits::depth(d),
            None => Limits::nodes(args.nodes),
        },
        random_plies: args.random_plies,
        win_score: args.win_score,
        win_plies: args.win_plies,
        draw_score: args.draw_score,
        draw_plies: args.draw_plies,
        draw_after: args.draw_after,
        max_plies: args.max_plies,
        syzygy,
    };
    let threads = if args.threads == 0 {
        rayon::current_num_threads()
    } else {
        args.threads
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let bar = ProgressBar::new(args.positions as u64).with_position(start_count as u64);
    bar.set_style(ProgressStyle::with_template(
        "{pos}/{len} positions [{elapsed_precise}] {wide_bar} {msg}",
    )?);
    let t0 = Instant::now();
    let mut games = 0u64;
    pool.in_place_scope(|s| -> anyhow::Result<()> {
        for w in 0..threads {
            let tx = tx.clone();
            let (opt, book, stop) = (&opt, &book, &stop);
            let seed =
                args.seed ^ ((start_count as u64) << 20) ^ (w as u64).wrapping_mul(0x9E37_79B9);
            let hash = args.hash;
            s.spawn(move |_| {
                let mut searcher = Searcher::new(hash);
                let mut rng = Rng::from_seed(seed);
                while !stop.load(Ordering::Relaxed) {
                    let recs = selfplay::play_game(&mut searcher, opt, book, &mut rng, stop);
                    if tx.send(recs).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for recs in rx.iter() {
            games += 1;
            for r in &recs {
                writer.write(r)?;
            }
            writer.flush()?;
            let new = writer.count - start_count;
            bar.set_position(writer.count as u64);
            bar.set_message(format!(
                "{games} games, {:.0} pos/s",
                new as f64 / t0.elapsed().as_secs_f64()
            ));
            if writer.count >= args.positions {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    })?;
    bar.finish();
    let new = writer.count - start_count;
    println!(
        "{}: {} positions ({} new from {} games in {:.1}s, {:.0} positions/s)",
        args.out.display(),
        writer.count,
        new,
        games,
        t0.elapsed().as_secs_f64(),
        new as f64 / t0.elapsed().as_secs_f64()
    );
    Ok(0)
}
