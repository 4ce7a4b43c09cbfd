//! Singular extensions with multi-cut, as Ethereal 12 keeps them cheap (its `moveIsSingular`):
//! a TT move whose alternatives all fail well below its score at half depth is searched a ply
//! deeper; when the alternatives beat a bound at or above beta, the node is cut instead.

use super::history::piece_to;
use super::movepick::{is_tactical, MovePicker};
use super::node_kind::NodeKind;
use super::score::{is_decisive, INFINITY, MATE, MAX_PLY};
use super::tt::{Bound, TtHit};
use super::{params, Searcher};
use crate::board::Board;

impl Searcher {
    /// The singular test of the TT move (Ethereal 12's `moveIsSingular`): every other move is
    /// searched at about half depth on a zero window just below the TT score less the depth.
    /// If all fail low, the TT move is singular and earns a ply; if one fails high and the
    /// lowered bound is still at or above beta, several moves beat beta and the node is cut
    /// (multi-cut). Kept cheap as Ethereal keeps it: after `SINGULAR_QUIETS` quiet moves the
    /// remaining quiets are skipped, and after `SINGULAR_TACTICALS` tactical moves as well the
    /// test ends (the alternatives left are the least likely to refute).
    /// `depth` and `ply` are the node's, `h` its TT entry (a candidate by [`singular_candidate`]).
    pub(super) fn singular(
        &mut self,
        board: &mut Board,
        depth: i32,
        ply: usize,
        beta: i32,
        h: TtHit,
    ) -> Singular {
        let s_beta = (h.score - params::singular_margin() * depth).max(-MATE);
        let depth = depth / 2 - 1;
        // Ordered as the node's own moves. The TT move is yielded first and skipped: the
        // picker leaves it out of the later stages.
        let prev = self.moves[ply - 1];
        let mut picker =
            MovePicker::new(board, h.mv, self.killers.get(ply), self.counters.get(prev))
                .with_continuation(self.contexts(ply))
                .with_threats(self.threats[ply]);
        let (mut quiets, mut tacticals) = (0, 0);
        let mut score = -INFINITY;
        while let Some(mv) = picker.next(board, &self.history) {
            if mv == h.mv {
                continue;
            }
            let quiet = !is_tactical(board, mv);
            if quiet && quiets >= SINGULAR_QUIETS {
                continue;
            }
            let key = piece_to(board, mv);
            self.make(board, mv, ply);
            self.moves[ply] = mv;
            self.moved[ply] = key;
            self.quiet[ply] = quiet;
            score = -self.negamax(
                board,
                depth,
                ply + 1,
                -s_beta - 1,
                -s_beta,
                NodeKind::after_move(true),
            );
            board.unmake();
            if self.stopped || score > s_beta {
                break;
            }
            if quiet {
                quiets += 1;
            } else {
                tacticals += 1;
            }
            if quiets >= SINGULAR_QUIETS && tacticals >= SINGULAR_TACTICALS {
                break;
            }
        }
        if self.stopped {
            Singular::No
        } else if score > s_beta {
            if s_beta >= beta {
                Singular::Cut(s_beta)
            } else {
                Singular::No
            }
        } else if ply < MAX_PLY / 2 {
            Singular::Extend
        } else {
            Singular::No
        }
    }
}

/// Quiet alternatives the singular test searches before it skips the other quiets.
const SINGULAR_QUIETS: usize = 6;
/// Tactical alternatives searched, once the quiets are skipped, before the test ends.
const SINGULAR_TACTICALS: usize = 3;

/// The singular test's verdict on the TT move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Singular {
    /// Every alternative failed low: search the TT move one ply deeper.
    Extend,
    /// An alternative beat a bound at or above beta: the node fails high with this score.
    Cut(i32),
    /// Neither.
    No,
}

/// Whether the TT move of this node is tested for singularity: deep enough to pay for the
/// test, the TT's score a lower bound (or exact) from a search nearly as deep, and not a mate
/// score (the margin below it would mean nothing). Not at the root (the root's moves are
/// ranked by the iterations themselves).
pub(super) fn singular_candidate(depth: i32, ply: usize, h: TtHit) -> bool {
    ply > 0
        && depth >= params::singular_depth()
        && h.depth >= depth - 2
        && matches!(h.bound, Bound::Lower | Bound::Exact)
        && !is_decisive(h.score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Move;

    /// The verdict on `tt` (scored `tt_score`, a lower bound) at a node of depth 10 one ply
    /// below the root, with this `beta`.
    fn verdict(fen: &str, tt: &str, tt_score: i32, beta: i32) -> Singular {
        let mut board = Board::from_fen(fen).unwrap();
        let mv = board.parse_uci_move(tt).unwrap();
        let mut searcher = Searcher::new(16);
        searcher.set_root(&board);
        searcher.psq[1] = searcher.psq[0];
        searcher.moves[0] = Move::NULL;
        let h = TtHit {
            mv,
            score: tt_score,
            eval: 0,
            depth: 10,
            bound: Bound::Lower,
        };
        assert!(singular_candidate(10, 1, h));
        searcher.singular(&mut board, 10, 1, beta, h)
    }

    #[test]
    fn the_only_recapture_is_singular() {
        // Rxd5 wins the queen; every other move leaves White a queen for a rook down.
        let fen = "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1";
        assert_eq!(verdict(fen, "d1d5", 300, 400), Singular::Extend);
    }

    #[test]
    fn several_good_moves_cut_above_beta_and_do_nothing_below() {
        // In the opening d4, Nf3, c4 are about as good as e4: not singular. Against a beta
        // well below the lowered bound they prove the node fails high (multi-cut).
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(verdict(start, "e2e4", 0, -50), Singular::Cut(-10));
        assert_eq!(verdict(start, "e2e4", 0, 50), Singular::No);
    }

    #[test]
    fn shallow_nodes_upper_bounds_and_the_root_are_not_tested() {
        let h = TtHit {
            mv: Move::NULL,
            score: 0,
            eval: 0,
            depth: 10,
            bound: Bound::Lower,
        };
        assert!(singular_candidate(10, 1, h));
        assert!(!singular_candidate(params::singular_depth() - 1, 1, h));
        assert!(!singular_candidate(10, 0, h));
        assert!(!singular_candidate(13, 1, h), "TT entry too shallow");
        let upper = TtHit {
            bound: Bound::Upper,
            ..h
        };
        assert!(!singular_candidate(10, 1, upper));
        let mate = TtHit {
            score: MATE - 5,
            ..h
        };
        assert!(!singular_candidate(10, 1, mate));
    }
}
