//! Shared helpers for the engine's integration tests: a small deterministic PRNG and random
//! playouts (driven by shakmaty, the independent rules referee) that favour castling, en passant
//! and promotions.

#![allow(dead_code)]

pub mod placements;
pub mod process;
pub mod shared;

#[allow(unused_imports)]
pub use shared::{shared_data, syzygy_dir};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// Positions the playouts start from: the CPW perft positions and promotion/en passant races.
pub const SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
    "r3k2r/p1p1p1p1/8/1P1P1P1P/1p1p1p1p/8/P1P1P1P1/R3K2R w KQkq - 0 1",
    "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R b KQkq - 0 1",
];

/// The engine's deterministic generator, so failures reproduce.
pub use sable::rng::Rng;

/// shakmaty position from a FEN.
pub fn chess(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("valid FEN");
    // Standard for standard castling rights, Chess960 when a castling rook is elsewhere.
    let mode = CastlingMode::detect(fen.as_setup());
    fen.into_position(mode).expect("legal position")
}

/// The FEN shakmaty writes (en passant square only when legally capturable).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Sorted UCI texts of shakmaty's legal moves.
pub fn shakmaty_moves(pos: &Chess) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    v.sort();
    v
}

/// `count` positions (as FENs) reached by random playouts from the seed positions, each playout
/// up to 40 plies; special moves (castling, en passant, promotion) are preferred when available.
pub fn random_positions(count: usize, seed: u64) -> Vec<String> {
    playouts(SEEDS, 40, count, seed, |m| {
        let double_step =
            m.role() == shakmaty::Role::Pawn && m.from().is_some_and(|f| f.distance(m.to()) == 2);
        m.is_castle() || m.is_en_passant() || m.is_promotion() || double_step
    })
}

/// `count` positions (as FENs) from random playouts of up to `plies` plies from `seeds`; at
/// each ply, a move that `prefer`s is chosen half the time when there is one.
pub fn playouts(
    seeds: &[&str],
    plies: usize,
    count: usize,
    seed: u64,
    prefer: impl Fn(&shakmaty::Move) -> bool,
) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = chess(seeds[rng.below(seeds.len())]);
        for _ in 0..plies {
            out.push(fen_of(&pos));
            if out.len() == count {
                break;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let preferred: Vec<_> = moves.iter().filter(|m| prefer(m)).collect();
            let m = if !preferred.is_empty() && rng.below(2) == 0 {
                *preferred[rng.below(preferred.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play_unchecked(m);
        }
    }
    out
}
