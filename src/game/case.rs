//! The case of a game that went wrong: what a developer needs to see and replay the failure
//! (both engines as they were started, the opening, the position and the exact `position` and
//! `go` lines before the failing move, the failing engine's last `info` lines, the game's UCI
//! transcript). [`super::play_game`] builds it only when an engine faults; `crate::forensics`
//! writes it to a file and replays it.

use super::fault::FaultKind;
use super::opening::Opening;
use super::variant::Variant;
use crate::uci::flight::{Kind, Snapshot};
use crate::uci::EngineSpec;
use std::fmt;

/// `info` lines of the failing engine kept in a case's header.
pub const INFO_LINES: usize = 8;

/// How an engine failed a game, a little finer than [`FaultKind`]: a loss on time is a `hang`
/// when the engine did not even answer `stop` and `isready` afterwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The engine process exited.
    Crash,
    /// No move in time, and no answer to `stop`/`isready` either.
    Hang,
    /// An illegal or malformed move.
    IllegalMove,
    /// No move in time (or a move after the clock ran out); the engine still answered.
    TimeLoss,
    /// A broken protocol (e.g. a `bestmove` line that does not parse).
    Disconnect,
}

impl FailureKind {
    /// Every kind, for parsing and tests.
    pub const ALL: [FailureKind; 5] = [
        FailureKind::Crash,
        FailureKind::Hang,
        FailureKind::IllegalMove,
        FailureKind::TimeLoss,
        FailureKind::Disconnect,
    ];

    /// The word in file names and headers: `crash`, `hang`, `illegal-move`, `time-loss`,
    /// `disconnect`.
    pub fn slug(self) -> &'static str {
        match self {
            FailureKind::Crash => "crash",
            FailureKind::Hang => "hang",
            FailureKind::IllegalMove => "illegal-move",
            FailureKind::TimeLoss => "time-loss",
            FailureKind::Disconnect => "disconnect",
        }
    }

    /// The kind a slug names.
    pub fn from_slug(s: &str) -> Option<FailureKind> {
        FailureKind::ALL.into_iter().find(|k| k.slug() == s)
    }

    /// The kind of a fault; `hung` tells a hang from a plain loss on time.
    pub fn of(fault: FaultKind, hung: bool) -> FailureKind {
        match fault {
            FaultKind::Crash | FaultKind::Startup => FailureKind::Crash,
            FaultKind::TimeLoss if hung => FailureKind::Hang,
            FaultKind::TimeLoss => FailureKind::TimeLoss,
            FaultKind::IllegalMove => FailureKind::IllegalMove,
            FaultKind::Disconnect => FailureKind::Disconnect,
        }
    }

    /// The fault the runner scores for this kind.
    pub fn fault(self) -> FaultKind {
        match self {
            FailureKind::Crash => FaultKind::Crash,
            FailureKind::Hang | FailureKind::TimeLoss => FaultKind::TimeLoss,
            FailureKind::IllegalMove => FaultKind::IllegalMove,
            FailureKind::Disconnect => FaultKind::Disconnect,
        }
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// Where in the game an engine failed, noted by the game loop when it happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailurePoint {
    /// The position before the move the engine failed to make, as FEN.
    pub fen: String,
    /// How long the runner waited for the move, in milliseconds.
    pub deadline_ms: u64,
    /// No answer to `stop`/`isready` after the deadline.
    pub hung: bool,
}

/// One engine of a failed game, as it was started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineCase {
    /// Its display name in the game.
    pub name: String,
    /// Command, arguments, working directory and the options sent with `setoption`.
    pub spec: EngineSpec,
}

impl EngineCase {
    /// The `setoption` lines the engine gets after every start, in order (as
    /// `uci::Engine::start` sends them).
    pub fn setoption_lines(&self) -> Vec<String> {
        self.spec
            .options
            .iter()
            .map(|(n, v)| format!("setoption name {n} value {v}"))
            .collect()
    }

    /// The value of `UCI_Chess960` if it is set.
    pub fn chess960(&self) -> Option<&str> {
        self.spec
            .options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("UCI_Chess960"))
            .map(|(_, v)| v.as_str())
    }
}

/// Everything about a failed game that a developer needs, and a replay uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureCase {
    /// The game's number in its run (as "Finished game N" says), 0 outside a run.
    pub game: u64,
    /// What went wrong.
    pub kind: FailureKind,
    /// The failing side: `true` for White.
    pub white_failed: bool,
    /// The game's ending in words (as in the report and the PGN).
    pub reason: String,
    /// The fault's details (the error, the move sent).
    pub detail: String,
    /// When the game started (UTC, ISO 8601).
    pub started: String,
    /// The rules.
    pub variant: Variant,
    /// The opening: start FEN, book moves, where in its book.
    pub opening: Opening,
    /// The opening book's file as the user named it, or empty.
    pub book: String,
    /// The position before the failing move, as FEN.
    pub fen: String,
    /// The `position` line last sent to the failing engine.
    pub position: String,
    /// The `go` line last sent to the failing engine.
    pub go: String,
    /// How long the runner waited for the move, in milliseconds.
    pub deadline_ms: u64,
    /// The allowance for starting an engine (`uci`, `isready`), in milliseconds.
    pub startup_ms: u64,
    /// The allowance for `isready` between games and `stop` after a timeout, in milliseconds.
    pub ping_ms: u64,
    /// White's and Black's engines.
    pub engines: [EngineCase; 2],
    /// The failing engine's last `info` lines, oldest first.
    pub info: Vec<String>,
    /// The game's UCI transcript.
    pub transcript: Snapshot,
}

impl FailureCase {
    /// The failing side's label in the transcript and the header: `white` or `black`.
    pub fn side(&self) -> &'static str {
        side_label(self.white_failed)
    }

    /// The failing engine.
    pub fn failing(&self) -> &EngineCase {
        &self.engines[usize::from(!self.white_failed)]
    }
}

/// The label of a side in transcripts and case files.
pub fn side_label(white: bool) -> &'static str {
    if white {
        "white"
    } else {
        "black"
    }
}

/// The last `position` and `go` lines sent to `side`, from its transcript.
pub fn last_search(t: &Snapshot, side: &str) -> (String, String) {
    let last = |prefix: &str| {
        t.last(side, Kind::Sent, prefix, 1)
            .first()
            .map_or_else(String::new, |s| (*s).to_owned())
    };
    (last("position "), last("go"))
}

/// The illegal-move reason with everything needed to judge it: the move, the position, the `go`
/// line and the engine's last `info` line.
pub fn illegal_move_reason(
    side: &str,
    mv: &str,
    fen: &str,
    go: &str,
    info: Option<&str>,
) -> String {
    format!(
        "{side} makes an illegal move {mv} in {fen} (after `{go}`; last info: {})",
        info.unwrap_or("none")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::direction::Direction;
    use crate::uci::flight::{Bounds, Transcript};

    #[test]
    fn kinds_have_slugs_that_read_back_and_map_to_faults() {
        for k in FailureKind::ALL {
            assert_eq!(FailureKind::from_slug(k.slug()), Some(k));
            assert_eq!(FailureKind::of(k.fault(), k == FailureKind::Hang), k);
        }
        assert_eq!(FailureKind::from_slug("illegal"), None);
        assert_eq!(
            FailureKind::of(FaultKind::TimeLoss, true),
            FailureKind::Hang
        );
    }

    #[test]
    fn the_last_search_and_setoption_lines() {
        let t = Transcript::new(Bounds::default());
        let w = t.recorder("white");
        let b = t.recorder("black");
        w.record(Direction::Sent, "position startpos");
        w.record(Direction::Sent, "go movetime 5");
        b.record(Direction::Sent, "position startpos moves e2e4");
        b.record(Direction::Sent, "go movetime 7");
        w.record(Direction::Sent, "position startpos moves e2e4 e7e5");
        w.record(Direction::Sent, "go movetime 6");
        let s = t.snapshot();
        assert_eq!(
            last_search(&s, "black"),
            (
                "position startpos moves e2e4".to_owned(),
                "go movetime 7".to_owned()
            )
        );
        assert_eq!(last_search(&s, "white").1, "go movetime 6");
        let e = EngineCase {
            name: "x".into(),
            spec: EngineSpec::new("x")
                .option("Hash", "16")
                .option("UCI_Chess960", "true"),
        };
        assert_eq!(
            e.setoption_lines(),
            [
                "setoption name Hash value 16",
                "setoption name UCI_Chess960 value true"
            ]
        );
        assert_eq!(e.chess960(), Some("true"));
    }
}
