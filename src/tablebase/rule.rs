//! From a probe to a game result: [`classify`] says what WDL and DTZ mean under the 50-move
//! rule (or without it), and [`SyzygyRule`] applies that to a position of a game, for
//! adjudication (`--tb-adjudicate`) and for exact labels.
//!
//! "Exact" here means the result with best play under the 50-move rule, counted from the
//! position's own halfmove clock: a win whose next capture or pawn move (or mate) the winner can
//! force by the 100th halfmove is a win; a cursed win, a blessed loss, and a win that the clock
//! already on the board makes too slow are draws. When a rounded DTZ lands exactly on the
//! limit the tables cannot tell, and the position gets no answer. With `--tb-ignore-50` the
//! result is the one without the 50-move rule (cursed wins win, blessed losses lose).

use super::error::{NoAnswer, TbError};
use super::tables::{Probe, Tablebases};
use super::REASON_PREFIX;
use shakmaty::{Chess, Color, KnownOutcome, Position};
use shakmaty_syzygy::{AmbiguousWdl, Dtz, MaybeRounded, Wdl};

/// Which table results end a game (`--tb-adjudicate`, as fastchess's `-tbadjudicate`).
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum TbResults {
    /// Only wins and losses.
    #[value(name = "win-loss")]
    WinLoss,
    /// Only draws.
    Draw,
    /// Both.
    #[default]
    Both,
}

/// The result for the side to move, +1 (win), 0 (draw) or -1 (loss), of a position whose table
/// value is `wdl` (counted from a zeroing move), with `dtz` if known and `halfmoves` on the
/// clock. `None` when it cannot be told: the clock matters and the DTZ is unknown, or a rounded
/// DTZ lands exactly on the 50-move limit.
pub fn classify(
    wdl: Wdl,
    dtz: Option<MaybeRounded<Dtz>>,
    halfmoves: u32,
    ignore_50: bool,
) -> Option<i32> {
    if ignore_50 {
        return Some(wdl.signum());
    }
    let with_clock = if halfmoves == 0 {
        AmbiguousWdl::from(wdl)
    } else {
        AmbiguousWdl::from_dtz_and_halfmoves(dtz?, halfmoves)
    };
    match with_clock {
        AmbiguousWdl::Win => Some(1),
        AmbiguousWdl::Loss => Some(-1),
        AmbiguousWdl::Draw | AmbiguousWdl::CursedWin | AmbiguousWdl::BlessedLoss => Some(0),
        AmbiguousWdl::MaybeWin | AmbiguousWdl::MaybeLoss => None,
    }
}

/// A position's exact result from the tables, and the words a PGN comment gives it.
#[derive(Debug, Clone)]
pub struct Exact {
    /// The result.
    pub outcome: KnownOutcome,
    /// `Syzygy: White wins (Black to move: WDL -2, DTZ -14)`.
    pub reason: String,
}

/// How a match or a data set uses the tables (`--tb`, `--tb-pieces`, `--tb-adjudicate`,
/// `--tb-ignore-50`).
#[derive(Debug, Clone, Copy)]
pub struct SyzygyRule {
    /// The tables, loaded once for the process.
    pub tables: &'static Tablebases,
    /// Positions with more pieces (kings included) are not looked up.
    pub max_pieces: usize,
    /// Which results end a game.
    pub results: TbResults,
    /// Cursed wins and blessed losses count as wins and losses.
    pub ignore_50: bool,
}

impl PartialEq for SyzygyRule {
    fn eq(&self, other: &SyzygyRule) -> bool {
        std::ptr::eq(self.tables, other.tables)
            && (self.max_pieces, self.results, self.ignore_50)
                == (other.max_pieces, other.results, other.ignore_50)
    }
}

impl Eq for SyzygyRule {}

impl SyzygyRule {
    /// The rule over `tables`; `pieces` defaults to the tables' most and may not exceed it.
    pub fn new(
        tables: &'static Tablebases,
        pieces: Option<usize>,
        results: TbResults,
        ignore_50: bool,
    ) -> Result<SyzygyRule, TbError> {
        let max = tables.max_pieces();
        let max_pieces = pieces.unwrap_or(max);
        if !(3..=max).contains(&max_pieces) {
            return Err(TbError::Pieces {
                asked: max_pieces,
                max,
            });
        }
        Ok(SyzygyRule {
            tables,
            max_pieces,
            results,
            ignore_50,
        })
    }

    /// The exact result of `pos` (see the module's notes), or why there is none.
    pub fn exact(&self, pos: &Chess) -> Result<Exact, NoAnswer> {
        if let Some(no) = self.tables.unprobeable(pos, self.max_pieces) {
            return Err(no);
        }
        let probe = self.tables.probe(pos)?;
        let dtz = probe.dtz.as_ref().ok().copied();
        // A mate or stalemate on the board is the rules' result whatever the clock says.
        let value = match pos.outcome().known() {
            Some(KnownOutcome::Decisive { .. }) => Some(-1),
            Some(KnownOutcome::Draw) => Some(0),
            None => classify(probe.wdl, dtz, probe.halfmoves, self.ignore_50),
        };
        let Some(value) = value else {
            return Err(probe.dtz.err().unwrap_or(NoAnswer::RoundedAtLimit));
        };
        let turn = pos.turn();
        let outcome = match value {
            1 => KnownOutcome::Decisive { winner: turn },
            -1 => KnownOutcome::Decisive { winner: !turn },
            _ => KnownOutcome::Draw,
        };
        Ok(Exact {
            outcome,
            reason: reason(outcome, &probe, turn, self.ignore_50),
        })
    }

    /// The verdict that ends a game in `pos`: its exact result, if it is one of the results
    /// to adjudicate.
    pub fn verdict(&self, pos: &Chess) -> Option<Exact> {
        let exact = self.exact(pos).ok()?;
        let wanted = match exact.outcome {
            KnownOutcome::Draw => self.results != TbResults::WinLoss,
            KnownOutcome::Decisive { .. } => self.results != TbResults::Draw,
        };
        wanted.then_some(exact)
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `13`, or `13 or 14` for a rounded DTZ (one ply short at most).
pub(super) fn dtz_text(dtz: &Result<MaybeRounded<Dtz>, NoAnswer>) -> String {
    match dtz {
        Ok(MaybeRounded::Precise(d)) => d.0.to_string(),
        Ok(MaybeRounded::Rounded(d)) => format!("{} or {}", d.0, d.add_plies(1).0),
        Err(_) => "unknown".to_owned(),
    }
}

/// `Syzygy: White wins (Black to move: WDL -2, DTZ -14)`, saying when the 50-move rule (or
/// ignoring it) decided.
fn reason(outcome: KnownOutcome, probe: &Probe, turn: Color, ignore_50: bool) -> String {
    let wdl = i32::from(probe.wdl);
    let mut figures = format!(
        "{} to move: WDL {}{wdl}, DTZ {}",
        side(turn),
        if wdl > 0 { "+" } else { "" },
        dtz_text(&probe.dtz)
    );
    if probe.halfmoves > 0 {
        figures.push_str(&format!(", halfmove clock {}", probe.halfmoves));
    }
    let result = match outcome {
        KnownOutcome::Decisive { winner } => {
            // Won only because the 50-move rule is ignored: say so.
            let dtz = probe.dtz.as_ref().ok().copied();
            let strict = classify(probe.wdl, dtz, probe.halfmoves, false);
            let note = if ignore_50 && strict.is_none_or(|v| v == 0) {
                ", ignoring the 50-move rule"
            } else {
                ""
            };
            format!("{} wins{note}", side(winner))
        }
        KnownOutcome::Draw if probe.wdl != Wdl::Draw => "draw by the 50-move rule".to_owned(),
        KnownOutcome::Draw => "draw".to_owned(),
    };
    format!("{REASON_PREFIX} {result} ({figures})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn precise(n: i32) -> Option<MaybeRounded<Dtz>> {
        Some(MaybeRounded::Precise(Dtz(n)))
    }

    fn rounded(n: i32) -> Option<MaybeRounded<Dtz>> {
        Some(MaybeRounded::Rounded(Dtz(n)))
    }

    #[test]
    fn after_a_zeroing_move_the_table_value_decides() {
        assert_eq!(classify(Wdl::Win, None, 0, false), Some(1));
        assert_eq!(classify(Wdl::Loss, None, 0, false), Some(-1));
        assert_eq!(classify(Wdl::Draw, None, 0, false), Some(0));
        // Cursed wins and blessed losses are draws under the 50-move rule ...
        assert_eq!(classify(Wdl::CursedWin, precise(105), 0, false), Some(0));
        assert_eq!(classify(Wdl::BlessedLoss, precise(-105), 0, false), Some(0));
        // ... and wins and losses without it.
        assert_eq!(classify(Wdl::CursedWin, precise(105), 0, true), Some(1));
        assert_eq!(classify(Wdl::BlessedLoss, precise(-105), 0, true), Some(-1));
    }

    #[test]
    fn the_halfmove_clock_counts_with_the_dtz() {
        // A win in 13 plies to zeroing with 87 halfmoves gone: zeroing on the 100th, still won.
        assert_eq!(classify(Wdl::Win, precise(13), 87, false), Some(1));
        // One more halfmove and the 50-move rule draws it ...
        assert_eq!(classify(Wdl::Win, precise(13), 88, false), Some(0));
        assert_eq!(classify(Wdl::Loss, precise(-13), 88, false), Some(0));
        // ... unless it is ignored.
        assert_eq!(classify(Wdl::Win, precise(13), 88, true), Some(1));
        // Without the DTZ the clock cannot be counted; the table value alone needs no DTZ.
        assert_eq!(classify(Wdl::Win, None, 1, false), None);
        assert_eq!(classify(Wdl::Win, None, 1, true), Some(1));
        // A rounded DTZ may be one ply longer: on the limit the answer is unknown, below it
        // the win stands.
        assert_eq!(classify(Wdl::Win, rounded(13), 87, false), None);
        assert_eq!(classify(Wdl::Win, rounded(13), 86, false), Some(1));
        assert_eq!(classify(Wdl::Loss, rounded(-13), 87, false), None);
        // A draw is a draw whatever the clock.
        assert_eq!(classify(Wdl::Draw, precise(0), 99, false), Some(0));
    }
}
