//! The sanity match of `harness check`: sable against itself at a fast time control, from the
//! shipped opening book. It passes only with no crash, no time loss, no illegal move, no
//! disconnect and no failed start: the faults that cost real matches their results.

use super::{CheckError, Profile, Verdict};
use crate::game::{Adjudication, DrawRule, Limits, ResignRule, TimeControl};
use crate::openings::{default_book, DEFAULT_BOOK_PATH};
use crate::tournament::{run_match, EngineConfig, MatchConfig, MatchOutcome};

/// Time control of the sanity match: fast, but with room for a busy 2-core CI machine.
const TC: &str = "2+0.02";
/// Grace past the clock before a loss on time: scheduling noise, not engine time use.
const MARGIN_MS: u64 = 100;

/// Plays the sanity match; the number of game pairs depends on the profile.
pub fn run(profile: Profile) -> Result<Verdict, CheckError> {
    let pairs = match profile {
        Profile::Quick => 3,
        Profile::Standard => 10,
        Profile::Full => 50,
    };
    let openings = default_book(2026)?;
    let mut config = MatchConfig::new(vec![engine("sable-a")?, engine("sable-b")?], openings);
    config.rounds = pairs;
    config.concurrency = 2;
    config.book_name = DEFAULT_BOOK_PATH.into();
    config.event = "harness check sanity match".into();
    config.adjudication = Adjudication {
        draw: Some(DrawRule {
            movenumber: 40,
            movecount: 8,
            score: 10,
        }),
        resign: Some(ResignRule {
            movecount: 3,
            score: 1000,
            twosided: true,
        }),
        maxmoves: Some(200),
        syzygy: None,
    };
    Ok(match_verdict(&run_match(&config)?))
}

/// The sanity match passes only when every scheduled game was played without a single fault.
fn match_verdict(outcome: &MatchOutcome) -> Verdict {
    let f = outcome.total_faults();
    let pairing = outcome.pairings.first();
    let wld = pairing.map(|p| p.tracker.trinomial()).unwrap_or_default();
    let summary = format!(
        "{}/{} games at {TC} (+{MARGIN_MS} ms grace), +{} -{} ={}; {} crashes, {} time losses, \
         {} illegal moves, {} disconnects",
        outcome.games,
        outcome.scheduled,
        wld.wins,
        wld.losses,
        wld.draws,
        f.crashes,
        f.time_losses,
        f.illegal_moves,
        f.disconnects + f.startup_failures
    );
    let mut details = Vec::new();
    if let Some(why) = &outcome.stopped {
        details.push(format!("match stopped: {why}"));
    }
    if outcome.games < outcome.scheduled {
        details.push(format!(
            "only {} of {} games finished",
            outcome.games, outcome.scheduled
        ));
    }
    let passed = f.total() == 0 && details.is_empty();
    if f.total() > 0 {
        details.push("rerun with `harness match` and --pgnout to see the faulty games".into());
    }
    Verdict {
        passed,
        summary,
        details,
    }
}

/// A sanity-match participant: sable at the check's time control.
fn engine(name: &str) -> Result<EngineConfig, CheckError> {
    let spec = super::sable_engine_spec(name)?;
    let tc: TimeControl = TC
        .parse()
        .map_err(|source| CheckError::Tc { tc: TC, source })?;
    let limits = Limits {
        tc: Some(tc),
        margin_ms: MARGIN_MS,
        ..Limits::default()
    };
    Ok(EngineConfig {
        spec,
        limits,
        revision: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::FaultKind;
    use crate::tournament::config::{FaultCounts, Stop};

    fn outcome(games: u64, faults: &[FaultKind]) -> MatchOutcome {
        let mut counts = FaultCounts::default();
        faults.iter().for_each(|&k| counts.add(k));
        MatchOutcome {
            names: vec!["sable-a".into(), "sable-b".into()],
            pairings: Vec::new(),
            games,
            resumed: 0,
            scheduled: 20,
            faults: vec![counts, FaultCounts::default()],
            decision: None,
            history: Vec::new(),
            stopped: None,
            engine_games: vec![games; 2],
            repeated_games: 0,
            late_games: 0,
            failures: Default::default(),
            games_rated: Vec::new(),
        }
    }

    #[test]
    fn one_fault_of_any_kind_fails_the_sanity_match() {
        let clean = match_verdict(&outcome(20, &[]));
        assert!(clean.passed, "{clean:?}");
        assert!(clean
            .summary
            .starts_with("20/20 games at 2+0.02 (+100 ms grace)"));
        for kind in [
            FaultKind::TimeLoss,
            FaultKind::Crash,
            FaultKind::IllegalMove,
            FaultKind::Disconnect,
        ] {
            let v = match_verdict(&outcome(20, &[kind]));
            assert!(!v.passed, "{kind:?}");
            assert!(
                v.details.iter().any(|d| d.contains("--pgnout")),
                "{:?}",
                v.details
            );
        }
        let v = match_verdict(&outcome(20, &[FaultKind::TimeLoss]));
        assert!(v.summary.contains("1 time losses"), "{}", v.summary);
    }

    #[test]
    fn the_players_are_this_binarys_sable_at_the_checks_clock() {
        let e = engine("x").unwrap();
        assert_eq!(
            e.spec.cmd,
            std::env::current_exe().unwrap().to_string_lossy()
        );
        assert_eq!(e.spec.args, ["engine"]);
        assert_eq!(e.spec.name.as_deref(), Some("x"));
        assert_eq!(e.spec.options, [("Hash".to_owned(), "16".to_owned())]);
        let tc = e.limits.tc.unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms, tc.moves), (2000, 20, 0));
        assert_eq!(e.limits.margin_ms, 100);
    }

    #[test]
    fn a_short_or_stopped_match_fails() {
        let v = match_verdict(&outcome(19, &[]));
        assert!(!v.passed);
        assert_eq!(v.details, ["only 19 of 20 games finished"]);
        let mut o = outcome(0, &[]);
        o.stopped = Some(Stop::Setup("engine sable-a failed to start".into()));
        let v = match_verdict(&o);
        assert!(!v.passed);
        assert!(v.details[0].starts_with("match stopped: engine sable-a failed to start"));
    }
}
