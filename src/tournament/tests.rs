//! Matches between faulty engines through the library entry point.

use super::config::Stop;
use super::*;
use crate::game::{Limits, Opening};
use crate::uci::tests::faulty;

fn engine(flags: &[&str], name: &str) -> EngineConfig {
    let mut spec = faulty(flags);
    spec.name = Some(name.to_owned());
    let limits = Limits {
        tc: Some("5+0.05".parse().unwrap()),
        margin_ms: 100,
        ..Limits::default()
    };
    EngineConfig {
        spec,
        limits,
        revision: None,
    }
}

#[test]
fn a_gauntlet_with_a_crashing_engine_completes_every_game() {
    let engines = vec![
        engine(&["--seed", "1"], "A"),
        engine(&["--seed", "2"], "B"),
        engine(&["--crash-after", "2"], "C"),
    ];
    let mut cfg = MatchConfig::new(engines, vec![Opening::default()]);
    cfg.rounds = 3;
    cfg.concurrency = 2;
    // This test is about recovery: C is allowed to crash in every game.
    cfg.fault_rules.max_consecutive = 0;
    let o = run_match(&cfg).unwrap();
    assert_eq!((o.games, o.scheduled), (12, 12));
    assert_eq!(o.pairings.len(), 2);
    assert_eq!(
        o.pairings[1].tracker.trinomial().wins,
        6,
        "A wins every game against the crasher"
    );
    assert_eq!(o.faults[2].crashes, 6);
    assert_eq!(o.total_faults().total(), 6);
    assert_eq!(o.pairings[0].tracker.pentanomial().pairs(), 3);
    // The challengers compared on the three openings: C scores nothing, B what it scored.
    let c = compare::challengers(&o);
    assert_eq!(c.len(), 1);
    assert_eq!(
        (
            c[0].challenger.as_str(),
            c[0].reference.as_str(),
            c[0].rounds
        ),
        ("C", "B", 3)
    );
    let t = o.pairings[0].tracker.trinomial();
    let a_points = t.wins as f64 + t.draws as f64 / 2.0;
    assert!(
        (c[0].difference - (a_points - 6.0) / 6.0).abs() < 1e-12,
        "{}",
        c[0]
    );
}

#[test]
fn without_recover_a_crash_stops_the_match() {
    let engines = vec![engine(&[], "A"), engine(&["--crash-after", "1"], "C")];
    let mut cfg = MatchConfig::new(engines, vec![]);
    cfg.rounds = 20;
    cfg.recover = false;
    let o = run_match(&cfg).unwrap();
    let stop = o.stopped.as_ref().unwrap();
    assert!(matches!(stop, Stop::Fault(_)), "{stop:?}");
    assert!(stop.to_string().contains("--recover is off"), "{stop}");
    // The game that a worker had already begun when the crash was reported may still finish.
    assert!(o.games <= 2, "{} games", o.games);
}

#[test]
fn an_engine_that_cannot_start_stops_the_run_before_any_game() {
    let dir = crate::test_dir("setup");
    let results = dir.join("r.json");
    let _ = std::fs::remove_file(&results);
    let engines = vec![engine(&[], "A"), engine(&["--exit-before-uciok", "1"], "B")];
    let mut cfg = MatchConfig::new(engines, vec![]);
    cfg.rounds = 50;
    cfg.results = Some(results.clone());
    let o = run_match(&cfg).unwrap();
    assert_eq!(o.games, 0);
    let Some(Stop::Setup(why)) = &o.stopped else {
        panic!("{:?}", o.stopped)
    };
    assert!(why.contains("engine B ("), "{why}");
    assert!(
        why.contains("--exit-before-uciok 1"),
        "the command line: {why}"
    );
    assert!(why.contains("cannot load its network"), "its stderr: {why}");
    assert!(!results.exists(), "a broken setup writes no results");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_that_crashes_every_game_stops_the_run_after_three() {
    let engines = vec![engine(&[], "A"), engine(&["--crash-after", "0"], "B")];
    let mut cfg = MatchConfig::new(engines, vec![]);
    cfg.rounds = 50;
    let o = run_match(&cfg).unwrap();
    // The third crash stops it; a game the worker had begun by then may still finish.
    assert_eq!(o.games - o.late_games, 3);
    assert!(o.late_games <= 1);
    assert!(
        matches!(&o.stopped, Some(Stop::ConsecutiveFaults { engine, count: 3, .. }) if engine == "B"),
        "{:?}",
        o.stopped
    );
}

#[test]
fn bad_configs_are_errors() {
    let cfg = MatchConfig::new(vec![engine(&[], "A")], vec![]);
    assert!(run_match(&cfg)
        .unwrap_err()
        .to_string()
        .contains("two engines"));
    let mut e = engine(&[], "B");
    e.limits = Limits::default();
    let cfg = MatchConfig::new(vec![engine(&[], "A"), e], vec![]);
    assert!(run_match(&cfg)
        .unwrap_err()
        .to_string()
        .contains("no time control"));
}

#[test]
#[ignore = "needs /usr/games/stockfish"]
fn stockfish_pair_with_node_limits_has_no_faults() {
    let sf = |name: &str| EngineConfig {
        spec: crate::uci::EngineSpec {
            name: Some(name.into()),
            ..crate::uci::EngineSpec::new("/usr/games/stockfish")
        }
        .option("Threads", "1")
        .option("Hash", "16"),
        limits: Limits {
            nodes: Some(2000),
            ..Limits::default()
        },
        revision: None,
    };
    let opening = Opening {
        fen: None,
        moves: ["e2e4", "c7c5"].map(String::from).to_vec(),
        origin: None,
    };
    let mut cfg = MatchConfig::new(vec![sf("a"), sf("b")], vec![opening]);
    cfg.concurrency = 2;
    let o = run_match(&cfg).unwrap();
    assert_eq!(o.games, 2);
    assert_eq!(o.total_faults().total(), 0);
    assert_eq!(o.pairings[0].tracker.pentanomial().pairs(), 1);
}
