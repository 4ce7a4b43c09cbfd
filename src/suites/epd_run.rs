//! Running EPD suites against a UCI engine: a pool of engine processes, one position at a time
//! each, with crash and hang recovery that costs only the position at hand.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move};

use super::epd::{san, san_list, EpdPosition, Suite};
use super::epd_score::{score, PvSample, SearchTrace, Verdict};
use crate::uci::{Engine, EngineSpec, GoParams, Info, UciError};

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go movetime MS`.
    Movetime(u64),
    /// `go nodes N` (deterministic for a single-threaded engine: prefer it for baselines).
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
}

impl Limit {
    /// The `go` parameters for this limit.
    pub fn go_params(self) -> GoParams {
        match self {
            Limit::Movetime(ms) => GoParams {
                movetime: Some(ms),
                ..GoParams::default()
            },
            Limit::Nodes(n) => GoParams {
                nodes: Some(n),
                ..GoParams::default()
            },
            Limit::Depth(d) => GoParams {
                depth: Some(d),
                ..GoParams::default()
            },
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Movetime(ms) => write!(f, "movetime {ms} ms"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

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

/// Runs every position of every suite on `config.concurrency` engine processes.
pub fn run_epd(config: &EpdConfig) -> anyhow::Result<EpdReport> {
    let jobs: Vec<(&Suite, &EpdPosition)> = config
        .suites
        .iter()
        .flat_map(|s| s.positions.iter().map(move |p| (s, p)))
        .collect();
    // A command that cannot start at all is a usage error, not a run of crashed positions.
    let probe = Engine::start(&config.engine, startup_timeout()).map_err(anyhow::Error::new)?;
    let engine_name = probe.id_name().unwrap_or(probe.name()).to_string();
    probe.quit(Duration::from_secs(1));

    let bar = progress_bar(config.progress, jobs.len());
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, PositionResult)>();
    let mut slots: Vec<Option<PositionResult>> = vec![None; jobs.len()];
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, jobs.len().max(1)) {
            let tx = tx.clone();
            let (jobs, next, abort) = (&jobs, &next, &abort);
            scope.spawn(move || worker(config, jobs, next, abort, tx));
        }
        drop(tx);
        let mut solved = 0;
        // Without a terminal (CI logs) the bar is hidden: print a line every tenth instead.
        let log_every = (config.progress && !std::io::stderr().is_terminal())
            .then_some((jobs.len() / 10).max(1));
        for (done, (i, result)) in rx.into_iter().enumerate() {
            solved += usize::from(result.verdict.solved);
            bar.set_message(format!("solved {solved}"));
            bar.inc(1);
            slots[i] = Some(result);
            if log_every.is_some_and(|k| (done + 1) % k == 0) {
                eprintln!(
                    "epd: {}/{} positions, {solved} solved",
                    done + 1,
                    jobs.len()
                );
            }
        }
    });
    bar.finish_and_clear();
    if abort.load(Ordering::Relaxed) {
        anyhow::bail!(
            "engine {} could not be restarted; run abandoned",
            config.engine.cmd
        );
    }
    Ok(EpdReport {
        engine: engine_name,
        limit: config.limit,
        results: slots.into_iter().flatten().collect(),
        skipped_lines: config.suites.iter().map(|s| s.skipped.len()).sum(),
    })
}

fn startup_timeout() -> Duration {
    Duration::from_secs(20)
}

fn progress_bar(visible: bool, len: usize) -> indicatif::ProgressBar {
    if !visible {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} positions, {msg} [{elapsed_precise}, eta {eta}]",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message("solved 0");
    bar
}

/// One engine process working through the shared queue; it restarts the engine after a crash
/// or hang, and gives up (setting `abort`) when the engine fails to start three times running.
fn worker(
    config: &EpdConfig,
    jobs: &[(&Suite, &EpdPosition)],
    next: &AtomicUsize,
    abort: &AtomicBool,
    tx: mpsc::Sender<(usize, PositionResult)>,
) {
    let mut engine: Option<Engine> = None;
    let mut failed_starts = 0;
    loop {
        if abort.load(Ordering::Relaxed) {
            return;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&(suite, pos)) = jobs.get(i) else {
            break;
        };
        if engine.is_none() {
            match Engine::start(&config.engine, startup_timeout()) {
                Ok(e) => {
                    engine = Some(e);
                    failed_starts = 0;
                }
                Err(e) => {
                    failed_starts += 1;
                    if failed_starts >= 3 {
                        abort.store(true, Ordering::Relaxed);
                    }
                    let _ = tx.send((i, failed(suite, pos, Status::Crashed(e.to_string()))));
                    continue;
                }
            }
        }
        let e = engine.as_mut().expect("started above");
        let (result, keep) = search_position(e, config, suite, pos);
        if !keep {
            engine = None; // Dropping kills the process; the next position starts a fresh one.
        }
        if tx.send((i, result)).is_err() {
            return;
        }
    }
    if let Some(e) = engine {
        e.quit(Duration::from_secs(1));
    }
}

/// Searches one position; the flag says whether the engine is still fit for the next one.
fn search_position(
    engine: &mut Engine,
    config: &EpdConfig,
    suite: &Suite,
    pos: &EpdPosition,
) -> (PositionResult, bool) {
    let start = Instant::now();
    let mut samples = Vec::new();
    // Chess960 positions: the engine must read and write castling as king takes rook (the
    // option is switched back off after the search, so the engine can serve the next line).
    let chess960 = pos.is_chess960() && declares_chess960(engine);
    let prepared = (if chess960 {
        chess960_mode(engine, true)
    } else {
        Ok(())
    })
    .and_then(|_| engine.new_game())
    .and_then(|_| engine.is_ready(Duration::from_secs(10)))
    .and_then(|_| engine.set_position::<&str>(Some(&pos.fen()), &[]));
    let answer = prepared.and_then(|_| {
        engine.go(&config.limit.go_params(), search_timeout(config), |info| {
            if let Some(s) = sample(&pos.position, info, start) {
                samples.push(s);
            }
        })
    });
    let answer = match answer {
        Ok(a) => a,
        Err(UciError::Timeout(_)) => return (failed(suite, pos, Status::Hung), false),
        Err(e) => return (failed(suite, pos, Status::Crashed(e.to_string())), false),
    };
    if chess960 && chess960_mode(engine, false).is_err() {
        return (
            failed(suite, pos, Status::Crashed("engine gone".into())),
            false,
        );
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
    (result, true)
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
