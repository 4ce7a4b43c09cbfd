//! What can go wrong with tables: loading them ([`TbError`], which stops a command before it
//! starts) and probing a position ([`NoAnswer`], which only means that this position gets no
//! answer: a game goes on, a label falls back to the engine's).

use shakmaty_syzygy::{Metric, ProbeError, SyzygyError};
use std::fmt;
use std::path::PathBuf;

/// Why tables could not be loaded from the folders given.
#[derive(Debug)]
pub enum TbError {
    /// No folder was given (an empty `--tb`).
    NoFolder,
    /// A folder does not exist (or cannot be looked at).
    Missing {
        /// The folder as given.
        folder: PathBuf,
        /// What the operating system said.
        cause: std::io::Error,
    },
    /// A path is a file, not a folder.
    NotAFolder {
        /// The path as given.
        folder: PathBuf,
    },
    /// A folder's listing cannot be read.
    Unreadable {
        /// The folder.
        folder: PathBuf,
        /// What the operating system said.
        cause: std::io::Error,
    },
    /// A folder holds no usable Syzygy table for chess (`*.rtbw`, `*.rtbz`).
    NoTables {
        /// The folder.
        folder: PathBuf,
        /// Files that are named like chess tables but were refused, with the reason.
        refused: Vec<(PathBuf, String)>,
    },
    /// A file of positions for `tb probe --epd` that cannot be read.
    PositionFile {
        /// The file.
        file: PathBuf,
        /// What the operating system said.
        cause: std::io::Error,
    },
    /// `--tb-pieces` asks for more pieces than the tables hold, or for fewer than any table.
    Pieces {
        /// The number asked for.
        asked: usize,
        /// The most pieces of any table loaded.
        max: usize,
    },
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::NoFolder => write!(f, "no tablebase folder given (--tb DIR[:DIR...])"),
            TbError::Missing { folder, cause } => {
                write!(f, "tablebase folder {}: {cause}", folder.display())
            }
            TbError::PositionFile { file, .. } => write!(f, "cannot read {}", file.display()),
            TbError::NotAFolder { folder } => {
                write!(f, "tablebase folder {}: not a folder", folder.display())
            }
            TbError::Unreadable { folder, cause } => {
                write!(
                    f,
                    "tablebase folder {}: cannot list it: {cause}",
                    folder.display()
                )
            }
            TbError::NoTables { folder, refused } => {
                write!(
                    f,
                    "tablebase folder {}: no Syzygy tables for chess in it (*.rtbw, *.rtbz)",
                    folder.display()
                )?;
                for (file, why) in refused {
                    write!(f, "; {} refused: {why}", file.display())?;
                }
                Ok(())
            }
            TbError::Pieces { asked, max } => write!(
                f,
                "--tb-pieces {asked}: the tables hold positions of 3 to {max} pieces"
            ),
        }
    }
}

impl std::error::Error for TbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // The other variants say the system's words themselves.
        match self {
            TbError::PositionFile { cause, .. } => Some(cause),
            _ => None,
        }
    }
}

/// Why a position has no answer from the tables. None of these is an error of the caller's:
/// the position is simply not decided by the tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoAnswer {
    /// The position has castling rights; Syzygy tables hold none.
    Castling,
    /// More pieces than the tables (or `--tb-pieces`) allow.
    TooManyPieces {
        /// Pieces on the board, kings included.
        pieces: usize,
        /// The most allowed.
        max: usize,
    },
    /// A table the probe needs is not in the folders (the position's own, or one reached by a
    /// capture or promotion).
    MissingTable {
        /// WDL or DTZ.
        metric: Metric,
        /// The material, e.g. `KQvKR`.
        material: String,
    },
    /// A table is there but cannot be used: truncated, corrupt, not a chess table, unreadable.
    BadTable {
        /// WDL or DTZ.
        metric: Metric,
        /// The material, e.g. `KQvKR`.
        material: String,
        /// What is wrong with it.
        cause: String,
    },
    /// The halfmove clock counts, and a rounded DTZ (one ply short at most) lands exactly on the
    /// 50-move limit: win or draw cannot be told.
    RoundedAtLimit,
    /// The prober itself failed unexpectedly (caught, so that one bad table never stops a match).
    ProberFailed(String),
}

impl fmt::Display for NoAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoAnswer::Castling => write!(f, "castling rights (the tables hold no such position)"),
            NoAnswer::TooManyPieces { pieces, max } => {
                write!(f, "{pieces} pieces, more than the {max} allowed")
            }
            NoAnswer::MissingTable { metric, material } => {
                write!(f, "no {} table for {material}", metric_name(*metric))
            }
            NoAnswer::BadTable {
                metric,
                material,
                cause,
            } => write!(
                f,
                "the {} table for {material} is unusable: {cause}",
                metric_name(*metric)
            ),
            NoAnswer::RoundedAtLimit => write!(
                f,
                "a rounded DTZ on the 50-move limit: win or draw cannot be told"
            ),
            NoAnswer::ProberFailed(why) => write!(f, "the prober failed: {why}"),
        }
    }
}

impl std::error::Error for NoAnswer {}

fn metric_name(m: Metric) -> &'static str {
    match m {
        Metric::Wdl => "WDL",
        Metric::Dtz => "DTZ",
    }
}

impl From<SyzygyError> for NoAnswer {
    fn from(e: SyzygyError) -> NoAnswer {
        match e {
            SyzygyError::Castling => NoAnswer::Castling,
            // Only reached past our own piece count check, when a capture leads nowhere known.
            SyzygyError::TooManyPieces => NoAnswer::ProberFailed("too many pieces".to_owned()),
            SyzygyError::MissingTable { metric, material } => NoAnswer::MissingTable {
                metric,
                material: material.to_string(),
            },
            SyzygyError::ProbeFailed {
                metric,
                material,
                error,
            } => NoAnswer::BadTable {
                metric,
                material: material.to_string(),
                cause: probe_cause(&error),
            },
        }
    }
}

/// The cause in words. Not `ProbeError`'s own text: for a corrupt table it carries a backtrace.
fn probe_cause(e: &ProbeError) -> String {
    match e {
        ProbeError::Read { error } => format!("cannot read it: {error}"),
        ProbeError::Magic { magic } => format!(
            "not a Syzygy chess table (it starts with {:02x} {:02x} {:02x} {:02x})",
            magic[0], magic[1], magic[2], magic[3]
        ),
        ProbeError::CorruptedTable { .. } => "corrupt or truncated".to_owned(),
    }
}
