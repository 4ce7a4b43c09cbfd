//! What the search teaches its move-ordering tables as it goes: a cut-off's bonus and the
//! malus of the quiet moves tried before it, the prior counter-move bonus of a node where every
//! move failed low, and the eval swing of a quiet move. The tables themselves are in
//! `history.rs`; when each lesson is given is decided in `alphabeta.rs`.

use super::history::{bonus, piece_to};
use super::score::INFINITY;
use super::Searcher;
use crate::board::Board;
use crate::types::{Move, MoveList};

impl Searcher {
    /// The move that led to the node at `ply`, if it was a quiet one (not a capture, a
    /// promotion or a null move, and not above the root): the only kind these lessons teach.
    fn previous_quiet(&self, ply: usize) -> Option<Move> {
        let p = ply.checked_sub(1)?;
        let mv = self.moves[p];
        (self.quiet[p] && !mv.is_null()).then_some(mv)
    }

    /// The previous move was quiet and both its node and this one have a static eval: how much
    /// the eval swung for the side that played it teaches that move's history (Stockfish's
    /// eval-difference history). A move after which the mover's eval fell is a poorer move
    /// than its history says, one after which it rose a better one.
    pub(super) fn learn_from_eval_swing(&mut self, board: &Board, ply: usize, static_eval: i32) {
        const PER_CP: i32 = 50;
        const LIMIT: i32 = 1800;
        let Some(mv) = self.previous_quiet(ply) else {
            return;
        };
        let before = self.evals[ply - 1];
        if before == -INFINITY {
            return;
        }
        // `before` is the mover's view, `static_eval` ours: their sum is the mover's loss.
        let bonus = (-PER_CP * (before + static_eval)).clamp(-LIMIT, LIMIT);
        let mover = !board.side_to_move();
        self.history.update(mover, self.threats[ply - 1], mv, bonus);
    }

    /// A quiet move caused a cut-off: make it a killer, raise its history, lower the history of
    /// the quiet moves tried before it.
    pub(super) fn reward_quiet(
        &mut self,
        board: &Board,
        mv: Move,
        depth: i32,
        ply: usize,
        contexts: [u16; 2],
        tried: &MoveList,
    ) {
        let us = board.side_to_move();
        self.killers.add(ply, mv);
        let b = bonus(depth);
        let threats = self.threats[ply];
        self.history.update(us, threats, mv, b);
        self.history
            .update_continuation(contexts, piece_to(board, mv), b);
        for &q in tried.iter() {
            self.history.update(us, threats, q, -b);
            self.history
                .update_continuation(contexts, piece_to(board, q), -b);
        }
    }

    /// Every move of this node failed low: the opponent's quiet move that led here refuted
    /// our previous move, so it earns the history bonus of a cut-off in its own node
    /// (Stockfish's prior counter-move bonus).
    pub(super) fn reward_prior_quiet(&mut self, board: &Board, depth: i32, ply: usize) {
        let Some(mv) = self.previous_quiet(ply) else {
            return;
        };
        let b = bonus(depth);
        self.history
            .update(!board.side_to_move(), self.threats[ply - 1], mv, b);
        let contexts = self.contexts(ply - 1);
        self.history
            .update_continuation(contexts, self.moved[ply - 1], b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Bitboard, Color};

    /// White has played the quiet `g1f3` from the start position, its eval there `before`
    /// (White's view); Black's eval after it is `after` (Black's view). White's history of
    /// the move once the eval swing is learnt.
    fn history_after_swing(before: i32, after: i32, quiet: bool) -> i32 {
        let mut board = Board::startpos();
        let mv = board.parse_uci_move("g1f3").unwrap();
        let mut searcher = Searcher::new(1);
        searcher.evals[0] = before;
        searcher.moves[0] = mv;
        searcher.quiet[0] = quiet;
        board.make(mv);
        searcher.learn_from_eval_swing(&board, 1, after);
        searcher.history.get(Color::White, Bitboard::EMPTY, mv)
    }

    /// White has played `g1f3` (quiet or not, as `quiet` says) and every Black move failed low
    /// at depth 6: White's butterfly and continuation history of the move afterwards.
    fn history_after_prior_reward(quiet: bool) -> (i32, i32) {
        let mut board = Board::startpos();
        let mv = board.parse_uci_move("g1f3").unwrap();
        let key = piece_to(&board, mv);
        let mut searcher = Searcher::new(1);
        searcher.moves[0] = mv;
        searcher.moved[0] = key;
        searcher.quiet[0] = quiet;
        board.make(mv);
        searcher.reward_prior_quiet(&board, 6, 1);
        let contexts = searcher.contexts(0);
        (
            searcher.history.get(Color::White, Bitboard::EMPTY, mv),
            searcher.history.continuation(contexts, key),
        )
    }

    #[test]
    fn a_quiet_move_that_refuted_every_reply_earns_a_cut_offs_bonus() {
        // At the root the move has no continuation context: its butterfly history alone grows,
        // by exactly a cut-off's bonus at that depth (from zero, gravity takes nothing off).
        assert_eq!(history_after_prior_reward(true), (bonus(6), 0));
        // A capture (or a null move) is not rewarded.
        assert_eq!(history_after_prior_reward(false), (0, 0));
    }

    #[test]
    fn the_eval_swing_of_a_quiet_move_teaches_its_history() {
        // The mover's eval fell from +50 to -30 (Black sees +30): a worse move than thought.
        assert!(history_after_swing(50, 30, true) < 0);
        // It rose from -20 to +40 (Black sees -40): a better one.
        assert!(history_after_swing(-20, -40, true) > 0);
        // A larger swing teaches more, up to the limit.
        assert!(history_after_swing(5, 10, true) > history_after_swing(5, 20, true));
        assert_eq!(
            history_after_swing(50, 30, true),
            history_after_swing(100, 100, true)
        );
        // No swing, no lesson; a capture, a null move or a node in check teaches nothing.
        assert_eq!(history_after_swing(25, -25, true), 0);
        assert_eq!(history_after_swing(50, 30, false), 0);
        assert_eq!(history_after_swing(-INFINITY, 30, true), 0);
    }
}
