//! The fastchess-style interim report that the match runner prints every N pairs, and the
//! per-point summary ([`SprtPoint`]) it records for the final chart.

use std::fmt;

use super::counts::PairTracker;
use super::elo::{elo_report, EloReport};
use super::sprt::{Decision, Sprt};

/// An interim (or final) report of a match, shown with `Display` in fastchess's layout:
///
/// ```text
/// --------------------------------------------------
/// Results of dev vs base (10+0.1, 1t, 16MB, openings.epd):
/// Elo: 12.34 +/- 5.67, nElo: 15.01 +/- 6.89
/// LOS: 99.99 %, DrawRatio: 41.20 %, PairsRatio: 1.23
/// Games: 1000, Wins: 300, Losses: 250, Draws: 450, Points: 525.0 (52.50 %)
/// Ptnml(0-2): [10, 100, 200, 150, 40], WL/DD Ratio: 0.98
/// LLR: 2.95 (-2.94, 2.94) [0.00, 5.00]
/// --------------------------------------------------
/// ```
///
/// Elo, LOS, DrawRatio and LLR come from the complete pairs (pentanomial: DrawRatio is the share
/// of WL+DD pairs, as in fastchess) when `paired`, else from all games (trinomial);
/// Games/Wins/Losses/Draws/Points always count every finished game. The
/// `Ptnml` line is left out when not `paired`, the `LLR` line when there is no SPRT.
#[derive(Debug, Clone, Copy)]
pub struct InterimReport<'a> {
    /// Name of engine 1 (the engine under test; results are from its view).
    pub engine: &'a str,
    /// Name of engine 2.
    pub opponent: &'a str,
    /// Match conditions shown in parentheses, e.g. "10+0.1, 1t, 16MB, openings.epd"; may be empty.
    pub conditions: &'a str,
    /// The results so far.
    pub tracker: &'a PairTracker,
    /// Whether games are played in pairs with colours swapped (pentanomial statistics).
    pub paired: bool,
    /// The SPRT being run, if any.
    pub sprt: Option<&'a Sprt>,
}

const RULE: &str = "--------------------------------------------------";

impl InterimReport<'_> {
    /// Elo figures from the pentanomial when paired, else from the trinomial.
    pub fn elo(&self) -> EloReport {
        elo_of_match(self.tracker, self.paired)
    }

    /// LLR of the SPRT (if any) on the same counts as [`InterimReport::elo`]: the one the
    /// runner's stopping decision reads ([`Sprt::status_of_match`]).
    pub fn llr(&self) -> Option<f64> {
        Some(self.sprt?.status_of_match(self.tracker, self.paired).0)
    }
}

/// Elo figures of a match's results: from the complete pairs when `paired`, else from every game.
fn elo_of_match(tracker: &PairTracker, paired: bool) -> EloReport {
    if paired {
        elo_report(&tracker.pentanomial())
    } else {
        elo_report(&tracker.trinomial())
    }
}

impl InterimReport<'_> {
    /// The games and points, and in paired mode the pentanomial counts.
    fn fmt_counts(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.tracker.trinomial();
        let games = t.games();
        let percent = if games > 0 {
            100.0 * t.points() / games as f64
        } else {
            0.0
        };
        writeln!(
            f,
            "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({percent:.2} %)",
            t.wins,
            t.losses,
            t.draws,
            t.points()
        )?;
        if self.paired {
            let p = self.tracker.pentanomial().0;
            writeln!(
                f,
                "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {:.2}",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                self.tracker.wl_dd_ratio()
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for InterimReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.tracker.trinomial();
        let r = self.elo();
        writeln!(f, "{RULE}")?;
        if self.conditions.is_empty() {
            writeln!(f, "Results of {} vs {}:", self.engine, self.opponent)?;
        } else {
            let (e, o, c) = (self.engine, self.opponent, self.conditions);
            writeln!(f, "Results of {e} vs {o} ({c}):")?;
        }
        writeln!(
            f,
            "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}",
            r.elo.value, r.elo.error, r.nelo.value, r.nelo.error
        )?;
        // As fastchess: in paired mode the draw ratio is that of pairs in the middle bucket.
        let draw_ratio = if self.paired {
            self.tracker.pentanomial().draw_ratio()
        } else {
            t.draw_ratio()
        };
        write!(
            f,
            "LOS: {:.2} %, DrawRatio: {:.2} %",
            100.0 * r.los,
            100.0 * draw_ratio
        )?;
        if self.paired {
            write!(
                f,
                ", PairsRatio: {:.2}",
                self.tracker.pentanomial().pairs_ratio()
            )?;
        }
        writeln!(f)?;
        self.fmt_counts(f)?;
        if let (Some(sprt), Some(llr)) = (self.sprt, self.llr()) {
            writeln!(
                f,
                "LLR: {llr:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]",
                sprt.bounds.lower, sprt.bounds.upper, sprt.elo0, sprt.elo1
            )?;
        }
        writeln!(f, "{RULE}")
    }
}

/// One point of an SPRT's history: where the LLR and the Elo estimate stood after `games`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtPoint {
    /// Games finished so far.
    pub games: u64,
    /// LLR at that moment.
    pub llr: f64,
    /// Elo estimate at that moment (logistic).
    pub elo: f64,
    /// Half-width of its 95 % confidence interval.
    pub elo_error: f64,
}

impl SprtPoint {
    /// The point for the current state of `report` (LLR 0 when it has no SPRT).
    pub fn from_report(report: &InterimReport<'_>) -> SprtPoint {
        let r = report.elo();
        SprtPoint {
            games: report.tracker.trinomial().games(),
            llr: report.llr().unwrap_or(0.0),
            elo: r.elo.value,
            elo_error: r.elo.error,
        }
    }

    /// Where `sprt` stands on a match's results, read from the counts alone (no report is
    /// built): the point for its history and the decision ([`Sprt::status_of_match`]).
    pub fn of_match(tracker: &PairTracker, paired: bool, sprt: &Sprt) -> (SprtPoint, Decision) {
        let (llr, decision) = sprt.status_of_match(tracker, paired);
        let r = elo_of_match(tracker, paired);
        let point = SprtPoint {
            games: tracker.trinomial().games(),
            llr,
            elo: r.elo.value,
            elo_error: r.elo.error,
        };
        (point, decision)
    }
}

#[cfg(test)]
mod tests {
    use super::super::counts::GameResult::{self, Draw, Loss, Win};
    use super::super::sprt::Model;
    use super::*;

    /// A tracker with exactly the given pentanomial counts, the middle bucket split into
    /// `wl` win-loss and `dd` draw-draw pairs, plus one unfinished pair (a lone win).
    fn tracker(penta: [u64; 5], wl: u64, dd: u64) -> PairTracker {
        assert_eq!(penta[2], wl + dd);
        let mut t = PairTracker::new();
        let mut id = 0;
        let mut pairs = |n: u64, a: GameResult, b: GameResult| {
            for _ in 0..n {
                t.add(id, a);
                t.add(id, b);
                id += 1;
            }
        };
        pairs(penta[0], Loss, Loss);
        pairs(penta[1], Loss, Draw);
        pairs(wl, Win, Loss);
        pairs(dd, Draw, Draw);
        pairs(penta[3], Draw, Win);
        pairs(penta[4], Win, Win);
        t.add(1_000_000, Win);
        t
    }

    #[test]
    fn layout_matches_fastchess() {
        let t = tracker([34, 54, 63, 64, 75], 30, 33);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let report = InterimReport {
            engine: "dev",
            opponent: "base",
            conditions: "10+0.1, 1t, 16MB, openings.epd",
            tracker: &t,
            paired: true,
            sprt: Some(&sprt),
        };
        let text = report.to_string();
        let lines: Vec<&str> = text.lines().collect();
        // Games: 580 in pairs + 1 lone win. W = 30 + 64 + 150 + 1, L = 68 + 54 + 30, D = 54 + 66 + 64.
        let llr = sprt.llr(&t.pentanomial());
        let expected = [
            RULE.to_string(),
            "Results of dev vs base (10+0.1, 1t, 16MB, openings.epd):".to_string(),
            "Elo: 55.58 +/- 27.65, nElo: 57.94 +/- 28.28".to_string(),
            format!(
                "LOS: {:.2} %, DrawRatio: {:.2} %, PairsRatio: 1.58",
                100.0 * report.elo().los,
                100.0 * 63.0 / 290.0
            ),
            "Games: 581, Wins: 245, Losses: 152, Draws: 184, Points: 337.0 (58.00 %)".to_string(),
            "Ptnml(0-2): [34, 54, 63, 64, 75], WL/DD Ratio: 0.91".to_string(),
            format!("LLR: {llr:.2} (-2.94, 2.94) [0.00, 5.00]"),
            RULE.to_string(),
        ];
        assert_eq!(lines, expected);
        assert!(
            llr > 1.0 && llr < 2.94,
            "a strong lead, not yet enough pairs: {llr}"
        );
    }

    #[test]
    fn unpaired_report_without_sprt_uses_games() {
        let mut t = PairTracker::new();
        for (i, r) in [(136, Win), (96, Loss), (111, Draw)]
            .iter()
            .flat_map(|&(n, r)| std::iter::repeat_n(r, n))
            .enumerate()
        {
            t.add(i as u64, r);
        }
        let report = InterimReport {
            engine: "a",
            opponent: "b",
            conditions: "",
            tracker: &t,
            paired: false,
            sprt: None,
        };
        let text = report.to_string();
        assert!(text.contains("Results of a vs b:\n"), "{text}");
        assert!(
            text.contains("Elo: 40.70 +/- 30.43, nElo: 49.77 +/- 36.77\n"),
            "{text}"
        );
        assert!(
            text.contains("LOS: 99.60 %, DrawRatio: 32.36 %\n"),
            "{text}"
        );
        assert!(!text.contains("Ptnml") && !text.contains("LLR"), "{text}");
        let p = SprtPoint::from_report(&report);
        assert_eq!((p.games, p.llr), (343, 0.0));
        assert!((p.elo - 40.70).abs() < 0.01);
    }

    #[test]
    fn the_stopping_decision_and_the_report_read_the_same_counts() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        // Leading, accepted and rejected results; each paired (pentanomial) and not (trinomial).
        for (penta, wl, dd) in [
            ([34, 54, 63, 64, 75], 30, 33),
            ([10, 40, 300, 80, 60], 100, 200),
            ([90, 80, 200, 40, 10], 60, 140),
        ] {
            let t = tracker(penta, wl, dd);
            for paired in [true, false] {
                let report = InterimReport {
                    engine: "dev",
                    opponent: "base",
                    conditions: "",
                    tracker: &t,
                    paired,
                    sprt: Some(&sprt),
                };
                let (point, decision) = SprtPoint::of_match(&t, paired, &sprt);
                assert_eq!(point, SprtPoint::from_report(&report));
                assert_eq!(decision, sprt.bounds.decide(report.llr().unwrap()));
                // The counts a paired match reads are its pairs, else its games.
                let want = if paired {
                    sprt.llr(&t.pentanomial())
                } else {
                    sprt.llr(&t.trinomial())
                };
                assert_eq!(point.llr, want);
                assert_eq!(point.games, t.trinomial().games());
            }
            let paired = SprtPoint::of_match(&t, true, &sprt).0.llr;
            assert_ne!(paired, SprtPoint::of_match(&t, false, &sprt).0.llr);
        }
        // The three results reach all three decisions.
        let decisions: Vec<Decision> = [
            ([34, 54, 63, 64, 75], 30, 33),
            ([10, 40, 300, 80, 60], 100, 200),
            ([90, 80, 200, 40, 10], 60, 140),
        ]
        .iter()
        .map(|&(p, wl, dd)| SprtPoint::of_match(&tracker(p, wl, dd), true, &sprt).1)
        .collect();
        assert_eq!(
            decisions,
            [Decision::Continue, Decision::AcceptH1, Decision::AcceptH0]
        );
    }

    #[test]
    fn empty_tracker_prints_finite_numbers() {
        let t = PairTracker::new();
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Logistic).unwrap();
        let text = InterimReport {
            engine: "a",
            opponent: "b",
            conditions: "",
            tracker: &t,
            paired: true,
            sprt: Some(&sprt),
        }
        .to_string();
        assert!(!text.contains("NaN"), "{text}");
        assert!(text.contains("Games: 0, Wins: 0, Losses: 0, Draws: 0, Points: 0.0 (0.00 %)"));
    }
}
