//! `harness book`: generate an opening book of random legal openings that a short engine search
//! finds roughly balanced ([`crate::openings::generate`] does the work).

use crate::game::Variant;
use crate::openings::{generate, Generation};
use crate::plumbing::progress::{Reporter, Unit};
use crate::tournament::engine_args::engine_from_words;
use std::path::{Path, PathBuf};

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The judging engine as key=value words (cmd=..., option.Hash=16, ...). Default: sable built
    /// in this workspace (target/release/sable).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// Number of openings to write.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// Random plies played from the start position.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Keep an opening when the engine's score is within ±this many centipawns.
    #[arg(long, default_value_t = 60)]
    pub max_cp: i32,
    /// Search depth of the judging engine.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output EPD file. Default: suites/openings.epd (numbered -2, -3, ... when taken).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace output files that exist already; without it a file named here that exists
    /// stops the command before any work.
    #[arg(long)]
    pub force: bool,
    /// standard, or fischerandom: start from the 960 Chess960 positions (in order, so a count of
    /// 960 with --plies 0 is every start position) instead of the standard one.
    #[arg(long, default_value = "standard")]
    pub variant: Variant,
    /// With fischerandom: double Fischer random starts (White's and Black's back ranks drawn
    /// independently).
    #[arg(long)]
    pub dfrc: bool,
}

/// Runs the subcommand; returns the process exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    // A book of no opening would overwrite --out with an empty file and exit 0.
    anyhow::ensure!(
        args.count > 0,
        "--count 0: a book needs at least one opening (nothing written to {})",
        args.out
            .as_deref()
            .unwrap_or(Path::new("suites/openings.epd"))
            .display()
    );
    let words = if args.engine.is_empty() {
        vec!["cmd=target/release/sable".to_owned()]
    } else {
        args.engine.clone()
    };
    let out = crate::plumbing::output::resolve(
        args.out.as_deref(),
        Path::new("suites/openings.epd"),
        args.force,
        "--out",
    )?;
    let judge = engine_from_words(&[], &words)?;
    let generation = Generation {
        count: args.count,
        plies: args.plies,
        max_cp: args.max_cp,
        depth: args.depth,
        seed: args.seed,
        variant: args.variant,
        dfrc: args.dfrc,
    };
    let bar = Reporter::new(true, "", Unit::OPENINGS, args.count as u64);
    let book = generate(&judge.spec, &generation, &mut |kept| {
        bar.set_position(kept as u64)
    });
    bar.clear();
    let book = book?;
    book.write(&out)?;
    errln!(
        "{} openings ({} tried) written to {}",
        book.lines.len(),
        book.tries,
        out.display()
    );
    Ok(0)
}
