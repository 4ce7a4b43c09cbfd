//! A deliberately faulty UCI engine for testing the harness: it plays random legal moves (chosen
//! with shakmaty) and misbehaves as its flags say. Counters count `go` commands since start.
//!
//! ```text
//! faulty-engine [--seed N] [--name S] [--slow-start MS] [--no-uciok] [--no-readyok]
//!               [--exit-before-uciok CODE] [--stderr-flood N] [--deterministic]
//!               [--optimum NAME=T] [--chess960]
//! ```
//!
//! `--optimum NAME=T` declares a spin option NAME and makes the engine the weaker the farther
//! NAME is from T: before each move it resigns (reports `score cp -1000`, which the runner's
//! resign adjudication turns into a loss) with probability |NAME - T| / 1000. A tuner that
//! works moves NAME towards T.
//!
//! ```text
//!               [--crash-after N] [--hang-after N] [--illegal-after N] [--garbage-after N]
//!               [--null-after N] [--empty-bestmove-after N]
//!               [--illegal-rate PER_MILLE] [--flood N] [--long-line BYTES] [--move-ms MS] [--exit-on-quit-ms MS]
//!               [--crash-at-ply P] [--hang-at-ply P] [--illegal-at-ply P] [--slow-at-ply P] [--slow-ms MS]
//!               [--stamp FILE]
//! ```
//!
//! The `-at-ply` faults depend on the position, not on the engine's history: they strike when
//! the last `position` command has at least P moves after its start position (book moves
//! included), so a replay of that position fails again at once. `--slow-at-ply` waits
//! `--slow-ms` (default 2000) before answering, overstepping a shorter clock (a loss on time; the
//! engine still answers `stop` once awake).
//!
//! `--stamp FILE` makes it a latency probe: it appends `PID go NS` to FILE when a `go` arrives
//! and `PID bestmove NS` just before its `bestmove` line leaves, NS on the system's monotonic
//! clock, so that scripts/runner-bench.py can measure how long a runner takes from one engine's
//! move to the opponent's `go`.

use sable::rng::Rng;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use std::io::{BufRead, Write};
use std::time::Duration;

/// Misbehaviours selected on the command line (see the module docs).
#[derive(Default)]
struct Faults {
    seed: u64,
    name: String,
    slow_start_ms: u64,
    no_uciok: bool,
    no_readyok: bool,
    crash_after: Option<u64>,
    hang_after: Option<u64>,
    illegal_after: Option<u64>,
    garbage_after: Option<u64>,
    null_after: Option<u64>,
    empty_after: Option<u64>,
    illegal_rate: u64,
    flood: u64,
    long_line: usize,
    move_ms: u64,
    quit_delay_ms: u64,
    exit_before_uciok: Option<u64>,
    stderr_flood: u64,
    /// Start every game (`ucinewgame`) from the same random state, as a deterministic engine
    /// with a node limit would.
    deterministic: bool,
    /// The option whose distance from a target makes the engine weaker, and the target.
    optimum: Option<(String, i64)>,
    /// Offer `UCI_Chess960` and play by Chess960 rules (castling as king takes rook).
    chess960: bool,
    crash_at_ply: Option<u64>,
    hang_at_ply: Option<u64>,
    illegal_at_ply: Option<u64>,
    slow_at_ply: Option<u64>,
    slow_ms: u64,
    /// Where to append the `go` and `bestmove` time stamps (`--stamp`).
    stamp: Option<String>,
}

/// The error is text on purpose: this test engine's `main` prints it and exits, and no caller
/// matches on it.
fn parse_args() -> Result<Faults, String> {
    let mut f = Faults {
        seed: 1,
        name: "Faulty".into(),
        slow_ms: 2000,
        ..Faults::default()
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if set_switch(&mut f, &flag) {
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        set_value(&mut f, &flag, value)?;
    }
    Ok(f)
}

/// Sets the fault a flag without a value names; false if `flag` is not one.
fn set_switch(f: &mut Faults, flag: &str) -> bool {
    let switch = match flag {
        "--no-uciok" => &mut f.no_uciok,
        "--chess960" => &mut f.chess960,
        "--deterministic" => &mut f.deterministic,
        "--no-readyok" => &mut f.no_readyok,
        _ => return false,
    };
    *switch = true;
    true
}

/// Sets what a flag with a value names.
fn set_value(f: &mut Faults, flag: &str, value: String) -> Result<(), String> {
    let num = || {
        value
            .parse::<u64>()
            .map_err(|_| format!("{flag}: not a number: {value}"))
    };
    match flag {
        "--seed" => f.seed = num()?,
        "--name" => f.name = value.clone(),
        "--slow-start" => f.slow_start_ms = num()?,
        "--crash-after" => f.crash_after = Some(num()?),
        "--hang-after" => f.hang_after = Some(num()?),
        "--illegal-after" => f.illegal_after = Some(num()?),
        "--garbage-after" => f.garbage_after = Some(num()?),
        "--null-after" => f.null_after = Some(num()?),
        "--empty-bestmove-after" => f.empty_after = Some(num()?),
        "--illegal-rate" => f.illegal_rate = num()?,
        "--flood" => f.flood = num()?,
        "--long-line" => f.long_line = num()? as usize,
        "--move-ms" => f.move_ms = num()?,
        "--exit-on-quit-ms" => f.quit_delay_ms = num()?,
        "--exit-before-uciok" => f.exit_before_uciok = Some(num()?),
        "--stderr-flood" => f.stderr_flood = num()?,
        "--crash-at-ply" => f.crash_at_ply = Some(num()?),
        "--hang-at-ply" => f.hang_at_ply = Some(num()?),
        "--illegal-at-ply" => f.illegal_at_ply = Some(num()?),
        "--slow-at-ply" => f.slow_at_ply = Some(num()?),
        "--slow-ms" => f.slow_ms = num()?,
        "--stamp" => f.stamp = Some(value.clone()),
        "--optimum" => {
            let (name, target) = value
                .split_once('=')
                .ok_or_else(|| format!("--optimum: expected NAME=T, got {value}"))?;
            let target = target
                .parse::<i64>()
                .map_err(|_| format!("--optimum: not a number: {target}"))?;
            f.optimum = Some((name.to_owned(), target));
        }
        _ => return Err(format!("unknown flag {flag}")),
    }
    Ok(())
}

/// The moves after the start position of a `position` line.
fn plies(line: &str) -> u64 {
    line.split_once(" moves")
        .map_or(0, |(_, m)| m.split_ascii_whitespace().count() as u64)
}

fn parse_position(line: &str, mode: CastlingMode) -> Option<Chess> {
    let rest = line.strip_prefix("position ")?.trim();
    let (setup, moves) = match rest.split_once(" moves") {
        Some((s, m)) => (s.trim(), m.trim()),
        None => (rest, ""),
    };
    let mut pos: Chess = if setup == "startpos" {
        Chess::default()
    } else {
        let fen: shakmaty::fen::Fen = setup.strip_prefix("fen ")?.trim().parse().ok()?;
        fen.into_position(mode).ok()?
    };
    for m in moves.split_ascii_whitespace() {
        let mv = m.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(mv);
    }
    Some(pos)
}

/// Appends `PID EVENT NS` (the monotonic clock, shared by all processes) to the stamp file; one
/// write per line, so lines of several engines appending at once never interleave.
fn stamp(file: &mut Option<std::fs::File>, event: &str) {
    if let Some(f) = file {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes into the timespec we own.
        unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
        let ns = ts.tv_sec as u128 * 1_000_000_000 + ts.tv_nsec as u128;
        let line = format!("{} {event} {ns}\n", std::process::id());
        f.write_all(line.as_bytes()).ok();
    }
}

/// What the engine remembers between commands.
struct State {
    f: Faults,
    rng: Rng,
    pos: Chess,
    /// `go` commands answered so far (the `-after` counters).
    searches: u64,
    /// Moves of the last `position` line (the `-at-ply` faults).
    ply: u64,
    /// The value of the `--optimum` option as set.
    tuned: i64,
    mode: CastlingMode,
    stamps: Option<std::fs::File>,
}

type Out<'a> = std::io::BufWriter<std::io::StdoutLock<'a>>;

fn reached(limit: Option<u64>, n: u64) -> bool {
    limit.is_some_and(|l| n >= l)
}

impl State {
    fn new(f: Faults) -> State {
        let mode = if f.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let stamps = f.stamp.as_ref().and_then(|p| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .ok()
        });
        State {
            // The engine's xorshift64*: enough randomness to vary games, deterministic per seed.
            rng: Rng::new(f.seed.max(1)),
            pos: Chess::default(),
            searches: 0,
            ply: 0,
            tuned: 0,
            mode,
            stamps,
            f,
        }
    }

    fn uci(&self, out: &mut Out) {
        let f = &self.f;
        writeln!(out, "id name {}", f.name).ok();
        if let Some(code) = f.exit_before_uciok {
            out.flush().ok();
            eprintln!("faulty-engine: cannot load its network (exits with {code})");
            std::process::exit(code as i32);
        }
        writeln!(out, "id author Sable test suite").ok();
        writeln!(out, "option name Hash type spin default 16 min 1 max 1024").ok();
        writeln!(out, "option name Threads type spin default 1 min 1 max 1").ok();
        if f.chess960 {
            writeln!(out, "option name UCI_Chess960 type check default false").ok();
        }
        if let Some((name, _)) = &f.optimum {
            writeln!(
                out,
                "option name {name} type spin default 0 min -1000 max 1000"
            )
            .ok();
        }
        if !f.no_uciok {
            writeln!(out, "uciok").ok();
        }
    }

    /// `setoption name NAME value V`: only the `--optimum` option is remembered.
    fn setoption(&mut self, cmd: &str) {
        let words: Vec<&str> = cmd.split_ascii_whitespace().collect();
        if let (Some((name, _)), [_, "name", n, "value", v]) = (&self.f.optimum, &words[..]) {
            if n.eq_ignore_ascii_case(name) {
                self.tuned = v.parse().unwrap_or(0);
            }
        }
    }

    fn go(&mut self, out: &mut Out) {
        stamp(&mut self.stamps, "go");
        self.misbehave(out);
        for i in 0..self.f.flood {
            writeln!(
                out,
                "info depth {} nodes {} score cp {} pv",
                i % 64,
                i,
                i % 100
            )
            .ok();
        }
        if self.f.long_line > 0 {
            let junk = "x".repeat(self.f.long_line);
            writeln!(out, "info string {junk}").ok();
        }
        std::thread::sleep(Duration::from_millis(self.f.move_ms));
        let best = self.best(out);
        writeln!(out, "{best}").ok();
        stamp(&mut self.stamps, "bestmove");
        self.searches += 1;
    }

    /// The faults that strike before an answer: noise, a crash, a slow answer, a hang.
    fn misbehave(&self, out: &mut Out) {
        let (f, searches, ply) = (&self.f, self.searches, self.ply);
        for i in 0..f.stderr_flood {
            eprintln!("faulty-engine: debug noise {i}");
        }
        if reached(f.crash_after, searches) {
            out.flush().ok();
            eprintln!("faulty-engine: crashing on purpose at search {searches}");
            std::process::exit(3);
        }
        if reached(f.crash_at_ply, ply) {
            writeln!(out, "info depth 1 score cp 0 nodes 1 string about to crash").ok();
            out.flush().ok();
            eprintln!("faulty-engine: crashing on purpose at ply {ply}");
            std::process::exit(3);
        }
        if reached(f.slow_at_ply, ply) {
            std::thread::sleep(Duration::from_millis(f.slow_ms));
        }
        if reached(f.hang_after, searches) || reached(f.hang_at_ply, ply) {
            out.flush().ok();
            // Hang: ignore everything, including `stop` and `isready`, until killed.
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
    }

    /// The `bestmove` line (and the `info` line before it): faulty as asked, else a random
    /// legal move.
    fn best(&mut self, out: &mut Out) -> String {
        let (f, searches, ply, mode) = (&self.f, self.searches, self.ply, self.mode);
        let moves = self.pos.legal_moves();
        if reached(f.empty_after, searches) {
            "bestmove".to_owned()
        } else if reached(f.garbage_after, searches) {
            writeln!(out, "\u{1}\u{7f} garbage {{{{ }}}} \u{fffd}").ok();
            writeln!(out, "info depth banana score cp").ok();
            "bestmove !!garbage!!".to_owned()
        } else if reached(f.illegal_at_ply, ply) {
            // A search that believes in its move, as a buggy engine would.
            writeln!(out, "info depth 3 seldepth 4 score cp 12 nodes 99 pv a1a1").ok();
            "bestmove a1a1".to_owned()
        } else if reached(f.illegal_after, searches) || self.rng.next_u64() % 1000 < f.illegal_rate
        {
            "bestmove a1a1".to_owned()
        } else if reached(f.null_after, searches) || moves.is_empty() {
            "bestmove 0000".to_owned()
        } else if f.optimum.as_ref().is_some_and(|(_, target)| {
            (self.rng.next_u64() % 1000) < (self.tuned - target).unsigned_abs()
        }) {
            // Resign: the runner's resign adjudication scores the game as lost.
            let m = &moves[0];
            writeln!(out, "info depth 1 score cp -1000 pv {}", m.to_uci(mode)).ok();
            format!("bestmove {}", m.to_uci(mode))
        } else {
            let m = &moves[(self.rng.next_u64() % moves.len() as u64) as usize];
            let score = (self.rng.next_u64() % 41) as i64 - 20;
            writeln!(
                out,
                "info depth 1 seldepth 1 score cp {score} nodes 1 time 0 pv {}",
                m.to_uci(mode)
            )
            .ok();
            format!("bestmove {}", m.to_uci(mode))
        }
    }
}

fn main() {
    let f = match parse_args() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("faulty-engine: {e}");
            std::process::exit(2);
        }
    };
    std::thread::sleep(Duration::from_millis(f.slow_start_ms));
    let mut st = State::new(f);
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let cmd = line.trim();
        match cmd.split_ascii_whitespace().next().unwrap_or("") {
            "uci" => st.uci(&mut out),
            "ucinewgame" if st.f.deterministic => st.rng = Rng::new(st.f.seed.max(1)),
            "setoption" => st.setoption(cmd),
            "isready" if !st.f.no_readyok => {
                writeln!(out, "readyok").ok();
            }
            "position" => match parse_position(cmd, st.mode) {
                Some(p) => {
                    st.pos = p;
                    st.ply = plies(cmd);
                }
                None => {
                    writeln!(out, "info string cannot parse: {cmd}").ok();
                }
            },
            "go" => st.go(&mut out),
            "quit" => {
                out.flush().ok();
                std::thread::sleep(Duration::from_millis(st.f.quit_delay_ms));
                return;
            }
            _ => {}
        }
        out.flush().ok();
    }
}
