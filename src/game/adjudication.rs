//! Adjudication: ending a game early by the engines' own scores (`draw`, `resign`), its length
//! (`maxmoves`) or the Syzygy tables (`--tb`), as cutechess and fastchess do.

use super::record::Outcome;
use super::rules::History;
use crate::tablebase::SyzygyRule;
use crate::uci::Score;
use shakmaty::{Chess, Color, KnownOutcome};

/// `draw movenumber=N movecount=M score=S`: from full move N on, if both engines' scores stay
/// within ±S centipawns for M consecutive moves each, the game is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawRule {
    /// First full move number at which the rule may apply.
    pub movenumber: u32,
    /// Consecutive moves per side within the window.
    pub movecount: u32,
    /// Window half-width in centipawns.
    pub score: i32,
}

/// `resign movecount=M score=S twosided=B`: an engine whose score is at or below -S for M
/// consecutive moves loses; with `twosided`, its opponent must also see at least +S.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ResignRule {
    /// Consecutive moves (of the losing side) needed.
    pub movecount: u32,
    /// Threshold in centipawns.
    pub score: i32,
    /// Both engines must agree.
    pub twosided: bool,
}

/// The adjudication settings of a match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw after this many full moves.
    pub maxmoves: Option<u32>,
    /// End a game once its position is in the Syzygy tables, with their result.
    pub syzygy: Option<SyzygyRule>,
}

#[cfg(test)]
impl Adjudication {
    /// Short test games: a side resigns at once when it is 900 cp down, and a game is drawn
    /// after 100 moves.
    pub(crate) fn quick() -> Adjudication {
        Adjudication {
            resign: Some(ResignRule {
                movecount: 1,
                score: 900,
                twosided: false,
            }),
            maxmoves: Some(100),
            ..Adjudication::default()
        }
    }
}

/// An adjudicated end of game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Drawn by the draw rule.
    Draw,
    /// Drawn because the game reached `maxmoves`.
    MaxMoves,
    /// This side resigns (loses).
    Resign(Color),
}

/// A game ended by the tables: the result and the reason for the PGN
/// (`Syzygy: White wins (Black to move: WDL -2, DTZ -14)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablebaseVerdict {
    /// The result.
    pub outcome: Outcome,
    /// Why, in words (starts with `tablebase::REASON_PREFIX`).
    pub reason: String,
}

/// Follows the scores of a game and says when a rule ends it.
#[derive(Debug, Clone, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    draw_streak: u32,
    /// Per side (white, black): consecutive own moves with a losing score.
    losing_streak: [u32; 2],
    /// Per side: consecutive own moves with a winning score.
    winning_streak: [u32; 2],
}

/// A score in centipawns for thresholds; mates count as very large.
fn centipawns(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(m) if m > 0 => 100_000,
        Score::Mate(_) => -100_000,
    }
}

impl Adjudicator {
    /// A fresh adjudicator for one game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            ..Adjudicator::default()
        }
    }

    /// The tables' verdict on `pos`, the position after a move, if `--tb` is on, the position
    /// is in the tables and its result is one to adjudicate. A game the rules end in `pos`
    /// (mate, stalemate, repetition, fifty moves, material) is left to them.
    pub fn tablebase(&self, pos: &Chess, history: &History) -> Option<TablebaseVerdict> {
        let rule = self.rules.syzygy?;
        if history.ending(pos).is_some() {
            return None;
        }
        let exact = rule.verdict(pos)?;
        let outcome = match exact.outcome {
            KnownOutcome::Decisive { winner } => Outcome::win_for(winner),
            KnownOutcome::Draw => Outcome::Draw,
        };
        Some(TablebaseVerdict {
            outcome,
            reason: exact.reason,
        })
    }

    /// Records the move just played by `mover` at full move `fullmove` (the number shown before
    /// White's move), with its score from the mover's point of view (None = no score sent, which
    /// breaks every streak). Returns the verdict if the game ends here.
    pub fn after_move(
        &mut self,
        mover: Color,
        fullmove: u32,
        score: Option<Score>,
    ) -> Option<Verdict> {
        let side = if mover == Color::White { 0 } else { 1 };
        let cp = score.map(centipawns);
        if let Some(rule) = self.rules.resign {
            let losing = cp.is_some_and(|c| c <= -rule.score);
            let winning = cp.is_some_and(|c| c >= rule.score);
            self.losing_streak[side] = if losing {
                self.losing_streak[side] + 1
            } else {
                0
            };
            self.winning_streak[side] = if winning {
                self.winning_streak[side] + 1
            } else {
                0
            };
            let other = 1 - side;
            for loser in [side, other] {
                let done = self.losing_streak[loser] >= rule.movecount
                    && (!rule.twosided || self.winning_streak[1 - loser] >= rule.movecount);
                if done {
                    return Some(Verdict::Resign(if loser == 0 {
                        Color::White
                    } else {
                        Color::Black
                    }));
                }
            }
        }
        if let Some(rule) = self.rules.draw {
            let quiet = fullmove >= rule.movenumber && cp.is_some_and(|c| c.abs() <= rule.score);
            self.draw_streak = if quiet { self.draw_streak + 1 } else { 0 };
            if self.draw_streak >= 2 * rule.movecount {
                return Some(Verdict::Draw);
            }
        }
        if let Some(max) = self.rules.maxmoves {
            // The game has `max` full moves once Black has played move `max`.
            if mover == Color::Black && fullmove >= max {
                return Some(Verdict::MaxMoves);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    #[test]
    fn draw_needs_both_sides_quiet_for_movecount_moves_after_movenumber() {
        let rules = Adjudication {
            draw: Some(DrawRule {
                movenumber: 3,
                movecount: 2,
                score: 10,
            }),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::new(rules);
        let q = Some(Score::Cp(5));
        assert_eq!(a.after_move(White, 1, q), None); // before movenumber: not counted
        assert_eq!(a.after_move(Black, 1, q), None);
        assert_eq!(a.after_move(White, 3, q), None);
        assert_eq!(a.after_move(Black, 3, Some(Score::Cp(-40))), None); // breaks the streak
        assert_eq!(a.after_move(White, 4, q), None);
        assert_eq!(a.after_move(Black, 4, q), None);
        assert_eq!(a.after_move(White, 5, q), None);
        assert_eq!(a.after_move(Black, 5, q), Some(Verdict::Draw));
    }

    #[test]
    fn resign_one_sided_and_two_sided() {
        let one = ResignRule {
            movecount: 2,
            score: 500,
            twosided: false,
        };
        let mut a = Adjudicator::new(Adjudication {
            resign: Some(one),
            ..Adjudication::default()
        });
        assert_eq!(a.after_move(White, 1, Some(Score::Cp(-600))), None);
        assert_eq!(a.after_move(Black, 1, Some(Score::Cp(0))), None);
        assert_eq!(
            a.after_move(White, 2, Some(Score::Mate(-3))),
            Some(Verdict::Resign(White))
        );

        let two = ResignRule {
            twosided: true,
            ..one
        };
        let mut a = Adjudicator::new(Adjudication {
            resign: Some(two),
            ..Adjudication::default()
        });
        assert_eq!(a.after_move(White, 1, Some(Score::Cp(-600))), None);
        assert_eq!(a.after_move(Black, 1, Some(Score::Cp(100))), None); // black does not agree
        assert_eq!(a.after_move(White, 2, Some(Score::Cp(-600))), None);
        assert_eq!(a.after_move(Black, 2, Some(Score::Cp(700))), None);
        assert_eq!(a.after_move(White, 3, Some(Score::Cp(-600))), None);
        assert_eq!(
            a.after_move(Black, 3, Some(Score::Cp(700))),
            Some(Verdict::Resign(White))
        );
    }

    #[test]
    fn maxmoves_ends_after_blacks_move() {
        let mut a = Adjudicator::new(Adjudication {
            maxmoves: Some(2),
            ..Adjudication::default()
        });
        assert_eq!(a.after_move(White, 2, None), None);
        assert_eq!(a.after_move(Black, 2, None), Some(Verdict::MaxMoves));
    }
}
