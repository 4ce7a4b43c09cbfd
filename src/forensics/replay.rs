//! `harness replay`: the failing engine of a case, started as the runner started it (command,
//! arguments, working directory, the same `setoption` lines: Hash, Threads, UCI_Chess960, ...),
//! given `ucinewgame` and the recorded `position` and `go` lines, and judged as the runner judged
//! it ([`crate::game::judge`]): a crash, no `bestmove` within the recorded deadline (a loss on
//! time, or a hang if `stop` and `isready` go unanswered too), a move after the clock ran out, an
//! illegal move by shakmaty in the variant's castling mode, a broken `bestmove`.
//!
//! A failure that does not happen every time gets more tries. Between tries the engine process
//! is kept while it is healthy, as the runner keeps it from game to game (so a failure that
//! needs some searches behind it can show), unless every try must start afresh.

use super::lines::{clocked, parse_go, parse_position};
use crate::game::judge;
use crate::game::{FailureCase, FailureKind};
use crate::uci::{Engine, EngineSpec, StartError, UciError};
use shakmaty::Chess;
use std::time::Duration;

/// How to replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Tries before giving up (at least 1).
    pub tries: u32,
    /// A new engine process for every try (else one is kept while it is healthy).
    pub fresh: bool,
    /// Run this program instead of the recorded one (with the recorded arguments, folder and
    /// options), to see whether a new build still fails.
    pub cmd: Option<String>,
}

/// What one try saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observation {
    /// The engine failed.
    Failed {
        /// How.
        kind: FailureKind,
        /// In words (the error, the move, the time).
        detail: String,
    },
    /// A legal move in time.
    Moved {
        /// The move.
        mv: String,
        /// How long it took, in milliseconds.
        ms: u64,
    },
}

impl Observation {
    /// Whether this is the failure of `case`: the fault the runner scored (a hang and a plain
    /// loss on time are both a loss on time).
    pub fn reproduces(&self, case: &FailureCase) -> bool {
        matches!(self, Observation::Failed { kind, .. } if kind.fault() == case.kind.fault())
    }
}

impl std::fmt::Display for Observation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Observation::Failed { kind, detail } => write!(f, "{kind}: {detail}"),
            Observation::Moved { mv, ms } => {
                write!(f, "bestmove {mv} after {ms} ms, legal and in time")
            }
        }
    }
}

/// Why a case could not be replayed at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The recorded `position` or `go` line does not read (a case not read by
    /// [`super::format::read`], which checks them with their line numbers).
    BadCase(super::lines::LineError),
    /// The engine cannot be started and made ready.
    Start(StartError),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::BadCase(why) => write!(f, "the case cannot be replayed: {why}"),
            ReplayError::Start(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The engine spec a replay starts: the failing engine's, with `cmd` replaced if asked.
pub fn replay_spec(case: &FailureCase, opts: &ReplayOptions) -> EngineSpec {
    let mut spec = case.failing().spec.clone();
    if let Some(cmd) = &opts.cmd {
        spec.cmd = cmd.clone();
    }
    spec
}

/// Replays `case` up to `opts.tries` times, calling `each` with the number (from 1) and
/// observation of every try; returns the number of the try that reproduced the failure, if one
/// did.
pub fn replay(
    case: &FailureCase,
    opts: &ReplayOptions,
    mut each: impl FnMut(u32, &Observation),
) -> Result<Option<u32>, ReplayError> {
    let pos = parse_position(&case.position, case.variant).map_err(ReplayError::BadCase)?;
    let go = parse_go(&case.go).map_err(ReplayError::BadCase)?;
    let spec = replay_spec(case, opts);
    let startup = Duration::from_millis(case.startup_ms);
    let ping = Duration::from_millis(case.ping_ms);
    let deadline = Duration::from_millis(case.deadline_ms.max(1));
    let mut engine: Option<Engine> = None;
    for n in 1..=opts.tries.max(1) {
        let mut e = match engine.take() {
            Some(e) if !opts.fresh => e,
            old => {
                if let Some(old) = old {
                    old.quit(ping);
                }
                Engine::start(&spec, startup).map_err(ReplayError::Start)?
            }
        };
        let (seen, healthy) = one_try(&mut e, case, &pos, &go, deadline, ping, startup);
        each(n, &seen);
        if healthy {
            engine = Some(e);
        }
        if seen.reproduces(case) {
            if let Some(e) = engine.take() {
                e.quit(ping);
            }
            return Ok(Some(n));
        }
    }
    if let Some(e) = engine {
        e.quit(ping);
    }
    Ok(None)
}

/// One try on a started engine: what it did, and whether the process may be used again.
fn one_try(
    e: &mut Engine,
    case: &FailureCase,
    pos: &Chess,
    go: &crate::uci::GoParams,
    deadline: Duration,
    ping: Duration,
    startup: Duration,
) -> (Observation, bool) {
    let failed = |err: &UciError, when: &str| Observation::Failed {
        kind: FailureKind::of(judge::fault_kind(err), false),
        detail: format!("{err}{when}"),
    };
    // As the runner prepares a game (`Player::new_game`): ucinewgame, then isready.
    let prepared = e
        .new_game()
        .and_then(|()| e.is_ready(ping.max(startup)))
        .and_then(|()| e.send(&case.position));
    if let Err(err) = prepared {
        return (failed(&err, " (before the search)"), false);
    }
    match e.go(go, deadline, |_| {}) {
        Err(UciError::Timeout(_)) => {
            let recovered = judge::recovers(e, ping);
            let mut detail = format!("no move within {} ms", deadline.as_millis());
            if !recovered {
                detail.push_str(", and no answer to stop/isready (hung)");
            }
            let kind = FailureKind::of(crate::game::FaultKind::TimeLoss, !recovered);
            (Observation::Failed { kind, detail }, recovered)
        }
        Err(err) => (failed(&err, ""), false),
        Ok(r) => {
            let ms = r.elapsed.as_millis() as u64;
            let sent = r.best.mv.unwrap_or_else(|| "0000".to_owned());
            let seen = if judge::overstepped(r.elapsed, deadline, clocked(go)) {
                Observation::Failed {
                    kind: FailureKind::TimeLoss,
                    detail: format!("used {ms} ms of {} ms", deadline.as_millis()),
                }
            } else if judge::legal_move(pos, &sent).is_none() {
                Observation::Failed {
                    kind: FailureKind::IllegalMove,
                    detail: format!("bestmove {sent} is illegal in {}", case.fen),
                }
            } else {
                Observation::Moved { mv: sent, ms }
            };
            (seen, true)
        }
    }
}
