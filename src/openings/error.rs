//! Why a book gives no openings, naming the file, the line or game, and the cause.

use super::formats::EpdLineError;
use super::spec::SpecError;
use std::fmt;
use std::path::PathBuf;

/// Why a book gives no openings: the file (with the line or game) and the cause.
#[derive(Debug)]
pub enum BookError {
    /// The `--openings` words do not describe a book.
    Spec(SpecError),
    /// The book file cannot be read.
    Read {
        /// The book file.
        file: PathBuf,
        /// What the operating system (or the PGN reader) said.
        cause: std::io::Error,
    },
    /// A line of an EPD book holds no playable position.
    EpdLine {
        /// The book's name: its path, or the built-in book's.
        file: String,
        /// The line and what is wrong with it.
        error: EpdLineError,
    },
    /// A game of a PGN book gives no usable opening.
    PgnGame {
        /// The book file.
        file: PathBuf,
        /// The game's 1-based number in the file.
        game: usize,
        /// Why its moves (or its FEN tag) make no opening.
        cause: String,
    },
    /// The book holds no opening at all.
    Empty {
        /// The book file.
        file: PathBuf,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Spec(e) => write!(f, "{e}"),
            BookError::Read { file, cause } if cause.kind() == std::io::ErrorKind::NotFound => {
                write!(
                    f,
                    "opening book {} not found ({cause}); check the path in --openings file=",
                    file.display()
                )
            }
            BookError::Read { file, cause } => {
                write!(f, "opening book {}: {cause}", file.display())
            }
            BookError::EpdLine { file, error } => write!(f, "opening book {file}:{error}"),
            BookError::PgnGame { file, game, cause } => {
                write!(f, "opening book {}: game {game}: {cause}", file.display())
            }
            BookError::Empty { file } => {
                write!(f, "opening book {}: no openings", file.display())
            }
        }
    }
}

impl std::error::Error for BookError {}

impl From<SpecError> for BookError {
    fn from(e: SpecError) -> BookError {
        BookError::Spec(e)
    }
}
