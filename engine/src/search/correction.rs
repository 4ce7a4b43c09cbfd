//! Static-evaluation correction history: how far the search's result has recently differed
//! from the static evaluation in positions with the same pawn structure. The evaluation misjudges
//! some structures systematically (a blocked centre, a weak pawn it cannot see), and the search
//! keeps finding out; remembering the error per pawn structure corrects the next static eval
//! that pruning decisions depend on.

use crate::board::Board;

/// Entries per side to move (a power of two: the pawn key's low bits index it).
const SIZE: usize = 16_384;
/// Fixed-point scale of an entry: `GRAIN` units are one centipawn.
const GRAIN: i32 = 256;
/// Denominator of the update weight.
const WEIGHT_SCALE: i32 = 256;
/// Largest correction, in entry units (32 centipawns).
const MAX: i32 = GRAIN * 32;

/// The learnt evaluation error per (side to move, pawn structure).
pub struct CorrectionHistory {
    table: Box<[[i32; SIZE]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: Box::new([[0; SIZE]; 2]),
        }
    }
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
    #[inline]
    pub fn correct(&self, board: &Board, raw: i32) -> i32 {
        let (side, idx) = self.slot(board);
        raw + self.table[side][idx] / GRAIN
    }

    /// A search of `depth` found `score` where the static evaluation said `raw`: move the entry
    /// towards that error, faster for deeper (more reliable) searches.
    pub fn update(&mut self, board: &Board, depth: i32, raw: i32, score: i32) {
        let (side, idx) = self.slot(board);
        let weight = (depth + 1).min(16);
        let error = (score - raw).clamp(-MAX / GRAIN, MAX / GRAIN) * GRAIN;
        blend(&mut self.table[side][idx], error, weight);
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        *self.table = [[0; SIZE]; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let mut ch = CorrectionHistory::default();
        let board = Board::startpos();
        assert_eq!(ch.correct(&board, 10), 10);
        for _ in 0..200 {
            ch.update(&board, 10, 0, 20);
        }
        // Converges towards the observed error (+20) without overshooting it.
        let c = ch.correct(&board, 0);
        assert!((18..=20).contains(&c), "{c}");
        // A huge error saturates at the 32 cp cap, in both directions.
        for _ in 0..500 {
            ch.update(&board, 10, 0, 5000);
        }
        let c = ch.correct(&board, 0);
        assert!((30..=32).contains(&c), "{c}");
        for _ in 0..500 {
            ch.update(&board, 10, 0, -5000);
        }
        let c = ch.correct(&board, 0);
        assert!((-32..=-30).contains(&c), "{c}");
        // The other side to move has its own entries.
        let black =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(ch.correct(&black, 0), 0);
        ch.clear();
        assert_eq!(ch.correct(&board, 7), 7);
    }
}
