//! What a match is ([`MatchConfig`]) and what it produced ([`MatchOutcome`]).

use crate::game::{Adjudication, FaultKind, Limits, Opening};
use crate::stats::{Decision, PairTracker, Sprt, SprtPoint};
use crate::uci::EngineSpec;
use std::path::PathBuf;
use std::time::Duration;

/// One participant: how to start it and how it may search.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// Command, arguments, name, directory and UCI options.
    pub spec: EngineSpec,
    /// Its time control or other limits.
    pub limits: Limits,
}

/// Who plays whom when there are more than two engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The first engine plays each of the others.
    Gauntlet,
    /// Every engine plays every other.
    RoundRobin,
}

/// Everything a match needs. Build it in code (as `harness check` does) or from the CLI.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The engines; results are reported from the first engine of each pairing.
    pub engines: Vec<EngineConfig>,
    /// Openings in order of use (round r uses opening r modulo their number).
    pub openings: Vec<Opening>,
    /// Where the openings came from, for PGN tags and reports.
    pub book_name: String,
    /// Rounds; each round plays one opening per pairing.
    pub rounds: u32,
    /// Games per round and pairing: 2 = a pair with colours swapped, 1 = single games.
    pub games_per_round: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// Pairing scheme for more than two engines.
    pub mode: Mode,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// After a crash or hang, restart the engine and go on (else stop the match after that game).
    pub recover: bool,
    /// Allowance for engine startup (`uci` → `uciok`, `isready`).
    pub startup: Duration,
    /// Allowance for `isready` between games and `stop` after a time loss.
    pub ping: Duration,
    /// Append every game here as PGN.
    pub pgn_out: Option<PathBuf>,
    /// JSON results, rewritten after every game; also the resume file.
    pub results: Option<PathBuf>,
    /// Continue the games recorded in `results` instead of starting over.
    pub resume: bool,
    /// Stop when this SPRT decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Print the interim report every this many games (0 = never).
    pub rating_interval: u64,
    /// Show the progress bar and per-game lines.
    pub progress: bool,
    /// Event name for PGN.
    pub event: String,
    /// The command-line words that made this config (stored in the results file for `--resume`).
    pub args: Vec<String>,
}

impl MatchConfig {
    /// A config with the usual defaults for these engines and openings: one round, game pairs,
    /// one game at a time, recover on, 10 s startup, 5 s ping, no files, no SPRT, quiet.
    pub fn new(engines: Vec<EngineConfig>, openings: Vec<Opening>) -> MatchConfig {
        MatchConfig {
            engines,
            openings,
            book_name: String::new(),
            rounds: 1,
            games_per_round: 2,
            concurrency: 1,
            mode: Mode::Gauntlet,
            adjudication: Adjudication::default(),
            recover: true,
            startup: Duration::from_secs(10),
            ping: Duration::from_secs(5),
            pgn_out: None,
            results: None,
            resume: false,
            sprt: None,
            rating_interval: 0,
            progress: false,
            event: "Sable match".to_owned(),
            args: Vec::new(),
        }
    }
}

/// Results of one pairing (engine `a` against engine `b`, from `a`'s view).
#[derive(Debug, Clone)]
pub struct PairingResult {
    /// Index of the first engine.
    pub a: usize,
    /// Index of the second engine.
    pub b: usize,
    /// Game and pair counts.
    pub tracker: PairTracker,
    /// Per round: `a`'s points and the games played (for comparing the challengers of a
    /// gauntlet on the openings they share).
    pub rounds: std::collections::BTreeMap<u32, (f64, u32)>,
}

/// Counters of engine faults over a match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FaultCounts {
    /// Engine processes that exited mid-game.
    pub crashes: u64,
    /// Losses on time (including no answer at all).
    pub time_losses: u64,
    /// Illegal or malformed moves.
    pub illegal_moves: u64,
    /// Engines that stopped answering or broke the protocol.
    pub disconnects: u64,
    /// Engines that failed to start or to get ready.
    pub startup_failures: u64,
}

impl FaultCounts {
    /// Counts one fault.
    pub fn add(&mut self, kind: FaultKind) {
        match kind {
            FaultKind::Crash => self.crashes += 1,
            FaultKind::TimeLoss => self.time_losses += 1,
            FaultKind::IllegalMove => self.illegal_moves += 1,
            FaultKind::Disconnect => self.disconnects += 1,
            FaultKind::Startup => self.startup_failures += 1,
        }
    }

    /// All faults together.
    pub fn total(&self) -> u64 {
        self.crashes
            + self.time_losses
            + self.illegal_moves
            + self.disconnects
            + self.startup_failures
    }
}

/// What [`super::run_match`] returns.
#[derive(Debug, Clone)]
pub struct MatchOutcome {
    /// Engine display names, by index.
    pub names: Vec<String>,
    /// Results per pairing.
    pub pairings: Vec<PairingResult>,
    /// Games finished (including those loaded by resume).
    pub games: u64,
    /// Of those, games loaded from the journal by resume (not played by this run).
    pub resumed: u64,
    /// Games scheduled in all.
    pub scheduled: u64,
    /// Faults per engine index.
    pub faults: Vec<FaultCounts>,
    /// The SPRT decision when an SPRT was run.
    pub decision: Option<Decision>,
    /// LLR and Elo after each interval (for the SPRT chart).
    pub history: Vec<SprtPoint>,
    /// The match stopped early because an engine failed and `recover` was off.
    pub aborted: Option<String>,
}

impl MatchOutcome {
    /// Faults of all engines together.
    pub fn total_faults(&self) -> FaultCounts {
        let mut t = FaultCounts::default();
        for f in &self.faults {
            t.crashes += f.crashes;
            t.time_losses += f.time_losses;
            t.illegal_moves += f.illegal_moves;
            t.disconnects += f.disconnects;
            t.startup_failures += f.startup_failures;
        }
        t
    }
}
