//! The stats room's error at its boundary for what it reads and writes ([`StatsError`]): the
//! PGN files of a rating list and its CSV. The statistics themselves have their own errors
//! (`sprt::SprtError` for bounds and models).

use crate::game::pgn::PgnOpenError;
use std::fmt;
use std::path::PathBuf;

/// Why a rating list's games could not be read, or its CSV written.
#[derive(Debug)]
pub enum StatsError {
    /// A PGN file that cannot be opened.
    PgnOpen(PgnOpenError),
    /// A game of a PGN file that cannot be read (`number` from 1).
    Game {
        path: PathBuf,
        number: usize,
        source: std::io::Error,
    },
    /// The CSV writer.
    Csv(csv::Error),
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::PgnOpen(e) => write!(f, "{e}"),
            StatsError::Game { path, number, .. } => {
                write!(f, "{}: game {number}", path.display())
            }
            StatsError::Csv(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StatsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // A wrapped error is shown as itself, so its source is its own.
        match self {
            StatsError::PgnOpen(e) => e.source(),
            StatsError::Game { source, .. } => Some(source),
            StatsError::Csv(e) => e.source(),
        }
    }
}

error_from!(
    StatsError:
    PgnOpen(PgnOpenError),
    Csv(csv::Error),
);
