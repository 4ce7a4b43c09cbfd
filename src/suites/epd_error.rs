//! Why an EPD line is refused: the position, the operations, or a move in them. Displayed in
//! the words the reader has always used; [`EpdError`] adds the file and line.

use shakmaty::fen::ParseFenError;
use std::fmt;

/// Where an EPD line came from, for error messages and reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineRef {
    /// The file name (or the suite name for embedded suites).
    pub file: String,
    /// One-based line number.
    pub line: usize,
}

impl fmt::Display for LineRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A malformed EPD line: file, line and cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    /// Where the bad line is.
    pub at: LineRef,
    /// What is wrong with it (displayed in plain words).
    pub cause: EpdCause,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.cause)
    }
}

impl std::error::Error for EpdError {}

/// What is wrong with one EPD line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdCause {
    /// Fewer than the 4 FEN fields.
    FenFields(usize),
    /// A halfmove counter without the fullmove counter after it.
    HalfmoveOnly,
    /// The FEN fields do not parse.
    BadPosition { fen: String, cause: ParseFenError },
    /// The FEN's position is illegal: shakmaty's verdict as text (its error holds the whole
    /// position and cannot be compared).
    Illegal { fen: String, why: String },
    /// A quote opened and never closed.
    Unterminated,
    /// An operation the scorer reads is malformed.
    Operation { opcode: String, cause: OpError },
    /// Nothing to test against.
    NoCriterion,
}

impl fmt::Display for EpdCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdCause::FenFields(n) => write!(f, "expected 4 FEN fields, found {n}"),
            EpdCause::HalfmoveOnly => write!(f, "halfmove counter without fullmove counter"),
            EpdCause::BadPosition { fen, cause } => write!(f, "bad position '{fen}': {cause}"),
            EpdCause::Illegal { fen, why } => write!(f, "illegal position '{fen}': {why}"),
            EpdCause::Unterminated => write!(f, "unterminated quoted string"),
            EpdCause::Operation { opcode, cause } => write!(f, "{opcode} operation: {cause}"),
            EpdCause::NoCriterion => write!(f, "no bm, am, dm or scored c0 to test against"),
        }
    }
}

/// What is wrong with one operation (`id`, `dm`, or a move list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpError {
    /// `id` without a name.
    MissingId,
    /// `dm` without a distance.
    MissingMate,
    /// `dm` with something other than a number.
    NotANumber(String),
    /// `dm 0`.
    MateZero,
    /// A move of the operation.
    Move(MoveError),
}

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpError::MissingId => write!(f, "missing id"),
            OpError::MissingMate => write!(f, "missing mate distance"),
            OpError::NotANumber(n) => write!(f, "'{n}' is not a number"),
            OpError::MateZero => write!(f, "mate distance must be at least 1"),
            OpError::Move(e) => write!(f, "{e}"),
        }
    }
}

impl From<MoveError> for OpError {
    fn from(e: MoveError) -> OpError {
        OpError::Move(e)
    }
}

/// Why a word of a move list is no move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// A SAN that names more than one legal move.
    Ambiguous(String),
    /// A SAN that names no legal move.
    IllegalSan(String),
    /// Neither SAN nor UCI.
    NotAMove(String),
    /// A UCI move that is not legal in the position.
    Illegal(String),
    /// A move list without a move.
    NoMoves,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Ambiguous(w) => write!(f, "'{w}': ambiguous san"),
            MoveError::IllegalSan(w) => write!(f, "'{w}': illegal san"),
            MoveError::NotAMove(w) => write!(f, "'{w}' is neither SAN nor UCI"),
            MoveError::Illegal(w) => write!(f, "'{w}' is not a legal move here"),
            MoveError::NoMoves => write!(f, "no moves given"),
        }
    }
}

impl std::error::Error for MoveError {}

impl std::error::Error for EpdCause {}

impl std::error::Error for OpError {}
