//! The engine's board as a shakmaty `Chess` position, built from the bitboards (no FEN text),
//! because shakmaty-syzygy probes shakmaty positions. The square numbering is the same on both
//! sides (a1 = 0 .. h8 = 63, little-endian rank-file), so every bitboard is copied as it is.

use crate::board::Board;
use crate::types::{Color, PieceType};
use shakmaty::{
    Bitboard, ByColor, ByRole, CastlingMode, Chess, FromSetup, PositionError, Setup, Square,
};
use std::num::NonZeroU32;

/// `board` as a shakmaty position, or `None` if shakmaty finds it illegal. A check that no
/// legal game can reach (two knights giving check at once) is let through: the engine's board
/// accepts such a FEN and the tables still know the position, so it is probed like any other.
/// Castling rights are carried over in Chess960 terms (castling rooks by square), which also
/// covers standard chess; the en passant square is the engine's, which it keeps only when a
/// pawn could capture there.
pub fn to_chess(board: &Board) -> Option<Chess> {
    let kind = |k: PieceType| Bitboard(board.by_kind(k).0);
    let by_role = ByRole {
        pawn: kind(PieceType::Pawn),
        knight: kind(PieceType::Knight),
        bishop: kind(PieceType::Bishop),
        rook: kind(PieceType::Rook),
        queen: kind(PieceType::Queen),
        king: kind(PieceType::King),
    };
    let by_color = ByColor {
        white: Bitboard(board.by_color(Color::White).0),
        black: Bitboard(board.by_color(Color::Black).0),
    };
    let mut setup = Setup::empty();
    setup.board = shakmaty::Board::try_from_bitboards(by_role, by_color).ok()?;
    setup.turn = match board.side_to_move() {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    };
    if !board.castling().is_empty() {
        setup.castling_rights = castling_rooks(board);
    }
    setup.ep_square = board.en_passant().map(|sq| Square::new(sq.index() as u32));
    setup.halfmoves = board.halfmove_clock();
    setup.fullmoves = NonZeroU32::new(board.fullmove_number()).unwrap_or(NonZeroU32::MIN);
    Chess::from_setup(setup, CastlingMode::Chess960)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
}

/// The squares of the rooks that still have a castling right.
fn castling_rooks(board: &Board) -> Bitboard {
    let mut rooks = 0u64;
    for color in [Color::White, Color::Black] {
        for king_side in [true, false] {
            if let Some(sq) = board.castling_rook_square(color, king_side) {
                rooks |= 1 << sq.index();
            }
        }
    }
    Bitboard(rooks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{EnPassantMode, Position};

    /// The FEN shakmaty writes for the converted board equals the FEN shakmaty writes after
    /// parsing the same text itself: pieces, side, castling, en passant and counters all survive
    /// the bitboard conversion.
    #[test]
    fn conversion_matches_shakmatys_own_parse() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 10",
            "8/8/8/3pP3/8/8/8/K6k w - d6 0 2",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 7 40",
            "8/8/8/8/B7/N7/K2k4/8 b - - 0 1",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let ours = to_chess(&board).expect("legal");
            let theirs: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap();
            assert_eq!(
                Fen::from_position(&ours, EnPassantMode::Legal).to_string(),
                Fen::from_position(&theirs, EnPassantMode::Legal).to_string(),
                "{fen}"
            );
            assert_eq!(
                ours.legal_moves().len(),
                theirs.legal_moves().len(),
                "{fen}"
            );
        }
    }
}
