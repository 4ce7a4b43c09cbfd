//! Why a book gives no openings, naming the file, the line or game, and the cause; and the
//! causes themselves (a bad EPD line, bad `--openings` words): the leaf of the openings room.

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
        cause: crate::game::opening::OpeningError,
    },
    /// A game of a PGN book that the PGN reader could not read, with no moves or FEN before
    /// the fault.
    PgnRead {
        /// The book file.
        file: PathBuf,
        /// The game's 1-based number in the file.
        game: usize,
        /// The PGN reader's words (its errors are text: it reports the games it skips).
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
            BookError::PgnRead { file, game, cause } => {
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

/// A line of an EPD book that holds no playable position; prints as `LINE: cause`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdLineError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with the line.
    pub cause: EpdProblem,
}

impl fmt::Display for EpdLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.cause)
    }
}

/// What is wrong with an EPD book line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EpdProblem {
    /// Fewer than the four FEN fields (the line).
    TooFewFields(String),
    /// The fields are no position (shakmaty's reason).
    BadPosition(String),
    /// The position cannot occur in a game (shakmaty's reason).
    IllegalPosition(String),
    /// Checkmate or stalemate: no game can start from it.
    GameOver,
}

impl fmt::Display for EpdProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdProblem::TooFewFields(line) => write!(f, "expected 4 FEN fields, got `{line}`"),
            EpdProblem::BadPosition(e) => write!(f, "bad position: {e}"),
            EpdProblem::IllegalPosition(e) => write!(f, "illegal position: {e}"),
            EpdProblem::GameOver => write!(f, "the game is already over in this position"),
        }
    }
}

/// The keys of `--openings`.
const SPEC_KEYS: [&str; 5] = ["file", "format", "order", "plies", "start"];

/// Why `--openings` words describe no book.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// A word without `=`.
    NotKeyValue(String),
    /// `plies=` or `start=` with something other than a number.
    NotANumber {
        /// The key.
        key: String,
        /// Its value.
        value: String,
    },
    /// A `format=` other than `epd` or `pgn`.
    UnknownFormat(String),
    /// An `order=` other than `random` or `sequential`.
    UnknownOrder(String),
    /// A key the book spec does not have.
    UnknownKey(String),
    /// No `file=`.
    NoFile,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::NotKeyValue(w) => write!(
                f,
                "openings: expected key=value, got `{w}`; did you mean `file={w}` (or `startpos` \
                 alone)?"
            ),
            SpecError::NotANumber { key, value } => {
                write!(f, "openings: `{key}` needs a number, got `{value}`")
            }
            SpecError::UnknownFormat(v) => write!(f, "openings: unknown format `{v}` (epd or pgn)"),
            SpecError::UnknownOrder(v) => {
                write!(f, "openings: unknown order `{v}` (random or sequential)")
            }
            SpecError::UnknownKey(k) => {
                write!(f, "openings: unknown key `{k}`")?;
                if let Some(near) = crate::report::suggest::nearest(k, &SPEC_KEYS) {
                    write!(f, "; did you mean `{near}=`?")?;
                }
                write!(
                    f,
                    " (--openings takes file=, format=, order=, plies=, start=)"
                )
            }
            SpecError::NoFile => write!(f, "openings: `file=` is required"),
        }
    }
}

impl std::error::Error for SpecError {}
