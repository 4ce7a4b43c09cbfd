//! Search: iterative deepening with aspiration windows around a negamax PVS alpha-beta,
//! quiescence search, SEE, a staged move picker, a transposition table and time management.
//!
//! The selectivity features are plain code, not switches: each was measured when it came in
//! (docs/search.md), and a change to one is measured as its own binary against the current
//! one with the harness's `sprt`. Their numbers are SPSA parameters ([`params`]).

mod alphabeta;
pub mod correction;
pub mod history;
mod iterative;
mod lessons;
pub mod limits;
mod lmr;
pub mod movepick;
mod node_kind;
pub mod params;
mod qsearch;
pub mod score;
pub mod see;
mod shared_nodes;
mod singular;
mod tb;
mod threads;
pub mod time;
pub mod tt;

pub use limits::Limits;
pub use score::Score;
pub use tb::TbConfig;
pub use threads::ThreadPool;

use crate::board::Board;
use crate::eval::{Params, PawnCache, S};
use crate::tablebase::Tablebases;
use crate::types::{Bitboard, Move};
use correction::CorrectionHistory;
use history::{CounterMoves, History, Killers};
use score::{DRAW, MAX_PLY};
use shared_nodes::SharedNodes;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use time::TimeManager;
use tt::TranspositionTable;

/// The outcome of a search (or of one completed iteration, as given to a [`Reporter`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `Move::NULL` only when the position has no legal move.
    pub best_move: Move,
    /// Score from the side to move's view.
    pub score: Score,
    /// Last completed iteration depth.
    pub depth: i32,
    /// Deepest ply reached (including quiescence).
    pub seldepth: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Successful tablebase probes so far (root moves included), all threads.
    pub tbhits: u64,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// TT occupancy in per mille when the iteration ended (UCI `hashfull`).
    pub hashfull: u32,
}

/// Receives the search's progress, one call per completed iteration.
pub trait Reporter {
    /// An iteration finished (`info` holds its result) after `elapsed` since the search began.
    fn iteration(&mut self, _info: &SearchResult, _elapsed: Duration) {}

    /// [`ThreadPool::search`] has its result (`nodes` may still miss a few of the helpers'
    /// last nodes): the move can be announced now, while the helper threads wind down.
    fn finished(&mut self, _result: &SearchResult) {}
}

/// A reporter that ignores everything (tests, data generation).
pub struct NoReport;

impl Reporter for NoReport {}

/// The searcher: owns the ordering tables and evaluation weights across searches, and shares
/// the TT with the other searchers of a [`ThreadPool`] (the TT is its own when it searches
/// alone).
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    history: History,
    killers: Killers,
    counters: CounterMoves,
    correction: CorrectionHistory,
    params: Params,
    /// The pawn-and-king terms under `params`, by pawn structure and king squares.
    pawn_cache: PawnCache,
    /// Time kept in reserve per move for the GUI and communication (UCI `Move Overhead`).
    move_overhead: Duration,
    stop: Arc<AtomicBool>,
    /// The node count of all threads, when this searcher is one of several in a search.
    shared: Option<Arc<SharedNodes>>,
    /// The Syzygy tables (`SyzygyPath`), shared by all threads; `None` when unset.
    tb: Option<Arc<Tablebases>>,
    /// The tablebase options (`SyzygyProbeDepth`, `Syzygy50MoveRule`, `SyzygyProbeLimit`).
    tb_config: TbConfig,
    // Per-search state.
    nodes: u64,
    /// The node count at which `should_stop` looks further: the `go nodes` limit alone, or the
    /// next time this thread adds its count to `shared` and checks the total against it.
    node_limit: u64,
    /// How many of `nodes` have been added to `shared`.
    synced: u64,
    seldepth: usize,
    stopped: bool,
    can_stop: bool,
    time: Option<TimeManager>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    keys: [u64; MAX_PLY + 1],
    /// Static eval of each ply on the current path (`-INFINITY` when in check).
    evals: [i32; MAX_PLY + 1],
    /// The move played at each ply of the current path (`Move::NULL` for a null move).
    moves: [Move; MAX_PLY + 1],
    /// The continuation key (piece, to) of each of those moves (`NO_CONTEXT` for a null move).
    moved: [u16; MAX_PLY + 1],
    /// Whether each of those moves was quiet (false for a null move).
    quiet: [bool; MAX_PLY + 1],
    /// The squares the opponent attacks at each ply of the current path whose moves were
    /// searched: the threats its quiet moves' history is read and taught by.
    threats: [Bitboard; MAX_PLY + 1],
    /// The material and piece-square sum of the position at each ply of the current line.
    psq: [S; MAX_PLY + 1],
    /// Nodes spent below each root move (by from * 64 + to) in this search, for time management.
    root_nodes: Box<[u64; 4096]>,
    /// The last root move of the current iteration whose search finished and raised alpha:
    /// the iteration's best so far, played if the search stops before the iteration ends.
    iteration_best: Move,
    /// Most pieces of a position probed in this search; 0 = no probes (no tables, or the root
    /// already ranked by DTZ), which is all the search checks when there are no tables.
    tb_cardinality: u32,
    /// Least depth to probe positions with `tb_cardinality` pieces in this search.
    tb_probe_depth: i32,
    /// `Syzygy50MoveRule` for this search.
    tb_rule50: bool,
    /// When the root is in the tables: the root moves kept and the tables' score.
    tb_root: Option<tb::TbRoot>,
    /// Successful probes by this thread in this search.
    tbhits: u64,
}

impl Searcher {
    /// A searcher with a TT of `hash_mb` megabytes and the default evaluation weights.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::with_tt(Arc::new(TranspositionTable::new(hash_mb)))
    }

    /// A searcher on a TT shared with others, with the default evaluation weights.
    fn with_tt(tt: Arc<TranspositionTable>) -> Searcher {
        Searcher {
            tt,
            history: History::default(),
            killers: Killers::default(),
            counters: CounterMoves::default(),
            correction: CorrectionHistory::default(),
            params: Params::default(),
            pawn_cache: PawnCache::default(),
            move_overhead: time::DEFAULT_MOVE_OVERHEAD,
            stop: Arc::new(AtomicBool::new(false)),
            shared: None,
            tb: None,
            tb_config: TbConfig::default(),
            nodes: 0,
            node_limit: u64::MAX,
            synced: 0,
            seldepth: 0,
            stopped: false,
            can_stop: false,
            time: None,
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            keys: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 1],
            moves: [Move::NULL; MAX_PLY + 1],
            moved: [history::NO_CONTEXT; MAX_PLY + 1],
            threats: [Bitboard::EMPTY; MAX_PLY + 1],
            psq: [S::ZERO; MAX_PLY + 1],
            quiet: [false; MAX_PLY + 1],
            root_nodes: Box::new([0; 4096]),
            iteration_best: Move::NULL,
            tb_cardinality: 0,
            tb_probe_depth: 1,
            tb_rule50: true,
            tb_root: None,
            tbhits: 0,
        }
    }

    /// Use these evaluation weights from now on.
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
        self.pawn_cache.clear();
    }

    /// The evaluation weights in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Forget everything learnt (TT, history, killers): a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.clear_tables();
    }

    /// Forget what this searcher learnt besides the TT (which may be shared).
    fn clear_tables(&mut self) {
        self.history.clear();
        self.killers.clear();
        self.counters.clear();
        self.correction.clear();
    }

    /// Replace the TT by an empty one of `mb` megabytes.
    pub fn resize_tt(&mut self, mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(mb));
    }

    /// The time kept in reserve per move (UCI `Move Overhead`).
    pub fn move_overhead(&self) -> Duration {
        self.move_overhead
    }

    /// Keep `overhead` in reserve per move from now on.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.move_overhead = overhead;
    }

    /// TT occupancy in per mille (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// The flag that aborts a running search when set (from another thread). The search never
    /// clears it: whoever starts a search that may be stopped clears it first.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// True when the search must unwind now. Node and stop-flag checks are exact (alone; with
    /// helper threads the total is checked every few hundred nodes); the clock is read every
    /// 1024 nodes. Nothing stops the main thread's first iteration, so a move always exists.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if !self.can_stop {
            return false;
        }
        if (self.nodes >= self.node_limit && self.node_checkpoint())
            || self.stop.load(Ordering::Relaxed)
            || (self.nodes & 1023 == 0 && self.time.is_some_and(|t| t.hard_expired()))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The static evaluation of `board`, the position at `ply` (whose material and
    /// piece-square sum `psq[ply]` holds).
    fn static_eval(&mut self, board: &Board, ply: usize) -> i32 {
        crate::eval::evaluate_cached(board, &self.params, &mut self.pawn_cache, self.psq[ply])
    }

    /// Make `mv` on `board` at `ply`, keeping the material and piece-square sum of `ply + 1`.
    #[inline]
    fn make(&mut self, board: &mut Board, mv: Move, ply: usize) {
        self.tt.prefetch(board.key_after(mv));
        self.psq[ply + 1] = self.psq[ply] + crate::eval::psq_delta(board, mv, &self.params);
        board.make(mv);
    }

    /// Start a search tree at `board`: the root's material and piece-square sum.
    fn set_root(&mut self, board: &Board) {
        self.psq[0] = crate::eval::psq(board, &self.params);
    }

    /// A raw static evaluation corrected by the correction history.
    #[inline]
    fn corrected(&self, board: &Board, raw: i32) -> i32 {
        self.correction.correct(board, raw)
    }

    /// Reset the per-search state for a search of `board` within `limits`: the first result
    /// (the first legal move, or the mate or stalemate score when there is none) and the
    /// deepest iteration allowed.
    fn begin(&mut self, board: &Board, limits: &Limits) -> (SearchResult, i32) {
        self.nodes = 0;
        self.synced = 0;
        self.node_limit = match &self.shared {
            None => limits.nodes.unwrap_or(u64::MAX).max(1),
            Some(shared) => shared.first_checkpoint(),
        };
        self.stopped = false;
        self.can_stop = false;
        self.time = None;
        self.killers.clear();
        self.root_nodes.fill(0);
        self.set_root(board);
        let root_moves = board.legal_moves();
        let mut result = SearchResult {
            best_move: self
                .first_root_move(root_moves.get(0))
                .unwrap_or(Move::NULL),
            score: Score::Cp(0),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            tbhits: 0,
            pv: Vec::new(),
            hashfull: 0,
        };
        if root_moves.is_empty() {
            result.score = if board.in_check() {
                Score::Mate(0)
            } else {
                Score::Cp(DRAW)
            };
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        (result, max_depth)
    }

    /// The quiescence-search principal variation from `board` (the tuner resolves quiet leaves
    /// with it): the captures that the search expects to be played, possibly none.
    pub fn quiescence_pv(&mut self, board: &mut Board) -> Vec<Move> {
        self.nodes = 0;
        self.node_limit = u64::MAX;
        self.stopped = false;
        self.can_stop = false;
        self.time = None;
        self.seldepth = 0;
        self.set_root(board);
        self.qsearch(board, 0, -score::INFINITY, score::INFINITY);
        self.pv[0][..self.pv_len[0]].to_vec()
    }
}
