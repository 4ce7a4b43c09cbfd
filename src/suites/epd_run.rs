//! Running EPD suites against a UCI engine: the one engine pool (`uci::pool`), one position at a
//! time per engine, with crash and hang recovery that costs only the position at hand.

use super::error::SuiteError;
use crate::plumbing::progress::{Reporter, Unit};
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move};

use super::epd::{san, san_list, EpdPosition, Suite};
use super::epd_score::{score, PvSample, SearchTrace, Verdict};
use crate::uci::pool::{self, Job, JobError, PoolConfig};
use crate::uci::{Engine, EngineSpec, Info, UciError};

/// How long each position is searched: the one search limit of the harness
/// ([`crate::uci::limit`]).
pub use crate::uci::limit::Limit;

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct EpdConfig {
    /// The suites to run, in order.
    pub suites: Vec<Suite>,
    /// The engine and its UCI options.
    pub engine: EngineSpec,
    /// The search limit per position.
    pub limit: Limit,
    /// Engine processes searching in parallel.
    pub concurrency: usize,
    /// Seconds a search may overrun its limit (or last at all, for nodes/depth) before the
    /// engine is declared hung, killed and restarted.
    pub hang_timeout: Duration,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

/// How the engine behaved on one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// It answered with a legal move.
    Ok,
    /// It answered with an illegal or no move.
    Illegal(String),
    /// It crashed or broke the protocol (it was restarted).
    Crashed(String),
    /// It did not answer in time (it was killed and restarted).
    Hung,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Ok => f.write_str("ok"),
            Status::Illegal(m) => write!(f, "illegal move {m}"),
            Status::Crashed(why) => write!(f, "crashed: {why}"),
            Status::Hung => f.write_str("hung"),
        }
    }
}

/// The outcome of one position.
#[derive(Clone, Debug)]
pub struct PositionResult {
    /// The suite's name.
    pub suite: String,
    /// The position's id.
    pub id: String,
    /// The STS theme, if any.
    pub theme: Option<String>,
    /// What would have been right, for reports (`bm Qb3`, `am Ne5`, `dm 2`).
    pub expected: String,
    /// The move played, in SAN (or as sent, when illegal).
    pub played: Option<String>,
    /// Most STS points available (`None` when not an STS position).
    pub max_points: Option<u32>,
    /// The verdict.
    pub verdict: Verdict,
    /// How the engine behaved.
    pub status: Status,
}

/// The whole run: one result per position, in suite order.
#[derive(Clone, Debug)]
pub struct EpdReport {
    /// The engine's display name.
    pub engine: String,
    /// The limit used.
    pub limit: Limit,
    /// The results, in the order of the suites and their positions.
    pub results: Vec<PositionResult>,
    /// Malformed lines skipped while reading the suites.
    pub skipped_lines: usize,
}

/// One position of a suite, as the engine pool hands it out.
struct Task<'a>(&'a Suite, &'a EpdPosition);

impl Job for Task<'_> {
    fn describe(&self) -> String {
        format!("{} {}", self.0.name, self.1.id)
    }
}

/// Runs every position of every suite on `config.concurrency` engine processes of the one engine
/// pool (`uci::pool`): a crash or hang costs the position at hand (listed as crashed or hung),
/// an engine that cannot start, or fails on position after position, ends the run with an error.
pub fn run_epd(config: &EpdConfig) -> Result<EpdReport, SuiteError> {
    let jobs: Vec<Task> = config
        .suites
        .iter()
        .flat_map(|s| s.positions.iter().map(move |p| Task(s, p)))
        .collect();
    let bar = Reporter::new(config.progress, "", Unit::POSITIONS, jobs.len() as u64);
    bar.set_message("solved 0");
    // Without a terminal (CI logs) the bar is hidden: print a line every tenth instead.
    let log_every =
        (config.progress && !std::io::stderr().is_terminal()).then_some((jobs.len() / 10).max(1));
    let (mut done, mut solved) = (0, 0);
    let pool = PoolConfig::new(config.engine.clone(), config.concurrency);
    let run = pool::run(
        &pool,
        &jobs,
        |engine, Task(suite, pos)| search_position(engine, config, suite, pos),
        |_, outcome| {
            done += 1;
            solved += usize::from(outcome.as_ref().is_ok_and(|r| r.verdict.solved));
            bar.set_message(format!("solved {solved}"));
            bar.inc(1);
            if log_every.is_some_and(|k| done % k == 0) {
                errln!("epd: {done}/{} positions, {solved} solved", jobs.len());
            }
            ControlFlow::Continue(())
        },
    );
    bar.clear();
    let run = run?;
    let results = run
        .outcomes
        .into_iter()
        .zip(&jobs)
        .map(|(outcome, Task(suite, pos))| {
            outcome.unwrap_or_else(|f| {
                let status = match f.error {
                    JobError::Engine(UciError::Timeout(_)) => Status::Hung,
                    e => Status::Crashed(e.to_string()),
                };
                failed(suite, pos, status)
            })
        })
        .collect();
    Ok(EpdReport {
        engine: run.engine,
        limit: config.limit,
        results,
        skipped_lines: config.suites.iter().map(|s| s.skipped.len()).sum(),
    })
}

/// Searches one position. An error is the engine's failure (the pool restarts it); an illegal
/// answer is the engine's result for the position, and it goes on to the next.
fn search_position(
    engine: &mut Engine,
    config: &EpdConfig,
    suite: &Suite,
    pos: &EpdPosition,
) -> Result<PositionResult, JobError> {
    let start = Instant::now();
    let mut samples = Vec::new();
    // Chess960 positions: the engine must read and write castling as king takes rook (the
    // option is switched back off after the search, so the engine can serve the next line).
    let chess960 = pos.is_chess960() && declares_chess960(engine);
    if chess960 {
        chess960_mode(engine, true)?;
    }
    engine.new_game()?;
    engine.is_ready(crate::plumbing::timeouts::STARTUP)?;
    engine.set_position::<&str>(Some(&pos.fen()), &[])?;
    let answer = engine.go(&config.limit.go_params(), search_timeout(config), |info| {
        if let Some(s) = sample(&pos.position, info, start) {
            samples.push(s);
        }
    })?;
    if chess960 {
        chess960_mode(engine, false)?;
    }
    let total_ms = answer.elapsed.as_millis() as u64;
    let sent = answer.best.mv.clone();
    let best = sent.as_deref().and_then(|m| legal(&pos.position, m));
    let trace = SearchTrace {
        samples,
        best,
        total_ms,
    };
    let mut result = finished(suite, pos, &trace);
    if best.is_none() {
        let shown = sent.unwrap_or_else(|| "(none)".to_string());
        result.played = Some(shown.clone());
        result.status = Status::Illegal(shown);
    }
    Ok(result)
}

/// Allowed search time before the engine counts as hung.
fn search_timeout(config: &EpdConfig) -> Duration {
    match config.limit {
        Limit::Movetime(ms) => Duration::from_millis(ms) * 2 + config.hang_timeout,
        _ => config.hang_timeout,
    }
}

/// An `info` line with a PV, reduced to a scoring sample (bounds and secondary lines skipped).
fn sample(position: &Chess, info: &Info, start: Instant) -> Option<PvSample> {
    if info.pv.is_empty() || info.bound.is_some() || info.multipv.unwrap_or(1) != 1 {
        return None;
    }
    Some(PvSample {
        time_ms: info
            .time_ms
            .unwrap_or_else(|| start.elapsed().as_millis() as u64),
        depth: info.depth.unwrap_or(0),
        score: info.score,
        first_move: legal(position, &info.pv[0]),
    })
}

/// Whether the engine offers `UCI_Chess960`.
fn declares_chess960(engine: &Engine) -> bool {
    engine
        .declared_options()
        .iter()
        .any(|o| o.eq_ignore_ascii_case("UCI_Chess960"))
}

/// Sends `setoption name UCI_Chess960 value <on>`.
fn chess960_mode(engine: &mut Engine, on: bool) -> Result<(), UciError> {
    engine.send(&format!("setoption name UCI_Chess960 value {on}"))
}

/// The engine's move text as a legal move; castling is accepted as king takes rook (always) or
/// as the king's two-square move (standard positions).
fn legal(position: &Chess, uci: &str) -> Option<Move> {
    UciMove::from_ascii(uci.as_bytes())
        .ok()?
        .to_move(position)
        .ok()
}

fn expected(pos: &EpdPosition) -> String {
    let mut parts = Vec::new();
    if !pos.bm.is_empty() {
        parts.push(format!("bm {}", san_list(&pos.position, &pos.bm)));
    }
    if !pos.am.is_empty() {
        parts.push(format!("am {}", san_list(&pos.position, &pos.am)));
    }
    if let Some(n) = pos.dm {
        parts.push(format!("dm {n}"));
    }
    if parts.is_empty() {
        if let Some((mv, _)) = pos.points.iter().max_by_key(|(_, p)| *p) {
            parts.push(format!("c0 {}", san(&pos.position, mv)));
        }
    }
    parts.join("; ")
}

fn finished(suite: &Suite, pos: &EpdPosition, trace: &SearchTrace) -> PositionResult {
    PositionResult {
        suite: suite.name.clone(),
        id: pos.id.clone(),
        theme: pos.theme().map(str::to_string),
        expected: expected(pos),
        played: trace.best.as_ref().map(|m| san(&pos.position, m)),
        max_points: pos.max_points(),
        verdict: score(pos, trace),
        status: Status::Ok,
    }
}

fn failed(suite: &Suite, pos: &EpdPosition, status: Status) -> PositionResult {
    let trace = SearchTrace {
        samples: Vec::new(),
        best: None,
        total_ms: 0,
    };
    PositionResult {
        status,
        ..finished(suite, pos, &trace)
    }
}
