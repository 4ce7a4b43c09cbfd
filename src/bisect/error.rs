//! The bisect room's one error at its boundary ([`BisectError`]): the range, the state file,
//! a test command that stops the bisection, and the runner's errors, each shown as the room it
//! comes from says it. A commit that does not build is no error: it is skipped
//! ([`super::build::BuildError`]).

use super::history::HistoryError;
use super::state::StateError;
use crate::plumbing::lock::LockError;
use crate::plumbing::revision::RevisionError;
use crate::stats::sprt::SprtError;
use crate::tournament::MatchError;
use std::fmt;
use std::path::PathBuf;

/// Why a bisection could not start or go on.
#[derive(Debug)]
pub enum BisectError {
    /// The range of commits.
    History(HistoryError),
    /// The state file (`bisect.json`).
    State(StateError),
    /// Another bisection holds the state file.
    Lock(LockError),
    /// The SPRT's settings.
    Sprt(SprtError),
    /// A step's match.
    Match(MatchError),
    /// `--max-error` outside (0, 1).
    MaxError { got: f64 },
    /// The work folder could not be made.
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Not inside a git repository.
    NotInRepo { source: RevisionError },
    /// The test command could not be run.
    TestCommand { cmd: String, source: std::io::Error },
    /// The test's log could not be written.
    Log {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The test command's exit code (above 127, or a signal) stops the bisection.
    TestStopped {
        status: String,
        commit: String,
        log: PathBuf,
    },
}

impl fmt::Display for BisectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BisectError::History(e) => write!(f, "{e}"),
            BisectError::State(e) => write!(f, "{e}"),
            BisectError::Lock(e) => write!(f, "{e}"),
            BisectError::Sprt(e) => write!(f, "{e}"),
            BisectError::Match(e) => write!(f, "{e}"),
            BisectError::MaxError { got } => {
                write!(f, "--max-error must lie between 0 and 1 (got {got})")
            }
            BisectError::CreateDir { path, source } => {
                write!(f, "cannot create {}: {source}", path.display())
            }
            BisectError::NotInRepo { source } => {
                write!(f, "harness bisect runs inside a git repository: {source}")
            }
            BisectError::TestCommand { cmd, source } => write!(f, "sh -c {cmd:?}: {source}"),
            BisectError::Log { path, source } => write!(f, "writing {}: {source}", path.display()),
            BisectError::TestStopped {
                status,
                commit,
                log,
            } => write!(
                f,
                "the test command ended with {status} at {commit} (output: {}): like `git bisect \
                 run`, bisect stops on an exit code above 127 or a signal",
                log.display()
            ),
        }
    }
}

impl std::error::Error for BisectError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // A wrapped error is shown as itself, and a system's error is in the message: the
        // source is theirs.
        match self {
            BisectError::History(e) => e.source(),
            BisectError::State(e) => e.source(),
            BisectError::Lock(e) => e.source(),
            BisectError::Sprt(e) => e.source(),
            BisectError::Match(e) => e.source(),
            BisectError::CreateDir { source, .. }
            | BisectError::TestCommand { source, .. }
            | BisectError::Log { source, .. } => source.source(),
            BisectError::NotInRepo { source } => source.source(),
            _ => None,
        }
    }
}

error_from!(
    BisectError:
    History(HistoryError),
    State(StateError),
    Lock(LockError),
    Sprt(SprtError),
    Match(MatchError),
);
