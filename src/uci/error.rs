//! Typed errors of the UCI client: every way an engine can let the harness down.

use std::fmt;

/// Why talking to an engine failed. Each variant costs the caller at most the current game or
/// position; the engine can be restarted with [`super::Engine::start`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciError {
    /// The engine process could not be started (missing file, no permission, ...).
    Spawn {
        /// The command that was run.
        path: String,
        /// The operating system's reason.
        cause: String,
    },
    /// The engine process ended (its exit status in words, e.g. "exit status: 3").
    Crashed(String),
    /// The engine did not answer in time; says what the harness was waiting for.
    Timeout(String),
    /// The engine sent something that breaks the protocol (the offending line, maybe truncated).
    Protocol(String),
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Spawn { path, cause } => write!(f, "cannot start engine `{path}`: {cause}"),
            UciError::Crashed(status) => write!(f, "engine crashed ({status})"),
            UciError::Timeout(what) => write!(f, "engine timed out waiting for {what}"),
            UciError::Protocol(line) => write!(f, "engine broke the UCI protocol: {line}"),
        }
    }
}

impl std::error::Error for UciError {}
