//! The collecting thread's bookkeeping: every finished game is counted here, in the order it
//! arrived (the journal's order, so a resume replays the same decisions), and here the fault
//! rules and the SPRT decide whether the run goes on. The SPRT reads the counts
//! (`SprtPoint::of_match`), the same function whose LLR the reports show.

use super::config::{FaultCounts, MatchConfig, MatchOutcome, PairingResult, Stop};
use super::error::MatchError;
use super::report;
use super::resume::{GameEntry, ResultsFile};
use super::schedule::pairings;
use crate::game::Outcome;
use crate::plumbing::append::AppendFile;
use crate::stats::ratings::RatedGame;
use crate::stats::{Decision, GameResult, PairTracker, SprtPoint};
use std::collections::HashSet;

/// Everything the collecting thread owns.
pub(super) struct Tally {
    pub(super) outcome: MatchOutcome,
    pub(super) file: ResultsFile,
    pub(super) pgn: Option<AppendFile>,
    pub(super) journal: Option<AppendFile>,
    /// Faults in a row per engine.
    pub(super) consecutive: Vec<u32>,
    /// Fingerprints of the games so far, to find exact repeats.
    pub(super) seen: HashSet<u64>,
    /// Where the PGN's last journaled game ends (a resume cuts what follows).
    pub(super) pgn_end: Option<u64>,
}

impl Tally {
    /// Nothing counted yet of a run of `scheduled` games between `cfg`'s engines.
    pub(super) fn new(cfg: &MatchConfig, scheduled: u64) -> Tally {
        let names: Vec<String> = cfg.engines.iter().map(|e| e.spec.display_name()).collect();
        let pairings = pairings(cfg.engines.len(), cfg.mode)
            .iter()
            .map(|&(a, b)| PairingResult {
                a,
                b,
                tracker: PairTracker::new(),
                rounds: Default::default(),
            })
            .collect();
        Tally {
            outcome: MatchOutcome {
                names: names.clone(),
                pairings,
                games: 0,
                resumed: 0,
                scheduled,
                faults: vec![FaultCounts::default(); names.len()],
                decision: None,
                history: Vec::new(),
                stopped: None,
                engine_games: vec![0; names.len()],
                repeated_games: 0,
                late_games: 0,
                failures: Default::default(),
                games_rated: Vec::new(),
            },
            file: ResultsFile {
                version: super::resume::RESULTS_VERSION,
                record: Some(super::record::RunRecord::of(cfg)),
                engines: names.clone(),
                scheduled,
                ..ResultsFile::default()
            },
            pgn: None,
            journal: None,
            consecutive: vec![0; names.len()],
            seen: HashSet::new(),
            pgn_end: None,
        }
    }

    /// Whether the run is over: an SPRT decision or a stop.
    pub(super) fn finished(&self) -> bool {
        let o = &self.outcome;
        o.stopped.is_some() || o.decision.is_some_and(|d| d != Decision::Continue)
    }

    /// Rewrites the results summary (atomically).
    pub(super) fn save(
        &mut self,
        cfg: &MatchConfig,
        path: &std::path::Path,
    ) -> Result<(), MatchError> {
        let o = &self.outcome;
        self.file.finished = o.games;
        self.file.pairings = report::summaries(cfg, o);
        self.file.decision = o
            .decision
            .filter(|_| o.stopped.is_none())
            .map(|d| d.to_string());
        self.file.stopped = o.stopped.as_ref().map(|s| s.to_string());
        self.file.faults = report::fault_summaries(o);
        self.file.fault_rules = Some(cfg.fault_rules);
        self.file.repeated_games = o.repeated_games;
        self.file.ratings = report::ratings(o);
        Ok(self.file.save(path)?)
    }

    /// Counts one finished game (new or loaded by resume). Once the run is decided or stopped,
    /// later games (already in flight then) are counted but change neither the decision nor
    /// the stop: the verdict reported is the one that stopped the run.
    pub(super) fn apply(&mut self, cfg: &MatchConfig, e: &GameEntry) {
        let settled = self.finished();
        let o = &mut self.outcome;
        o.games += 1;
        if settled {
            o.late_games += 1;
        }
        o.games_rated.push(RatedGame {
            white: e.white,
            black: e.black,
            outcome: e.outcome,
            pair: Some(e.pair),
        });
        if let Some(h) = e.moves_hash {
            if !self.seen.insert(h) {
                o.repeated_games += 1;
            }
        }
        let Some(pair_done) = self.score(cfg, e) else {
            return;
        };
        self.count_fault(cfg, e, settled);
        if settled || self.outcome.stopped.is_some() {
            return;
        }
        if pair_done && self.outcome.pairings.len() == 1 {
            self.sprt_step(cfg);
        }
    }

    /// Scores the game in its pairing; whether it completed a pair of games (every game does
    /// with one game a round), or `None` for a game of no pairing.
    fn score(&mut self, cfg: &MatchConfig, e: &GameEntry) -> Option<bool> {
        let n_pairings = self.outcome.pairings.len() as u64;
        let p = self.outcome.pairings.get_mut(e.pairing)?;
        let a_is_white = e.white == p.a;
        let result = match (e.outcome, a_is_white) {
            (Outcome::Draw, _) => GameResult::Draw,
            (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => GameResult::Win,
            _ => GameResult::Loss,
        };
        let round = (e.pair / n_pairings) as u32;
        let slot = p.rounds.entry(round).or_insert((0.0, 0));
        slot.0 += match result {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        };
        slot.1 += 1;
        Some(p.tracker.add(e.pair, result).is_some() || cfg.games_per_round == 1)
    }

    /// Counts the game for both engines and its fault, if any, for the engine at fault; a fault
    /// the rules do not allow stops a run that is not settled yet.
    fn count_fault(&mut self, cfg: &MatchConfig, e: &GameEntry, settled: bool) {
        let o = &mut self.outcome;
        let faulty = e
            .fault
            .as_ref()
            .map(|f| if f.white { e.white } else { e.black });
        for engine in [e.white, e.black] {
            if let Some(n) = o.engine_games.get_mut(engine) {
                *n += 1;
            }
            if let Some(c) = self.consecutive.get_mut(engine) {
                *c = if faulty == Some(engine) { *c + 1 } else { 0 };
            }
        }
        let (Some(f), Some(engine)) = (&e.fault, faulty) else {
            return;
        };
        o.faults[engine].add(f.kind);
        let rules = &cfg.fault_rules;
        let run = self.consecutive[engine];
        // A settled run's verdict stands: its late faults are counted, they stop nothing.
        if settled {
            return;
        }
        if !cfg.recover && f.kind.needs_restart() {
            o.stopped = Some(Stop::Fault(format!(
                "{} ({}), and --recover is off",
                e.reason, f.detail
            )));
        } else if rules.max_consecutive > 0 && run >= rules.max_consecutive {
            o.stopped = Some(Stop::ConsecutiveFaults {
                engine: o.names[engine].clone(),
                count: run,
                last: format!("{}: {}", e.reason, f.detail),
            });
        }
    }

    /// The SPRT's look after a complete pair, on the counts alone: a point on its path and
    /// its decision; a bound reached while an engine's faults are over their share gives no
    /// verdict but a stop.
    fn sprt_step(&mut self, cfg: &MatchConfig) {
        let Some(sprt) = cfg.sprt else {
            return;
        };
        let o = &mut self.outcome;
        let paired = cfg.games_per_round == 2;
        let (point, decision) = SprtPoint::of_match(&o.pairings[0].tracker, paired, &sprt);
        o.history.push(point);
        o.decision = Some(decision);
        if decision == Decision::Continue {
            return;
        }
        if let Some(&(i, _)) = o.fault_shares_over(&cfg.fault_rules).first() {
            o.stopped = Some(Stop::FaultShare {
                engine: o.names[i].clone(),
                faults: o.faults[i].total(),
                games: o.engine_games[i],
                limit: cfg.fault_rules.max_share,
                bound: decision,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Fault, FaultKind, Limits};
    use crate::stats::{Model, Sprt};
    use crate::tournament::EngineConfig;
    use crate::uci::EngineSpec;

    fn sprt_config() -> MatchConfig {
        let e = |n: &str| EngineConfig {
            spec: EngineSpec {
                name: Some(n.into()),
                ..EngineSpec::new("/bin/true")
            },
            limits: Limits {
                nodes: Some(1),
                ..Limits::default()
            },
            revision: None,
        };
        let mut cfg = MatchConfig::new(vec![e("dev"), e("base")], vec![]);
        cfg.sprt = Some(Sprt::new(0.0, 10.0, 0.05, 0.05, Model::Normalized).unwrap());
        cfg
    }

    fn state(cfg: &MatchConfig) -> Tally {
        let s = Tally::new(cfg, 100_000);
        assert_eq!(s.outcome.names, ["dev", "base"]);
        assert_eq!(s.outcome.pairings.len(), 1);
        s
    }

    /// Game `id` of pair `id / 2`, dev (engine 0) scoring `dev_points` (1, 0.5 or 0).
    fn entry(id: u64, dev_points: f64, fault_of_base: bool) -> GameEntry {
        let dev_white = id.is_multiple_of(2);
        let (white, black) = if dev_white { (0, 1) } else { (1, 0) };
        let outcome = match (dev_points, dev_white) {
            (0.5, _) => Outcome::Draw,
            (1.0, true) | (0.0, false) => Outcome::WhiteWins,
            _ => Outcome::BlackWins,
        };
        GameEntry {
            id,
            pair: id / 2,
            pairing: 0,
            white,
            black,
            opening: 0,
            outcome,
            reason: "test".into(),
            fault: fault_of_base.then(|| Fault {
                white: !dev_white,
                kind: FaultKind::Crash,
                detail: "exit status: 3".into(),
            }),
            plies: 10,
            duration_ms: 1,
            moves_hash: Some(id),
            pgn_end: None,
        }
    }

    /// Dev loses pair after pair until the run is over (H0 accepted); the games played.
    fn lose_until_h0(cfg: &MatchConfig, s: &mut Tally) -> u64 {
        let mut id = 0;
        while !s.finished() {
            s.apply(cfg, &entry(id, 0.0, false));
            id += 1;
            assert!(id < 1000, "H0 never accepted");
        }
        id
    }

    #[test]
    fn the_verdict_that_stops_the_run_is_the_verdict_reported() {
        let cfg = sprt_config();
        let mut s = state(&cfg);
        let mut id = lose_until_h0(&cfg, &mut s);
        assert_eq!(s.outcome.decision, Some(Decision::AcceptH0));
        let history = s.outcome.history.len();
        // Games in flight at that moment, all won by dev, would pull the LLR back inside the
        // bounds; they are counted, but the decision stands.
        let late = id + 40;
        while id < late {
            s.apply(&cfg, &entry(id, 1.0, false));
            id += 1;
        }
        let llr_now = report::with_report(
            &cfg,
            &s.outcome.names,
            &s.outcome.pairings[0],
            SprtPoint::from_report,
        )
        .llr;
        assert_eq!(
            cfg.sprt.unwrap().bounds.decide(llr_now),
            Decision::Continue,
            "the late games would have changed the decision (LLR {llr_now})"
        );
        assert_eq!(s.outcome.decision, Some(Decision::AcceptH0));
        assert_eq!(s.outcome.history.len(), history);
        assert_eq!(s.outcome.late_games, 40);
        assert_eq!(s.outcome.games, id);
    }

    #[test]
    fn each_decision_is_the_one_the_report_shows() {
        for games_per_round in [2, 1] {
            let mut cfg = sprt_config();
            cfg.games_per_round = games_per_round;
            let mut s = state(&cfg);
            // Dev scores three points in four games until one bound is reached.
            for id in 0..400 {
                let points = if id % 4 == 0 || id % 4 == 3 { 1.0 } else { 0.5 };
                let before = s.outcome.history.len();
                s.apply(&cfg, &entry(id, points, false));
                if s.outcome.history.len() == before {
                    continue;
                }
                let shown =
                    report::with_report(&cfg, &s.outcome.names, &s.outcome.pairings[0], |r| {
                        (SprtPoint::from_report(r), r.llr().unwrap())
                    });
                assert_eq!(s.outcome.history.last(), Some(&shown.0), "game {id}");
                let decided = cfg.sprt.unwrap().bounds.decide(shown.1);
                assert_eq!(s.outcome.decision, Some(decided), "game {id}");
                if s.finished() {
                    break;
                }
            }
            assert!(s.finished(), "{games_per_round} games a round: no decision");
        }
    }

    #[test]
    fn the_saved_summary_holds_the_games_the_decision_and_each_engines_games() {
        let cfg = sprt_config();
        let mut s = state(&cfg);
        let id = lose_until_h0(&cfg, &mut s);
        let dir = crate::test_dir("tally-save");
        let path = dir.join("run.json");
        s.save(&cfg, &path).unwrap();
        let saved = ResultsFile::load(&path).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(saved.finished, id);
        assert_eq!(
            saved.decision.as_deref(),
            Some(Decision::AcceptH0.to_string().as_str())
        );
        assert_eq!(saved.stopped, None);
        assert_eq!(saved.pairings.len(), 1);
        let games: Vec<(&str, u64, u64)> = saved
            .faults
            .iter()
            .map(|f| (f.engine.as_str(), f.games, f.crashes))
            .collect();
        assert_eq!(games, [("dev", id, 0), ("base", id, 0)]);
        assert!(saved.fault_rules.is_some());
    }

    #[test]
    fn a_bound_reached_through_faults_gives_no_verdict() {
        let mut cfg = sprt_config();
        cfg.fault_rules.max_consecutive = 0;
        let mut s = state(&cfg);
        let mut id = 0;
        // Base crashes in every game: dev "wins" them all.
        while !s.finished() {
            s.apply(&cfg, &entry(id, 1.0, true));
            id += 1;
        }
        match s.outcome.stopped.as_ref().unwrap() {
            Stop::FaultShare {
                engine,
                faults,
                games,
                bound,
                ..
            } => {
                assert_eq!(engine, "base");
                assert_eq!((*faults, *games), (id, id));
                assert_eq!(*bound, Decision::AcceptH1);
            }
            other => panic!("{other:?}"),
        }
        // With a limit above the share the same games decide.
        cfg.fault_rules.max_share = 1.0;
        let mut s = state(&cfg);
        for i in 0..id {
            s.apply(&cfg, &entry(i, 1.0, true));
        }
        assert_eq!(s.outcome.stopped, None);
        assert_eq!(s.outcome.decision, Some(Decision::AcceptH1));
    }

    #[test]
    fn consecutive_faults_of_one_engine_stop_the_run_and_a_clean_game_resets_the_count() {
        let cfg = sprt_config();
        let mut s = state(&cfg);
        s.apply(&cfg, &entry(0, 1.0, true));
        s.apply(&cfg, &entry(1, 1.0, true));
        s.apply(&cfg, &entry(2, 0.5, false));
        s.apply(&cfg, &entry(3, 1.0, true));
        s.apply(&cfg, &entry(4, 1.0, true));
        assert_eq!(s.outcome.stopped, None);
        s.apply(&cfg, &entry(5, 1.0, true));
        match s.outcome.stopped.as_ref().unwrap() {
            Stop::ConsecutiveFaults { engine, count, .. } => {
                assert_eq!((engine.as_str(), *count), ("base", 3));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(s.outcome.faults[1].crashes, 5);
    }

    #[test]
    fn draws_are_half_points_and_the_sprt_looks_once_per_pair() {
        let cfg = sprt_config();
        let mut s = state(&cfg);
        for id in 0..4 {
            s.apply(&cfg, &entry(id, 0.5, false));
        }
        let t = s.outcome.pairings[0].tracker.trinomial();
        assert_eq!((t.wins, t.losses, t.draws), (0, 0, 4));
        assert_eq!(s.outcome.pairings[0].rounds[&0], (1.0, 2));
        // Two complete pairs: two points on the LLR path, not four.
        assert_eq!(s.outcome.history.len(), 2);
        s.apply(&cfg, &entry(4, 1.0, false));
        assert_eq!(s.outcome.history.len(), 2, "half a pair adds no point");
    }

    #[test]
    fn exact_repeats_are_counted() {
        let cfg = sprt_config();
        let mut s = state(&cfg);
        let mut e = entry(0, 0.5, false);
        s.apply(&cfg, &e);
        e.id = 2;
        s.apply(&cfg, &e);
        e.id = 4;
        e.moves_hash = Some(77);
        s.apply(&cfg, &e);
        assert_eq!(s.outcome.repeated_games, 1);
    }
}
