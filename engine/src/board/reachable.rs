//! The rules a set-up position must keep to have arisen in a game: material a side can have
//! (16 pieces, 8 pawns, promoted pieces only for missing pawns) and checks a last move can give.
//! The FEN reader applies them, so the rest of the engine (move lists, SEE's swap list, the
//! evaluation's piece counts) may rely on at most 16 pieces a side. shakmaty applies the same
//! rules (`TOO_MUCH_MATERIAL`, `IMPOSSIBLE_CHECK`) but one, and a test holds the two readers
//! together: shakmaty also refuses two pieces checking from both sides of the king along one
//! line, which no move can give, but the published perft suites hold such a position
//! (`B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1` in perftsuite.epd and others), so the engine takes it;
//! move generation and search handle it like any double check.

use super::{Board, FenError};
use crate::types::{Bitboard, Color, PieceType, Square};

/// The light squares (b1, a2, ...): a bishop never leaves its square colour.
const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

/// How many pieces of each kind a side starts with (pawn, knight, bishop, rook, queen, king).
/// Bishops are counted per square colour: one light and one dark.
const START_COUNT: [u32; 6] = [8, 2, 2, 2, 1, 1];

impl Board {
    /// The material rules for `color`: at most 16 pieces, at most 8 pawns, and no more pieces
    /// beyond the starting set than pawns that are missing (each one a promoted pawn).
    pub(super) fn check_material(&self, color: Color) -> Result<(), FenError> {
        let count = self.by_color(color).count();
        if count > 16 {
            return Err(FenError::TooManyPieces { color, count });
        }
        let pawns = self.pieces(color, PieceType::Pawn).count();
        if pawns > START_COUNT[PieceType::Pawn.index()] {
            return Err(FenError::TooManyPawns {
                color,
                count: pawns,
            });
        }
        let bishops = self.pieces(color, PieceType::Bishop);
        let beyond = |n: u32, start: u32| n.saturating_sub(start);
        let promoted = [PieceType::Knight, PieceType::Rook, PieceType::Queen]
            .iter()
            .map(|&k| beyond(self.pieces(color, k).count(), START_COUNT[k.index()]))
            .sum::<u32>()
            + beyond((bishops & LIGHT_SQUARES).count(), 1)
            + beyond((bishops - LIGHT_SQUARES).count(), 1);
        if pawns + promoted > 8 {
            return Err(FenError::TooManyPromoted {
                color,
                promoted,
                missing_pawns: 8 - pawns,
            });
        }
        Ok(())
    }

    /// The checks on the side to move that one move could have given: at most two checkers,
    /// never two that step (pawn, knight); after a double pawn step (`en_passant` set) only the
    /// pawn itself, or one slider it uncovered.
    pub(super) fn check_checkers(&self, en_passant: Option<Square>) -> Result<(), FenError> {
        let checkers = self.checkers;
        let count = checkers.count();
        if count == 0 {
            return Ok(());
        }
        if count > 2 {
            return Err(FenError::TooManyCheckers(count));
        }
        let steppers = self.by_kind(PieceType::Pawn) | self.by_kind(PieceType::Knight);
        if (checkers & steppers).count() > 1 {
            return Err(FenError::ImpossibleCheck(
                "two pawns or knights give check at once",
            ));
        }
        if let Some(ep) = en_passant {
            // The pawn that just made the double step: where it stands and where it came from.
            let (to, from) = match self.side {
                Color::White => (Square::new(ep.file(), 4), Square::new(ep.file(), 6)),
                Color::Black => (Square::new(ep.file(), 3), Square::new(ep.file(), 1)),
            };
            if count > 1 {
                return Err(FenError::ImpossibleCheck(
                    "two pieces give check right after a double pawn step",
                ));
            }
            let king = self.king_square(self.side);
            let before = self.occupied().without(to).with(from);
            if checkers.lsb() != to && self.is_attacked_by(!self.side, king, before) {
                return Err(FenError::ImpossibleCheck(
                    "the check was there before the double pawn step the en passant square names",
                ));
            }
        }
        Ok(())
    }
}
