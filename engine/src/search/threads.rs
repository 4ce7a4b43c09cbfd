//! Lazy SMP: a pool of searchers that search the same root at once and share only the
//! transposition table (and the node count). Helpers start their iterations at staggered
//! depths, so the table fills with work the main thread can use; the main thread keeps the
//! clock, decides when everyone stops and which thread's move is played (its own, or a
//! helper's that completed a deeper iteration with a better score).
//!
//! With one thread the pool is the main searcher alone: no helper thread exists and the search
//! is exactly the single-threaded one (same nodes, same `bench`).

use super::shared_nodes::SharedNodes;
use super::{Limits, Reporter, Score, SearchResult, Searcher, TbConfig};
use crate::board::Board;
use crate::eval::Params;
use crate::tablebase::Tablebases;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Which depths helper `index` (0 for the first helper) skips: the first two helpers take
/// every other depth (odd and even), the next four every other pair of depths at four phases,
/// and so on, so that helpers spread over the depths just ahead of the main thread.
fn skips(index: usize, depth: i32) -> bool {
    const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = index % SIZE.len();
    ((depth + PHASE[i]) / SIZE[i]) % 2 == 1
}

impl Searcher {
    /// Called when the node count reaches `node_limit`: true when the search must stop for
    /// nodes. Alone, the limit is the `go nodes` limit itself; with helpers this thread adds
    /// its new nodes to the shared total and sets its next checkpoint, closer as the total
    /// nears the limit, so all threads together overshoot it by a few nodes at most.
    #[cold]
    #[inline(never)]
    pub(super) fn node_checkpoint(&mut self) -> bool {
        let Some(shared) = &self.shared else {
            return true;
        };
        let step = shared.add(self.nodes - self.synced);
        self.synced = self.nodes;
        match step {
            None => true,
            Some(step) => {
                self.node_limit = self.nodes + step;
                false
            }
        }
    }

    /// Nodes searched by every thread of this search so far (this thread's exactly, the
    /// others' up to their last checkpoint).
    pub(super) fn total_nodes(&self) -> u64 {
        match &self.shared {
            None => self.nodes,
            Some(shared) => shared.total() + self.nodes - self.synced,
        }
    }

    /// Add this thread's last nodes to the shared total (at the end of its search).
    pub(super) fn flush_nodes(&mut self) {
        if let Some(shared) = &self.shared {
            shared.add(self.nodes - self.synced);
            self.synced = self.nodes;
        }
    }

    /// A helper's iterative deepening, without reports or clock, until the pool stops it or
    /// the depth limit is reached: it fills the shared TT, and publishes each iteration it
    /// completes in `completed` for the main thread's choice of move.
    fn help(&mut self, board: &mut Board, limits: &Limits, index: usize, completed: &Slot) {
        let (result, max_depth) = self.begin(board, limits);
        // A helper's result is optional: it may stop at any node, even in its first iteration.
        self.can_stop = true;
        let mut prev = 0;
        if !result.best_move.is_null() {
            for depth in 1..=max_depth {
                if skips(index, depth) && depth < max_depth {
                    continue;
                }
                self.seldepth = 0;
                let score = self.aspiration(board, depth, prev);
                if self.stopped {
                    break;
                }
                prev = score;
                let pv = self.pv[0][..self.pv_len[0]].to_vec();
                *lock(completed) = Some(Completed { depth, score, pv });
            }
        }
        self.flush_nodes();
    }
}

/// A thread's last completed iteration: its depth, internal score and principal variation.
#[derive(Clone, Debug)]
struct Completed {
    depth: i32,
    score: i32,
    pv: Vec<Move>,
}

/// Where a helper publishes its last completed iteration (written once per iteration).
type Slot = Mutex<Option<Completed>>;

/// The slot's value even if a helper panicked while holding it (its panic is raised anyway
/// when the pool joins it).
fn lock(slot: &Slot) -> std::sync::MutexGuard<'_, Option<Completed>> {
    slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The move the pool plays: the main thread's, unless a helper completed a deeper iteration
/// with a better score (Stockfish 8's rule): a deeper search that also scores higher has seen
/// what the main thread's shallower one missed. `main_score` is the main result's internal
/// score.
fn choose(mut result: SearchResult, main_score: i32, helpers: &[Completed]) -> SearchResult {
    let best = helpers
        .iter()
        .filter(|c| c.depth > result.depth && c.score > main_score && !c.pv.is_empty())
        .max_by_key(|c| (c.depth, c.score));
    if let Some(c) = best {
        result.best_move = c.pv[0];
        result.pv = c.pv.clone();
        result.depth = c.depth;
        result.score = Score::from_internal(c.score);
    }
    result
}

/// The searchers of `Threads`: the main one and `Threads - 1` helpers, sharing one TT. `uci`
/// starts a search with [`ThreadPool::search`] and stops it with the flag of
/// [`ThreadPool::stop_flag`].
pub struct ThreadPool {
    main: Searcher,
    helpers: Vec<Searcher>,
    /// The helpers' stop flag, raised by the pool once the main thread has finished.
    helper_stop: Arc<AtomicBool>,
}

impl ThreadPool {
    /// One thread with a TT of `hash_mb` megabytes and the default evaluation weights.
    pub fn new(hash_mb: usize) -> ThreadPool {
        ThreadPool {
            main: Searcher::new(hash_mb),
            helpers: Vec::new(),
            helper_stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Searching threads, the main one included.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Search with `n` threads (at least one) from now on. New helpers start with empty
    /// histories and the main searcher's weights.
    pub fn set_threads(&mut self, n: usize) {
        let helpers = n.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            let mut h = Searcher::with_tt(Arc::clone(&self.main.tt));
            h.set_params(self.main.params.clone());
            h.tb = self.main.tb.clone();
            h.tb_config = self.main.tb_config;
            h.stop = Arc::clone(&self.helper_stop);
            self.helpers.push(h);
        }
    }

    /// The main searcher (the one that searches alone with one thread).
    pub fn main(&self) -> &Searcher {
        &self.main
    }

    /// The flag that aborts a running search when set (from another thread); see
    /// [`Searcher::stop_flag`]. Raising it stops the main thread, which then stops the helpers.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.main.stop_flag()
    }

    /// Use these evaluation weights in every thread from now on.
    pub fn set_params(&mut self, params: Params) {
        for h in &mut self.helpers {
            h.set_params(params.clone());
        }
        self.main.set_params(params);
    }

    /// The evaluation weights in use.
    pub fn params(&self) -> &Params {
        self.main.params()
    }

    /// The time kept in reserve per move (UCI `Move Overhead`).
    pub fn move_overhead(&self) -> Duration {
        self.main.move_overhead()
    }

    /// Keep `overhead` in reserve per move from now on (only the main thread reads the clock).
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.main.set_move_overhead(overhead);
    }

    /// Use these Syzygy tables in every thread from the next search on (`None`: none).
    pub fn set_tablebases(&mut self, tb: Option<Arc<Tablebases>>) {
        for h in &mut self.helpers {
            h.set_tablebases(tb.clone());
        }
        self.main.set_tablebases(tb);
    }

    /// The Syzygy tables in use, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.main.tb.as_ref()
    }

    /// Use these tablebase options in every thread from the next search on.
    pub fn set_tb_config(&mut self, config: TbConfig) {
        for h in &mut self.helpers {
            h.set_tb_config(config);
        }
        self.main.set_tb_config(config);
    }

    /// The tablebase options in use.
    pub fn tb_config(&self) -> TbConfig {
        self.main.tb_config
    }

    /// Forget everything learnt (TT and every thread's histories): a new game.
    pub fn clear(&mut self) {
        self.main.clear();
        for h in &mut self.helpers {
            h.clear_tables();
        }
    }

    /// Replace the shared TT by an empty one of `mb` megabytes.
    pub fn resize_tt(&mut self, mb: usize) {
        self.main.resize_tt(mb);
        for h in &mut self.helpers {
            h.tt = Arc::clone(&self.main.tt);
        }
    }

    /// Search `board` within `limits` on every thread, reporting the main thread's completed
    /// iterations. Once the main thread has stopped (limits, clock or stop flag) it chooses the
    /// move (its own, or a helper's deeper and better completed iteration, see [`choose`]):
    /// `reporter.finished` gets it at once, and the search returns it (with the `nodes` of
    /// every thread) after the helpers have stopped too. Announcing the move before joining the
    /// helpers keeps their exit (a scheduler's delay on a busy machine) off the clock.
    pub fn search(
        &mut self,
        board: &mut Board,
        limits: &Limits,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        if self.helpers.is_empty() {
            let result = self.main.search(board, limits, reporter);
            reporter.finished(&result);
            return result;
        }
        let shared = Arc::new(SharedNodes::new(limits.nodes, self.threads()));
        self.main.shared = Some(Arc::clone(&shared));
        for h in &mut self.helpers {
            h.shared = Some(Arc::clone(&shared));
        }
        self.helper_stop.store(false, Ordering::SeqCst);
        self.main.tt.new_search();
        // The root is ranked by the tables once, by the main thread, before anyone searches.
        self.main.prepare_tablebases(board);
        for h in &mut self.helpers {
            h.follow_tablebases(&self.main);
        }
        let main = &mut self.main;
        let helper_stop = &self.helper_stop;
        let slots: Vec<Slot> = self.helpers.iter().map(|_| Mutex::new(None)).collect();
        let mut result = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .helpers
                .iter_mut()
                .zip(&slots)
                .enumerate()
                .map(|(i, (h, slot))| {
                    let mut b = board.clone();
                    scope.spawn(move || h.help(&mut b, limits, i, slot))
                })
                .collect();
            let (result, main_score) = main.deepen(board, limits, reporter);
            helper_stop.store(true, Ordering::SeqCst);
            // What the helpers have completed by now; iterations they finish later are not
            // waited for.
            let completed: Vec<Completed> = slots.iter().filter_map(|s| lock(s).clone()).collect();
            let mut result = choose(result, main_score, &completed);
            result.score = main.shown(result.score);
            reporter.finished(&result);
            for h in handles {
                h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            }
            result
        });
        for s in std::iter::once(&mut self.main).chain(&mut self.helpers) {
            s.shared = None;
        }
        result.nodes = shared.total();
        result.tbhits = shared.tbhits();
        result
    }
}

impl Default for ThreadPool {
    fn default() -> Self {
        ThreadPool::new(16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn main_result(depth: i32, mv: Move) -> SearchResult {
        SearchResult {
            best_move: mv,
            score: Score::from_internal(30),
            depth,
            seldepth: depth,
            nodes: 0,
            tbhits: 0,
            pv: vec![mv],
            hashfull: 0,
        }
    }

    fn helper(depth: i32, score: i32, mv: Move) -> Completed {
        Completed {
            depth,
            score,
            pv: vec![mv],
        }
    }

    #[test]
    fn a_helper_is_followed_only_when_deeper_and_better() {
        let board = Board::startpos();
        let [a, b, c, d] =
            ["e2e4", "d2d4", "g1f3", "c2c4"].map(|m| board.parse_uci_move(m).unwrap());
        let main = || main_result(10, a);
        // Deeper but worse, better but not deeper: the main thread's move.
        assert_eq!(choose(main(), 30, &[helper(11, 20, b)]).best_move, a);
        assert_eq!(choose(main(), 30, &[helper(10, 90, b)]).best_move, a);
        assert_eq!(choose(main(), 30, &[helper(11, 30, b)]).best_move, a);
        // Deeper and better: the helper's move, depth, score and PV.
        let r = choose(main(), 30, &[helper(11, 20, b), helper(11, 45, c)]);
        assert_eq!(
            (r.best_move, r.depth, r.score, r.pv),
            (c, 11, Score::from_internal(45), vec![c])
        );
        // Of several, the deepest.
        let r = choose(main(), 30, &[helper(12, 31, d), helper(11, 90, c)]);
        assert_eq!(r.best_move, d);
        // No helper result at all.
        assert_eq!(choose(main(), 30, &[]).best_move, a);
    }
}
