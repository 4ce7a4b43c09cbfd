//! The FEN reader refuses positions that cannot arise in a game: the hand-worked cases of
//! `data/fen-rules.txt`, and random placements judged by shakmaty, whose position rules
//! (`TOO_MUCH_MATERIAL`, `IMPOSSIBLE_CHECK`, ...) are the independent referee.

use crate::common;

use common::placements::placement;
use common::Rng;
use sable::board::Board;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::collections::BTreeMap;

const CASES: &str = include_str!("data/fen-rules.txt");

/// Whether shakmaty takes the FEN as a position of standard chess (Chess960 castling allowed),
/// but for the one rule the engine does not share: two pieces checking from both sides of the
/// king along one line (no move gives that check, yet perftsuite.epd holds such a position).
fn shakmaty_accepts(fen: &str) -> bool {
    let Ok(setup) = fen.parse::<Fen>() else {
        return false;
    };
    match setup.into_position::<Chess>(CastlingMode::Chess960) {
        Ok(_) => true,
        Err(e) => e.ignore_impossible_check().is_ok_and(|pos| {
            let checkers = pos.checkers();
            let (Some(a), Some(b)) = (checkers.first(), checkers.last()) else {
                return false;
            };
            let king = pos.board().king_of(pos.turn()).expect("one king");
            pos.maybe_ep_square().is_none()
                && checkers.count() == 2
                && (checkers & pos.board().steppers()).count() < 2
                && shakmaty::attacks::aligned(a, king, b)
        }),
    }
}

/// The variant name of the reader's error (`TooManyPawns { .. }` -> `TooManyPawns`).
fn error_kind(fen: &str) -> Option<String> {
    Board::from_fen(fen).err().map(|e| {
        let debug = format!("{e:?}");
        debug
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or_default()
            .to_string()
    })
}

#[test]
fn each_case_of_the_data_file_is_accepted_or_refused_for_its_reason() {
    let mut checked = 0;
    for (n, line) in CASES.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("data/fen-rules.txt line {}", n + 1);
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{at}: expected 'verdict | FEN | why'");
        let (verdict, fen) = (fields[0], fields[1]);
        match verdict.split_once(' ') {
            None if verdict == "accept" => {
                assert_eq!(error_kind(fen), None, "{at}: {fen}");
                let board = Board::from_fen(fen).unwrap();
                assert_eq!(
                    Board::from_fen(&board.to_fen()).unwrap().to_fen(),
                    board.to_fen()
                );
            }
            Some(("reject", kind)) => {
                assert_eq!(error_kind(fen).as_deref(), Some(kind), "{at}: {fen}");
                let message = Board::from_fen(fen).unwrap_err().to_string();
                assert!(message.len() > 20, "{at}: '{message}' explains nothing");
            }
            _ => panic!("{at}: verdict '{verdict}' is neither 'accept' nor 'reject Kind'"),
        }
        assert_eq!(
            shakmaty_accepts(fen),
            verdict == "accept",
            "{at}: shakmaty disagrees on {fen}"
        );
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} cases");
}

/// A random count of a piece kind a side starts with `start` of: mostly up to `start`, one
/// time in eight beyond it (up to `max`), where the material rules bite.
fn count(rng: &mut Rng, start: usize, max: usize) -> usize {
    if rng.below(8) == 0 {
        start + 1 + rng.below(max - start)
    } else {
        rng.below(start + 1)
    }
}

/// A random placement with up to 10 pawns, 4 of each minor piece and rook, 3 queens and 0-2
/// kings a side (mostly what a side can have), a pawn now and then on a back rank, either side
/// to move.
fn random_fen(rng: &mut Rng) -> String {
    let mut squares: [Option<char>; 64] = [None; 64];
    for side in ["PNBRQK", "pnbrqk"] {
        for (i, piece) in side.chars().enumerate() {
            let n = match i {
                // One king, but one time in sixteen none or two.
                5 if rng.below(16) == 0 => 2 * rng.below(2),
                5 => 1,
                _ => count(rng, [8, 2, 2, 2, 1][i], [10, 4, 4, 4, 3][i]),
            };
            for _ in 0..n {
                // Pawns on a back rank only now and then: each one sinks the whole placement.
                let pawn = piece.eq_ignore_ascii_case(&'p') && rng.below(50) != 0;
                let mut sq = rng.below(64);
                while squares[sq].is_some() || (pawn && !(8..56).contains(&sq)) {
                    sq = rng.below(64);
                }
                squares[sq] = Some(piece);
            }
        }
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    format!("{} {side} - - 0 1", placement(&squares))
}

#[test]
fn random_placements_are_judged_as_shakmaty_judges_them() {
    let mut rng = Rng::new(41);
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut accepted = 0;
    for _ in 0..20_000 {
        let fen = random_fen(&mut rng);
        let ours = error_kind(&fen);
        assert_eq!(
            ours.is_none(),
            shakmaty_accepts(&fen),
            "{fen}: we say {ours:?}"
        );
        match ours {
            Some(kind) => *kinds.entry(kind).or_default() += 1,
            None => accepted += 1,
        }
    }
    // The placements reach every rule, and enough of them pass for the agreement to mean
    // something on both sides.
    for kind in [
        "KingCount",
        "PawnOnBackRank",
        "TooManyPieces",
        "TooManyPawns",
        "TooManyPromoted",
        "OpponentInCheck",
        "TooManyCheckers",
        "ImpossibleCheck",
    ] {
        assert!(kinds.contains_key(kind), "no {kind} among {kinds:?}");
    }
    assert!(accepted > 500, "{accepted} accepted; {kinds:?}");
}
