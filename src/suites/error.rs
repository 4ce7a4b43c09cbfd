//! The suites room's one error at its boundary ([`SuiteError`]): a suite, baseline or PGN file
//! that cannot be read or written, a position either move generator refuses, a disagreement
//! the perft referee cannot go on from, and the engine pool's failure. A malformed EPD line is
//! an [`EpdError`] (file, line and cause), shown as itself.
//!
//! Every message names what failed and then its cause in one line, as the room's messages
//! always have (`cannot read suite.epd: No such file or directory`): the cause is kept as a
//! field, and shown in the message rather than again as the error's source.

use super::epd_error::EpdError;
use crate::game::pgn::PgnOpenError;
use crate::uci::pool::PoolError;
use shakmaty::fen::ParseFenError;
use shakmaty::{Chess, PositionError};
use std::fmt;
use std::path::PathBuf;

/// Why a suite could not be read, generated, run or checked.
#[derive(Debug)]
pub enum SuiteError {
    /// A file (`context` names it and what was done) and the system's error.
    Io {
        context: String,
        source: std::io::Error,
    },
    /// A CSV file or row (`context`) and the reader's or writer's error.
    Csv { context: String, source: csv::Error },
    /// A malformed EPD line.
    Epd(EpdError),
    /// A PGN file that cannot be opened.
    PgnOpen(PgnOpenError),
    /// The engine pool could not run the positions.
    Pool(PoolError),
    /// A game of a PGN that does not replay.
    GameNotReplayed {
        path: PathBuf,
        number: usize,
        why: String,
    },
    /// A Chess960 game of a PGN (the oracle is asked about standard chess).
    Chess960Game { path: PathBuf, number: usize },
    /// No shipped suite of this name.
    UnknownSuite { name: String },
    /// No shipped baseline of this name.
    UnknownBaseline { name: String },
    /// A FEN the engine's board refuses (`context`: which position, and who refused).
    Fen {
        context: String,
        source: sable::board::FenError,
    },
    /// A FEN shakmaty cannot read.
    RefereeFen { fen: String, source: ParseFenError },
    /// A position shakmaty refuses.
    RefereePosition {
        fen: String,
        source: Box<PositionError<Chess>>,
    },
    /// Perft totals that differ with no root move's count differing.
    NoRootMoveDiffers { fen: String },
    /// Random playouts without a seed position.
    NoSeeds,
    /// The two generators disagree on a position of a suite being generated.
    CountsDiffer {
        fen: String,
        why: String,
        depth: u32,
        ours: u64,
        theirs: u64,
    },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Io { context, source } => write!(f, "{context}: {source}"),
            SuiteError::Csv { context, source } => write!(f, "{context}: {source}"),
            SuiteError::Fen { context, source } => write!(f, "{context}: {source}"),
            SuiteError::Epd(e) => write!(f, "{e}"),
            SuiteError::PgnOpen(e) => write!(f, "{e}"),
            SuiteError::Pool(e) => write!(f, "{e}"),
            SuiteError::GameNotReplayed { path, number, why } => {
                write!(f, "{}: game {number}: {why}", path.display())
            }
            SuiteError::Chess960Game { path, number } => write!(
                f,
                "{}: game {number}: Chess960 is not supported",
                path.display()
            ),
            SuiteError::UnknownSuite { name } => write!(f, "no embedded suite named '{name}'"),
            SuiteError::UnknownBaseline { name } => {
                write!(f, "no embedded baseline named '{name}'")
            }
            SuiteError::RefereeFen { fen, source } => {
                write!(f, "shakmaty cannot read FEN '{fen}': {source}")
            }
            SuiteError::RefereePosition { fen, source } => {
                write!(f, "shakmaty rejects position '{fen}': {source}")
            }
            SuiteError::NoRootMoveDiffers { fen } => {
                write!(f, "perft totals differ at {fen} but no root move does")
            }
            SuiteError::NoSeeds => write!(f, "no seed positions for random playouts"),
            SuiteError::CountsDiffer {
                fen,
                why,
                depth,
                ours,
                theirs,
            } => write!(
                f,
                "{fen} ({why}) depth {depth}: sable {ours}, shakmaty {theirs}"
            ),
        }
    }
}

impl std::error::Error for SuiteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // Each message shows its cause already, so the source is the cause's own.
        match self {
            SuiteError::Io { source, .. } => source.source(),
            SuiteError::Csv { source, .. } => source.source(),
            SuiteError::Fen { source, .. } => source.source(),
            SuiteError::RefereeFen { source, .. } => source.source(),
            SuiteError::RefereePosition { source, .. } => source.source(),
            SuiteError::Epd(e) => e.source(),
            SuiteError::PgnOpen(e) => e.source(),
            SuiteError::Pool(e) => e.source(),
            _ => None,
        }
    }
}

error_from!(
    SuiteError:
    Epd(EpdError),
    PgnOpen(PgnOpenError),
    Pool(PoolError),
);

impl SuiteError {
    /// The `map_err` of a FEN the engine's board refuses, with which one and who refused.
    pub fn fen(context: impl Into<String>) -> impl FnOnce(sable::board::FenError) -> SuiteError {
        let context = context.into();
        move |source| SuiteError::Fen { context, source }
    }

    /// The `map_err` of a failed system call on a file, with what was done.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> SuiteError {
        let context = context.into();
        move |source| SuiteError::Io { context, source }
    }
}
