//! Which way a line between the harness and an engine went: a leaf that the traffic log and
//! the flight recorder both read (neither imports the other for it).

/// Which way a logged line went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Harness to engine (stdin).
    Sent,
    /// Engine to harness (stdout).
    Received,
    /// The engine's stderr.
    Stderr,
}

impl Direction {
    /// The log's mark for it: `>` sent, `<` received, `!` stderr.
    pub(super) fn mark(self) -> &'static str {
        match self {
            Direction::Sent => ">",
            Direction::Received => "<",
            Direction::Stderr => "!",
        }
    }
}
