//! The match runner: worker threads play games from a shared queue; the calling thread owns all
//! results (statistics, PGN, results file, progress) and decides when to stop.

use super::config::{FaultCounts, MatchConfig, MatchOutcome, PairingResult};
use super::report::{self, Progress};
use super::resume::{append_journal, journal_path, read_journal, GameEntry, ResultsFile};
use super::schedule::{pairings, schedule, GameJob};
use crate::game::pgn::{write_game, PgnHeader};
use crate::game::{play_game, GameRecord, GameSettings, Opening, Outcome, Player};
use crate::stats::{Decision, GameResult, PairTracker, SprtPoint};
use anyhow::{bail, Context};
use std::collections::{HashSet, VecDeque};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// Plays the match described by `cfg` and returns its results. Engine failures cost games, not
/// the match; errors are reserved for bad configuration and unwritable output files.
pub fn run_match(cfg: &MatchConfig) -> anyhow::Result<MatchOutcome> {
    check(cfg)?;
    let default_book = [Opening::default()];
    let openings: &[Opening] = if cfg.openings.is_empty() {
        &default_book
    } else {
        &cfg.openings
    };
    let names: Vec<String> = cfg.engines.iter().map(|e| e.spec.display_name()).collect();
    let ps = pairings(cfg.engines.len(), cfg.mode);
    let jobs = schedule(
        cfg.engines.len(),
        cfg.mode,
        cfg.rounds,
        cfg.games_per_round,
        openings.len(),
    );
    let mut state = State {
        outcome: MatchOutcome {
            names: names.clone(),
            pairings: ps
                .iter()
                .map(|&(a, b)| PairingResult {
                    a,
                    b,
                    tracker: PairTracker::new(),
                    rounds: Default::default(),
                })
                .collect(),
            games: 0,
            resumed: 0,
            scheduled: jobs.len() as u64,
            faults: vec![FaultCounts::default(); names.len()],
            decision: None,
            history: Vec::new(),
            aborted: None,
        },
        file: ResultsFile {
            version: 1,
            args: cfg.args.clone(),
            engines: names.clone(),
            scheduled: jobs.len() as u64,
            ..ResultsFile::default()
        },
        pgn: open_pgn(cfg)?,
        journal: None,
    };
    let mut done = HashSet::new();
    if cfg.resume {
        let path = cfg
            .results
            .as_ref()
            .context("--resume needs a results file")?;
        let old = ResultsFile::load(path).map_err(anyhow::Error::msg)?;
        // More games than recorded means `--rounds` extended the run; the schedule is
        // round by round, so the games already played keep their ids.
        if old.scheduled > jobs.len() as u64 || old.engines != names {
            bail!(
                "{}: recorded for a different match ({} games scheduled there, {} now; \
                 --rounds may extend a run, not shorten it)",
                path.display(),
                old.scheduled,
                jobs.len()
            );
        }
        for entry in read_journal(&journal_path(path)).map_err(anyhow::Error::msg)? {
            if done.insert(entry.id) {
                state.apply(cfg, &entry);
                state.outcome.resumed += 1;
            }
        }
    }
    if let Some(path) = &cfg.results {
        state.journal = Some(open_journal(&journal_path(path), cfg.resume)?);
    }
    let queue: Mutex<VecDeque<GameJob>> = Mutex::new(
        jobs.iter()
            .filter(|j| !done.contains(&j.id))
            .copied()
            .collect(),
    );
    let stop = AtomicBool::new(
        state
            .outcome
            .decision
            .is_some_and(|d| d != Decision::Continue),
    );
    let progress = Progress::new(cfg, state.outcome.scheduled, state.outcome.games);
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let (tx, rx) = mpsc::channel::<(GameJob, GameRecord)>();
        for _ in 0..cfg.concurrency {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || worker(cfg, openings, queue, stop, &tx));
        }
        drop(tx);
        for (job, record) in rx {
            let entry = GameEntry::new(&job, &record);
            progress.game_line(&job, &record);
            if let Some(pgn) = state.pgn.as_mut() {
                let header = pgn_header(cfg, &job, openings.len());
                pgn.write_all(write_game(&record, &header).as_bytes())
                    .context("writing the PGN file")?;
                pgn.flush().context("writing the PGN file")?;
            }
            state.apply(cfg, &entry);
            if let Some(journal) = state.journal.as_mut() {
                append_journal(journal, &entry).map_err(anyhow::Error::msg)?;
            }
            if let Some(path) = &cfg.results {
                state.file.finished = state.outcome.games;
                state.file.pairings = report::summaries(cfg, &state.outcome);
                state.file.decision = state.outcome.decision.map(|d| d.to_string());
                state.file.save(path).map_err(anyhow::Error::msg)?;
            }
            progress.update(cfg, &state.outcome);
            if cfg.rating_interval > 0 && state.outcome.games.is_multiple_of(cfg.rating_interval) {
                progress.print(&report::interim(cfg, &state.outcome));
            }
            let decided = state
                .outcome
                .decision
                .is_some_and(|d| d != Decision::Continue);
            if decided || state.outcome.aborted.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    })?;
    progress.finish();
    Ok(state.outcome)
}

fn check(cfg: &MatchConfig) -> anyhow::Result<()> {
    if cfg.engines.len() < 2 {
        bail!(
            "a match needs at least two engines (got {})",
            cfg.engines.len()
        );
    }
    if !(1..=2).contains(&cfg.games_per_round) {
        bail!(
            "games per round must be 1 or 2 (got {})",
            cfg.games_per_round
        );
    }
    if cfg.concurrency == 0 {
        bail!("concurrency must be at least 1");
    }
    for e in &cfg.engines {
        let cmd = std::path::Path::new(&e.spec.cmd);
        let base = e
            .spec
            .dir
            .as_deref()
            .filter(|_| cmd.is_relative() && !cmd.exists());
        let exists = base.map_or_else(|| cmd.exists(), |d| d.join(cmd).exists());
        if e.spec.cmd.contains('/') && !exists {
            bail!(
                "engine {}: `{}` does not exist",
                e.spec.display_name(),
                e.spec.cmd
            );
        }
        if !e.limits.is_bounded() {
            bail!(
                "engine {}: no time control or limit (give tc=, st=, nodes= or depth=)",
                e.spec.display_name()
            );
        }
    }
    Ok(())
}

fn open_pgn(cfg: &MatchConfig) -> anyhow::Result<Option<std::fs::File>> {
    let Some(path) = &cfg.pgn_out else {
        return Ok(None);
    };
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true);
    if cfg.resume {
        opts.append(true);
    } else {
        opts.write(true).truncate(true);
    }
    Ok(Some(opts.open(path).with_context(|| {
        format!("cannot open {}", path.display())
    })?))
}

fn open_journal(path: &std::path::Path, append: bool) -> anyhow::Result<std::fs::File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true);
    if append {
        opts.append(true);
    } else {
        opts.write(true).truncate(true);
    }
    opts.open(path)
        .with_context(|| format!("cannot open {}", path.display()))
}

fn pgn_header(cfg: &MatchConfig, job: &GameJob, n_openings: usize) -> PgnHeader {
    let opening = if cfg.book_name.is_empty() {
        String::new()
    } else {
        format!("{} #{} of {n_openings}", cfg.book_name, job.opening + 1)
    };
    PgnHeader {
        event: cfg.event.clone(),
        round: format!("{}.{}", job.pair + 1, job.game_in_pair + 1),
        date: report::pgn_date(std::time::SystemTime::now()),
        opening,
    }
}

/// One worker: its own engine processes (one per participant, started on first use), games
/// taken from the queue until it is empty or the match stops.
fn worker(
    cfg: &MatchConfig,
    openings: &[Opening],
    queue: &Mutex<VecDeque<GameJob>>,
    stop: &AtomicBool,
    tx: &mpsc::Sender<(GameJob, GameRecord)>,
) {
    let mut players: Vec<Player> = cfg
        .engines
        .iter()
        .map(|e| Player::new(e.spec.clone(), cfg.startup, cfg.ping))
        .collect();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(job) = queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        let settings = GameSettings {
            white_limits: cfg.engines[job.white].limits,
            black_limits: cfg.engines[job.black].limits,
            adjudication: cfg.adjudication,
        };
        let (white, black) = two_mut(&mut players, job.white, job.black);
        let record = play_game(white, black, &openings[job.opening], &settings);
        if tx.send((job, record)).is_err() {
            break;
        }
    }
    for p in &mut players {
        p.shutdown();
    }
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(v: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    assert_ne!(i, j, "an engine cannot play itself in one process");
    if i < j {
        let (lo, hi) = v.split_at_mut(j);
        (&mut lo[i], &mut hi[0])
    } else {
        let (lo, hi) = v.split_at_mut(i);
        (&mut hi[0], &mut lo[j])
    }
}

/// Everything the collecting thread owns.
struct State {
    outcome: MatchOutcome,
    file: ResultsFile,
    pgn: Option<std::fs::File>,
    journal: Option<std::fs::File>,
}

impl State {
    /// Counts one finished game (new or loaded by resume).
    fn apply(&mut self, cfg: &MatchConfig, e: &GameEntry) {
        let o = &mut self.outcome;
        o.games += 1;
        let n_pairings = o.pairings.len() as u64;
        let Some(p) = o.pairings.get_mut(e.pairing) else {
            return;
        };
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
        let pair_done = p.tracker.add(e.pair, result).is_some() || cfg.games_per_round == 1;
        if let Some(f) = &e.fault {
            let engine = if f.white { e.white } else { e.black };
            o.faults[engine].add(f.kind);
            if !cfg.recover && f.kind.needs_restart() {
                o.aborted = Some(format!("{} ({}), and recover is off", e.reason, f.detail));
            }
        }
        if let (Some(sprt), true, 1) = (cfg.sprt, pair_done, o.pairings.len()) {
            let point = report::with_report(cfg, &o.names, &o.pairings[0], SprtPoint::from_report);
            let decision = sprt.bounds.decide(point.llr);
            o.history.push(point);
            o.decision = Some(decision);
        }
    }
}
