//! The negamax PVS alpha-beta below iterative deepening (`iterative.rs`), with check
//! extension, singular extension with multi-cut, razoring, null-move pruning, reverse futility,
//! futility pruning (of quiet moves and captures) and LMR (one ply more at expected cut nodes).

use super::history::{piece_to, NO_CONTEXT};
use super::movepick::{is_tactical, MovePicker};
use super::node_kind::NodeKind;
use super::score::{is_decisive, DRAW, INFINITY, MATE, MAX_PLY, TB_BOUND};
use super::see::{captured_kind, see, value};
use super::singular::{singular_candidate, Singular};
use super::tb::TbProbe;
use super::tt::{Bound, TtHit};
use super::{lmr, params, Searcher};
use crate::board::Board;
use crate::movegen::CheckSquares;
use crate::types::{Color, Move, MoveList, PieceType};

impl Searcher {
    /// Negamax alpha-beta with principal variation search. `ply` counts from the root; mate
    /// scores are `MATE - ply` so faster mates score higher. `kind` says whether a null move
    /// is allowed here and whether this is an expected cut node.
    pub(super) fn negamax(
        &mut self,
        board: &mut Board,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        kind: NodeKind,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let in_check = board.in_check();
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(board, ply, alpha, beta);
        }
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        self.keys[ply] = board.key();
        if !root {
            if self.is_draw(board, ply) {
                return DRAW;
            }
            if ply >= MAX_PLY {
                return if in_check {
                    DRAW
                } else {
                    self.static_eval(board, ply)
                };
            }
            // Mate distance pruning: no line from here beats a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let key = board.key();
        let hit = self.tt.probe(key, ply);
        let tt_move = hit.map_or(Move::NULL, |h| h.mv);
        if let Some(h) = hit {
            if !pv_node && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return h.score;
                }
            }
        }
        // Tablebase probe (no tables: one comparison). A PV node that the tables do not settle
        // still cannot score below a tablebase win or above a tablebase loss or draw.
        let (mut tb_floor, mut tb_ceiling) = (-INFINITY, INFINITY);
        if self.tb_cardinality != 0 && !root {
            match self.probe_tablebases(board, depth, ply, alpha, beta, in_check, hit) {
                Some(TbProbe::Cut(score)) => return score,
                Some(TbProbe::Floor(score)) => tb_floor = score,
                Some(TbProbe::Ceiling(score)) => tb_ceiling = score,
                None => {}
            }
        }
        let raw_eval = if in_check {
            -INFINITY
        } else {
            hit.map_or_else(|| self.static_eval(board, ply), |h| h.eval)
        };
        let static_eval = if in_check {
            raw_eval
        } else {
            self.corrected(board, raw_eval)
        };
        self.evals[ply] = static_eval;
        if !in_check {
            self.learn_from_eval_swing(board, ply, static_eval);
        }
        // Improving: our static eval rose since our previous move, so pruning can be bolder
        // when it did not.
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        let eval = match hit {
            Some(h) if !in_check => h.sharpen(static_eval),
            _ => static_eval,
        };
        let mut node = Node {
            depth,
            ply,
            raw_eval,
            static_eval,
            eval,
            improving,
            in_check,
            cut: kind.cut && !pv_node,
            tb_floor,
            tb_ceiling,
        };
        if !pv_node && !in_check {
            if let Some(score) = self.prune_node(board, node, beta, kind.null_ok) {
                return score;
            }
        }
        // Without a TT move the ordering is poor here; a shallower search is cheaper and
        // fills the TT for the next iteration.
        if depth >= params::iir_depth() && tt_move.is_null() {
            node.depth -= 1;
        }
        self.search_moves(board, node, alpha, beta, hit)
    }

    /// Node-level pruning before any move: razoring, reverse futility and null move. `Some(score)` to
    /// return at once.
    fn prune_node(
        &mut self,
        board: &mut Board,
        node: Node,
        beta: i32,
        null_ok: bool,
    ) -> Option<i32> {
        let Node {
            depth,
            ply,
            eval,
            improving,
            ..
        } = node;
        if is_decisive(beta) {
            return None;
        }
        // Razoring (Ethereal 12's): one ply from the leaves and far below alpha, only a
        // capture can bring the score back, and the quiescence search tries every one.
        if depth <= 1 && eval + 325 < beta - 1 {
            return Some(self.qsearch(board, ply, beta - 1, beta));
        }
        // Reverse futility: far above beta near the leaves, the opponent will not catch up.
        if depth <= params::rfp_depth()
            && eval - params::rfp_margin() * (depth - improving as i32) >= beta
        {
            return Some(eval);
        }
        // Null move: if passing still fails high, a real move will too (not with only pawns,
        // where zugzwang is common). Deep cut-offs are verified by a reduced normal search.
        if null_ok && depth >= 3 && eval >= beta && has_pieces(board) {
            let r = params::nmp_base()
                + depth / params::nmp_depth_divisor()
                + ((eval - beta) / params::nmp_eval_divisor()).min(3);
            board.make_null();
            self.psq[ply + 1] = self.psq[ply];
            self.quiet[ply] = false;
            self.moves[ply] = Move::NULL;
            self.moved[ply] = NO_CONTEXT;
            let score = -self.negamax(
                board,
                depth - 1 - r,
                ply + 1,
                -beta,
                -beta + 1,
                NodeKind::after_null(!node.cut),
            );
            board.unmake_null();
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                let score = if score >= TB_BOUND { beta } else { score };
                if depth < params::nmp_verify_depth() {
                    return Some(score);
                }
                let v = self.negamax(
                    board,
                    depth - r,
                    ply,
                    beta - 1,
                    beta,
                    NodeKind::after_null(false),
                );
                if v >= beta {
                    return Some(score);
                }
            }
        }
        None
    }

    /// The move loop of a node: PVS with LMR and futility pruning; stores the result in the TT.
    fn search_moves(
        &mut self,
        board: &mut Board,
        mut node: Node,
        mut alpha: i32,
        beta: i32,
        hit: Option<TtHit>,
    ) -> i32 {
        let tt_move = hit.map_or(Move::NULL, |h| h.mv);
        let Node {
            mut depth,
            ply,
            raw_eval,
            eval,
            in_check,
            ..
        } = node;
        let pv_node = beta - alpha > 1;
        let orig_alpha = alpha;
        alpha = alpha.max(node.tb_floor);
        let us = board.side_to_move();
        let futile = !pv_node
            && !in_check
            && depth <= params::futility_depth()
            && !is_decisive(alpha)
            && eval + params::futility_base() + params::futility_margin() * depth <= alpha;
        let killers = self.killers.get(ply);
        self.killers.clear_ply(ply + 1);
        let prev = if ply > 0 {
            self.moves[ply - 1]
        } else {
            Move::NULL
        };
        let counter = self.counters.get(prev);
        let contexts = self.contexts(ply);
        self.threats[ply] = board.attacks_by(!us);
        let mut picker = MovePicker::new(board, tt_move, killers, counter)
            .with_continuation(contexts)
            .with_threats(self.threats[ply]);
        let mut quiets_tried = MoveList::new();
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        // Built at the second move: a node cut by its first move never needs it.
        let mut checks: Option<CheckSquares> = None;
        let mut considered = 0usize;
        while let Some(mv) = picker.next(board, &self.history) {
            if ply == 0 && !self.root_allowed(mv) {
                continue;
            }
            considered += 1;
            let quiet = !is_tactical(board, mv);
            let gives_check = if considered == 1 {
                board.gives_check(mv)
            } else {
                checks
                    .get_or_insert_with(|| board.check_squares())
                    .gives_check(board, mv)
            };
            if futile && quiet && searched > 0 && !gives_check {
                continue;
            }
            let key = piece_to(board, mv);
            if ply > 0 && best > -TB_BOUND && !in_check && !gives_check {
                if self.late_quiet(node, pv_node, quiet, quiets_tried.len()) {
                    continue;
                }
                if quiet && self.poor_reply(node, contexts, key) {
                    continue;
                }
                if !quiet && !pv_node && self.futile_capture(board, node, mv, alpha) {
                    continue;
                }
                if !picker.last_had_good_see() && self.losing_exchange(board, mv, depth, quiet) {
                    continue;
                }
            }
            let mut extension = 0;
            let candidate = hit.filter(|h| mv == h.mv && singular_candidate(depth, ply, *h));
            if let Some(h) = candidate {
                match self.singular(board, depth, ply, beta, h) {
                    Singular::Extend => extension = 1,
                    Singular::Cut(score) => return score,
                    Singular::No if self.stopped => return 0,
                    Singular::No => {}
                }
            }
            let nodes_before = self.nodes;
            self.make(board, mv, ply);
            self.moves[ply] = mv;
            self.moved[ply] = key;
            self.quiet[ply] = quiet;
            searched += 1;
            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 1 {
                score = -self.negamax(
                    board,
                    new_depth,
                    ply + 1,
                    -beta,
                    -alpha,
                    NodeKind::after_move(!node.cut),
                );
            } else {
                let mut r = 0;
                let late = depth >= 3 && searched > 1 + pv_node as usize;
                if late && quiet {
                    r = lmr::reduction(depth, searched);
                    r += !node.improving as i32;
                    r -= pv_node as i32;
                    r -= (in_check || gives_check) as i32;
                    r += node.cut as i32;
                    r -= (killers.contains(&mv) || mv == counter) as i32;
                    r -= self.history_reduction(us, ply, mv, contexts, key);
                    r = r.clamp(0, new_depth - 1);
                } else if late && !pv_node && !gives_check && !picker.last_had_good_see() {
                    // A capture the picker put late, losing material by SEE: a sacrifice is
                    // searched in full where it matters (PV nodes, checks), reduced elsewhere.
                    r = (lmr::reduction(depth, searched) - 1).clamp(0, new_depth - 1);
                }
                score = -self.negamax(
                    board,
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    NodeKind::after_move(true),
                );
                if score > alpha && r > 0 {
                    score = -self.negamax(
                        board,
                        new_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        NodeKind::after_move(!node.cut),
                    );
                }
                if score > alpha && score < beta {
                    score = -self.negamax(board, new_depth, ply + 1, -beta, -alpha, NodeKind::PV);
                }
            }
            board.unmake();
            if ply == 0 {
                self.root_nodes[root_slot(mv)] += self.nodes - nodes_before;
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.iteration_best = mv;
                    }
                    if alpha >= beta {
                        if quiet {
                            self.reward_quiet(board, mv, depth, ply, contexts, &quiets_tried);
                            self.counters.set(prev, mv);
                        }
                        break;
                    }
                    // A move raised alpha at a shallow PV node: the later moves must beat a
                    // real score, and a ply less is enough to show they do not (Stockfish's).
                    if depth > 1 && depth < 6 && !is_decisive(alpha) && !is_decisive(beta) {
                        depth -= 1;
                        node.depth = depth;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }
        if searched == 0 {
            // Either no legal move (mate or stalemate) or every move was pruned.
            if board.legal_moves().is_empty() {
                return if in_check { -MATE + ply as i32 } else { DRAW };
            }
            return alpha;
        }
        best = best.max(node.tb_floor).min(node.tb_ceiling);
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if bound == Bound::Upper {
            self.reward_prior_quiet(board, depth, ply);
        }
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.tt
            .store(board.key(), ply, best_move, best, stored_eval, depth, bound);
        if !in_check && (best_move.is_null() || !is_tactical(board, best_move)) {
            self.learn_correction(board, node, best, bound);
        }
        best
    }

    /// Teach the correction history the gap between the search's `best` and the static eval,
    /// where the bound says the gap is real (a fail-high above the eval, a fail-low below it).
    fn learn_correction(&mut self, board: &Board, node: Node, best: i32, bound: Bound) {
        let useful = match bound {
            Bound::Lower => best > node.static_eval,
            Bound::Upper => best < node.static_eval,
            _ => true,
        };
        if useful && !is_decisive(best) {
            self.correction
                .update(board, node.depth, node.raw_eval, best);
        }
    }

    /// Late move pruning: at a shallow non-PV node, once enough quiet moves have failed,
    /// the rest (ordered after them by history) are very unlikely to do better.
    fn late_quiet(&self, node: Node, pv_node: bool, quiet: bool, quiets_tried: usize) -> bool {
        quiet
            && !pv_node
            && node.depth <= params::lmp_depth()
            && quiets_tried as i32
                >= (params::lmp_base() + node.depth * node.depth) / (2 - node.improving as i32)
    }

    /// Counter-move and follow-up pruning (Ethereal 12's): near the leaves, a quiet move with a
    /// poor continuation history as the reply to the previous move (or, less strictly, to our
    /// own move before it) is skipped; deeper where the position is not improving.
    fn poor_reply(&self, node: Node, contexts: [u16; 2], key: u16) -> bool {
        const DEPTH: [i32; 2] = [3, 2]; // by `improving`
        const COUNTER_LIMIT: [i32; 2] = [0, -1000];
        const FOLLOW_UP_LIMIT: [i32; 2] = [-2000, -4000];
        let i = node.improving as usize;
        let [counter, follow_up] = self.history.continuation_each(contexts, key);
        node.depth <= DEPTH[i] && (counter < COUNTER_LIMIT[i] || follow_up < FOLLOW_UP_LIMIT[i])
    }

    /// Futility pruning of a capture: near the leaves, where even winning the captured piece
    /// leaves the static eval a futility margin below alpha (Stockfish's).
    fn futile_capture(&self, board: &Board, node: Node, mv: Move, alpha: i32) -> bool {
        if node.depth > params::futility_depth() || mv.is_promotion() || is_decisive(alpha) {
            return false;
        }
        let gain = captured_kind(board, mv).map_or(0, value);
        node.static_eval + params::futility_base() + params::futility_margin() * node.depth + gain
            <= alpha
    }

    /// SEE pruning: near the leaves, a move that loses material by force (more than the depth
    /// allows for) is skipped.
    fn losing_exchange(&self, board: &Board, mv: Move, depth: i32, quiet: bool) -> bool {
        if depth > params::see_depth() {
            return false;
        }
        let margin = if quiet {
            -params::see_quiet_margin() * depth
        } else {
            -params::see_capture_margin() * depth
        };
        see(board, mv) < margin
    }

    /// The continuation contexts of a node at `ply`: the keys of the moves one and two plies
    /// back (`NO_CONTEXT` above the root and after a null move).
    pub(super) fn contexts(&self, ply: usize) -> [u16; 2] {
        let back = |n: usize| ply.checked_sub(n).map_or(NO_CONTEXT, |p| self.moved[p]);
        [back(1), back(2)]
    }

    /// Plies of LMR taken off (or added, when negative) for a quiet move's history: its
    /// butterfly plus its continuation history, over 8192 (the sum of up to three tables).
    fn history_reduction(
        &self,
        us: Color,
        ply: usize,
        mv: Move,
        contexts: [u16; 2],
        key: u16,
    ) -> i32 {
        let history =
            self.history.get(us, self.threats[ply], mv) + self.history.continuation(contexts, key);
        (history / 8192).clamp(-2, 2)
    }
}

impl Searcher {
    /// Draw by rule at a node below the root: a repetition of a position on the search path
    /// (including the root), a position seen twice before in the game, fifty moves, or
    /// insufficient material. Repeating a game position only once is not yet a draw, so the
    /// engine can still play on from it; inside the tree a single repetition already means
    /// the side that could avoid it chose not to.
    fn is_draw(&self, board: &Board, ply: usize) -> bool {
        if board.is_repetition() {
            let key = self.keys[ply];
            let in_tree = (0..ply.saturating_sub(3))
                .rev()
                .step_by(2)
                .any(|i| self.keys[i] == key);
            if in_tree || board.repetition_count() >= 2 {
                return true;
            }
        }
        board.is_fifty_move_draw() || board.has_insufficient_material()
    }
}

/// What the move loop needs to know of its node.
#[derive(Clone, Copy, Debug)]
struct Node {
    depth: i32,
    ply: usize,
    /// The static evaluation as the evaluation function gave it (stored in the TT).
    raw_eval: i32,
    /// The static evaluation after correction.
    static_eval: i32,
    /// The best guess at this node's score that pruning decisions use: `static_eval`, or the
    /// TT's bound where it is tighter.
    eval: i32,
    improving: bool,
    in_check: bool,
    /// An expected cut node (never a PV node).
    cut: bool,
    /// A tablebase win this PV node cannot score below (`-INFINITY` when none).
    tb_floor: i32,
    /// A tablebase loss or draw this PV node cannot score above (`INFINITY` when none).
    tb_ceiling: i32,
}

/// The index of a root move in `Searcher::root_nodes`.
pub(super) fn root_slot(mv: Move) -> usize {
    mv.from().index() * 64 + mv.to().index()
}

/// True if the side to move has a piece other than pawns and king.
fn has_pieces(board: &Board) -> bool {
    let us = board.side_to_move();
    let pawns_kings = board.pieces(us, PieceType::Pawn) | board.pieces(us, PieceType::King);
    (board.by_color(us) & !pawns_kings).any()
}
