//! One connected group's fit: its games counted per (white, black) cell, the units the error
//! bars treat as independent, and the fallbacks when the plain maximum likelihood does not
//! exist (an advantage not determined, an engine that won or lost everything).

use super::fit::{self, Cell, Fit, Free, OneGame};
use super::model::{Model, Wdl};
use super::{graph, RatedGame};
use crate::game::Outcome;
use std::collections::{BTreeMap, HashMap};

/// A group's share of the games.
pub struct GroupGames<'a> {
    /// Engines in the group.
    pub engines: usize,
    /// Global engine index to the group's index.
    pub local: &'a HashMap<usize, usize>,
    /// All rated games (the group's are those whose white is in `local`).
    pub games: &'a [RatedGame],
    /// Every game's colour-swapped pair, when every game has one.
    pub pairs: Option<&'a [[usize; 2]]>,
}

/// A group's fit; `prior`: the weak prior was needed.
pub struct Solved {
    /// The fit.
    pub fit: Fit,
    /// Whether the weak prior was needed (no finite maximum likelihood).
    pub prior: bool,
}

/// White's counts in each (white, black) cell of the group.
type Cells = BTreeMap<(usize, usize), Wdl>;

impl GroupGames<'_> {
    fn mine(&self, k: usize) -> bool {
        self.local.contains_key(&self.games[k].white)
    }

    fn one(&self, k: usize) -> OneGame {
        let g = &self.games[k];
        OneGame {
            white: self.local[&g.white],
            black: self.local[&g.black],
            outcome: g.outcome,
        }
    }

    fn cells(&self) -> Cells {
        let mut cells = Cells::new();
        for k in (0..self.games.len()).filter(|&k| self.mine(k)) {
            let g = self.one(k);
            let c = cells.entry((g.white, g.black)).or_default();
            match g.outcome {
                Outcome::WhiteWins => c.w += 1.0,
                Outcome::Draw => c.d += 1.0,
                Outcome::BlackWins => c.l += 1.0,
            }
        }
        cells
    }

    /// The independent units of the error bars: the colour-swapped pairs when every game has
    /// one; else, under the score model, each game (its points' own variance, draws
    /// included, instead of the binomial variance the score likelihood assumes); else none
    /// (Davidson's inverse Fisher information).
    fn units(&self, model: Model) -> Option<Vec<Vec<OneGame>>> {
        if let Some(pairs) = self.pairs {
            let mine = pairs.iter().filter(|p| self.mine(p[0]));
            return Some(mine.map(|p| vec![self.one(p[0]), self.one(p[1])]).collect());
        }
        (model == Model::Logistic).then(|| {
            (0..self.games.len())
                .filter(|&k| self.mine(k))
                .map(|k| vec![self.one(k)])
                .collect()
        })
    }
}

/// Whether the maximum likelihood is finite: Zermelo's condition, every engine reachable from
/// every other by "scored at least a draw against" (a draw scores both ways).
fn finite(engines: usize, cells: &Cells) -> bool {
    let scored: Vec<(usize, usize)> = cells
        .iter()
        .flat_map(|(&(w, b), c)| {
            let mut e = Vec::new();
            if c.w > 0.0 || c.d > 0.0 {
                e.push((w, b));
            }
            if c.l > 0.0 || c.d > 0.0 {
                e.push((b, w));
            }
            e
        })
        .collect();
    graph::strongly_connected(engines, &scored)
}

/// The cells with the weak prior: one virtual win for each side of every pairing that met,
/// half with each colour (half a white win and half a white loss in both colour cells).
fn with_prior(cells: &Cells) -> Cells {
    let mut out = cells.clone();
    let mut met: Vec<(usize, usize)> = cells.keys().map(|&(w, b)| (w.min(b), w.max(b))).collect();
    met.sort_unstable();
    met.dedup();
    for (a, b) in met {
        for key in [(a, b), (b, a)] {
            let c = out.entry(key).or_default();
            c.w += 0.5;
            c.l += 0.5;
        }
    }
    out
}

/// Fits one group. Tries the plain maximum likelihood first, then (Davidson) without the white
/// advantage (all games of a pairing with one engine white leave it undetermined), then the
/// same with the prior. `None`: no try could be fitted.
pub fn solve(games: &GroupGames, model: Model) -> Option<Solved> {
    let cells = games.cells();
    let draws = model == Model::Davidson && cells.values().any(|c| c.d > 0.0);
    let finite = finite(games.engines, &cells);
    let units = games.units(model);
    let advantages: &[bool] = match model {
        Model::Logistic => &[false],
        Model::Davidson => &[true, false],
    };
    for prior in [!finite, true] {
        let cells = if prior {
            with_prior(&cells)
        } else {
            cells.clone()
        };
        let list: Vec<Cell> = cells
            .iter()
            .map(|(&(white, black), &counts)| Cell {
                white,
                black,
                counts,
            })
            .collect();
        for &advantage in advantages {
            let free = Free {
                model,
                advantage,
                draws,
            };
            if let Ok(fit) = fit::fit(games.engines, &list, free, units.as_deref()) {
                return Some(Solved { fit, prior });
            }
        }
    }
    None
}
