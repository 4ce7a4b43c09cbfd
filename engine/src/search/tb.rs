//! The search's use of the Syzygy tables (Stockfish's scheme): WDL probes at nodes just after a
//! capture or pawn move, and at the root the moves ranked by the tables so that only those
//! that keep the best result are searched.
//!
//! With no `SyzygyPath` set, `tb_cardinality` is 0 and the whole of this costs the search one
//! well-predicted comparison per node (`negamax`), and in the move loop a test of the ply
//! before the root filter.

use super::score::{Score, DRAW, TB_WIN};
use super::tt::{Bound, TtHit};
use super::Searcher;
use crate::board::Board;
use crate::tablebase::root::{self, RootScore};
use crate::tablebase::Tablebases;
use crate::types::Move;
use std::sync::Arc;

/// The tablebase options of UCI, with Stockfish's names, meanings and defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbConfig {
    /// `SyzygyProbeDepth`: least depth at which positions with as many pieces as the probe
    /// limit are probed in the search (fewer pieces are probed at any depth).
    pub probe_depth: i32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses are draws.
    pub rule50: bool,
    /// `SyzygyProbeLimit`: most pieces of a position probed (0 = no probes).
    pub probe_limit: u32,
}

impl Default for TbConfig {
    fn default() -> TbConfig {
        TbConfig {
            probe_depth: 1,
            rule50: true,
            probe_limit: 7,
        }
    }
}

/// The root position is in the tables: the moves that keep its result, and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TbRoot {
    /// The moves of the best rank, in the move generator's order.
    pub moves: Vec<Move>,
    /// Their score by the tables (internal units).
    pub score: i32,
}

/// What a probe inside the search tells the node.
pub(super) enum TbProbe {
    /// The node's score: return it.
    Cut(i32),
    /// At a PV node, a score the node cannot do worse than (a tablebase win).
    Floor(i32),
    /// At a PV node, a score the node cannot do better than (a tablebase loss or draw).
    Ceiling(i32),
}

impl Searcher {
    /// Use these tables from the next search on (`None`: no tables).
    pub fn set_tablebases(&mut self, tb: Option<Arc<Tablebases>>) {
        self.tb = tb;
    }

    /// Use these tablebase options from the next search on.
    pub fn set_tb_config(&mut self, config: TbConfig) {
        self.tb_config = config;
    }

    /// Before a search of `board`: the probe limits of this search, and the root moves kept by
    /// the tables when the root is in them (those probes count as tbhits).
    pub(super) fn prepare_tablebases(&mut self, board: &mut Board) {
        self.tbhits = 0;
        self.tb_cardinality = 0;
        self.tb_root = None;
        let Some(tb) = self.tb.clone() else {
            return;
        };
        let config = self.tb_config;
        let mut cardinality = config.probe_limit.min(tb.max_pieces());
        // Stockfish: a limit above the largest tables probes every table at any depth.
        self.tb_probe_depth = if config.probe_limit > tb.max_pieces() {
            0
        } else {
            config.probe_depth
        };
        self.tb_rule50 = config.rule50;
        if board.occupied().count() <= cardinality {
            if let Some(ranking) = root::rank(&tb, board, config.rule50) {
                self.count_tbhits(ranking.probes);
                let score = match ranking.score() {
                    RootScore::Win => TB_WIN,
                    RootScore::Loss => -TB_WIN,
                    RootScore::Cp(cp) => cp,
                };
                // With DTZ at the root the ranking already keeps the result; probing below
                // would only hide which of the kept moves makes progress. With WDL alone,
                // probes still help a winning side find the conversion.
                if ranking.by_dtz || score <= DRAW {
                    cardinality = 0;
                }
                self.tb_root = Some(TbRoot {
                    moves: ranking.best_moves(),
                    score,
                });
            }
        }
        self.tb_cardinality = cardinality;
    }

    /// A helper thread takes the main thread's tablebase state for this search (the root is
    /// ranked once).
    pub(super) fn follow_tablebases(&mut self, main: &Searcher) {
        self.tbhits = 0;
        self.tb_cardinality = main.tb_cardinality;
        self.tb_probe_depth = main.tb_probe_depth;
        self.tb_rule50 = main.tb_rule50;
        self.tb_root = main.tb_root.clone();
    }

    /// Whether the root move `mv` is searched: all are, unless the tables keep only some.
    #[inline]
    pub(super) fn root_allowed(&self, mv: Move) -> bool {
        self.tb_root.as_ref().is_none_or(|r| r.moves.contains(&mv))
    }

    /// The first move to fall back on before any iteration completes.
    pub(super) fn first_root_move(&self, legal: Option<Move>) -> Option<Move> {
        match &self.tb_root {
            Some(r) => r.moves.first().copied(),
            None => legal,
        }
    }

    /// The score `info` shows: the tables' verdict on the root while the search finds no mate
    /// (Stockfish's rule), else the search's own.
    pub(super) fn shown(&self, score: Score) -> Score {
        match (&self.tb_root, score) {
            (Some(r), Score::Cp(_)) => Score::from_internal(r.score),
            _ => score,
        }
    }

    /// Count `n` successful probes, in the pool's total too when there is one.
    pub(super) fn count_tbhits(&mut self, n: u64) {
        self.tbhits += n;
        if let Some(shared) = &self.shared {
            shared.add_tbhits(n);
        }
    }

    /// Tablebase hits of every thread of this search so far.
    pub(super) fn total_tbhits(&self) -> u64 {
        match &self.shared {
            None => self.tbhits,
            Some(shared) => shared.tbhits(),
        }
    }

    /// The WDL probe of a node below the root, where it pays: just after a capture or pawn
    /// move (halfmove clock 0, where the WDL tables are exact), no castling rights, few enough
    /// pieces, and deep enough when the position has as many pieces as the limit. A decisive
    /// or drawn result that settles the window ends the node (and goes to the TT, deep, since
    /// no search will ever improve on it); at a PV node one that does not still bounds the
    /// node's score from one side.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probe_tablebases(
        &mut self,
        board: &Board,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        in_check: bool,
        hit: Option<TtHit>,
    ) -> Option<TbProbe> {
        let pieces = board.occupied().count();
        if pieces > self.tb_cardinality
            || (pieces == self.tb_cardinality && depth < self.tb_probe_depth)
            || board.halfmove_clock() != 0
            || !board.castling().is_empty()
        {
            return None;
        }
        let wdl = self.tb.as_ref()?.probe_wdl(board)?;
        self.count_tbhits(1);
        // With the fifty-move rule, cursed wins and blessed losses (±1) are draws, scored ±2 so
        // the side that would win without the rule still prefers them to dead draws.
        let draw = self.tb_rule50 as i32;
        let wdl = wdl as i32;
        let ply_score = ply as i32;
        let (score, bound) = if wdl < -draw {
            (-TB_WIN + ply_score, Bound::Upper)
        } else if wdl > draw {
            (TB_WIN - ply_score, Bound::Lower)
        } else {
            (DRAW + 2 * wdl * draw, Bound::Exact)
        };
        let settled = match bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            _ => score <= alpha,
        };
        if settled {
            let eval = if in_check {
                0
            } else {
                hit.map_or_else(|| self.static_eval(board, ply), |h| h.eval)
            };
            let depth = (depth + 6).min(super::score::MAX_PLY as i32 - 1);
            self.tt
                .store(board.key(), ply, Move::NULL, score, eval, depth, bound);
            return Some(TbProbe::Cut(score));
        }
        if beta - alpha > 1 {
            return Some(if bound == Bound::Lower {
                TbProbe::Floor(score)
            } else {
                TbProbe::Ceiling(score)
            });
        }
        None
    }
}
