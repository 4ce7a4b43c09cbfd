//! `harness tb probe`: what the Syzygy tables say of positions (WDL, DTZ, the exact result,
//! the best move and every move's value), for users checking their own engine's endgames, in
//! the manner of the `fathom` prober.

use crate::tablebase::{epd_file_positions, parse_position, PositionReport, Tablebases};
use std::path::PathBuf;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Print the WDL, DTZ, result, best move and each legal move's value of positions.
    Probe(ProbeArgs),
}

/// Options of `tb probe`.
#[derive(clap::Args, Debug)]
struct ProbeArgs {
    /// Positions as FEN, one an argument (quote each).
    fens: Vec<String>,
    /// EPD or FEN file, one position a line (`#` comments and blank lines skipped); repeatable.
    #[arg(long, value_name = "FILE")]
    epd: Vec<PathBuf>,
    /// Syzygy tables: one or more folders separated by ':'.
    #[arg(
        long = "tb",
        visible_alias = "path",
        value_name = "DIR[:DIR...]",
        required = true
    )]
    tb: String,
    /// Only the position's own WDL, DTZ and result: no best move, no move lists (faster).
    #[arg(long)]
    no_moves: bool,
}

/// Runs the subcommand; returns the process exit code: 0 every position answered, 1 some
/// position without an answer (castling, too many pieces, a missing or broken table), 2 bad
/// input (each bad FEN or line is reported, naming its file and line, and the others probed).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let Command::Probe(args) = args.command;
    anyhow::ensure!(
        !args.fens.is_empty() || !args.epd.is_empty(),
        "no position: give FENs or --epd FILE"
    );
    let tables = Tablebases::open_shared(&args.tb)?;
    errln!("Syzygy: {}", tables.describe());
    for (file, why) in tables.refused() {
        errln!("warning: Syzygy: {} refused: {why}", file.display());
    }
    let (mut bad, mut unanswered) = (0usize, 0usize);
    let mut probe = |text: &str, source: Option<String>| match parse_position(text) {
        Ok(pos) => {
            let report = PositionReport::new(tables, &pos, source.as_deref(), !args.no_moves);
            unanswered += usize::from(!report.answered);
            outln!("{report}");
        }
        Err(why) => {
            bad += 1;
            errln!("error: {}: {why}", source.unwrap_or_default());
        }
    };
    for (i, fen) in args.fens.iter().enumerate() {
        probe(fen, Some(format!("argument {}", i + 1)));
    }
    for path in &args.epd {
        for (source, line) in epd_file_positions(path)? {
            probe(&line, Some(source));
        }
    }
    if bad > 0 {
        errln!("error: {bad} bad position(s), see above");
    }
    if unanswered > 0 {
        errln!("{unanswered} position(s) without an answer from the tables");
    }
    Ok(if bad > 0 {
        2
    } else if unanswered > 0 {
        1
    } else {
        0
    })
}
