//! Move ordering memory: killer moves per ply, counter moves, the butterfly history table of
//! quiet moves (by whether the move leaves and enters an attacked square) and the
//! continuation history of quiet moves after the previous two moves.

use super::score::MAX_PLY;
use crate::board::Board;
use crate::types::{Bitboard, Color, Move};

/// Largest magnitude a history value reaches (the update is self-limiting towards it).
const HISTORY_MAX: i32 = 16_384;

/// History heuristic: how often a quiet move (by side, from, to) caused a cut-off, minus how
/// often it was tried and failed to; kept apart by whether the move's from and to squares are
/// attacked by the opponent (Ethereal's and Stockfish's threat index), since a piece leaving
/// an attacked square and one walking onto one are different moves for the same squares.
pub struct History {
    table: Box<[[[[i32; 64]; 64]; 4]; 2]>,
    /// Continuation history: how good a quiet move (piece, to) has been as a reply to a move
    /// (piece, to) one or two plies earlier, flattened as `[context * PIECE_TO + move]`. One
    /// table serves both distances, as in Stockfish; i16 halves its cache footprint.
    continuation: Box<[i16]>,
}

/// The number of (piece, to-square) keys: 12 pieces times 64 squares.
pub const PIECE_TO: usize = 12 * 64;

/// A continuation context that is absent (the root, or after a null move).
pub const NO_CONTEXT: u16 = u16::MAX;

/// The continuation key (piece, to) of `mv` on `board`, before it is made.
#[inline]
pub fn piece_to(board: &Board, mv: Move) -> u16 {
    board
        .piece_on(mv.from())
        .map_or(NO_CONTEXT, |p| (p.index() * 64 + mv.to().index()) as u16)
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[[[0; 64]; 64]; 4]; 2]),
            continuation: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
        }
    }
}

impl History {
    /// The ordering score of a quiet move of `c` where the opponent attacks `threats`.
    #[inline]
    pub fn get(&self, c: Color, threats: Bitboard, mv: Move) -> i32 {
        self.table[c.index()][threat_index(threats, mv)][mv.from().index()][mv.to().index()]
    }

    /// Reward (positive) or punish (negative) a move; values decay towards ±HISTORY_MAX so old
    /// information fades instead of saturating.
    pub fn update(&mut self, c: Color, threats: Bitboard, mv: Move, bonus: i32) {
        let t = threat_index(threats, mv);
        gravity(
            &mut self.table[c.index()][t][mv.from().index()][mv.to().index()],
            bonus,
        );
    }

    /// The continuation-history score of the quiet move with key `key` (see [`piece_to`]) after
    /// the moves with keys `contexts` (one and two plies back); absent contexts count zero.
    #[inline]
    pub fn continuation(&self, contexts: [u16; 2], key: u16) -> i32 {
        self.continuation_each(contexts, key).iter().sum()
    }

    /// The continuation-history scores of the quiet move with key `key` after the move one
    /// ply back and after the move two plies back, separately (0 for an absent context).
    #[inline]
    pub fn continuation_each(&self, contexts: [u16; 2], key: u16) -> [i32; 2] {
        contexts.map(|c| continuation_slot(c, key).map_or(0, |i| self.continuation[i] as i32))
    }

    /// Reward or punish a quiet move as a reply in each of its present contexts.
    pub fn update_continuation(&mut self, contexts: [u16; 2], key: u16, bonus: i32) {
        for &c in &contexts {
            if let Some(i) = continuation_slot(c, key) {
                let mut entry = self.continuation[i] as i32;
                gravity(&mut entry, bonus);
                self.continuation[i] = entry as i16;
            }
        }
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        *self.table = [[[[0; 64]; 64]; 4]; 2];
        self.continuation.fill(0);
    }
}

/// Which of the four butterfly tables a move's history lives in: whether its from square and
/// whether its to square are attacked.
#[inline]
fn threat_index(threats: Bitboard, mv: Move) -> usize {
    2 * threats.contains(mv.from()) as usize + threats.contains(mv.to()) as usize
}

/// Move a history entry by `bonus`; the larger the entry already is in that direction, the
/// less it moves, so values stay within ±HISTORY_MAX and old information fades.
fn gravity(entry: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// The index of (context, key) in the continuation table, if both are present.
#[inline]
fn continuation_slot(context: u16, key: u16) -> Option<usize> {
    let (c, k) = (context as usize, key as usize);
    (c < PIECE_TO && k < PIECE_TO).then_some(c * PIECE_TO + k)
}

/// The bonus for a cut-off at this depth.
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * super::params::history_bonus()).min(super::params::history_bonus_max())
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
        let none = Bitboard::EMPTY;
        for _ in 0..1000 {
            h.update(Color::White, none, mv, bonus(20));
        }
        assert!(h.get(Color::White, none, mv) <= HISTORY_MAX);
        assert!(h.get(Color::White, none, mv) > HISTORY_MAX / 2);
        assert_eq!(h.get(Color::Black, none, mv), 0);
        h.update(Color::Black, none, mv, -bonus(3));
        assert!(h.get(Color::Black, none, mv) < 0);
    }

    #[test]
    fn a_move_out_of_or_into_an_attack_keeps_its_own_history() {
        let mut h = History::default();
        let mv = Move::new(Square::G1, Square::F3);
        let (none, from, to) = (
            Bitboard::EMPTY,
            Bitboard::from(Square::G1),
            Bitboard::from(Square::F3),
        );
        h.update(Color::White, from, mv, bonus(8));
        h.update(Color::White, to, mv, -bonus(8));
        assert!(h.get(Color::White, from, mv) > 0);
        assert!(h.get(Color::White, to, mv) < 0);
        assert_eq!(h.get(Color::White, none, mv), 0);
        assert_eq!(h.get(Color::White, from | to, mv), 0);
        // Attacks elsewhere on the board do not matter.
        let elsewhere = Bitboard::from(Square::A8) | Bitboard::from(Square::H2);
        assert_eq!(
            h.get(Color::White, from | elsewhere, mv),
            h.get(Color::White, from, mv)
        );
    }

    #[test]
    fn continuation_history_is_per_context_and_bounded() {
        let mut h = History::default();
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").unwrap();
        let reply = piece_to(&board, board.parse_uci_move("g1f3").unwrap());
        let other = piece_to(&board, board.parse_uci_move("g1h3").unwrap());
        let (one, two, unrelated) = (5, 700, 300);
        for _ in 0..1000 {
            h.update_continuation([one, two], reply, bonus(20));
        }
        let both = h.continuation([one, two], reply);
        assert!(both > HISTORY_MAX && both <= 2 * HISTORY_MAX, "{both}");
        assert_eq!(h.continuation([one, NO_CONTEXT], reply), both / 2);
        assert_eq!(h.continuation([unrelated, NO_CONTEXT], reply), 0);
        assert_eq!(h.continuation([one, two], other), 0);
        h.update_continuation([NO_CONTEXT, NO_CONTEXT], reply, -bonus(20));
        assert_eq!(
            h.continuation([one, two], reply),
            both,
            "no context, no update"
        );
        h.update_continuation([two, NO_CONTEXT], reply, -bonus(20));
        assert!(h.continuation([two, NO_CONTEXT], reply) < both / 2);
        h.clear();
        assert_eq!(h.continuation([one, two], reply), 0);
    }

    #[test]
    fn continuation_each_reads_the_two_distances_apart() {
        let mut h = History::default();
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").unwrap();
        let reply = piece_to(&board, board.parse_uci_move("g1f3").unwrap());
        let (counter, follow_up) = (5, 700);
        h.update_continuation([counter, NO_CONTEXT], reply, bonus(10));
        h.update_continuation([NO_CONTEXT, follow_up], reply, -bonus(5));
        let [c, f] = h.continuation_each([counter, follow_up], reply);
        assert!(c > 0 && f < 0, "{c} {f}");
        assert_eq!(c + f, h.continuation([counter, follow_up], reply));
        assert_eq!(h.continuation_each([follow_up, counter], reply), [f, c]);
        assert_eq!(h.continuation_each([NO_CONTEXT, NO_CONTEXT], reply), [0, 0]);
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
