//! How the runner judges an engine's answer to `go`: which errors are which faults, when a move
//! is legal, when a late engine is hung. The game loop and `harness replay` both call these, so
//! that a replay judges a failure exactly as the game did.

use super::fault::FaultKind;
use crate::uci::{Engine, UciError};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move};
use std::time::Duration;

/// The fault an error of the UCI client is.
pub fn fault_kind(e: &UciError) -> FaultKind {
    match e {
        UciError::Crashed(_) => FaultKind::Crash,
        UciError::Timeout(_) | UciError::Protocol(_) => FaultKind::Disconnect,
        UciError::Spawn { .. } => FaultKind::Startup,
    }
}

/// The move `sent` (as in `bestmove`) if it is legal in `pos`. The position carries the variant's
/// castling mode; shakmaty accepts castling in either notation, as the runner always has.
pub fn legal_move(pos: &Chess, sent: &str) -> Option<Move> {
    sent.parse::<UciMove>()
        .ok()
        .and_then(|u| u.to_move(pos).ok())
}

/// After a search ran out of time: whether the engine still answers `stop` (with its
/// `bestmove`) and then `isready`, each within `ping`. An engine that does not is hung.
pub fn recovers(engine: &mut Engine, ping: Duration) -> bool {
    engine.stop(ping).is_ok() && engine.is_ready(ping).is_ok()
}

/// Whether a move that took `elapsed` oversteps a `deadline` under a clock: the check of
/// `tc::Clock::charge` (only a clock or a fixed move time can be overstepped; node- and
/// depth-limited searches only have the deadline).
pub fn overstepped(elapsed: Duration, deadline: Duration, clocked: bool) -> bool {
    clocked && elapsed > deadline
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    #[test]
    fn legal_moves_in_the_variants_castling_mode() {
        let fen: Fen = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1"
            .parse()
            .unwrap();
        let chess960: Chess = fen.into_position(CastlingMode::Chess960).unwrap();
        assert!(legal_move(&chess960, "g1h1").is_some());
        assert!(legal_move(&chess960, "a1a1").is_none());
        assert!(legal_move(&chess960, "0000").is_none());
        assert!(legal_move(&chess960, "!!garbage!!").is_none());
        assert!(legal_move(&Chess::default(), "e2e4").is_some());
        assert!(legal_move(&Chess::default(), "e2e5").is_none());
    }

    #[test]
    fn errors_map_to_faults_and_only_clocks_overstep() {
        assert_eq!(
            fault_kind(&UciError::Crashed("exit status: 3".into())),
            FaultKind::Crash
        );
        assert_eq!(
            fault_kind(&UciError::Protocol("bestmove".into())),
            FaultKind::Disconnect
        );
        let ms = Duration::from_millis;
        assert!(overstepped(ms(101), ms(100), true));
        assert!(!overstepped(ms(100), ms(100), true));
        assert!(!overstepped(ms(500), ms(100), false));
    }
}
