//! Differential test against shakmaty (the independent referee): legal move sets and perft
//! counts on 10,000 random positions rich in castling, en passant and promotions.

use crate::common;

use common::{chess, random_positions, shakmaty_moves};
use sable::board::Board;
use sable::movegen::perft;

#[test]
fn move_generation_matches_shakmaty_on_10000_random_positions() {
    let positions = random_positions(10_000, 0x5eed_0001);
    let (mut ep, mut castles, mut promos) = (0, 0, 0);
    for (i, fen) in positions.iter().enumerate() {
        let reference = chess(fen);
        let mut board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));

        // Depth 1: the exact move set, not just its size.
        let mut ours: Vec<String> = board.legal_moves().iter().map(|m| m.to_string()).collect();
        ours.sort();
        assert_eq!(
            ours,
            shakmaty_moves(&reference),
            "move sets differ in {fen}"
        );
        assert_eq!(board.count_legal_moves() as usize, ours.len(), "{fen}");
        let moves = board.legal_moves();
        ep += moves.iter().filter(|m| m.is_en_passant()).count();
        castles += moves.iter().filter(|m| m.is_castling()).count();
        promos += moves.iter().filter(|m| m.is_promotion()).count();

        // Depths 2 and 3 (every 10th position, to keep the test run short).
        let depths: &[u32] = if i % 10 == 0 { &[2, 3] } else { &[2] };
        for &d in depths {
            assert_eq!(
                perft(&mut board, d),
                shakmaty::perft(&reference, d),
                "perft {d} differs in {fen}"
            );
        }
    }
    // The playouts must really exercise the special moves.
    assert!(
        ep > 100 && castles > 1000 && promos > 1000,
        "ep {ep} castles {castles} promos {promos}"
    );
}

#[test]
fn fen_output_matches_shakmaty() {
    for fen in random_positions(2_000, 0x5eed_0002) {
        let board = Board::from_fen(&fen).unwrap();
        // Our en passant square is "pseudo-legal"; shakmaty re-reads it and writes the legal one.
        assert_eq!(common::fen_of(&chess(&board.to_fen())), fen);
    }
}
