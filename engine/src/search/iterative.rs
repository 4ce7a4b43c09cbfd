//! Iterative deepening: one aspiration-window search a depth, until the limits or the clock's
//! judgement of the search's stability stop it; a search stopped inside an iteration keeps what
//! that iteration already proved.

use super::alphabeta::root_slot;
use super::node_kind::NodeKind;
use super::score::{is_decisive, Score, INFINITY};
use super::time::TimeManager;
use super::{params, Limits, Reporter, SearchResult, Searcher};
use crate::board::Board;
use crate::types::Move;

impl Searcher {
    /// Search `board` within `limits`, reporting each completed iteration. Always returns a
    /// legal move when one exists (the first iteration is never interrupted).
    pub fn search(
        &mut self,
        board: &mut Board,
        limits: &Limits,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        self.tt.new_search();
        self.prepare_tablebases(board);
        self.deepen(board, limits, reporter).0
    }

    /// The main thread's iterative deepening (the TT's generation already advanced): the
    /// result and its internal score.
    pub(super) fn deepen(
        &mut self,
        board: &mut Board,
        limits: &Limits,
        reporter: &mut dyn Reporter,
    ) -> (SearchResult, i32) {
        let time = TimeManager::new(limits, board.side_to_move(), self.move_overhead);
        let (mut result, max_depth) = self.begin(board, limits);
        self.time = Some(time);
        if result.best_move.is_null() {
            return (result, 0);
        }
        let mut prev = 0;
        let mut stable_iterations = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            self.iteration_best = Move::NULL;
            let score = self.aspiration(board, depth, prev);
            if self.stopped {
                self.adopt_unfinished(&mut result);
                break;
            }
            prev = score;
            self.can_stop = true;
            result.depth = depth;
            result.seldepth = self.seldepth as i32;
            result.nodes = self.total_nodes();
            result.tbhits = self.total_tbhits();
            result.score = self.shown(Score::from_internal(score));
            result.pv = self.pv[0][..self.pv_len[0]].to_vec();
            result.hashfull = self.tt.hashfull();
            if let Some(&first) = result.pv.first() {
                stable_iterations = if first == result.best_move {
                    stable_iterations + 1
                } else {
                    0
                };
                result.best_move = first;
            }
            reporter.iteration(&result, time.elapsed());
            let scale = self.time_scale(depth, stable_iterations, result.best_move);
            if self.should_stop() || time.soft_expired_scaled(scale) || mate_found(limits, score) {
                break;
            }
        }
        self.flush_nodes();
        result.nodes = self.total_nodes();
        result.tbhits = self.total_tbhits();
        (result, prev)
    }

    /// A search stopped inside an iteration plays that iteration's best root move when one
    /// was searched in full and beat the window (at a fail high, the move that failed high):
    /// it was proved better than what the last completed iteration knew. Depth and score stay
    /// the completed iteration's.
    fn adopt_unfinished(&self, result: &mut SearchResult) {
        let mv = self.iteration_best;
        if mv.is_null() || mv == result.best_move {
            return;
        }
        result.best_move = mv;
        result.pv = if self.pv_len[0] > 0 && self.pv[0][0] == mv {
            self.pv[0][..self.pv_len[0]].to_vec()
        } else {
            vec![mv]
        };
    }

    /// How much of the soft time limit to use after an iteration: more while the best move
    /// keeps changing or shares the nodes with other moves, less once it is settled. Shallow
    /// iterations say too little to judge by.
    fn time_scale(&self, depth: i32, stable_iterations: usize, best: Move) -> f64 {
        const STABILITY: [f64; 5] = [1.8, 1.35, 1.1, 0.9, 0.75];
        if depth < 6 || self.nodes == 0 {
            return 1.0;
        }
        let stability = STABILITY[stable_iterations.min(STABILITY.len() - 1)];
        let best_share = self.root_nodes[root_slot(best)] as f64 / self.nodes as f64;
        stability * (1.6 - best_share.min(1.0)) * 1.4
    }

    /// One iteration: a narrow window around the last score, widened by half on each failure
    /// (Ethereal 12's `aspirationWindow`). After a fail high the re-search goes one ply
    /// shallower per fail high (never below 1, back to full depth after a fail low): the
    /// deeper search already found the move that beats the window, and the shallower one
    /// settles its score for less. The depth reported for the iteration stays `depth`.
    pub(super) fn aspiration(&mut self, board: &mut Board, depth: i32, prev: i32) -> i32 {
        let mut delta = params::aspiration();
        let (mut alpha, mut beta) = if depth >= 5 && !is_decisive(prev) {
            (prev - delta, prev + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        let mut search_depth = depth;
        loop {
            let score = self.negamax(board, search_depth.max(1), 0, alpha, beta, NodeKind::PV);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                search_depth = depth;
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                // Not after a mate score: a shallower search may not see the mate again.
                if !is_decisive(score) {
                    search_depth -= 1;
                }
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }
}

/// True if `go mate N` is satisfied by this score.
fn mate_found(limits: &Limits, score: i32) -> bool {
    match (limits.mate, Score::from_internal(score)) {
        (Some(n), Score::Mate(p)) if p > 0 => (p + 1) / 2 <= n as i32,
        _ => false,
    }
}
