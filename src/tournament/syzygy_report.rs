//! The match report's line about the Syzygy tables (`--tb`): how many games they ended, with
//! which results. Counted from the results journal, so a resumed run counts the games of its
//! earlier runs too.

use super::resume::{journal_path, read_journal, GameEntry, ResultsError};
use crate::game::Outcome;
use crate::tablebase::REASON_PREFIX;
use std::fmt;
use std::path::Path;

/// Games ended by the tables, by result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SyzygyCount {
    /// All games in the journal.
    pub games: u64,
    /// Of those, ended by the tables.
    pub adjudicated: u64,
    /// Tablebase wins of White, wins of Black, draws.
    pub white_wins: u64,
    /// See `white_wins`.
    pub black_wins: u64,
    /// See `white_wins`.
    pub draws: u64,
}

impl SyzygyCount {
    /// Counts the games of a journal whose reason is a tablebase verdict.
    pub fn of(entries: &[GameEntry]) -> SyzygyCount {
        let mut c = SyzygyCount {
            games: entries.len() as u64,
            ..SyzygyCount::default()
        };
        for e in entries
            .iter()
            .filter(|e| e.reason.starts_with(REASON_PREFIX))
        {
            c.adjudicated += 1;
            match e.outcome {
                Outcome::WhiteWins => c.white_wins += 1,
                Outcome::BlackWins => c.black_wins += 1,
                Outcome::Draw => c.draws += 1,
            }
        }
        c
    }

    /// The count of the match whose results file is `results`.
    pub fn of_results(results: &Path) -> Result<SyzygyCount, ResultsError> {
        Ok(SyzygyCount::of(&read_journal(&journal_path(results))?))
    }
}

impl fmt::Display for SyzygyCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Syzygy adjudications: {} of {} ({} 1-0, {} 0-1, {} 1/2-1/2)",
            self.adjudicated,
            crate::report::plural(self.games, "game"),
            self.white_wins,
            self.black_wins,
            self.draws
        )
    }
}

/// Prints the line for a match with `--tb` that has a results file (nothing otherwise).
pub fn print_syzygy_line(cfg: &super::MatchConfig) -> Result<(), ResultsError> {
    if let (Some(_), Some(path)) = (cfg.adjudication.syzygy, &cfg.results) {
        outln!("{}", SyzygyCount::of_results(path)?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: u64, outcome: Outcome, reason: &str) -> GameEntry {
        GameEntry {
            id,
            pair: id / 2,
            pairing: 0,
            white: (id % 2) as usize,
            black: 1 - (id % 2) as usize,
            opening: 0,
            outcome,
            reason: reason.into(),
            fault: None,
            plies: 30,
            duration_ms: 10,
            moves_hash: None,
            pgn_end: None,
        }
    }

    #[test]
    fn only_games_the_tables_ended_are_counted_by_result() {
        let games = [
            entry(
                0,
                Outcome::WhiteWins,
                "Syzygy: White wins (Black to move: WDL -2, DTZ -14)",
            ),
            entry(
                1,
                Outcome::Draw,
                "Syzygy: draw (White to move: WDL 0, DTZ 0)",
            ),
            entry(
                2,
                Outcome::BlackWins,
                "Syzygy: Black wins (White to move: WDL -2, DTZ -3)",
            ),
            entry(3, Outcome::Draw, "Draw by 3-fold repetition"),
            entry(4, Outcome::WhiteWins, "White mates"),
            entry(
                5,
                Outcome::Draw,
                "Syzygy: draw by the 50-move rule (White to move: WDL +1, DTZ 105)",
            ),
        ];
        let c = SyzygyCount::of(&games);
        assert_eq!(
            c,
            SyzygyCount {
                games: 6,
                adjudicated: 4,
                white_wins: 1,
                black_wins: 1,
                draws: 2
            }
        );
        assert_eq!(
            c.to_string(),
            "Syzygy adjudications: 4 of 6 games (1 1-0, 1 0-1, 2 1/2-1/2)"
        );
    }
}
