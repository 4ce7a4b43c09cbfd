//! The match runner: worker threads play games from a shared queue; the calling thread owns all
//! results (statistics, PGN, results file, progress) and decides when to stop.

use super::config::{MatchConfig, MatchOutcome, Stop};
use super::error::MatchError;
use super::report::{self, Progress};
use super::resume::{append_journal, journal_path, read_journal, GameEntry, ResultsFile};
use super::schedule::{schedule, GameJob};
use super::tally::Tally;
use super::{affinity, preflight};
use crate::forensics::format::replay_command;
use crate::forensics::FailureFiles;
use crate::game::pgn::{write_game, PgnHeader};
use crate::game::{play_game, GameRecord, GameSettings, NotPlayed, Opening, Player};
use crate::plumbing::append::{AppendFile, Restored};
use crate::plumbing::{interrupt, lock, naming};
use crate::stats::Decision;
use crate::uci::TrafficLog;
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// How often the results summary is rewritten while games come in (the journal gets every game).
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Plays the match described by `cfg` and returns its results. Engine faults cost games; a
/// broken setup (an engine that cannot start, or faults game after game) stops the run with
/// [`MatchOutcome::stopped`] set and no verdict. Errors are reserved for bad configuration and
/// unwritable output files.
pub fn run_match(cfg: &MatchConfig) -> Result<MatchOutcome, MatchError> {
    // Taken before anything is checked or written, and held (its file deleted) until the run
    // returns, however it returns.
    let _lock = take_lock(cfg)?;
    preflight::check_config(cfg)?;
    let cpus = cpu_plan(cfg)?;
    let default_book = [Opening::default()];
    let openings: &[Opening] = if cfg.openings.is_empty() {
        &default_book
    } else {
        &cfg.openings
    };
    let (mut state, jobs, queue) = plan(cfg, openings.len())?;
    let progress = Progress::new(cfg, state.outcome.scheduled, state.outcome.games);
    if state.finished() || queue.is_empty() {
        progress.finish();
        return Ok(state.outcome);
    }
    let log = match start_engines(cfg, cpus.as_ref(), &progress)? {
        Ok(log) => log,
        Err(why) => {
            // kept as text: the results file stores the reason in words
            state.outcome.stopped = Some(Stop::Setup(why.to_string()));
            progress.finish();
            return Ok(state.outcome);
        }
    };
    // The record is on disk before the first game: a run killed from here on resumes.
    if let Some(path) = &cfg.results {
        state.save(cfg, path)?;
    }
    for w in preflight::opening_warnings(cfg, &jobs, openings.len()) {
        progress.warn(&w);
    }
    let mut collector = Collector::open(cfg, openings, &progress, &mut state)?;
    if let Some(plan) = &cpus {
        // The workers started below inherit this.
        affinity::pin_this_thread(&plan.runner)
            .map_err(MatchError::io("--affinity: pinning the runner"))?;
    }
    let (log, cpus) = (log.as_ref(), cpus.as_ref());
    play_all(&mut collector, &mut state, queue, log, cpus)?;
    if let Some(files) = &collector.failures {
        state.outcome.failures = files.summary().clone();
    }
    close(cfg, state, &progress)
}

/// The games of the run and those still to play (all of them, unless a resumed run's journal
/// holds some), and the tally with the journal's games counted.
fn plan(
    cfg: &MatchConfig,
    openings: usize,
) -> Result<(Tally, Vec<GameJob>, VecDeque<GameJob>), MatchError> {
    let n = cfg.engines.len();
    let jobs = schedule(n, cfg.mode, cfg.rounds, cfg.games_per_round, openings);
    let mut state = Tally::new(cfg, jobs.len() as u64);
    let done = match cfg.resume {
        true => resume(cfg, &mut state)?,
        false => HashSet::new(),
    };
    let queue = jobs
        .iter()
        .filter(|j| !done.contains(&j.id))
        .copied()
        .collect();
    Ok((state, jobs, queue))
}

/// The end of a run that played: an interrupt noted, the summary written a last time.
fn close(
    cfg: &MatchConfig,
    mut state: Tally,
    progress: &Progress,
) -> Result<MatchOutcome, MatchError> {
    if interrupt::requested() && state.outcome.stopped.is_none() {
        state.outcome.stopped = Some(Stop::Interrupted);
    }
    if let Some(path) = &cfg.results {
        state.save(cfg, path)?;
    }
    progress.finish();
    Ok(state.outcome)
}

/// The run's lock beside its results file (none without one).
fn take_lock(cfg: &MatchConfig) -> Result<Option<lock::RunLock>, MatchError> {
    let Some(path) = &cfg.results else {
        return Ok(None);
    };
    let lock = lock::acquire(path, &holder(cfg))?;
    if let Some(note) = &lock.taken_over {
        errln!("note: {note}");
    }
    Ok(Some(lock))
}

/// Counts the games in the journal of the run being resumed; returns their ids, which are
/// not played again.
fn resume(cfg: &MatchConfig, state: &mut Tally) -> Result<HashSet<u64>, MatchError> {
    let path = cfg
        .results
        .as_ref()
        .ok_or(MatchError::ResumeWithoutResults)?;
    let old = ResultsFile::load(path)?;
    let scheduled = state.outcome.scheduled;
    // More games than recorded means `--rounds` extended the run; the schedule is round by
    // round, so the games already played keep their ids.
    if old.scheduled > scheduled || old.engines != state.outcome.names {
        return Err(MatchError::DifferentMatch {
            path: path.clone(),
            recorded: old.scheduled,
            scheduled,
        });
    }
    let mut done = HashSet::new();
    for entry in read_journal(&journal_path(path))? {
        if entry.pgn_end.is_some() {
            state.pgn_end = entry.pgn_end;
        }
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
    Ok(done)
}

/// One start of every engine before any game, and the UCI log opened: `Ok(Err(why))` for a
/// broken setup (an engine whose program is not there, or one that does not start), which stops
/// the run having played and written nothing.
fn start_engines(
    cfg: &MatchConfig,
    cpus: Option<&affinity::CpuPlan>,
    progress: &Progress,
) -> Result<Result<Option<TrafficLog>, preflight::SetupError>, MatchError> {
    // Found before any engine is started.
    if let Some(why) = preflight::missing_engine(cfg) {
        return Ok(Err(preflight::SetupError::Missing(why)));
    }
    let log = match &cfg.log {
        Some(path) => Some(TrafficLog::open(path).map_err(MatchError::io(format!(
            "cannot open the UCI log (--log) {}",
            path.display()
        )))?),
        None => None,
    };
    let first_game_cpus = cpus.map(|p| p.games[0].clone()).unwrap_or_default();
    match preflight::start_each(cfg, log.as_ref(), &first_game_cpus)? {
        Ok(warnings) => warnings.iter().for_each(|w| progress.warn(w)),
        Err(e) => return Ok(Err(preflight::SetupError::Start(e))),
    }
    Ok(Ok(log))
}

/// A game as a worker hands it to the collecting thread.
type Played = (GameJob, Result<GameRecord, NotPlayed>);

/// Starts the workers and collects their games until the queue is empty or the run stops.
fn play_all(
    collector: &mut Collector,
    state: &mut Tally,
    queue: VecDeque<GameJob>,
    log: Option<&TrafficLog>,
    cpus: Option<&affinity::CpuPlan>,
) -> Result<(), MatchError> {
    let (cfg, openings) = (collector.cfg, collector.openings);
    let queue = Mutex::new(queue);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| -> Result<(), MatchError> {
        // Bounded: a main thread held up (a slow disk) holds up the workers, not the memory.
        let (tx, rx) = mpsc::sync_channel::<Played>(cfg.concurrency);
        for w in 0..cfg.concurrency {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            let game_cpus = cpus.map(|p| p.games[w].clone()).unwrap_or_default();
            scope.spawn(move || worker(cfg, openings, queue, stop, log, &game_cpus, &tx));
        }
        drop(tx);
        for (job, played) in rx {
            match played {
                Ok(record) => collector.record(state, &job, record)?,
                Err(not_played) => {
                    // Not a game: nothing is scored or journaled, and a resume replays it.
                    if state.outcome.stopped.is_none() {
                        state.outcome.stopped = Some(match not_played {
                            NotPlayed::Start(e) => Stop::Setup(e.to_string()),
                            NotPlayed::Abandoned => Stop::Interrupted,
                        });
                    }
                }
            }
            if state.finished() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    })
}

/// The collecting thread's outputs besides the tally: progress, failure cases, the summary's
/// pace.
struct Collector<'a> {
    cfg: &'a MatchConfig,
    openings: &'a [Opening],
    progress: &'a Progress,
    failures: Option<FailureFiles>,
    /// When the results summary was last rewritten.
    saved: Option<std::time::Instant>,
}

impl<'a> Collector<'a> {
    /// Opens the run's files: the PGN and the journal into `state`, the failure cases' folder.
    fn open(
        cfg: &'a MatchConfig,
        openings: &'a [Opening],
        progress: &'a Progress,
        state: &mut Tally,
    ) -> Result<Collector<'a>, MatchError> {
        state.pgn = open_pgn(cfg, state.pgn_end, progress)?;
        if let Some(path) = &cfg.results {
            state.journal = Some(open_journal(&journal_path(path))?);
        }
        Ok(Collector {
            cfg,
            openings,
            progress,
            failures: cfg
                .results
                .as_ref()
                .map(|path| FailureFiles::new(&naming::failures(path), cfg.max_failure_files)),
            saved: None,
        })
    }

    /// One finished game: shown, its failure case kept, written to the PGN, counted, journaled,
    /// the summary rewritten when due, the interim report printed when due.
    fn record(
        &mut self,
        state: &mut Tally,
        job: &GameJob,
        mut record: GameRecord,
    ) -> Result<(), MatchError> {
        let (cfg, progress) = (self.cfg, self.progress);
        let mut entry = GameEntry::new(job, &record);
        progress.game_line(job, &record);
        if let Some(text) = fault_output(&record) {
            progress.warn(&text);
        }
        if let (Some(files), Some(case)) = (self.failures.as_mut(), record.case.as_deref_mut()) {
            case.game = job.id + 1;
            case.book = cfg.book_name.clone();
            keep_case(files, case, progress);
        }
        if let Some(pgn) = state.pgn.as_mut() {
            let header = pgn_header(cfg, job, &self.openings[job.opening]);
            let restored = pgn
                .append(write_game(&record, &header).as_bytes())
                .map_err(MatchError::io("writing the PGN file"))?;
            tell_restored(progress, restored, false);
            let meta = pgn
                .file()
                .metadata()
                .map_err(MatchError::io("the PGN file"))?;
            entry.pgn_end = Some(meta.len());
        }
        state.apply(cfg, &entry);
        if let Some(journal) = state.journal.as_mut() {
            tell_restored(progress, append_journal(journal, &entry)?, true);
        }
        // The journal line above is what a resume reads; the summary is rewritten at most
        // once a SAVE_EVERY (and when the run ends), because replacing a file by rename makes
        // the file system write it out, and on a busy disk that stalls this thread.
        let due = self.saved.is_none_or(|t| t.elapsed() >= SAVE_EVERY);
        if let (Some(path), true) = (&cfg.results, due || state.finished()) {
            state.save(cfg, path)?;
            self.saved = Some(std::time::Instant::now());
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
        Ok(())
    }
}

/// With `--affinity`, the cores of each concurrent game and of the runner; a game needs as many
/// cores as its engines' largest `Threads`.
fn cpu_plan(cfg: &MatchConfig) -> Result<Option<affinity::CpuPlan>, MatchError> {
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

/// This run in words, for the lock file: its kind and engines.
fn holder(cfg: &MatchConfig) -> String {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.spec.display_name()).collect();
    format!("harness {} ({})", cfg.kind(), names.join(" vs "))
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

/// Warns, once, that a file of the run was put back after its path stopped naming it;
/// `journal` adds what a resume needs when the journal went on under another name.
fn tell_restored(progress: &Progress, restored: Option<Restored>, journal: bool) {
    let Some(restored) = restored else {
        return;
    };
    let hint = match (&restored, journal) {
        (Restored::Moved { from, to }, true) => format!(
            "; a resume reads the journal at its first name, so move {} back over {} before \
             resuming",
            to.display(),
            from.display()
        ),
        _ => String::new(),
    };
    progress.warn(&format!("{restored}{hint}"));
}

/// Opens the PGN for appending. A resumed run's PGN is first cut back to `journaled`, the end
/// of the last game its journal holds: what follows is a game the killed run wrote but did
/// not journal (or only half wrote), which this run plays again.
fn open_pgn(
    cfg: &MatchConfig,
    journaled: Option<u64>,
    progress: &Progress,
) -> Result<Option<AppendFile>, MatchError> {
    let Some(path) = &cfg.pgn_out else {
        return Ok(None);
    };
    let what = || {
        MatchError::io(format!(
            "cannot open the PGN file (--pgnout) {}",
            path.display()
        ))
    };
    // Appended to, never truncated (as fastchess does): earlier games are never lost.
    let file = AppendFile::open(path).map_err(what())?;
    if let (true, Some(end)) = (cfg.resume, journaled) {
        let len = file.file().metadata().map_err(what())?.len();
        if len > end {
            file.file().set_len(end).map_err(what())?;
            progress.warn(&format!(
                "{}: cut back by {} bytes to its last recorded game (written, not yet \
                 recorded, when the run stopped; it is played again)",
                path.display(),
                len - end
            ));
        }
    }
    Ok(Some(file))
}

/// The journal is only ever appended to: a run that gets here new has no results file, and a
/// journal left beside none (its results file deleted by hand) keeps its games readable.
fn open_journal(path: &std::path::Path) -> Result<AppendFile, MatchError> {
    AppendFile::open(path).map_err(MatchError::io(format!("cannot open {}", path.display())))
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
        style: cfg.pgn_style,
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
    tx: &mpsc::SyncSender<Played>,
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
        settings.match_lines = cfg.match_lines.clone();
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
