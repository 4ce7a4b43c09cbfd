//! `explain`: the evaluation of one position split by term group, for people.
//!
//! Built on the trace, so the parts add up to `evaluate` exactly (the per-group tapered column
//! is rounded separately and may be off by a centipawn from the total).

use super::params::{Params, BLOCKS};
use super::trace::trace;
use super::{taper, PHASE_MAX, SCALE_MAX};
use crate::board::Board;
use crate::types::Color;
use std::fmt::Write as _;

/// One group's White-minus-Black contribution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupScore {
    /// The group: the first component of the block names (`material`, `king`, ...).
    pub group: &'static str,
    /// Middle-game centipawns.
    pub mg: i32,
    /// End-game centipawns, before the end-game scale.
    pub eg: i32,
}

/// The evaluation of a position by group, White's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// Groups in `BLOCKS` order, each listed once.
    pub groups: Vec<GroupScore>,
    /// Game phase, 0..=24.
    pub phase: i32,
    /// End-game scale out of 128.
    pub scale: i32,
    /// End-game centipawns the complexity term adds to the groups' end-game sum, before the
    /// scale and the taper.
    pub complexity: i32,
    /// The untuned mop-up part.
    pub fixed: i32,
    /// The whole evaluation, White's point of view (equals `evaluate` for White to move).
    pub white: i32,
}

/// Splits `board`'s evaluation under `params` by term group.
pub fn explain(board: &Board, params: &Params) -> Explanation {
    let t = trace(board);
    let mut groups: Vec<GroupScore> = Vec::new();
    for b in BLOCKS {
        let group = Params::group(b.start);
        if !groups.iter().any(|g| g.group == group) {
            groups.push(GroupScore {
                group,
                mg: 0,
                eg: 0,
            });
        }
    }
    for &(i, c) in &t.terms {
        let i = i as usize;
        let group = Params::group(i);
        if let Some(g) = groups.iter_mut().find(|g| g.group == group) {
            let w = params.get(i);
            g.mg += w.mg() * c as i32;
            g.eg += w.eg() * c as i32;
        }
    }
    let weights = params.weights();
    Explanation {
        white: t.white_eval(&weights),
        groups,
        phase: t.phase,
        scale: t.scale_under(&weights),
        complexity: t.eg_adjustment(&weights),
        fixed: t.fixed,
    }
}

impl Explanation {
    /// A table like Stockfish's `eval`: one line per group with mg, eg and the tapered blend,
    /// then the complexity term and mop-up, the phase, scale and totals (White's and the side to
    /// move's points of view).
    pub fn to_text(&self, stm: Color) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{:<10}{:>8}{:>8}{:>9}", "group", "mg", "eg", "blend");
        let (mut mg, mut eg) = (0, 0);
        for g in &self.groups {
            let blend = taper(g.mg, g.eg, self.phase, self.scale);
            let _ = writeln!(out, "{:<10}{:>8}{:>8}{:>9}", g.group, g.mg, g.eg, blend);
            mg += g.mg;
            eg += g.eg;
        }
        let c = self.complexity;
        let blend = taper(0, c, self.phase, self.scale);
        let _ = writeln!(out, "{:<10}{:>8}{:>8}{:>9}", "complexity", "", c, blend);
        let _ = writeln!(out, "{:<10}{:>8}{:>8}{:>9}", "mop-up", "", "", self.fixed);
        let _ = writeln!(
            out,
            "{:<10}{:>8}{:>8}{:>9}",
            "total",
            mg,
            eg + c,
            self.white
        );
        let _ = writeln!(
            out,
            "phase {}/{PHASE_MAX}, end-game scale {}/{SCALE_MAX}; centipawns, White's view",
            self.phase, self.scale
        );
        let stm_score = if stm == Color::White {
            self.white
        } else {
            -self.white
        };
        let _ = write!(out, "evaluation {stm_score} for the side to move");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    #[test]
    fn groups_add_up_to_the_evaluation() {
        let p = Params::default();
        for fen in [
            "3r1nk1/5p2/1PB1p1p1/1Q2P3/P1R2P2/6PK/8/3q4 w - - 1 27",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
            "8/5pk1/6p1/8/8/1P6/P1B2K2/2b5 w - - 0 1",
            "4k3/5ppp/8/8/8/8/PP3PPP/4K3 b - - 0 1",
        ] {
            let b = Board::from_fen(fen).unwrap();
            let e = explain(&b, &p);
            let mg: i32 = e.groups.iter().map(|g| g.mg).sum();
            let eg: i32 = e.groups.iter().map(|g| g.eg).sum();
            let eg = eg + e.complexity;
            assert_eq!(taper(mg, eg, e.phase, e.scale) + e.fixed, e.white, "{fen}");
            let stm = evaluate(&b, &p);
            let white = if b.side_to_move() == Color::White {
                stm
            } else {
                -stm
            };
            assert_eq!(e.white, white, "{fen}");
            let text = e.to_text(b.side_to_move());
            assert!(
                text.contains("king") && text.contains("complexity"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_material_edge_shows_in_the_material_group() {
        // White is a queen up; the material group carries it.
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let e = explain(&b, &Params::default());
        let m = e.groups.iter().find(|g| g.group == "material").unwrap();
        assert_eq!(
            m.mg,
            Params::default().get(crate::eval::BLOCKS[0].start + 4).mg()
        );
    }
}
