//! The gate's one error at its boundary ([`CheckError`]): a step that could not run at all
//! (which the table shows as that step's failure), and the `--json` report that cannot be
//! written.

use crate::game::tc::TcError;
use crate::openings::BookError;
use crate::suites::perft::SuiteParseError;
use crate::suites::SuiteError;
use crate::tournament::MatchError;
use std::fmt;
use std::path::PathBuf;

/// Why a step of the gate could not run, or its report could not be written.
#[derive(Debug)]
pub enum CheckError {
    /// This binary's own path (the engine the gate plays) is unknown.
    CurrentExe(std::io::Error),
    /// A built-in perft suite that does not parse.
    Perft(SuiteParseError),
    /// A suite step (the referee, the tactics).
    Suite(SuiteError),
    /// The sanity match's book.
    Book(BookError),
    /// The sanity match.
    Match(MatchError),
    /// The sanity match's time control.
    Tc { tc: &'static str, source: TcError },
    /// `suites/bench.txt` without a number.
    NoSignature,
    /// A step name the gate does not have.
    UnknownStep { name: String },
    /// The `--json` report as JSON.
    Json(serde_json::Error),
    /// The `--json` report's file.
    Report {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::CurrentExe(e) => write!(f, "the harness binary's own path: {e}"),
            CheckError::Perft(e) => write!(f, "{e}"),
            CheckError::Suite(e) => write!(f, "{e}"),
            CheckError::Book(e) => write!(f, "{e}"),
            CheckError::Match(e) => write!(f, "{e}"),
            CheckError::Tc { tc, source } => write!(f, "bad time control {tc}: {source:?}"),
            CheckError::NoSignature => {
                write!(f, "no bench signature: suites/bench.txt has no number")
            }
            CheckError::UnknownStep { name } => write!(f, "unknown step {name}"),
            CheckError::Json(e) => write!(f, "{e}"),
            CheckError::Report { path, .. } => {
                write!(f, "cannot write JSON report to {}", path.display())
            }
        }
    }
}

impl std::error::Error for CheckError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // A wrapped error is shown as itself, so its source is its own.
        match self {
            CheckError::CurrentExe(e) => e.source(),
            CheckError::Perft(e) => e.source(),
            CheckError::Suite(e) => e.source(),
            CheckError::Book(e) => e.source(),
            CheckError::Match(e) => e.source(),
            CheckError::Json(e) => e.source(),
            CheckError::Report { source, .. } => Some(source),
            _ => None,
        }
    }
}

error_from!(
    CheckError:
    Perft(SuiteParseError),
    Suite(SuiteError),
    Book(BookError),
    Match(MatchError),
    Json(serde_json::Error),
);

/// An error and its causes on one line, `error: cause: cause` (as `harness` prints errors).
pub fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}
