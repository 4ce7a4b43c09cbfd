//! The one pool of UCI engine processes for jobs that search many positions, one at a time per
//! engine (`harness epd`, `suite-gen`, `label`): how its engines start, when one is restarted,
//! and what a failure means. The rules are the same for every job:
//!
//! - One engine description and one start-up timeout ([`PoolConfig`]). Each worker thread starts
//!   its own engine before its first position: the kernel kills an engine when the thread that
//!   started it ends (see `Engine::start`), so an engine lives and dies with the thread that
//!   uses it.
//! - An engine that cannot start at all is a usage error: [`run`] returns [`PoolError::Start`]
//!   with the engine's own message (and its last output), and no result is returned.
//! - A position that fails (the engine crashed, hung past the job's deadline, broke the
//!   protocol, or answered something the job cannot use) is reported as failed, with its
//!   engine, its position and why ([`JobFailure`]), and the run goes on. An engine that failed is
//!   killed and a fresh one started before that worker's next position; an answer the job could
//!   not use leaves the engine running.
//! - A worker whose engine fails [`PoolConfig::failures_in_row`] times running (positions that
//!   failed, or restarts that did not start), with no position answered in between, ends the
//!   run with [`PoolError::Abandoned`]: an engine that fails on everything would otherwise turn a
//!   long run into a long list of failures.
//! - Nothing is dropped: [`run`] returns one outcome per position, in the positions' order, or
//!   an error.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use super::engine::{command_line, Engine, StartError};
use super::spec::EngineSpec;
use super::UciError;

/// How long an engine may take to start: `uci` → `uciok`, then `isready` → `readyok`, each
/// (the policy of [`crate::plumbing::timeouts`]: engines of a pool start side by side).
pub const STARTUP_TIMEOUT: Duration = crate::plumbing::timeouts::POOL_STARTUP;

/// Failures in a row on one engine that end a run (see the module's rules).
pub const FAILURES_IN_ROW: usize = 3;

/// How long an engine is given to leave after `quit` at the end of a run before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// Which engine the pool runs, how many of it, and its limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolConfig {
    /// The engine, as every process of the pool is started.
    pub spec: EngineSpec,
    /// Engine processes working at once (at least 1, at most one per job).
    pub engines: usize,
    /// How long each engine may take to start ([`STARTUP_TIMEOUT`] by default).
    pub startup_timeout: Duration,
    /// Failures in a row on one engine that end the run ([`FAILURES_IN_ROW`] by default).
    pub failures_in_row: usize,
}

impl PoolConfig {
    /// `engines` processes of `spec`, with the default start-up timeout and failure bound.
    pub fn new(spec: EngineSpec, engines: usize) -> PoolConfig {
        PoolConfig {
            spec,
            engines,
            startup_timeout: STARTUP_TIMEOUT,
            failures_in_row: FAILURES_IN_ROW,
        }
    }
}

/// One unit of work the pool hands to an engine (a position, usually); it names itself for the
/// reports of a failure.
pub trait Job: Sync {
    /// The job in words, as a failure report names it (`suite id`, `game 3 ply 17 (FEN)`, ...).
    fn describe(&self) -> String;
}

/// Why a job failed on its engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobError {
    /// The engine failed (it crashed, timed out or broke the protocol): it is killed and
    /// restarted.
    Engine(UciError),
    /// The engine answered, but not with what the job needs (an illegal move, no score): it
    /// keeps running.
    Answer(String),
}

impl From<UciError> for JobError {
    fn from(e: UciError) -> JobError {
        JobError::Engine(e)
    }
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::Engine(e) => e.fmt(f),
            JobError::Answer(why) => f.write_str(why),
        }
    }
}

/// A job that failed: which one, on which engine, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobFailure {
    /// The job's index in the list given to [`run`].
    pub job: usize,
    /// The job in words ([`Job::describe`]).
    pub position: String,
    /// The engine's name.
    pub engine: String,
    /// What went wrong.
    pub error: JobError,
}

impl fmt::Display for JobFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: engine {}: {}",
            self.position, self.engine, self.error
        )
    }
}

/// The last failure of an engine that failed too often in a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// A job failed.
    Job(JobFailure),
    /// The engine could not be started again after a failure.
    Restart(StartError),
}

/// Why a run ended without an outcome for every job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolError {
    /// An engine could not be started at all (the command is wrong, the engine broken).
    Start(StartError),
    /// One engine failed [`PoolConfig::failures_in_row`] times in a row.
    Abandoned {
        /// The engine's command line.
        command: String,
        /// How many times in a row it failed.
        failures: usize,
        /// Its last failure.
        last: Box<Failure>,
    },
    /// The caller's `on_done` asked the run to stop.
    Stopped,
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::Start(e) => e.fmt(f),
            PoolError::Abandoned {
                command,
                failures,
                last,
            } => {
                write!(
                    f,
                    "engine `{command}` failed {failures} times in a row, the last "
                )?;
                match last.as_ref() {
                    Failure::Job(job) => write!(f, "on {}: {}", job.position, job.error)?,
                    Failure::Restart(e) => write!(f, "when restarted: {}", e.error)?,
                }
                write!(f, "; run abandoned")
            }
            PoolError::Stopped => write!(f, "the run was stopped"),
        }
    }
}

impl std::error::Error for PoolError {}

/// A finished run.
#[derive(Debug)]
pub struct PoolRun<R> {
    /// The engine's name (the spec's `name`, else its `id name`, else the program's file name).
    pub engine: String,
    /// One outcome per job, in the jobs' order.
    pub outcomes: Vec<Result<R, JobFailure>>,
    /// Engines started again after a failure.
    pub restarts: usize,
}

/// Runs `task` on every job, on `config.engines` engine processes, under the module's rules.
/// `on_done` is called on the caller's thread as each job ends (in the order they end, for
/// progress bars and for writing results as they come); `ControlFlow::Break` stops the run
/// (jobs under way finish, no new one starts) and [`run`] returns [`PoolError::Stopped`].
pub fn run<J, R, T, D>(
    config: &PoolConfig,
    jobs: &[J],
    task: T,
    mut on_done: D,
) -> Result<PoolRun<R>, PoolError>
where
    J: Job,
    R: Send,
    T: Fn(&mut Engine, &J) -> Result<R, JobError> + Sync,
    D: FnMut(usize, &Result<R, JobFailure>) -> ControlFlow<()>,
{
    let shared = Shared {
        config,
        jobs,
        task: &task,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        restarts: AtomicUsize::new(0),
    };
    // Even without jobs one engine starts: a command that cannot start is an error either way.
    let workers = config.engines.clamp(1, jobs.len().max(1));
    let mut outcomes: Vec<Option<Result<R, JobFailure>>> = (0..jobs.len()).map(|_| None).collect();
    let mut names: Vec<Option<String>> = vec![None; workers];
    let mut error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for worker in 0..workers {
            let (tx, shared) = (tx.clone(), &shared);
            scope.spawn(move || shared.work(worker, &tx));
        }
        drop(tx);
        error = receive(rx, &shared, &mut outcomes, &mut names, &mut on_done);
    });
    if let Some(e) = error {
        return Err(e);
    }
    Ok(PoolRun {
        engine: names.into_iter().flatten().next().unwrap_or_default(),
        outcomes: outcomes
            .into_iter()
            // Each worker takes jobs until the list is done or the run stops, and every job it
            // takes ends in a `Done`, unless the run ended with an error (returned above).
            .map(|o| o.expect("every job has an outcome when the run ends without an error"))
            .collect(),
        restarts: shared.restarts.into_inner(),
    })
}

/// The caller's side of a run: each job's outcome and each engine's name as the workers send
/// them, `on_done` for each job that ends; the run's first error (or `Stopped` when `on_done`
/// broke), once every worker has hung up.
fn receive<J, R, T, D>(
    rx: mpsc::Receiver<Msg<R>>,
    shared: &Shared<'_, J, T>,
    outcomes: &mut [Option<Result<R, JobFailure>>],
    names: &mut [Option<String>],
    on_done: &mut D,
) -> Option<PoolError>
where
    D: FnMut(usize, &Result<R, JobFailure>) -> ControlFlow<()>,
{
    let (mut error, mut stopped) = (None, false);
    for msg in rx {
        match msg {
            Msg::Started { worker, name } => names[worker] = Some(name),
            Msg::Done(i, outcome) => {
                if !stopped && on_done(i, &outcome).is_break() {
                    stopped = true;
                    shared.stop.store(true, Ordering::Relaxed);
                    error.get_or_insert(PoolError::Stopped);
                }
                outcomes[i] = Some(outcome);
            }
            Msg::Failed(e) => {
                error.get_or_insert(e);
            }
        }
    }
    error
}

/// What a worker tells the caller's thread.
enum Msg<R> {
    /// Its engine started (its name, for the report).
    Started { worker: usize, name: String },
    /// Job `i` ended.
    Done(usize, Result<R, JobFailure>),
    /// The run cannot go on.
    Failed(PoolError),
}

/// What the workers of one run share.
struct Shared<'a, J, T> {
    config: &'a PoolConfig,
    jobs: &'a [J],
    task: &'a T,
    next: AtomicUsize,
    stop: AtomicBool,
    restarts: AtomicUsize,
}

impl<J: Job, T> Shared<'_, J, T> {
    /// One worker: its own engine, started on this thread, taking jobs until there are none,
    /// the run stops, or the engine fails too often in a row.
    fn work<R>(&self, worker: usize, tx: &mpsc::Sender<Msg<R>>)
    where
        T: Fn(&mut Engine, &J) -> Result<R, JobError>,
    {
        let engine = match self.start() {
            Ok(e) => e,
            Err(e) => return self.fail(tx, PoolError::Start(e)),
        };
        let name = engine.name().to_owned();
        let _ = tx.send(Msg::Started {
            worker,
            name: name.clone(),
        });
        let mut engine = Some(engine);
        let mut in_row = 0;
        while !self.stop.load(Ordering::Relaxed) {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = self.jobs.get(i) else { break };
            let e = match engine.as_mut() {
                Some(e) => e,
                None => match self.restart(&mut in_row, tx) {
                    Some(e) => engine.insert(e),
                    None => return,
                },
            };
            match (self.task)(e, job) {
                Ok(r) => {
                    in_row = 0;
                    let _ = tx.send(Msg::Done(i, Ok(r)));
                }
                Err(error) => {
                    if matches!(error, JobError::Engine(_)) {
                        // Dropping kills it, and a hung search with it.
                        engine = None;
                    }
                    let failure = JobFailure {
                        job: i,
                        position: job.describe(),
                        engine: name.clone(),
                        error,
                    };
                    in_row += 1;
                    let _ = tx.send(Msg::Done(i, Err(failure.clone())));
                    if in_row >= self.failures_in_row() {
                        return self.abandon(tx, in_row, Failure::Job(failure));
                    }
                }
            }
        }
        if let Some(e) = engine {
            e.quit(QUIT_GRACE);
        }
    }

    fn start(&self) -> Result<Engine, StartError> {
        Engine::start(&self.config.spec, self.config.startup_timeout)
    }

    fn failures_in_row(&self) -> usize {
        self.config.failures_in_row.max(1)
    }

    /// A fresh engine after a failure; `None` when the run stopped or the engine would not
    /// start often enough in a row (the run is then abandoned).
    fn restart<R>(&self, in_row: &mut usize, tx: &mpsc::Sender<Msg<R>>) -> Option<Engine> {
        while !self.stop.load(Ordering::Relaxed) {
            match self.start() {
                Ok(e) => {
                    self.restarts.fetch_add(1, Ordering::Relaxed);
                    return Some(e);
                }
                Err(e) => {
                    *in_row += 1;
                    if *in_row >= self.failures_in_row() {
                        self.abandon(tx, *in_row, Failure::Restart(e));
                        return None;
                    }
                }
            }
        }
        None
    }

    fn abandon<R>(&self, tx: &mpsc::Sender<Msg<R>>, failures: usize, last: Failure) {
        let error = PoolError::Abandoned {
            command: command_line(&self.config.spec),
            failures,
            last: Box::new(last),
        };
        self.fail(tx, error);
    }

    /// Stops every worker and tells the caller why.
    fn fail<R>(&self, tx: &mpsc::Sender<Msg<R>>, error: PoolError) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = tx.send(Msg::Failed(error));
    }
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;
