//! Quiescence search: resolve captures and promotions until the position is quiet, so the
//! evaluation is never taken in the middle of an exchange.

use super::movepick::mvv_lva;
use super::score::{DRAW, MATE, MAX_PLY};
use super::see::{captured_kind, see, value};
use super::tt::Bound;
use super::Searcher;
use crate::board::Board;
use crate::types::{Move, PieceType};

impl Searcher {
    /// Captures-and-promotions search below the horizon. Stand pat unless in check; in check all
    /// evasions are searched, so a mate at the horizon is seen.
    pub(super) fn qsearch(
        &mut self,
        board: &mut Board,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if board.has_insufficient_material() {
            return DRAW;
        }
        let in_check = board.in_check();
        if ply >= MAX_PLY {
            return if in_check {
                DRAW
            } else {
                self.static_eval(board, ply)
            };
        }
        let pv_node = beta - alpha > 1;
        let key = board.key();
        let hit = self.tt.probe(key, ply);
        if let Some(h) = hit {
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
                Bound::None => false,
            };
            if !pv_node && cut {
                return h.score;
            }
        }
        let tt_move = hit.map_or(Move::NULL, |h| h.mv);
        let orig_alpha = alpha;
        let mut stand_pat = -MATE;
        let mut eval = 0;
        if !in_check {
            eval = hit.map_or_else(|| self.static_eval(board, ply), |h| h.eval);
            stand_pat = self.corrected(board, eval);
            // A TT bound beyond the eval on its side is the better guess (as in the main
            // search's pruning).
            if let Some(h) = hit {
                stand_pat = h.sharpen(stand_pat);
            }
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }
        let mut list = if in_check {
            board.legal_moves()
        } else {
            board.legal_captures()
        };
        if in_check && list.is_empty() {
            return -MATE + ply as i32;
        }
        let n = list.len();
        let mut scores = [0i32; 256];
        for (i, s) in scores.iter_mut().enumerate().take(n) {
            let mv = list[i];
            let tactical = mv.is_promotion() || captured_kind(board, mv).is_some();
            *s = if mv == tt_move {
                1_000_000
            } else if tactical {
                mvv_lva(board, mv) + 100_000
            } else {
                0
            };
        }
        let mut best = stand_pat;
        let mut best_move = Move::NULL;
        for i in 0..n {
            // Selection sort: the best remaining move first, the last of equals. Score and
            // index in one key make it a branch-free maximum (scores stay below 2^22).
            let top = (i..n)
                .map(|j| (scores[j] << 8) | j as i32)
                .max()
                .unwrap_or(0);
            let j = (top & 0xff) as usize;
            list.swap(i, j);
            scores.swap(i, j);
            let mv = list[i];
            if !in_check {
                if mv.promotion().is_some_and(|p| p != PieceType::Queen) {
                    continue;
                }
                let gain = captured_kind(board, mv).map_or(0, value)
                    + mv.promotion()
                        .map_or(0, |p| value(p) - value(PieceType::Pawn));
                if !mv.is_promotion() && stand_pat + gain + super::params::delta_margin() <= alpha {
                    continue;
                }
                if see(board, mv) < 0 {
                    continue;
                }
            }
            self.make(board, mv, ply);
            let score = -self.qsearch(board, ply + 1, -beta, -alpha);
            board.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, best_move, best, eval, 0, bound);
        best
    }

    /// Make `mv` followed by the child's PV the PV of `ply`.
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}
