//! One rating list for all engines of a tournament: maximum likelihood ratings under
//! Davidson's draw model with a white advantage ([`model`]), fitted by Newton's method
//! ([`fit`]) for each group of engines connected by games ([`graph`]), with 95 % error bars from
//! the inverse Fisher information or, when every game came in a colour-swapped pair, from the
//! pairs (a sandwich estimator), and the likelihood of superiority of every two engines of a
//! group. docs/ratings.md says why this model and what happens with awkward input.

mod fit;
pub mod games;
mod graph;
mod linalg;
pub mod model;
mod output;

pub use output::{csv, table};

use crate::game::Outcome;
use crate::stats::elo::{phi, z95};
use fit::{Cell, Free, OneGame};
use model::Wdl;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// One finished game between engines `white` and `black` (indices into the names).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatedGame {
    /// White's index.
    pub white: usize,
    /// Black's index.
    pub black: usize,
    /// The result.
    pub outcome: Outcome,
    /// Games with the same key are one colour-swapped pair (same opening, colours swapped);
    /// `None`: not known to be part of a pair.
    pub pair: Option<u64>,
}

/// Where the scale is fixed: the likelihood only sees rating differences.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Anchor {
    /// The mean rating of each group is 0.
    Mean,
    /// Engine `index` has rating `elo` (in its group; the other groups have mean 0).
    Engine {
        /// The engine.
        index: usize,
        /// Its rating.
        elo: f64,
    },
}

/// One engine's line of the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineRating {
    /// Name as in the games.
    pub name: String,
    /// Rating in Elo on its group's scale.
    pub rating: f64,
    /// Half-width of the 95 % interval; `None` when not determined (the anchor itself, or a
    /// group that could not be fitted).
    pub error: Option<f64>,
    /// Games played.
    pub games: u64,
    /// Points scored (a draw is half a point).
    pub points: f64,
    /// Games drawn.
    pub draws: u64,
    /// Index of its group in [`RatingList::groups`].
    pub group: usize,
    /// It won or lost every game: its maximum likelihood rating is infinite and the weak prior
    /// holds it (a lower or upper bound, not an estimate).
    pub capped: bool,
}

/// The fit of one connected group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupFit {
    /// Engines in the group.
    pub engines: usize,
    /// How its scale is fixed, in words.
    pub anchor: String,
    /// White advantage in Elo and the half-width of its 95 % interval (0 when not fitted).
    pub white_advantage: [f64; 2],
    /// Davidson's draw parameter (0 when the group had no draws).
    pub draw_nu: f64,
    /// Whether the weak prior was needed (no finite maximum likelihood).
    pub prior: bool,
}

/// The whole list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingList {
    /// Games rated.
    pub games: u64,
    /// How the error bars were computed, in words.
    pub errors: String,
    /// Engines, by group and then by rating, best first.
    pub engines: Vec<EngineRating>,
    /// `los[i][j]`: probability that engine `i` of [`Self::engines`] is stronger than engine
    /// `j`; `None` on the diagonal and between groups.
    pub los: Vec<Vec<Option<f64>>>,
    /// The groups of engines connected by games; each has its own scale.
    pub groups: Vec<GroupFit>,
    /// What the reader must know: similar names, groups, infinite ratings, skipped games.
    pub notes: Vec<String>,
}

/// The model in one line, for reports.
pub const MODEL: &str = "Davidson draw model with white advantage, maximum likelihood";

/// Warnings for names that differ only in letter case or spaces: they stay separate engines
/// (a PGN may well hold "Sable 1" and "sable1" as two programs), but the reader should know.
pub fn similar_names(names: &[String]) -> Vec<String> {
    let mut by_key: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for name in names {
        let key: String = name
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        by_key.entry(key).or_default().push(name);
    }
    by_key
        .into_values()
        .filter(|v| v.len() > 1)
        .map(|v| {
            let quoted: Vec<String> = v.iter().map(|n| format!("\"{n}\"")).collect();
            format!(
                "names {} differ only in case or spaces: rated as different engines (rename \
                 them in the PGN if they are one)",
                quoted.join(", ")
            )
        })
        .collect()
}

/// The games grouped in colour-swapped pairs (indices into `games`), or how many games are
/// not in such a pair.
fn pairs_of(games: &[RatedGame]) -> Result<Vec<[usize; 2]>, usize> {
    let mut by_key: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut unpaired = 0;
    for (i, g) in games.iter().enumerate() {
        match g.pair {
            Some(k) => by_key.entry(k).or_default().push(i),
            None => unpaired += 1,
        }
    }
    let mut pairs = Vec::new();
    for v in by_key.into_values() {
        let swapped = v.len() == 2 && {
            let (a, b) = (&games[v[0]], &games[v[1]]);
            a.white == b.black && a.black == b.white
        };
        if swapped {
            pairs.push([v[0], v[1]]);
        } else {
            unpaired += v.len();
        }
    }
    if unpaired == 0 {
        pairs.sort_unstable();
        Ok(pairs)
    } else {
        Err(unpaired)
    }
}

/// Rates every engine of `names` that played, from `games`.
pub fn rate(names: &[String], games: &[RatedGame], anchor: Anchor) -> RatingList {
    let n = names.len();
    let mut notes = similar_names(names);
    let (games, odd): (Vec<RatedGame>, Vec<RatedGame>) = games
        .iter()
        .copied()
        .partition(|g| g.white != g.black && g.white < n && g.black < n);
    if !odd.is_empty() {
        notes.push(format!(
            "{} games of an engine against itself skipped",
            odd.len()
        ));
    }
    let pairs = pairs_of(&games);
    let errors = match &pairs {
        Ok(p) => format!(
            "95 %, from the {} colour-swapped game pairs (sandwich estimator over pairs)",
            p.len()
        ),
        Err(unpaired) => format!(
            "95 %, from the inverse Fisher information, games taken as independent ({unpaired} \
             of {} games are not in colour-swapped pairs)",
            games.len()
        ),
    };
    let mut played = vec![(0u64, 0.0f64, 0u64); n];
    for g in &games {
        let (pw, pb) = match g.outcome {
            Outcome::WhiteWins => (1.0, 0.0),
            Outcome::Draw => (0.5, 0.5),
            Outcome::BlackWins => (0.0, 1.0),
        };
        let draw = u64::from(g.outcome == Outcome::Draw);
        for (i, p) in [(g.white, pw), (g.black, pb)] {
            played[i].0 += 1;
            played[i].1 += p;
            played[i].2 += draw;
        }
    }
    let groups = graph::components(n, games.iter().map(|g| (g.white, g.black)));
    if groups.len() > 1 {
        notes.push(format!(
            "the engines form {} groups that never played each other: each group is rated on \
             its own scale, and ratings of different groups cannot be compared",
            groups.len()
        ));
    }
    let mut engines = Vec::new();
    let mut fits = Vec::new();
    let mut cov_of = Vec::new();
    for (gi, members) in groups.iter().enumerate() {
        let local: HashMap<usize, usize> =
            members.iter().enumerate().map(|(l, &i)| (i, l)).collect();
        let group_games: Vec<usize> = (0..games.len())
            .filter(|&k| local.contains_key(&games[k].white))
            .collect();
        let outcome = rate_group(
            members.len(),
            &local,
            &games,
            &group_games,
            pairs.as_ref().ok(),
        );
        let m = members.len();
        let (ratings, cov, fitted) = match outcome {
            Some(f) => (f.0.ratings.clone(), Some(f.0.cov.clone()), Some(f)),
            None => {
                notes.push(format!(
                    "group {} could not be rated (its games do not determine the ratings)",
                    gi + 1
                ));
                (vec![0.0; m], None, None)
            }
        };
        let (anchor_local, anchor_elo) = match anchor {
            Anchor::Engine { index, elo } if local.contains_key(&index) => {
                (Some(local[&index]), elo)
            }
            _ => (None, 0.0),
        };
        let shift = match anchor_local {
            Some(k) => anchor_elo - ratings[k],
            None => -ratings.iter().sum::<f64>() / m as f64,
        };
        let var = |l: usize| -> Option<f64> {
            let c = cov.as_ref()?;
            let v = match anchor_local {
                Some(k) if k == l => return None,
                Some(k) => c.at(l, l) + c.at(k, k) - 2.0 * c.at(l, k),
                None => {
                    let row: f64 = (0..m).map(|j| c.at(l, j)).sum();
                    let all: f64 = c.a.iter().sum();
                    c.at(l, l) - 2.0 * row / m as f64 + all / (m * m) as f64
                }
            };
            Some(v.max(0.0))
        };
        let anchor_words = match anchor_local {
            Some(k) => format!("{} = {anchor_elo}", names[members[k]]),
            None => "mean 0".to_owned(),
        };
        if let (Anchor::Engine { index, .. }, None) = (anchor, anchor_local) {
            if index < n {
                notes.push(format!(
                    "group {} does not hold the anchor {}: its mean is 0",
                    gi + 1,
                    names[index]
                ));
            }
        }
        let prior = fitted.as_ref().is_some_and(|f| f.1);
        for (l, &i) in members.iter().enumerate() {
            let (g, p, d) = played[i];
            let capped = prior && (p == 0.0 || p == g as f64);
            if capped {
                let (how, bound) = if p == 0.0 {
                    ("lost", "an upper")
                } else {
                    ("won", "a lower")
                };
                notes.push(format!(
                    "{} {how} all its {g} games: its maximum likelihood rating is infinite; the \
                     weak prior holds it, so its rating is {bound} bound",
                    names[i]
                ));
            }
            engines.push((
                EngineRating {
                    name: names[i].clone(),
                    rating: ratings[l] + shift,
                    error: var(l).map(|v| z95() * v.sqrt()),
                    games: g,
                    points: p,
                    draws: d,
                    group: gi,
                    capped,
                },
                gi,
                l,
            ));
        }
        if prior
            && !members
                .iter()
                .any(|&i| played[i].1 == 0.0 || played[i].1 == played[i].0 as f64)
        {
            notes.push(format!(
                "group {}: some engines never dropped a point to the others (or never took one), \
                 so the maximum likelihood is not finite; rated with the weak prior",
                gi + 1
            ));
        }
        if prior {
            notes.push(format!(
                "group {}: weak prior used: each pairing that met gets one virtual win for each \
                 side, half of them with each colour",
                gi + 1
            ));
        }
        let (adv, adv_var) = fitted.as_ref().map_or((0.0, 0.0), |f| f.0.advantage);
        fits.push(GroupFit {
            engines: m,
            anchor: anchor_words,
            white_advantage: [adv, z95() * adv_var.sqrt()],
            draw_nu: fitted.as_ref().map_or(0.0, |f| f.0.nu),
            prior,
        });
        cov_of.push(cov);
    }
    engines.sort_by(|a, b| (a.1).cmp(&b.1).then(b.0.rating.total_cmp(&a.0.rating)));
    let los = engines
        .iter()
        .map(|(a, ga, la)| {
            engines
                .iter()
                .map(|(b, gb, lb)| {
                    if ga != gb || la == lb {
                        return None;
                    }
                    let c = cov_of[*ga].as_ref()?;
                    let v = c.at(*la, *la) + c.at(*lb, *lb) - 2.0 * c.at(*la, *lb);
                    let diff = a.rating - b.rating;
                    Some(if v > 0.0 { phi(diff / v.sqrt()) } else { 0.5 })
                })
                .collect()
        })
        .collect();
    RatingList {
        games: games.len() as u64,
        errors,
        engines: engines.into_iter().map(|e| e.0).collect(),
        los,
        groups: fits,
        notes,
    }
}

/// Fits one group; the flag says whether the weak prior was needed. Tries the plain maximum
/// likelihood first, then without the white advantage (all games of a pairing with one engine
/// white leave it undetermined), then the same with the prior.
fn rate_group(
    m: usize,
    local: &HashMap<usize, usize>,
    games: &[RatedGame],
    members: &[usize],
    pairs: Option<&Vec<[usize; 2]>>,
) -> Option<(fit::Fit, bool)> {
    let mut cells: BTreeMap<(usize, usize), Wdl> = BTreeMap::new();
    for &k in members {
        let g = &games[k];
        let c = cells.entry((local[&g.white], local[&g.black])).or_default();
        match g.outcome {
            Outcome::WhiteWins => c.w += 1.0,
            Outcome::Draw => c.d += 1.0,
            Outcome::BlackWins => c.l += 1.0,
        }
    }
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
    let draws = cells.values().any(|c| c.d > 0.0);
    let finite = graph::strongly_connected(m, &scored);
    let group_pairs: Option<Vec<[OneGame; 2]>> = pairs.map(|ps| {
        ps.iter()
            .filter(|p| local.contains_key(&games[p[0]].white))
            .map(|p| {
                p.map(|k| OneGame {
                    white: local[&games[k].white],
                    black: local[&games[k].black],
                    outcome: games[k].outcome,
                })
            })
            .collect()
    });
    let with_prior = || {
        let mut cells = cells.clone();
        let met: Vec<(usize, usize)> = cells.keys().map(|&(w, b)| (w.min(b), w.max(b))).collect();
        let mut met = met;
        met.sort_unstable();
        met.dedup();
        for (a, b) in met {
            // One virtual win for each side, half with each colour: half a white win and
            // half a white loss in both colour cells.
            for key in [(a, b), (b, a)] {
                let c = cells.entry(key).or_default();
                c.w += 0.5;
                c.l += 0.5;
            }
        }
        cells
    };
    let tries = [
        (!finite, true),
        (!finite, false),
        (true, true),
        (true, false),
    ];
    for (prior, advantage) in tries {
        let cells = if prior { with_prior() } else { cells.clone() };
        let list: Vec<Cell> = cells
            .iter()
            .map(|(&(white, black), &counts)| Cell {
                white,
                black,
                counts,
            })
            .collect();
        let free = Free { advantage, draws };
        if let Ok(f) = fit::fit(m, &list, free, group_pairs.as_deref()) {
            return Some((f, prior));
        }
    }
    None
}

#[cfg(test)]
mod tests;
