//! Static-evaluation correction history: how far the search's result has recently differed
//! from the static evaluation in positions with the same pawn structure. The evaluation misjudges
//! some structures systematically (a blocked centre, a weak pawn it cannot see), and the search
//! keeps finding out; remembering the error per pawn structure corrects the next static eval
//! that pruning decisions depend on.
//!
//! With `nonpawn` on, two more tables do the same per arrangement of each colour's pieces other
//! than pawns (king included): an error the evaluation makes about a piece set-up, whatever the
//! pawns and the other side's pieces do, is learnt there.

use crate::board::Board;
use crate::types::Color;

/// Entries per side to move (a power of two: the pawn key's low bits index it).
const SIZE: usize = 16_384;
/// Fixed-point scale of an entry: `GRAIN` units are one centipawn.
const GRAIN: i32 = 256;
/// Denominator of the update weight.
const WEIGHT_SCALE: i32 = 256;
/// Largest correction, in entry units (32 centipawns).
const MAX: i32 = GRAIN * 32;

/// The learnt evaluation error per (side to move, pawn structure), and per (side to move,
/// non-pawn pieces of one colour).
pub struct CorrectionHistory {
    table: Box<[[i32; SIZE]; 2]>,
    /// Indexed by the colour whose pieces key it, then as `table`.
    nonpawn: Box<[[[i32; SIZE]; 2]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: Box::new([[0; SIZE]; 2]),
            nonpawn: Box::new([[[0; SIZE]; 2]; 2]),
        }
    }
}

/// Index of `board`'s non-pawn key of `color`.
#[inline]
fn nonpawn_slot(board: &Board, color: Color) -> usize {
    board.nonpawn_key(color) as usize & (SIZE - 1)
}

/// An entry moved towards `error` (in entry units) with `weight` / `WEIGHT_SCALE`.
#[inline]
fn blend(entry: &mut i32, error: i32, weight: i32) {
    *entry = ((*entry * (WEIGHT_SCALE - weight) + error * weight) / WEIGHT_SCALE).clamp(-MAX, MAX);
}

impl CorrectionHistory {
    fn slot(&self, board: &Board) -> (usize, usize) {
        (
            board.side_to_move().index(),
            board.pawn_key() as usize & (SIZE - 1),
        )
    }

    /// `raw` (the static evaluation of `board`, side to move's view) corrected by what the
    /// search learnt about its pawn structure.
    /// With `nonpawn`, the two non-pawn entries add half their sum.
    #[inline]
    pub fn correct(&self, board: &Board, raw: i32, nonpawn: bool) -> i32 {
        let (side, idx) = self.slot(board);
        let mut c = self.table[side][idx];
        if nonpawn {
            let w = self.nonpawn[0][side][nonpawn_slot(board, Color::White)];
            let b = self.nonpawn[1][side][nonpawn_slot(board, Color::Black)];
            c += (w + b) / 2;
        }
        raw + c / GRAIN
    }

    /// A search of `depth` found `score` where the static evaluation said `raw`: move the entry
    /// towards that error, faster for deeper (more reliable) searches.
    /// With `nonpawn`, the non-pawn entries learn the same error.
    pub fn update(&mut self, board: &Board, depth: i32, raw: i32, score: i32, nonpawn: bool) {
        let (side, idx) = self.slot(board);
        let weight = (depth + 1).min(16);
        let error = (score - raw).clamp(-MAX / GRAIN, MAX / GRAIN) * GRAIN;
        blend(&mut self.table[side][idx], error, weight);
        if nonpawn {
            for color in [Color::White, Color::Black] {
                let e = &mut self.nonpawn[color.index()][side][nonpawn_slot(board, color)];
                blend(e, error, weight);
            }
        }
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        *self.table = [[0; SIZE]; 2];
        *self.nonpawn = [[[0; SIZE]; 2]; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let mut ch = CorrectionHistory::default();
        let board = Board::startpos();
        assert_eq!(ch.correct(&board, 10, false), 10);
        for _ in 0..200 {
            ch.update(&board, 10, 0, 20, false);
        }
        // Converges towards the observed error (+20) without overshooting it.
        let c = ch.correct(&board, 0, false);
        assert!((18..=20).contains(&c), "{c}");
        // A huge error saturates at the 32 cp cap, in both directions.
        for _ in 0..500 {
            ch.update(&board, 10, 0, 5000, false);
        }
        let c = ch.correct(&board, 0, false);
        assert!((30..=32).contains(&c), "{c}");
        for _ in 0..500 {
            ch.update(&board, 10, 0, -5000, false);
        }
        let c = ch.correct(&board, 0, false);
        assert!((-32..=-30).contains(&c), "{c}");
        // The other side to move has its own entries.
        let black =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(ch.correct(&black, 0, false), 0);
        ch.clear();
        assert_eq!(ch.correct(&board, 7, false), 7);
    }

    #[test]
    fn nonpawn_entries_generalise_over_the_pawns_and_stay_off_unless_asked() {
        let mut ch = CorrectionHistory::default();
        let board = Board::startpos();
        for _ in 0..200 {
            ch.update(&board, 10, 0, 20, true);
        }
        // Pawn entry and the two non-pawn entries all near +20: the sum is pawn + half of both.
        let c = ch.correct(&board, 0, true);
        assert!((36..=40).contains(&c), "{c}");
        assert!((18..=20).contains(&ch.correct(&board, 0, false)));
        // Same pieces, other pawns: only the non-pawn entries apply.
        let other = Board::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
            .unwrap();
        let c = ch.correct(&other, 0, true);
        assert!((18..=20).contains(&c), "{c}");
        assert_eq!(ch.correct(&other, 0, false), 0);
        ch.clear();
        assert_eq!(ch.correct(&board, 5, true), 5);
    }
}
