//! A fixed-capacity list of moves on the stack.

use super::Move;
use std::fmt;

/// The most moves any chess position has is 218; 256 leaves room.
pub const MAX_MOVES: usize = 256;

/// Up to 256 moves in an array on the stack: no heap allocation, so move generation in the
/// search allocates nothing per node.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. A full list ignores further moves (cannot happen for legal positions).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The move at `i`, if any.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<Move> {
        self.as_slice().get(i).copied()
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting by score).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Iterates the moves in order.
    #[inline(always)]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Swaps two moves (for selection sort in move ordering).
    #[inline(always)]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.as_mut_slice().swap(a, b);
    }

    /// Keeps the first `len` moves (all of them if there are fewer).
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Removes all moves.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}
