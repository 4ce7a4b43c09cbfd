//! The runner's one error at its boundary: a configuration no game can be played with, a file
//! of the run that cannot be read or written, and the errors of the rooms below it (a book, the
//! tables, a `rev:` build, the lock), each shown as that room says it.
//!
//! An engine that does not start is no error here: it stops the run with no verdict
//! ([`super::preflight::SetupError`], kept in the results file).

use super::affinity::AffinityError;
use super::engine_args::WordsError;
use super::record::RecordError;
use super::resume::ResultsError;
use crate::game::line_pattern::PatternError;
use crate::openings::BookError;
use crate::plumbing::lock::LockError;
use crate::plumbing::revision::RevisionError;
use crate::report::plot::ChartError;
use crate::tablebase::TbError;
use std::fmt;
use std::path::PathBuf;

/// Why a match could not be set up, played or written.
#[derive(Debug)]
pub enum MatchError {
    /// A file of the run (`context` names it and what was done) and the system's error.
    Io {
        context: String,
        source: std::io::Error,
    },
    /// The results file or its journal.
    Results(ResultsError),
    /// A run record that cannot be played again.
    Record(RecordError),
    /// An engine's words (`--engine`, `--each`, `--draw`, `--resign`).
    Words(WordsError),
    /// The openings.
    Book(BookError),
    /// The `--tb` tables.
    Tablebase(TbError),
    /// A `rev:` engine's build.
    Revision(RevisionError),
    /// A `--pgn-match-line` pattern.
    Pattern(PatternError),
    /// Another run holds the results file.
    Lock(LockError),
    /// `--affinity`'s cores.
    Affinity(AffinityError),
    /// The SPRT's chart.
    Chart(ChartError),
    /// Fewer than two engines.
    TooFewEngines { got: usize },
    /// Games per round other than 1 or 2.
    GamesPerRound { got: u32 },
    /// `--concurrency 0`.
    NoConcurrency,
    /// Two engines of one name.
    SameName { name: String },
    /// An engine without a time control or limit.
    Unbounded { name: String },
    /// A new run's results file that holds an earlier run's.
    ResultsExist { path: PathBuf, kind: String },
    /// A Chess960 match with an engine that does not offer it.
    NoChess960 { name: String },
    /// Option settings an engine does not declare or refuses.
    RefusedOptions { name: String, refused: Vec<String> },
    /// `--resume` without a results file.
    ResumeWithoutResults,
    /// A resumed results file of another match (or of more games).
    DifferentMatch {
        path: PathBuf,
        recorded: u64,
        scheduled: u64,
    },
    /// A results file of version 1, which `cmd` converts.
    LegacyResults { path: PathBuf, kind: String },
    /// `--max-fault-share` outside 0..=100.
    FaultShare { pct: f64 },
    /// An SPRT of other than two engines.
    SprtEngines { got: usize },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Io { context, .. } => write!(f, "{context}"),
            MatchError::Results(e) => write!(f, "{e}"),
            MatchError::Record(e) => write!(f, "{e}"),
            MatchError::Words(e) => write!(f, "{e}"),
            MatchError::Book(e) => write!(f, "{e}"),
            MatchError::Tablebase(e) => write!(f, "{e}"),
            MatchError::Revision(e) => write!(f, "{e}"),
            MatchError::Pattern(e) => write!(f, "{e}"),
            MatchError::Lock(e) => write!(f, "{e}"),
            MatchError::Affinity(e) => write!(f, "{e}"),
            MatchError::Chart(e) => write!(f, "{e}"),
            MatchError::TooFewEngines { got } => {
                write!(f, "a match needs at least two engines (got {got})")
            }
            MatchError::GamesPerRound { got } => {
                write!(f, "games per round must be 1 or 2 (got {got})")
            }
            MatchError::NoConcurrency => write!(f, "concurrency must be at least 1"),
            MatchError::SameName { name } => write!(
                f,
                "two engines are named `{name}`: their results would merge; give each its own \
                 name= (e.g. --engine cmd=... name=dev --engine cmd=... name=base)"
            ),
            MatchError::Unbounded { name } => write!(
                f,
                "engine {name}: no time control or limit (give tc=, st=, nodes= or depth=; \
                 tc=inf needs nodes= or depth=)"
            ),
            MatchError::ResultsExist { path, kind } => write!(
                f,
                "{} already holds the results of a run; it is never overwritten. Continue that \
                 run with `harness {kind} --resume {}`, or choose another file with --results FILE \
                 (without --results, a new name is chosen for you)",
                path.display(),
                path.display()
            ),
            MatchError::NoChess960 { name } => write!(
                f,
                "engine {name} does not offer UCI_Chess960, so it cannot play --variant \
                 fischerandom"
            ),
            MatchError::RefusedOptions { name, refused } => write!(
                f,
                "engine {name}: {}; an engine clamps or ignores such a setting, so the games would \
                 not test the setting asked for: give a name and a value it declares (or \
                 --allow-unknown-options, when it takes an option it does not declare)",
                refused.join("; ")
            ),
            MatchError::ResumeWithoutResults => write!(f, "--resume needs a results file"),
            MatchError::DifferentMatch {
                path,
                recorded,
                scheduled,
            } => write!(
                f,
                "{}: recorded for a different match ({recorded} games scheduled there, \
                 {scheduled} now; --rounds may extend a run, not shorten it)",
                path.display()
            ),
            MatchError::LegacyResults { path, kind } => write!(
                f,
                "{}: a results file of version 1 (the run stored as command-line words); \
                 `harness {kind} --resume {}` converts it",
                path.display(),
                path.display()
            ),
            MatchError::FaultShare { pct } => write!(
                f,
                "--max-fault-share must be a percentage from 0 to 100 (got {pct})"
            ),
            MatchError::SprtEngines { got } => {
                write!(f, "an SPRT needs exactly two engines (got {got})")
            }
        }
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // A wrapped error is shown as itself, so its source is its own.
        match self {
            MatchError::Io { source, .. } => Some(source),
            MatchError::Results(e) => e.source(),
            MatchError::Record(e) => e.source(),
            MatchError::Words(e) => e.source(),
            MatchError::Book(e) => e.source(),
            MatchError::Tablebase(e) => e.source(),
            MatchError::Revision(e) => e.source(),
            MatchError::Pattern(e) => e.source(),
            MatchError::Lock(e) => e.source(),
            MatchError::Affinity(e) => e.source(),
            MatchError::Chart(e) => e.source(),
            _ => None,
        }
    }
}

error_from!(
    MatchError:
    Results(ResultsError),
    Record(RecordError),
    Words(WordsError),
    Book(BookError),
    Tablebase(TbError),
    Revision(RevisionError),
    Pattern(PatternError),
    Lock(LockError),
    Affinity(AffinityError),
    Chart(ChartError),
);

impl MatchError {
    /// The `map_err` of a failed system call on a file of the run, with what was done.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> MatchError {
        let context = context.into();
        move |source| MatchError::Io { context, source }
    }
}
