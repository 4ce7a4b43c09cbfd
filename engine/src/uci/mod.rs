//! UCI protocol loop. The main thread reads commands; each `go` runs on a search thread, so
//! `stop` and `isready` are answered at once. Bad input produces an `info string` and the
//! engine keeps running. A `position` command is taken whole or not at all: after a refused one
//! (a FEN that cannot arise, an illegal move) `go` answers `bestmove 0000` with the reason,
//! because a move for the previous position would be taken as the answer for the one sent.

pub mod command;
mod options;

use crate::board::Board;
use crate::eval::explain;
use crate::search::{Limits, Reporter, SearchResult, ThreadPool};
use command::{Command, Go};
use std::io::BufRead;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Engine name and author sent in reply to `uci`.
pub const NAME: &str = concat!("Sable ", env!("CARGO_PKG_VERSION"));
/// Author line.
pub const AUTHOR: &str = "the Sable developers";

/// Print one line to stdout (whole lines are written under stdout's lock, so the search thread
/// and the main thread never interleave within a line).
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Tell the GUI about a problem without stopping.
fn info_string(msg: &str) {
    say(&format!("info string {msg}"));
}

/// Prints `info` lines for each completed iteration, and `bestmove` once the search has its
/// result (held back in an infinite or ponder search until `stop`).
struct UciReporter {
    /// The root position, for writing castling moves in Chess960 notation.
    root: Board,
    /// UCI_Chess960: castling written as king takes rook.
    chess960: bool,
    infinite: bool,
    stop: Arc<AtomicBool>,
    /// Raised just before `bestmove` is printed.
    done: Arc<AtomicBool>,
}

impl Reporter for UciReporter {
    fn iteration(&mut self, r: &SearchResult, elapsed: Duration) {
        say(&info_line(r, elapsed, &self.root, self.chess960));
    }

    fn finished(&mut self, result: &SearchResult) {
        if self.infinite {
            // UCI: never send bestmove during an infinite search before `stop`.
            while !self.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        // Marked done before printing, so a `go` sent right after `bestmove` is accepted (it
        // joins the search thread, which has at most the helper threads' exit left).
        self.done.store(true, Ordering::SeqCst);
        if result.best_move.is_null() {
            info_string("no legal move in this position");
            say("bestmove 0000");
        } else {
            let text = self.root.move_to_uci(result.best_move, self.chess960);
            say(&format!("bestmove {text}"));
        }
    }
}

impl UciReporter {
    /// The search stopped without a result (it panicked): still answer, so the GUI is never
    /// left waiting, with `0000` rather than a guess. An infinite search still waits for `stop`.
    fn failed(&mut self, why: &str) {
        if self.done.load(Ordering::SeqCst) {
            return; // `bestmove` was already sent.
        }
        while self.infinite && !self.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.done.store(true, Ordering::SeqCst);
        info_string(&format!("search failed: {why}"));
        say("bestmove 0000");
    }
}

/// The `info depth ... pv ...` line of one iteration searched from `root`; with `chess960`,
/// castling in the PV is written as king takes rook. (Castling rooks never change during a
/// game, so the root position tells how to write castling anywhere in the PV.)
pub fn info_line(r: &SearchResult, elapsed: Duration, root: &Board, chess960: bool) -> String {
    let ms = elapsed.as_millis().max(1) as u64;
    let nps = r.nodes * 1000 / ms;
    let pv: Vec<String> =
        r.pv.iter()
            .map(|&m| root.move_to_uci(m, chess960))
            .collect();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} tbhits {} pv {}",
        r.depth,
        r.seldepth,
        r.score.to_uci(),
        r.nodes,
        nps,
        elapsed.as_millis(),
        r.hashfull,
        r.tbhits,
        pv.join(" ")
    )
}

/// The protocol state: current position, the searchers (lent to the search thread during a
/// search) and the running search, if any.
pub struct Uci {
    board: Board,
    /// Why the last `position` command was refused; `None` once one is accepted.
    refused: Option<String>,
    searcher: Arc<Mutex<ThreadPool>>,
    stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
    /// Set by the search thread once it has printed `bestmove`.
    done: Arc<AtomicBool>,
    options: options::Options,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    /// A fresh engine at the start position with default options.
    pub fn new() -> Uci {
        // Build the attack tables now, not inside the first timed search.
        crate::attacks::init();
        let options = options::Options::default();
        let searcher = ThreadPool::new(options.hash_mb);
        let stop = searcher.stop_flag();
        Uci {
            board: Board::startpos(),
            refused: None,
            searcher: Arc::new(Mutex::new(searcher)),
            stop,
            worker: None,
            done: Arc::new(AtomicBool::new(true)),
            options,
        }
    }

    /// Read commands from stdin until `quit` or end of input.
    pub fn run(&mut self) {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else {
                info_string("input is not valid UTF-8; line ignored");
                continue;
            };
            if !self.handle(&line) {
                break;
            }
        }
        self.stop_and_wait();
    }

    fn searching(&self) -> bool {
        self.worker.is_some() && !self.done.load(Ordering::SeqCst)
    }

    fn stop_and_wait(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    /// Act on one line; false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let cmd = match command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                if e.is_position() {
                    self.refuse(e.to_string());
                } else {
                    info_string(&e.to_string());
                }
                return true;
            }
        };
        match cmd {
            Command::Uci => {
                say(&format!("id name {NAME}"));
                say(&format!("id author {AUTHOR}"));
                for l in options::declarations() {
                    say(&l);
                }
                say("uciok");
            }
            Command::IsReady => say("readyok"),
            Command::UciNewGame => {
                self.stop_and_wait();
                self.lock().clear();
            }
            Command::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop.store(true, Ordering::SeqCst),
            Command::PonderHit => self.stop.store(true, Ordering::SeqCst),
            Command::Quit => return false,
            Command::SetOption { name, value } => {
                if self.searching() {
                    info_string("setoption during a search: stopping the search first");
                }
                self.stop_and_wait();
                let mut searcher = self.searcher.lock().unwrap_or_else(|p| p.into_inner());
                match self.options.apply(&name, value.as_deref(), &mut searcher) {
                    Ok(lines) => lines.iter().for_each(|l| info_string(l)),
                    Err(e) => info_string(&e.to_string()),
                }
            }
            Command::Debug | Command::Empty => {}
            Command::Display | Command::Eval if self.refused.is_some() => {
                info_string(&self.no_position());
            }
            Command::Display => {
                let fen = if self.options.chess960 {
                    self.board.to_shredder_fen()
                } else {
                    self.board.to_fen()
                };
                say(&format!("info string fen {fen}"));
            }
            Command::Eval => {
                self.stop_and_wait();
                let text =
                    explain(&self.board, self.lock().params()).to_text(self.board.side_to_move());
                for line in text.lines() {
                    info_string(line);
                }
            }
        }
        true
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ThreadPool> {
        self.searcher.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Set the position, or refuse it whole: a FEN that does not read or cannot arise, or an
    /// illegal move anywhere in the list. An `info string` says why, and until the next
    /// accepted `position` a `go` answers `bestmove 0000`.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mut board = match fen {
            None => Board::startpos(),
            Some(f) => match Board::from_fen(f) {
                Ok(b) => b,
                Err(e) => return self.refuse(format!("invalid FEN '{f}': {e}")),
            },
        };
        for (i, m) in moves.iter().enumerate() {
            match board.parse_uci_move_as(m, self.options.chess960) {
                Some(mv) => board.make(mv),
                None => {
                    return self.refuse(format!(
                        "illegal move '{m}' (move {} of the list) in '{}'",
                        i + 1,
                        board.to_fen()
                    ))
                }
            }
        }
        self.board = board;
        self.refused = None;
    }

    /// Refuses the position: says why now, and again at each `go` until one is accepted.
    fn refuse(&mut self, why: String) {
        info_string(&format!(
            "{why}; position refused, 'go' answers 0000 until a valid 'position'"
        ));
        self.refused = Some(why);
    }

    /// What `go`, `d` and `eval` say while there is no position.
    fn no_position(&self) -> String {
        let why = self.refused.as_deref().unwrap_or("none set");
        format!("no position to search: the last 'position' was refused ({why})")
    }

    fn go(&mut self, go: Go) {
        for w in &go.warnings {
            info_string(w);
        }
        if self.searching() {
            info_string("'go' while searching: ignored (send 'stop' first)");
            return;
        }
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
        if self.refused.is_some() {
            info_string(&self.no_position());
            if go.perft.is_none() {
                say("bestmove 0000");
            }
            return;
        }
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let mut limits = go.limits;
        if go.ponder {
            limits = Limits {
                infinite: true,
                ..limits
            };
        }
        self.stop.store(false, Ordering::SeqCst);
        self.done.store(false, Ordering::SeqCst);
        let done = Arc::clone(&self.done);
        let mut board = self.board.clone();
        let searcher = Arc::clone(&self.searcher);
        let stop = Arc::clone(&self.stop);
        let mut reporter = UciReporter {
            root: self.board.clone(),
            chess960: self.options.chess960,
            infinite: limits.infinite,
            stop,
            done,
        };
        self.worker = Some(std::thread::spawn(move || {
            let mut s = searcher.lock().unwrap_or_else(|p| p.into_inner());
            let search = AssertUnwindSafe(|| s.search(&mut board, &limits, &mut reporter));
            if let Err(panic) = std::panic::catch_unwind(search) {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                reporter.failed(&why);
            }
        }));
    }

    fn perft(&mut self, depth: u32) {
        let start = std::time::Instant::now();
        let mut board = self.board.clone();
        let mut total = 0u64;
        // Chess960 notation with the option on or when the position needs it (a castling
        // "b1c1" could otherwise also be a king move).
        let chess960 = self.options.chess960 || self.board.is_chess960();
        for (mv, n) in crate::movegen::divide(&mut board, depth) {
            say(&format!("{}: {n}", self.board.move_to_uci(mv, chess960)));
            total += n;
        }
        let ms = start.elapsed().as_millis().max(1) as u64;
        say("");
        say(&format!("Nodes searched: {total}"));
        say(&format!(
            "info string perft {depth}: {total} nodes in {ms} ms"
        ));
    }
}
