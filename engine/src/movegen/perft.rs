//! Perft: counting leaf nodes of the legal move tree, the standard test of a move generator.

use crate::board::Board;
use crate::types::Move;

/// Number of leaf nodes `depth` plies below `board` (bulk counting: at the last ply the legal
/// moves are counted, not played). `board` is restored before returning.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal_moves(),
        _ => {
            let moves = board.legal_moves();
            let mut nodes = 0;
            for &m in moves.iter() {
                board.make(m);
                nodes += perft(board, depth - 1);
                board.unmake();
            }
            nodes
        }
    }
}

/// Perft split by root move: each legal move with the leaf count below it (`depth - 1` plies).
/// Empty for depth 0.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = board.legal_moves();
    moves
        .iter()
        .map(|&m| {
            board.make(m);
            let n = perft(board, depth - 1);
            board.unmake();
            (m, n)
        })
        .collect()
}
