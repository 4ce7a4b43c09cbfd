//! Static-evaluation correction history: how far the search's result has recently differed
//! from the static evaluation in positions with the same pawn structure, and with the same
//! placement of one side's other pieces. The evaluation misjudges some structures
//! systematically (a blocked centre, a weak pawn, a misplaced piece it cannot see), and the
//! search keeps finding out; remembering the error per part of the position corrects the next
//! static eval that pruning decisions depend on (Stockfish's pawn and non-pawn correction
//! histories).

use crate::board::Board;
use crate::types::{Color, PieceType};

/// Entries per side to move (a power of two: the pawn key's low bits index it).
const SIZE: usize = 16_384;
/// Fixed-point scale of an entry: `GRAIN` units are one centipawn.
const GRAIN: i32 = 256;
/// Denominator of the update weight.
const WEIGHT_SCALE: i32 = 256;
/// Largest correction, in entry units (32 centipawns).
const MAX: i32 = GRAIN * 32;

/// The learnt evaluation error per (side to move, pawn structure) and per (side to move, one
/// colour's pieces other than pawns), the king included.
pub struct CorrectionHistory {
    pawn: Box<[[i32; SIZE]; 2]>,
    /// By the colour whose pieces key the entry, then side to move.
    non_pawn: Box<[[[i32; SIZE]; 2]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: Box::new([[0; SIZE]; 2]),
            non_pawn: Box::new([[[0; SIZE]; 2]; 2]),
        }
    }
}

/// An entry moved towards `error` (in entry units) with `weight` / `WEIGHT_SCALE`.
#[inline]
fn blend(entry: &mut i32, error: i32, weight: i32) {
    *entry = ((*entry * (WEIGHT_SCALE - weight) + error * weight) / WEIGHT_SCALE).clamp(-MAX, MAX);
}

/// A hash of where `color`'s knights, bishops, rooks, queens and king stand. The board keeps no
/// Zobrist key of these, so `make` stays as it was; a rare collision only shares a correction.
#[inline]
fn non_pawn_key(board: &Board, color: Color) -> usize {
    use PieceType::*;
    let mut h = color.index() as u64;
    for kind in [Knight, Bishop, Rook, Queen, King] {
        h = (h ^ board.pieces(color, kind).0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    (h >> 32) as usize & (SIZE - 1)
}

/// The table slots of a position: side to move, pawn structure, each colour's other pieces.
struct Slots {
    side: usize,
    pawn: usize,
    non_pawn: [usize; 2],
}

impl CorrectionHistory {
    fn slots(board: &Board) -> Slots {
        Slots {
            side: board.side_to_move().index(),
            pawn: board.pawn_key() as usize & (SIZE - 1),
            non_pawn: [
                non_pawn_key(board, Color::White),
                non_pawn_key(board, Color::Black),
            ],
        }
    }

    /// The correction of a position, in entry units: the sum of its three entries, at most
    /// twice what one entry may hold.
    fn sum(&self, s: &Slots) -> i32 {
        (self.pawn[s.side][s.pawn]
            + self.non_pawn[0][s.side][s.non_pawn[0]]
            + self.non_pawn[1][s.side][s.non_pawn[1]])
            .clamp(-2 * MAX, 2 * MAX)
    }

    /// `raw` (the static evaluation of `board`, side to move's view) corrected by what the
    /// search learnt about its pawn structure and about each side's other pieces.
    #[inline]
    pub fn correct(&self, board: &Board, raw: i32) -> i32 {
        raw + self.sum(&Self::slots(board)) / GRAIN
    }

    /// A search of `depth` found `score` where the static evaluation said `raw`: each entry
    /// learns what the corrected eval still missed (the three sum to the correction, so each
    /// moves towards its own value plus the shared residual), faster for deeper searches.
    pub fn update(&mut self, board: &Board, depth: i32, raw: i32, score: i32) {
        let s = Self::slots(board);
        let weight = (depth + 1).min(16);
        let corrected = raw + self.sum(&s) / GRAIN;
        let residual = (score - corrected).clamp(-MAX / GRAIN, MAX / GRAIN) * GRAIN;
        let learn = |entry: &mut i32| blend(entry, *entry + residual, weight);
        learn(&mut self.pawn[s.side][s.pawn]);
        learn(&mut self.non_pawn[0][s.side][s.non_pawn[0]]);
        learn(&mut self.non_pawn[1][s.side][s.non_pawn[1]]);
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.pawn.iter_mut().for_each(|t| t.fill(0));
        self.non_pawn.iter_mut().flatten().for_each(|t| t.fill(0));
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
        // A huge error saturates at the 64 cp cap, in both directions.
        for _ in 0..500 {
            ch.update(&board, 10, 0, 5000);
        }
        let c = ch.correct(&board, 0);
        assert!((62..=64).contains(&c), "{c}");
        for _ in 0..500 {
            ch.update(&board, 10, 0, -5000);
        }
        let c = ch.correct(&board, 0);
        assert!((-64..=-62).contains(&c), "{c}");
        // The other side to move has its own entries.
        let black =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(ch.correct(&black, 0), 0);
        ch.clear();
        assert_eq!(ch.correct(&board, 7), 7);
    }

    /// A correction learnt in one position carries to another in its parts: one that shares
    /// only White's pieces (other pawns, Black's knight elsewhere) gets White's entry alone,
    /// a third of the learnt error; one that shares nothing gets none.
    #[test]
    fn each_part_of_a_position_carries_its_share() {
        let mut ch = CorrectionHistory::default();
        let learnt = Board::from_fen("4k1n1/pp6/8/8/8/8/PP6/4K1N1 w - - 0 1").unwrap();
        for _ in 0..300 {
            ch.update(&learnt, 10, 0, 30);
        }
        assert!((28..=30).contains(&ch.correct(&learnt, 0)));
        let white_shared = Board::from_fen("4kn2/1p6/8/8/8/8/P7/4K1N1 w - - 0 1").unwrap();
        let c = ch.correct(&white_shared, 0);
        assert!((8..=11).contains(&c), "{c}");
        let nothing_shared = Board::from_fen("3k1n2/1p6/8/8/8/8/P7/3K2N1 w - - 0 1").unwrap();
        assert_eq!(ch.correct(&nothing_shared, 0), 0);
    }
}
