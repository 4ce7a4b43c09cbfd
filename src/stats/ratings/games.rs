//! The rating input from PGN files (through the one PGN reader, `game::pgn::PgnReader`):
//! engines by name, finished games, and the colour-swapped pairs recognised from the tags.

use super::RatedGame;
use crate::game::pgn::PgnReader;
use crate::stats::error::StatsError;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::Path;

/// Engines and games read from PGN files, with what was skipped.
#[derive(Debug, Default)]
pub struct PgnGames {
    /// Engine names in order of first appearance.
    pub names: Vec<String>,
    /// Finished games between two named engines.
    pub games: Vec<super::RatedGame>,
    /// Games without a result (`*`, a missing or unknown `Result`).
    pub unfinished: u64,
    /// Games without a `White` or `Black` tag.
    pub unnamed: u64,
}

impl PgnGames {
    /// Reads every game of `path`. Two games are one colour-swapped pair when they come from
    /// the same file and event, share the round before its dot (our `Round "12.1"` and
    /// `"12.2"`), the start position and the two players, with colours swapped.
    pub fn read(&mut self, path: &Path) -> Result<(), StatsError> {
        let mut index: HashMap<String, usize> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect();
        for (k, game) in PgnReader::open(path)?.enumerate() {
            let game = game.map_err(|source| StatsError::Game {
                path: path.to_owned(),
                number: k + 1,
                source,
            })?;
            let (Some(white), Some(black)) = (game.tag("White"), game.tag("Black")) else {
                self.unnamed += 1;
                continue;
            };
            let Some(outcome) = game.result else {
                self.unfinished += 1;
                continue;
            };
            let mut id = |name: &str| {
                *index.entry(name.to_owned()).or_insert_with(|| {
                    self.names.push(name.to_owned());
                    self.names.len() - 1
                })
            };
            let (w, b) = (id(white), id(black));
            let round = game.tag("Round").unwrap_or("?");
            let round = round.split('.').next().unwrap_or(round);
            let pair = (!round.is_empty() && round != "?" && round != "-").then(|| {
                let mut h = DefaultHasher::new();
                (
                    path,
                    game.tag("Event"),
                    round,
                    w.min(b),
                    w.max(b),
                    &game.fen,
                )
                    .hash(&mut h);
                h.finish()
            });
            self.games.push(RatedGame {
                white: w,
                black: b,
                outcome,
                pair,
            });
        }
        Ok(())
    }

    /// The skipped games in words, if any.
    pub fn skipped(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.unfinished > 0 {
            out.push(format!(
                "{} or games with an unknown result skipped",
                crate::report::plural(self.unfinished, "unfinished game")
            ));
        }
        if self.unnamed > 0 {
            out.push(format!(
                "{} without a White or Black tag skipped",
                crate::report::plural(self.unnamed, "game")
            ));
        }
        out
    }
}
