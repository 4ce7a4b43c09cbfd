//! The SPSA room's one error at its boundary ([`SpsaError`]): the run's CSV, the engine's
//! parameter list, the Rust defaults, and the runner's and the lock's errors, each shown as
//! that room says it.

use super::InputError;
use crate::plumbing::atomic::AtomicError;
use crate::plumbing::lock::LockError;
use crate::plumbing::revision::RevisionError;
use crate::report::plot::ChartError;
use crate::tournament::MatchError;
use std::fmt;
use std::path::PathBuf;

/// Why an SPSA run could not start, go on or write its files.
#[derive(Debug)]
pub enum SpsaError {
    /// A file or program (`context` names it and what was done) and the system's error.
    Io {
        context: String,
        source: std::io::Error,
    },
    /// `<engine> spsa` printed nothing (or failed): its stderr, trimmed.
    NoParams { cmd: String, stderr: String },
    /// `<engine> spsa` printed a malformed parameter list.
    EngineInput { cmd: String, source: InputError },
    /// A resumed CSV of other parameters.
    OtherParameters { path: PathBuf, header: String },
    /// A complete row of the CSV that is no SPSA row (`line` from 1).
    BadRow {
        path: PathBuf,
        line: usize,
        text: String,
    },
    /// A `search_params!` table without every parameter's line.
    ParamsNotFound {
        path: PathBuf,
        found: usize,
        params: usize,
    },
    /// `--iterations 0` or `--pairs-per 0`.
    Counts,
    /// A new run's CSV that holds an earlier run.
    RunExists { path: PathBuf },
    /// `--resume` without `--out` and no run of the engine here.
    NothingToResume { engine: String, prefix: String },
    /// The Rust defaults could not be replaced.
    Atomic(AtomicError),
    /// An iteration's match.
    Match(MatchError),
    /// A `rev:` engine's build.
    Revision(RevisionError),
    /// Another run holds the CSV.
    Lock(LockError),
    /// The paths' chart.
    Chart(ChartError),
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::Io { context, .. } => write!(f, "{context}"),
            SpsaError::NoParams { cmd, stderr } => write!(
                f,
                "`{cmd} spsa` listed no parameters ({stderr}); build the tuning build (`make -C \
                 engine EXE=sable-tune TUNE=1`) or give --params FILE"
            ),
            SpsaError::EngineInput { cmd, source } => write!(f, "`{cmd} spsa`: {source}"),
            SpsaError::OtherParameters { path, header } => write!(
                f,
                "{}: recorded for other parameters (its header is not `{header}`)",
                path.display()
            ),
            SpsaError::BadRow { path, line, text } => {
                write!(f, "{}:{line}: not an SPSA row: `{text}`", path.display())
            }
            SpsaError::ParamsNotFound {
                path,
                found,
                params,
            } => write!(
                f,
                "{}: found {found} of the {params} parameters as `\"Name\" = value in ...` lines",
                path.display()
            ),
            SpsaError::Counts => write!(f, "--iterations and --pairs-per must be at least 1"),
            SpsaError::RunExists { path } => write!(
                f,
                "{} already holds an SPSA run; it is never overwritten. Continue it with the same \
                 command and --resume, or choose another file with --out",
                path.display()
            ),
            SpsaError::NothingToResume { engine, prefix } => write!(
                f,
                "--resume: no SPSA run of {engine} here ({prefix}*.csv); give its file with --out FILE"
            ),
            SpsaError::Atomic(e) => write!(f, "{e}"),
            SpsaError::Match(e) => write!(f, "{e}"),
            SpsaError::Revision(e) => write!(f, "{e}"),
            SpsaError::Lock(e) => write!(f, "{e}"),
            SpsaError::Chart(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SpsaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // A wrapped error is shown as itself, so its source is its own; the engine's input
        // error is in the message already.
        match self {
            SpsaError::Io { source, .. } => Some(source),
            SpsaError::Atomic(e) => e.source(),
            SpsaError::Match(e) => e.source(),
            SpsaError::Revision(e) => e.source(),
            SpsaError::Lock(e) => e.source(),
            SpsaError::Chart(e) => e.source(),
            _ => None,
        }
    }
}

error_from!(
    SpsaError:
    Atomic(AtomicError),
    Match(MatchError),
    Revision(RevisionError),
    Lock(LockError),
    Chart(ChartError),
);

impl SpsaError {
    /// The `map_err` of a failed system call, with what was done.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> SpsaError {
        let context = context.into();
        move |source| SpsaError::Io { context, source }
    }
}
