//! What the caller allows one search to spend: depth, nodes, clock, mate distance.

use std::time::Duration;

/// Limits of one search, filled from a UCI `go` command. `Default` means "no limit" (search
/// until stopped or until the maximum depth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum iteration depth (`go depth N`).
    pub depth: Option<i32>,
    /// Maximum nodes (`go nodes N`); checked at every node, so the count is exact.
    pub nodes: Option<u64>,
    /// Fixed time for this move (`go movetime MS`).
    pub movetime: Option<Duration>,
    /// Remaining clock time, indexed by colour: `[wtime, btime]`.
    pub time: [Option<Duration>; 2],
    /// Increment per move, indexed by colour: `[winc, binc]`.
    pub inc: [Duration; 2],
    /// Moves until the next time control (`movestogo`); `None` means sudden death.
    pub movestogo: Option<u32>,
    /// Stop once a mate in at most this many full moves is found (`go mate N`).
    pub mate: Option<u32>,
    /// Search until `stop` (`go infinite`); `bestmove` is held back until then.
    pub infinite: bool,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }
}
