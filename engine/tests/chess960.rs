//! Chess960 and Double Fischer Random: castling from any start files against shakmaty (Chess960
//! castling mode) as the independent referee; FEN round trips in X-FEN and Shredder-FEN; UCI
//! notation both ways; Zobrist keys, make/unmake and single-move checks on random 960 games.

use crate::common;

use common::{chess, fen_of, playouts, Rng};
use sable::board::Board;
use sable::movegen::perft;
use sable::types::{Color, Move};
use shakmaty::{CastlingMode, Chess, Position};

/// Start positions (Chess960 numbers 0, 518 in Shredder-FEN, 959; Double Fischer Random pairs)
/// and castling edge cases.
const SEEDS_960: &[&str] = &[
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
    "rbqknnbr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w HEha - 0 1",
    "nqnrbbkr/pppppppp/8/8/8/8/PPPPPPPP/RNNQBBKR w HAhd - 0 1",
    // King-side rook already on f1; king already on g1; king already on c1.
    "4k3/8/8/8/8/8/8/R3KR2 w FA - 0 1",
    "4k3/8/8/8/8/8/8/R5KR w HA - 0 1",
    "4k3/8/8/8/8/8/8/1RK4R w HB - 0 1",
    // The castling rook shields the king's destination along the back rank.
    "Qrk5/8/8/8/8/8/8/4K3 b b - 0 1",
    "7k/8/8/8/8/8/8/qRK1R3 w B - 0 1",
    // Inner king-side rook; the king may not pass over a rook that does not castle.
    "4k3/8/8/8/8/8/8/RK1R3R w DA - 0 1",
    "4k3/8/8/8/8/8/8/RK1R3R w HA - 0 1",
    // King and rook swap squares; king takes rook on g1 is also the king's destination.
    "4k3/8/8/8/8/8/8/R4KR1 w GA - 0 1",
    "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    "r3k2r/8/8/8/8/8/8/RK5R w HAha - 0 1",
    "1r1k2r1/8/8/8/2b5/8/8/1R1K2R1 w GBgb - 0 1",
    "k7/8/8/8/8/8/8/KR5R w B - 0 1",
];

/// Sorted UCI texts of shakmaty's legal moves, castling as king takes rook.
fn shakmaty_moves(pos: &Chess) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Chess960).to_string())
        .collect();
    v.sort();
    v
}

/// Random playouts from the 960 seeds, castling chosen whenever shakmaty allows it half the
/// time, so many positions keep or just used Chess960 castling rights.
fn random_960_positions(count: usize, seed: u64) -> Vec<String> {
    playouts(SEEDS_960, 30, count, seed, |m| m.is_castle())
}

#[test]
fn moves_and_perft_agree_with_shakmaty() {
    let mut castlings = 0;
    for fen in SEEDS_960
        .iter()
        .map(|s| s.to_string())
        .chain(random_960_positions(1_500, 960))
    {
        let mut board = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let pos = chess(&fen);
        let mut ours: Vec<String> = board
            .legal_moves()
            .iter()
            .map(|&m| board.move_to_uci(m, true))
            .collect();
        ours.sort();
        assert_eq!(ours, shakmaty_moves(&pos), "{fen}");
        castlings += board
            .legal_moves()
            .iter()
            .filter(|m| m.is_castling())
            .count();
        for depth in 1..=2 {
            assert_eq!(
                perft(&mut board, depth),
                shakmaty::perft(&pos, depth),
                "{fen} depth {depth}"
            );
        }
    }
    assert!(castlings > 80, "only {castlings} castling moves seen");
    // The edge cases deeper.
    for fen in SEEDS_960 {
        let mut board = Board::from_fen(fen).unwrap();
        let pos = chess(fen);
        assert_eq!(perft(&mut board, 4), shakmaty::perft(&pos, 4), "{fen}");
        assert_eq!(board.to_fen(), fen_of(&pos), "perft restores {fen}");
    }
}

#[test]
fn the_castling_rook_may_shield_the_kings_destination() {
    // Black castles queen side with the king staying on c8: the rook leaving b8 would expose
    // the king to the queen on a8, so there is no castling.
    let board = Board::from_fen("Qrk5/8/8/8/8/8/8/4K3 b b - 0 1").unwrap();
    assert!(!board.legal_moves().iter().any(|m| m.is_castling()));
    // Without the queen the same castling is legal: the rook goes to d8, the king stays.
    let mut board = Board::from_fen("1rk5/8/8/8/8/8/8/4K3 b b - 0 1").unwrap();
    let castle = board.parse_uci_move_as("c8b8", true).expect("castling");
    assert!(castle.is_castling() && castle.from() == castle.to());
    board.make(castle);
    assert_eq!(board.to_fen(), "2kr4/8/8/8/8/8/8/4K3 w - - 1 2");
    board.unmake();
    assert_eq!(board.to_fen(), "1rk5/8/8/8/8/8/8/4K3 b q - 0 1");
}

#[test]
fn fen_round_trips_in_x_fen_and_shredder_fen() {
    // Standard chess reads either form and writes KQkq (HAha in Shredder-FEN).
    let shredder = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
    let board = Board::from_fen(shredder).unwrap();
    assert_eq!(board.to_fen(), sable::board::STARTPOS_FEN);
    assert_eq!(board.to_shredder_fen(), shredder);
    assert_eq!(board.key(), Board::startpos().key());
    assert!(!board.is_chess960());
    // An inner king-side rook needs its file letter in X-FEN; the outer one is K/Q.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/RK1R3R w DA - 0 1").unwrap();
    assert_eq!(b.to_fen(), "4k3/8/8/8/8/8/8/RK1R3R w DQ - 0 1");
    assert_eq!(b.to_shredder_fen(), "4k3/8/8/8/8/8/8/RK1R3R w DA - 0 1");
    assert!(b.is_chess960());
    let h = Board::from_fen("4k3/8/8/8/8/8/8/RK1R3R w KQ - 0 1").unwrap();
    assert_eq!(h.to_shredder_fen(), "4k3/8/8/8/8/8/8/RK1R3R w HA - 0 1");
    // Same placement, different castling rook: different keys.
    assert_ne!(b.key(), h.key());
    assert_eq!(
        b.castling_rook_square(Color::White, true),
        Some("d1".parse().unwrap())
    );
    // Every random position: X-FEN as shakmaty writes it, and both forms read back the same.
    for fen in random_960_positions(1_000, 61) {
        let board = Board::from_fen(&fen).unwrap();
        assert_eq!(board.to_fen(), fen, "X-FEN");
        let again = Board::from_fen(&board.to_shredder_fen()).unwrap();
        assert_eq!(
            again.to_fen(),
            fen,
            "Shredder-FEN {}",
            board.to_shredder_fen()
        );
        assert_eq!(again.key(), board.key(), "{fen}");
    }
    // Castling letters that name no rook, or one right twice.
    for bad in [
        "4k3/8/8/8/8/8/8/RK1R3R w G - 0 1",
        "4k3/8/8/8/8/8/8/RK1R3R w HD - 0 1",
        "4k3/8/8/8/8/8/8/RK1R3R w b - 0 1",
        "4k3/8/8/8/8/8/8/RK1R3R w KH - 0 1",
        "4k3/8/8/8/8/8/8/RK1R3R w B - 0 1",
    ] {
        assert!(Board::from_fen(bad).is_err(), "{bad}");
    }
}

#[test]
fn uci_notation_with_and_without_chess960() {
    // King f1, rook h1: castling puts the king on g1, where a plain king move also goes.
    let board = Board::from_fen("4k3/8/8/8/8/8/8/R4K1R w HA - 0 1").unwrap();
    let castle = board
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.is_castling() && m.to().file() == 6)
        .expect("king-side castling");
    assert_eq!(board.move_to_uci(castle, true), "f1h1");
    assert_eq!(board.move_to_uci(castle, false), "f1g1");
    for chess960 in [true, false] {
        assert_eq!(board.parse_uci_move_as("f1h1", chess960), Some(castle));
        let king_move = board.parse_uci_move_as("f1g1", chess960).unwrap();
        assert!(!king_move.is_castling(), "f1g1 is the plain king move");
    }
    assert_eq!(board.parse_uci_move("f1h1"), Some(castle));
    // Standard chess: e1g1 without the option, e1h1 with it (and accepted without).
    let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let short = board.parse_uci_move("e1g1").unwrap();
    assert!(short.is_castling());
    assert_eq!(board.move_to_uci(short, false), "e1g1");
    assert_eq!(board.move_to_uci(short, true), "e1h1");
    assert_eq!(board.parse_uci_move_as("e1h1", true), Some(short));
    assert_eq!(board.parse_uci_move_as("e1h1", false), Some(short));
    assert_eq!(board.parse_uci_move_as("e1g1", true), None);
    let long = board.parse_uci_move_as("e1a1", true).unwrap();
    assert_eq!(board.move_to_uci(long, false), "e1c1");
    // Every legal move of random 960 positions reads back from its 960 text.
    for fen in random_960_positions(500, 7) {
        let board = Board::from_fen(&fen).unwrap();
        for &m in board.legal_moves().iter() {
            let text = board.move_to_uci(m, true);
            assert_eq!(
                board.parse_uci_move_as(&text, true),
                Some(m),
                "{text} in {fen}"
            );
        }
    }
}

/// Keys after every make and unmake equal keys from scratch; make/unmake restores the FEN;
/// single-move checks (pseudo-legality, legality, gives_check) agree with generation.
#[test]
fn keys_make_unmake_and_move_checks_in_random_960_games() {
    let mut rng = Rng::new(960);
    let mut castled = 0;
    for game in 0..300 {
        let mut board = Board::from_fen(SEEDS_960[game % SEEDS_960.len()]).unwrap();
        let mut fens = vec![board.to_fen()];
        for _ in 0..60 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let checks = board.check_squares();
            for &m in moves.iter() {
                assert!(board.is_legal(m), "{m:?} in {}", board.to_fen());
                let gives = board.gives_check(m);
                assert_eq!(checks.gives_check(&board, m), gives);
                board.make(m);
                assert_eq!(board.in_check(), gives, "gives_check {m:?}");
                board.unmake();
            }
            for _ in 0..20 {
                let m = Move::from_raw(rng.next_u64() as u16);
                assert_eq!(board.is_legal(m), moves.contains(m), "{m:?}");
            }
            let castles: Vec<Move> = moves.iter().copied().filter(|m| m.is_castling()).collect();
            let m = if !castles.is_empty() && rng.below(2) == 0 {
                castled += 1;
                castles[rng.below(castles.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            board.make(m);
            assert_eq!(
                board.key(),
                board.compute_key(),
                "after {m:?}: {}",
                board.to_fen()
            );
            assert_eq!(Board::from_fen(&board.to_fen()).unwrap().key(), board.key());
            fens.push(board.to_fen());
        }
        while board.history_len() > 0 {
            fens.pop();
            board.unmake();
            assert_eq!(Some(&board.to_fen()), fens.last());
            assert_eq!(board.key(), board.compute_key());
        }
    }
    assert!(castled > 200, "only {castled} castlings played");
}
