//! The datagen room's one error at its boundary ([`DatagenError`]): the output file, the book,
//! the PGN files and the reference engine's pool, each named with what failed.

use crate::game::opening::OpeningError;
use crate::openings::BookError;
use crate::tune::dataset::DatasetError;
use crate::uci::pool::PoolError;
use std::fmt;
use std::path::PathBuf;

/// Why a `datagen`, `extract` or `label` run could not read or write its files or go on.
#[derive(Debug)]
pub enum DatagenError {
    /// A file (`context` names it and what was done) and the system's error.
    Io {
        context: String,
        source: std::io::Error,
    },
    /// An output file whose positions cannot be read back.
    Dataset(DatasetError),
    /// The book (`--book`).
    Book(BookError),
    /// A book position that is no position.
    Opening(OpeningError),
    /// The reference engine's pool could not run the positions.
    Pool(PoolError),
    /// The worker threads could not be started.
    Threads(rayon::ThreadPoolBuildError),
    /// A book without a position.
    EmptyBook { path: PathBuf },
    /// A PGN file without a usable game (`why`: what it holds).
    NoGames { path: PathBuf, why: String },
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Io { context, .. } => write!(f, "{context}"),
            DatagenError::Dataset(e) => write!(f, "{e}"),
            DatagenError::Book(e) => write!(f, "{e}"),
            DatagenError::Opening(e) => write!(f, "{e}"),
            DatagenError::Pool(e) => write!(f, "{e}"),
            DatagenError::Threads(e) => write!(f, "{e}"),
            DatagenError::EmptyBook { path } => write!(f, "{}: no positions", path.display()),
            DatagenError::NoGames { path, why } => write!(
                f,
                "{}: no games to extract positions from ({why})",
                path.display()
            ),
        }
    }
}

impl std::error::Error for DatagenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // A wrapped error is shown as itself, so its source is its own.
        match self {
            DatagenError::Io { source, .. } => Some(source),
            DatagenError::Dataset(e) => e.source(),
            DatagenError::Book(e) => e.source(),
            DatagenError::Opening(e) => e.source(),
            DatagenError::Pool(e) => e.source(),
            DatagenError::Threads(e) => e.source(),
            _ => None,
        }
    }
}

error_from!(
    DatagenError:
    Dataset(DatasetError),
    Book(BookError),
    Opening(OpeningError),
    Pool(PoolError),
    Threads(rayon::ThreadPoolBuildError),
);

impl DatagenError {
    /// The `map_err` of a failed system call on a file, with what was done.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> DatagenError {
        let context = context.into();
        move |source| DatagenError::Io { context, source }
    }
}
