//! One rating list for all engines of a tournament: maximum likelihood ratings on the Elo scale
//! of the rest of the tool (expected score logistic in the rating difference, draws as half
//! points, as Ordo's default) or, as an option, under Davidson's draw model with a white
//! advantage ([`model`]), fitted by Newton's method ([`fit`]) for each group of engines
//! connected by games ([`graph`], [`group`]), with 95 % error bars from the games' or the
//! colour-swapped pairs' score vectors (a sandwich estimator; Davidson without pairs: the
//! inverse Fisher information), and the likelihood of superiority of every two engines of a
//! group. docs/ratings.md says why this model and what happens with awkward input.

mod fit;
pub mod games;
mod graph;
mod group;
mod linalg;
pub mod model;
mod output;

pub use output::{csv, table};

use crate::game::Outcome;
use crate::stats::elo::{phi, z95};
use linalg::Matrix;
pub use model::Model;
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
    /// White advantage in Elo and the half-width of its 95 % interval (0 when not fitted: always
    /// under the logistic model).
    pub white_advantage: [f64; 2],
    /// Davidson's draw parameter (0 when the group had no draws, and under the logistic model).
    pub draw_nu: f64,
    /// Whether the weak prior was needed (no finite maximum likelihood).
    pub prior: bool,
}

/// The whole list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingList {
    /// Games rated.
    pub games: u64,
    /// The likelihood maximised (lists written before the logistic model existed were
    /// Davidson's).
    #[serde(default = "Model::earlier")]
    pub model: Model,
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

/// What an engine did in the rated games.
#[derive(Debug, Clone, Copy, Default)]
struct Played {
    games: u64,
    points: f64,
    draws: u64,
}

impl Played {
    /// It won or lost every game: no finite maximum likelihood rating.
    fn perfect(&self) -> bool {
        self.points == 0.0 || self.points == self.games as f64
    }
}

/// One engine's line and its index in its group (for the covariance and the LOS).
struct Placed {
    line: EngineRating,
    local: usize,
}

/// A group's lines, its summary and its ratings' covariance (`None`: not fitted).
struct GroupOut {
    lines: Vec<Placed>,
    fit: GroupFit,
    cov: Option<Matrix>,
}

/// Where a group's scale is fixed: the anchor's index in the group (`None`: the mean is 0),
/// the shift from the fit's origin, and the words for the report.
struct Origin {
    local: Option<usize>,
    shift: f64,
    words: String,
}

/// What every group's fit shares.
struct Input<'a> {
    names: &'a [String],
    games: &'a [RatedGame],
    pairs: Option<&'a [[usize; 2]]>,
    played: &'a [Played],
    anchor: Anchor,
    model: Model,
}

/// Rates every engine of `names` that played, from `games`, under `model`.
pub fn rate(names: &[String], games: &[RatedGame], anchor: Anchor, model: Model) -> RatingList {
    let n = names.len();
    let mut notes = similar_names(names);
    let games = rateable(n, games, &mut notes);
    let pairs = pairs_of(&games);
    let played = tally(n, &games);
    let groups = graph::components(n, games.iter().map(|g| (g.white, g.black)));
    if groups.len() > 1 {
        notes.push(format!(
            "the engines form {} groups that never played each other: each group is rated on \
             its own scale, and ratings of different groups cannot be compared",
            groups.len()
        ));
    }
    let input = Input {
        names,
        games: &games,
        pairs: pairs.as_deref().ok(),
        played: &played,
        anchor,
        model,
    };
    let (mut placed, mut fits, mut covs) = (Vec::new(), Vec::new(), Vec::new());
    for (gi, members) in groups.iter().enumerate() {
        let out = input.group(gi, members, &mut notes);
        placed.extend(out.lines);
        fits.push(out.fit);
        covs.push(out.cov);
    }
    placed.sort_by(|a, b| {
        (a.line.group)
            .cmp(&b.line.group)
            .then(b.line.rating.total_cmp(&a.line.rating))
    });
    let los = los_matrix(&placed, &covs);
    RatingList {
        games: games.len() as u64,
        model,
        errors: errors_words(&pairs, games.len(), model),
        engines: placed.into_iter().map(|p| p.line).collect(),
        los,
        groups: fits,
        notes,
    }
}

/// The games between two different known engines; the others are counted in a note.
fn rateable(n: usize, games: &[RatedGame], notes: &mut Vec<String>) -> Vec<RatedGame> {
    let (games, odd): (Vec<RatedGame>, Vec<RatedGame>) = games
        .iter()
        .copied()
        .partition(|g| g.white != g.black && g.white < n && g.black < n);
    if !odd.is_empty() {
        notes.push(format!(
            "{} of an engine against itself skipped",
            crate::report::plural(odd.len(), "game")
        ));
    }
    games
}

/// Games, points and draws of each engine.
fn tally(n: usize, games: &[RatedGame]) -> Vec<Played> {
    let mut played = vec![Played::default(); n];
    for g in games {
        let white = match g.outcome {
            Outcome::WhiteWins => 1.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 0.0,
        };
        let draw = u64::from(g.outcome == Outcome::Draw);
        for (i, p) in [(g.white, white), (g.black, 1.0 - white)] {
            played[i].games += 1;
            played[i].points += p;
            played[i].draws += draw;
        }
    }
    played
}

/// How the error bars were computed, in words.
fn errors_words(pairs: &Result<Vec<[usize; 2]>, usize>, games: usize, model: Model) -> String {
    match (pairs, model) {
        (Ok(p), _) => format!(
            "95 %, from the {} colour-swapped game pairs (sandwich estimator over pairs)",
            p.len()
        ),
        (Err(unpaired), Model::Logistic) => format!(
            "95 %, from the games' own score variance (sandwich estimator over games taken as \
             independent: {unpaired} of {games} games are not in colour-swapped pairs)"
        ),
        (Err(unpaired), Model::Davidson) => format!(
            "95 %, from the inverse Fisher information, games taken as independent ({unpaired} \
             of {games} games are not in colour-swapped pairs)"
        ),
    }
}

impl Input<'_> {
    /// Fits, anchors and lists group `gi`.
    fn group(&self, gi: usize, members: &[usize], notes: &mut Vec<String>) -> GroupOut {
        let local: HashMap<usize, usize> =
            members.iter().enumerate().map(|(l, &i)| (i, l)).collect();
        let games = group::GroupGames {
            engines: members.len(),
            local: &local,
            games: self.games,
            pairs: self.pairs,
        };
        let solved = group::solve(&games, self.model);
        let m = members.len();
        let (ratings, cov) = match &solved {
            Some(s) => (s.fit.ratings.clone(), Some(s.fit.cov.clone())),
            None => {
                notes.push(format!(
                    "group {} could not be rated (its games do not determine the ratings)",
                    gi + 1
                ));
                (vec![0.0; m], None)
            }
        };
        let origin = self.origin(gi, members, &local, &ratings, notes);
        let prior = solved.as_ref().is_some_and(|s| s.prior);
        let mut lines = Vec::with_capacity(m);
        for (l, &i) in members.iter().enumerate() {
            let error = variance(cov.as_ref(), origin.local, l).map(|v| z95() * v.sqrt());
            let line = self.line(i, gi, ratings[l] + origin.shift, error, prior, notes);
            lines.push(Placed { line, local: l });
        }
        self.prior_notes(gi, members, prior, notes);
        let (adv, adv_var) = solved.as_ref().map_or((0.0, 0.0), |s| s.fit.advantage);
        let fit = GroupFit {
            engines: m,
            anchor: origin.words,
            white_advantage: [adv, z95() * adv_var.sqrt()],
            draw_nu: solved.as_ref().map_or(0.0, |s| s.fit.nu),
            prior,
        };
        GroupOut { lines, fit, cov }
    }

    /// Where group `gi`'s scale is fixed: the anchor if it is in the group, else the mean.
    fn origin(
        &self,
        gi: usize,
        members: &[usize],
        local: &HashMap<usize, usize>,
        ratings: &[f64],
        notes: &mut Vec<String>,
    ) -> Origin {
        if let Anchor::Engine { index, elo } = self.anchor {
            if let Some(&k) = local.get(&index) {
                return Origin {
                    local: Some(k),
                    shift: elo - ratings[k],
                    words: format!("{} = {elo}", self.names[members[k]]),
                };
            }
            if index < self.names.len() {
                notes.push(format!(
                    "group {} does not hold the anchor {}: its mean is 0",
                    gi + 1,
                    self.names[index]
                ));
            }
        }
        Origin {
            local: None,
            shift: -ratings.iter().sum::<f64>() / ratings.len() as f64,
            words: "mean 0".to_owned(),
        }
    }

    /// Engine `i`'s line; an engine that won or lost everything under the prior is capped
    /// and named in a note.
    fn line(
        &self,
        i: usize,
        group: usize,
        rating: f64,
        error: Option<f64>,
        prior: bool,
        notes: &mut Vec<String>,
    ) -> EngineRating {
        let p = self.played[i];
        let capped = prior && p.perfect();
        if capped {
            let (how, bound) = if p.points == 0.0 {
                ("lost", "an upper")
            } else {
                ("won", "a lower")
            };
            notes.push(format!(
                "{} {how} all its {} games: its maximum likelihood rating is infinite; the \
                 weak prior holds it, so its rating is {bound} bound",
                self.names[i], p.games
            ));
        }
        EngineRating {
            name: self.names[i].clone(),
            rating,
            error,
            games: p.games,
            points: p.points,
            draws: p.draws,
            group,
            capped,
        }
    }

    /// The notes of a group fitted with the weak prior.
    fn prior_notes(&self, gi: usize, members: &[usize], prior: bool, notes: &mut Vec<String>) {
        if !prior {
            return;
        }
        if !members.iter().any(|&i| self.played[i].perfect()) {
            notes.push(format!(
                "group {}: some engines never dropped a point to the others (or never took one), \
                 so the maximum likelihood is not finite; rated with the weak prior",
                gi + 1
            ));
        }
        notes.push(format!(
            "group {}: weak prior used: each pairing that met gets one virtual win for each \
             side, half of them with each colour",
            gi + 1
        ));
    }
}

/// Variance of engine `l`'s rating relative to the origin: the anchor's (none for the anchor
/// itself) or the group's mean.
fn variance(cov: Option<&Matrix>, anchor: Option<usize>, l: usize) -> Option<f64> {
    let c = cov?;
    let m = c.n;
    let v = match anchor {
        Some(k) if k == l => return None,
        Some(k) => c.at(l, l) + c.at(k, k) - 2.0 * c.at(l, k),
        None => {
            let row: f64 = (0..m).map(|j| c.at(l, j)).sum();
            let all: f64 = c.a.iter().sum();
            c.at(l, l) - 2.0 * row / m as f64 + all / (m * m) as f64
        }
    };
    Some(v.max(0.0))
}

/// `los[i][j]`: the probability that engine `i` is stronger than `j`, within a group.
fn los_matrix(placed: &[Placed], covs: &[Option<Matrix>]) -> Vec<Vec<Option<f64>>> {
    placed
        .iter()
        .map(|a| {
            placed
                .iter()
                .map(|b| {
                    let (ga, gb) = (a.line.group, b.line.group);
                    if ga != gb || a.local == b.local {
                        return None;
                    }
                    let c = covs[ga].as_ref()?;
                    let v = c.at(a.local, a.local) + c.at(b.local, b.local)
                        - 2.0 * c.at(a.local, b.local);
                    let diff = a.line.rating - b.line.rating;
                    Some(if v > 0.0 { phi(diff / v.sqrt()) } else { 0.5 })
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
