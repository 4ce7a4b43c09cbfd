//! The match runner: worker threads play games from a shared queue; the calling thread owns all
//! results (statistics, PGN, results file, progress) and decides when to stop.

use super::config::{FaultCounts, MatchConfig, MatchOutcome, PairingResult, Stop};
use super::report::{self, Progress};
use super::resume::{append_journal, journal_path, read_journal, GameEntry, ResultsFile};
use super::schedule::{pairings, schedule, GameJob};
use super::tally::Tally;
use super::{affinity, interrupt, lock, preflight};
use crate::forensics::format::replay_command;
use crate::forensics::FailureFiles;
use crate::game::pgn::{write_game, PgnHeader};
use crate::game::{play_game, GameRecord, GameSettings, NotPlayed, Opening, Player};
use crate::stats::{Decision, PairTracker};
use crate::uci::TrafficLog;
use anyhow::{bail, Context};
use std::collections::{HashSet, VecDeque};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// How often the results summary is rewritten while games come in (the journal gets every game).
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Plays the match described by `cfg` and returns its results. Engine faults cost games; a
/// broken setup (an engine that cannot start, or faults game after game) stops the run with
/// [`MatchOutcome::stopped`] set and no verdict. Errors are reserved for bad configuration and
/// unwritable output files.
pub fn run_match(cfg: &MatchConfig) -> anyhow::Result<MatchOutcome> {
    // Taken before anything is checked or written, and held (its file deleted) until the run
    // returns, however it returns.
    let _lock = match &cfg.results {
        Some(path) => {
            let lock = lock::acquire(path, &holder(cfg))?;
            if let Some(note) = &lock.taken_over {
                eprintln!("note: {note}");
            }
            Some(lock)
        }
        None => None,
    };
    preflight::check_config(cfg)?;
    let cpus = cpu_plan(cfg)?;
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
    let mut state = Tally {
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
            stopped: None,
            engine_games: vec![0; names.len()],
            repeated_games: 0,
            late_games: 0,
            failures: Default::default(),
        },
        file: ResultsFile {
            version: 1,
            args: cfg.args.clone(),
            engines: names.clone(),
            scheduled: jobs.len() as u64,
            ..ResultsFile::default()
        },
        pgn: None,
        journal: None,
        consecutive: vec![0; names.len()],
        seen: HashSet::new(),
    };
    let mut done = HashSet::new();
    if cfg.resume {
        let path = cfg
            .results
            .as_ref()
            .context("--resume needs a results file")?;
        let old = ResultsFile::load(path)?;
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
        for entry in read_journal(&journal_path(path))? {
            if done.insert(entry.id) {
                state.apply(cfg, &entry);
                state.outcome.resumed += 1;
            }
        }
        // A run stopped for a broken setup may be resumed once it is mended: its faults stay
        // counted and the rules look at every new game again. A withheld verdict is looked at
        // again at the next pair (under the limits of this call); a decided SPRT stays decided.
        if let Some(Stop::FaultShare { .. }) = state.outcome.stopped.take() {
            state.outcome.decision = Some(Decision::Continue);
        }
    }
    let queue: VecDeque<GameJob> = jobs
        .iter()
        .filter(|j| !done.contains(&j.id))
        .copied()
        .collect();
    let progress = Progress::new(cfg, state.outcome.scheduled, state.outcome.games);
    if state.finished() || queue.is_empty() {
        progress.finish();
        return Ok(state.outcome);
    }
    // An engine whose program is not there cannot start: the same stop as a failed start (no
    // verdict, nothing written), found before any engine is started.
    if let Some(why) = preflight::missing_engine(cfg) {
        state.outcome.stopped = Some(Stop::Setup(why));
        progress.finish();
        return Ok(state.outcome);
    }
    let log = match &cfg.log {
        Some(path) => Some(
            TrafficLog::open(path)
                .with_context(|| format!("cannot open the UCI log (--log) {}", path.display()))?,
        ),
        None => None,
    };
    // One start of every engine before any game: a broken setup stops here, having played and
    // written nothing.
    let first_game_cpus = cpus
        .as_ref()
        .map(|p| p.games[0].clone())
        .unwrap_or_default();
    match preflight::start_each(cfg, log.as_ref(), &first_game_cpus)? {
        Ok(warnings) => warnings.iter().for_each(|w| progress.warn(w)),
        Err(e) => {
            state.outcome.stopped = Some(Stop::Setup(e.to_string()));
            progress.finish();
            return Ok(state.outcome);
        }
    }
    for w in preflight::opening_warnings(cfg, &jobs, openings.len()) {
        progress.warn(&w);
    }
    state.pgn = open_pgn(cfg)?;
    if let Some(path) = &cfg.results {
        state.journal = Some(open_journal(&journal_path(path))?);
    }
    let mut failures = cfg
        .results
        .as_ref()
        .map(|path| FailureFiles::new(path, cfg.max_failure_files));
    let queue = Mutex::new(queue);
    let stop = AtomicBool::new(false);
    if let Some(plan) = &cpus {
        // The workers started below inherit this.
        affinity::pin_this_thread(&plan.runner).context("--affinity: pinning the runner")?;
    }
    std::thread::scope(|scope| -> anyhow::Result<()> {
        // Bounded: a main thread held up (a slow disk) holds up the workers, not the memory.
        let (tx, rx) =
            mpsc::sync_channel::<(GameJob, Result<GameRecord, NotPlayed>)>(cfg.concurrency);
        let mut saved: Option<std::time::Instant> = None;
        for w in 0..cfg.concurrency {
            let tx = tx.clone();
            let (queue, stop, log) = (&queue, &stop, log.as_ref());
            let game_cpus = cpus
                .as_ref()
                .map(|p| p.games[w].clone())
                .unwrap_or_default();
            scope.spawn(move || worker(cfg, openings, queue, stop, log, &game_cpus, &tx));
        }
        drop(tx);
        for (job, played) in rx {
            let mut record = match played {
                Ok(record) => record,
                Err(not_played) => {
                    // Not a game: nothing is scored or journaled, and a resume replays it.
                    if state.outcome.stopped.is_none() {
                        state.outcome.stopped = Some(match not_played {
                            NotPlayed::Start(e) => Stop::Setup(e.to_string()),
                            NotPlayed::Abandoned => Stop::Interrupted,
                        });
                    }
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            let entry = GameEntry::new(&job, &record);
            progress.game_line(&job, &record);
            if let Some(text) = fault_output(&record) {
                progress.warn(&text);
            }
            if let (Some(files), Some(case)) = (failures.as_mut(), record.case.as_deref_mut()) {
                case.game = job.id + 1;
                case.book = cfg.book_name.clone();
                keep_case(files, case, &progress);
            }
            if let Some(pgn) = state.pgn.as_mut() {
                let header = pgn_header(cfg, &job, &openings[job.opening]);
                pgn.write_all(write_game(&record, &header).as_bytes())
                    .context("writing the PGN file")?;
                pgn.flush().context("writing the PGN file")?;
            }
            state.apply(cfg, &entry);
            if let Some(journal) = state.journal.as_mut() {
                append_journal(journal, &entry)?;
            }
            // The journal line above is what a resume reads; the summary is rewritten at most
            // once a SAVE_EVERY (and when the run ends), because replacing a file by rename makes
            // the file system write it out, and on a busy disk that stalls this thread.
            let due = saved.is_none_or(|t| t.elapsed() >= SAVE_EVERY);
            if let (Some(path), true) = (&cfg.results, due || state.finished()) {
                state.save(cfg, path)?;
                saved = Some(std::time::Instant::now());
            }
            progress.update(cfg, &state.outcome);
            // The last game's report is the final one, printed once by the caller.
            let last = state.finished() || state.outcome.games >= state.outcome.scheduled;
            if !last
                && cfg.rating_interval > 0
                && state.outcome.games.is_multiple_of(cfg.rating_interval)
            {
                progress.print(&report::interim(cfg, &state.outcome));
            }
            if state.finished() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    })?;
    if let Some(files) = &failures {
        state.outcome.failures = files.summary().clone();
    }
    if interrupt::requested() && state.outcome.stopped.is_none() {
        state.outcome.stopped = Some(Stop::Interrupted);
    }
    if let Some(path) = &cfg.results {
        state.save(cfg, path)?;
    }
    progress.finish();
    Ok(state.outcome)
}

/// With `--affinity`, the cores of each concurrent game and of the runner; a game needs as many
/// cores as its engines' largest `Threads`.
fn cpu_plan(cfg: &MatchConfig) -> anyhow::Result<Option<affinity::CpuPlan>> {
    if !cfg.affinity {
        return Ok(None);
    }
    let per_game = cfg
        .engines
        .iter()
        .filter_map(|e| {
            e.spec
                .options
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case("Threads"))
                .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        })
        .max()
        .unwrap_or(1);
    let available = affinity::available_cpus()?;
    Ok(Some(affinity::plan(&available, cfg.concurrency, per_game)?))
}

/// Writes a failed game's case beside the results and says where, or counts it once the bound
/// is reached (saying so the first time). A disk that refuses costs the case, not the run.
fn keep_case(files: &mut FailureFiles, case: &crate::game::FailureCase, progress: &Progress) {
    match files.keep(case) {
        Ok(Some(path)) => progress.warn(&format!(
            "game {} ({} vs {}): {}; its case is in {}, replay it with `{}`",
            case.game,
            case.engines[0].name,
            case.engines[1].name,
            case.reason,
            path.display(),
            replay_command(&path)
        )),
        Ok(None) => {
            let s = files.summary();
            if s.not_recorded == 1 {
                progress.warn(&format!(
                    "game {} failed ({}): {} failure cases are kept already (--max-failure-files); further failures are counted, not written",
                    case.game, case.kind, s.max
                ));
            }
        }
        Err(e) => progress.warn(&format!(
            "game {} failed ({}), but its case could not be written: {e}",
            case.game, case.kind
        )),
    }
}

/// This run in words, for the lock file: the command line.
fn holder(cfg: &MatchConfig) -> String {
    format!("harness {} {}", cfg.kind(), cfg.args.join(" "))
}

/// The faulty engine's last lines, for the user to see why it lost.
fn fault_output(record: &GameRecord) -> Option<String> {
    let fault = record.fault.as_ref()?;
    if record.fault_output.is_empty() {
        return None;
    }
    let name = if fault.white {
        &record.white
    } else {
        &record.black
    };
    let mut text = format!("{name}'s last output before the fault:");
    for line in &record.fault_output {
        text.push_str("\n    ");
        text.push_str(line);
    }
    Some(text)
}

fn open_pgn(cfg: &MatchConfig) -> anyhow::Result<Option<std::fs::File>> {
    let Some(path) = &cfg.pgn_out else {
        return Ok(None);
    };
    // Appended to, never truncated (as fastchess does): earlier games are never lost.
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open the PGN file (--pgnout) {}", path.display()))?;
    Ok(Some(file))
}

/// The journal is only ever appended to: a run that gets here new has no results file, and a
/// journal left beside none (its results file deleted by hand) keeps its games readable.
fn open_journal(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))
}

/// The PGN context of a game; `Opening` names the book and the opening's line in it, as a
/// user would look it up (`sed -n 1234p book.epd`).
fn pgn_header(cfg: &MatchConfig, job: &GameJob, opening: &Opening) -> PgnHeader {
    let opening = match (&opening.origin, cfg.book_name.is_empty()) {
        (Some(origin), false) => format!("{} {origin}", cfg.book_name),
        _ => String::new(),
    };
    PgnHeader {
        event: cfg.event.clone(),
        round: format!("{}.{}", job.pair + 1, job.game_in_pair + 1),
        date: crate::report::dates::pgn_date(std::time::SystemTime::now()),
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
    log: Option<&TrafficLog>,
    cpus: &[usize],
    tx: &mpsc::SyncSender<(GameJob, Result<GameRecord, NotPlayed>)>,
) {
    let mut players: Vec<Player> = cfg
        .engines
        .iter()
        .map(|e| {
            let mut p = Player::new(e.spec.clone(), cfg.startup, cfg.ping);
            p.log = log.cloned();
            p.cpus = cpus.to_vec();
            p
        })
        .collect();
    loop {
        if stop.load(Ordering::Relaxed) || interrupt::requested() {
            break;
        }
        let Some(job) = queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        let mut settings = GameSettings::new(
            cfg.engines[job.white].limits,
            cfg.engines[job.black].limits,
            cfg.adjudication,
        );
        settings.abandon = interrupt::requested;
        settings.variant = cfg.variant;
        let (white, black) = two_mut(&mut players, job.white, job.black);
        let played = play_game(white, black, &openings[job.opening], &settings);
        let not_played = played.is_err();
        if tx.send((job, played)).is_err() || not_played {
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
