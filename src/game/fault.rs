//! An engine's fault that decides a game, and its kinds: a leaf of the game room, read by the
//! game loop, the record of a game, the judge of moves and the failure cases.

use serde::{Deserialize, Serialize};

/// How an engine let its side down; each costs it the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FaultKind {
    /// The process exited during the game.
    Crash,
    /// It used more than its clock (plus margin), or never answered in time.
    TimeLoss,
    /// It sent an illegal or malformed move.
    IllegalMove,
    /// It stopped answering (`isready`/`stop`) or broke the protocol.
    Disconnect,
    /// It could not be started, or failed the handshake.
    Startup,
}

impl FaultKind {
    /// Whether the engine process must be replaced after this fault.
    pub fn needs_restart(self) -> bool {
        !matches!(self, FaultKind::IllegalMove | FaultKind::TimeLoss)
    }
}

/// An engine fault that decided a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// The faulty side: `true` for White.
    pub white: bool,
    /// What happened.
    pub kind: FaultKind,
    /// Details (error text, the offending move).
    pub detail: String,
}
