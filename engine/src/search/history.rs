//! Quiet-move ordering memory: killer moves per ply, counter moves and the butterfly history
//! table.

use super::score::MAX_PLY;
use crate::types::{Color, Move, Piece, Square};

/// Largest magnitude a history value reaches (the update is self-limiting towards it).
const HISTORY_MAX: i32 = 16_384;

/// History heuristic: how often a quiet move (by side, from, to) caused a cut-off, minus how
/// often it was tried and failed to.
pub struct History {
    table: Box<[[[i32; 64]; 64]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl History {
    /// The ordering score of a quiet move.
    #[inline]
    pub fn get(&self, c: Color, mv: Move) -> i32 {
        self.table[c.index()][mv.from().index()][mv.to().index()]
    }

    /// Reward (positive) or punish (negative) a move; values decay towards ±HISTORY_MAX so old
    /// information fades instead of saturating.
    pub fn update(&mut self, c: Color, mv: Move, bonus: i32) {
        gravity(
            &mut self.table[c.index()][mv.from().index()][mv.to().index()],
            bonus,
        );
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        *self.table = [[[0; 64]; 64]; 2];
    }
}

/// Add `bonus` to a history entry so that it approaches ±HISTORY_MAX but never passes it.
fn gravity(entry: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// A move as continuation history sees it: the piece that moved and where it went
/// (0..768), or [`ContKey::NONE`] for a null move or the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContKey(usize);

impl ContKey {
    /// No earlier move to continue from.
    pub const NONE: ContKey = ContKey(usize::MAX);
    const COUNT: usize = 12 * 64;

    /// The key of `piece` moving to `to`.
    pub fn new(piece: Piece, to: Square) -> ContKey {
        ContKey(piece.index() * 64 + to.index())
    }
}

/// Continuation history: how often a quiet move (by piece and target square) caused a
/// cut-off right after a given earlier move, indexed by that earlier move's key. One table
/// serves both one and two plies back (the caller looks up both).
pub struct ContinuationHistory {
    table: Box<[i32]>,
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        // On the heap from the start: 2.4 MB would not fit a search thread's stack.
        ContinuationHistory {
            table: vec![0; ContKey::COUNT * ContKey::COUNT].into_boxed_slice(),
        }
    }
}

impl ContinuationHistory {
    /// The score of `cur` after `prev` (0 when there is no `prev`).
    #[inline]
    pub fn get(&self, prev: ContKey, cur: ContKey) -> i32 {
        if prev == ContKey::NONE || cur == ContKey::NONE {
            return 0;
        }
        self.table[prev.0 * ContKey::COUNT + cur.0]
    }

    /// Reward or punish `cur` after `prev` (nothing when there is no `prev`).
    pub fn update(&mut self, prev: ContKey, cur: ContKey, bonus: i32) {
        if prev != ContKey::NONE && cur != ContKey::NONE {
            gravity(&mut self.table[prev.0 * ContKey::COUNT + cur.0], bonus);
        }
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

/// The bonus for a cut-off at this depth.
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16).min(1600)
}

/// Two killer moves per ply: quiet moves that refuted a sibling.
pub struct Killers {
    slots: [[Move; 2]; MAX_PLY + 1],
}

impl Default for Killers {
    fn default() -> Self {
        Killers {
            slots: [[Move::NULL; 2]; MAX_PLY + 1],
        }
    }
}

impl Killers {
    /// The killers of `ply`.
    #[inline]
    pub fn get(&self, ply: usize) -> [Move; 2] {
        self.slots[ply]
    }

    /// Record a refutation at `ply` (newest first, no duplicates).
    pub fn add(&mut self, ply: usize, mv: Move) {
        let s = &mut self.slots[ply];
        if s[0] != mv {
            s[1] = s[0];
            s[0] = mv;
        }
    }

    /// Forget the killers of `ply` (a new subtree starts there).
    pub fn clear_ply(&mut self, ply: usize) {
        self.slots[ply] = [Move::NULL; 2];
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        *self = Killers::default();
    }
}

/// Counter-move heuristic: the quiet move that last refuted each previous move (by its from
/// and to squares).
pub struct CounterMoves {
    table: Box<[[Move; 64]; 64]>,
}

impl Default for CounterMoves {
    fn default() -> Self {
        CounterMoves {
            table: Box::new([[Move::NULL; 64]; 64]),
        }
    }
}

impl CounterMoves {
    /// The recorded reply to `prev` (`Move::NULL` if none, or if `prev` is null).
    #[inline]
    pub fn get(&self, prev: Move) -> Move {
        if prev.is_null() {
            return Move::NULL;
        }
        self.table[prev.from().index()][prev.to().index()]
    }

    /// Record `reply` as the refutation of `prev`.
    pub fn set(&mut self, prev: Move, reply: Move) {
        if !prev.is_null() {
            self.table[prev.from().index()][prev.to().index()] = reply;
        }
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        *self.table = [[Move::NULL; 64]; 64];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn history_is_bounded_and_signed() {
        let mut h = History::default();
        let mv = Move::new(Square::G1, Square::F3);
        for _ in 0..1000 {
            h.update(Color::White, mv, bonus(20));
        }
        assert!(h.get(Color::White, mv) <= HISTORY_MAX);
        assert!(h.get(Color::White, mv) > HISTORY_MAX / 2);
        assert_eq!(h.get(Color::Black, mv), 0);
        h.update(Color::Black, mv, -bonus(3));
        assert!(h.get(Color::Black, mv) < 0);
    }

    #[test]
    fn continuation_history_is_keyed_by_the_earlier_move() {
        let mut ch = ContinuationHistory::default();
        let knight = Piece::new(Color::White, crate::types::PieceType::Knight);
        let bishop = Piece::new(Color::Black, crate::types::PieceType::Bishop);
        let prev = ContKey::new(knight, Square::F3);
        let other = ContKey::new(knight, Square::C3);
        let cur = ContKey::new(bishop, Square::G4);
        for _ in 0..1000 {
            ch.update(prev, cur, bonus(20));
        }
        assert!(ch.get(prev, cur) > HISTORY_MAX / 2 && ch.get(prev, cur) <= HISTORY_MAX);
        assert_eq!(ch.get(other, cur), 0);
        assert_eq!(ch.get(ContKey::NONE, cur), 0);
        ch.update(ContKey::NONE, cur, bonus(20));
        ch.update(other, cur, -bonus(5));
        assert!(ch.get(other, cur) < 0);
        ch.clear();
        assert_eq!(ch.get(prev, cur), 0);
    }

    #[test]
    fn killers_keep_two_newest_distinct() {
        let mut k = Killers::default();
        let a = Move::new(Square::A2, Square::A3);
        let b = Move::new(Square::B2, Square::B3);
        k.add(3, a);
        k.add(3, a);
        k.add(3, b);
        assert_eq!(k.get(3), [b, a]);
        assert_eq!(k.get(4), [Move::NULL; 2]);
    }
}
