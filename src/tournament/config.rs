//! What a match is ([`MatchConfig`]) and what it produced ([`MatchOutcome`]).

use crate::game::pgn::PgnStyle;
use crate::game::{Adjudication, FaultKind, GameRecord, LinePattern, Opening, Variant};
use crate::plumbing::timeouts;
use crate::stats::{Decision, PairTracker, Sprt, SprtPoint};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub use super::participant::EngineConfig;

/// Writes the line of a finished game from its number (1-based, in schedule order) and record.
pub type GameLine = fn(u64, &GameRecord) -> String;

/// Who plays whom when there are more than two engines (`--tournament`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The first engine plays each of the others.
    Gauntlet,
    /// Every engine plays every other.
    #[value(name = "roundrobin")]
    RoundRobin,
}

/// Everything a match needs. Build it in code (as `harness check` does) or from the CLI.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The engines; results are reported from the first engine of each pairing.
    pub engines: Vec<EngineConfig>,
    /// Openings in order of use (round r uses opening r modulo their number).
    pub openings: Vec<Opening>,
    /// The book's path as the user gave it (PGN `Opening` tags name it with the line), or empty.
    pub book_name: String,
    /// Where `openings` came from, for the run's record; `None`: they were given in code, and
    /// the record stores them whole.
    pub book: Option<crate::openings::BookSource>,
    /// Rounds; each round plays one opening per pairing.
    pub rounds: u32,
    /// Games per round and pairing: 2 = a pair with colours swapped, 1 = single games.
    pub games_per_round: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// Pin each concurrent game's engines to cores of their own (`--affinity`).
    pub affinity: bool,
    /// Pairing scheme for more than two engines.
    pub mode: Mode,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// After a crash or hang, restart the engine and go on (else stop the match after that game).
    pub recover: bool,
    /// When engine faults stop the run or withhold its verdict.
    pub fault_rules: FaultRules,
    /// Write every line to and from every engine here (`--log`).
    pub log: Option<PathBuf>,
    /// Failure case files kept beside the results file (`--max-failure-files`).
    pub max_failure_files: usize,
    /// The rules (standard chess or Chess960); Chess960 engines get `UCI_Chess960=true`.
    pub variant: Variant,
    /// Allowance for engine startup (`uci` → `uciok`, `isready`).
    pub startup: Duration,
    /// Allowance for `isready` between games and `stop` after a time loss.
    pub ping: Duration,
    /// Append every game here as PGN.
    pub pgn_out: Option<PathBuf>,
    /// The form of the PGN's move comments (fastchess's, with `n=`/`sd=`, or the harness's).
    pub pgn_style: PgnStyle,
    /// Engine lines kept with each move for the PGN (`-pgnout match_line=`).
    pub match_lines: Vec<LinePattern>,
    /// fastchess's output contract (the harness started as fastchess): no progress bar; every
    /// game's line, written by this function from its number and record, and the interim
    /// reports go to stdout whatever `progress` says.
    pub game_line: Option<GameLine>,
    /// JSON results, rewritten after every game; also the resume file.
    pub results: Option<PathBuf>,
    /// Continue the games recorded in `results` instead of starting over.
    pub resume: bool,
    /// Stop when this SPRT decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Where the SPRT's chart goes (default: beside the results file).
    pub plot: Option<PathBuf>,
    /// The two-stage SPRT this run is a stage of: both stages, kept in each stage's record so
    /// that either file resumes the pipeline (`cmd::sprt_stages` reads it; the runner only
    /// stores it).
    pub stages: Option<super::stages::StagesRecord>,
    /// Print the interim report every this many games (0 = never).
    pub rating_interval: u64,
    /// Show the progress bar and per-game lines.
    pub progress: bool,
    /// Event name for PGN.
    pub event: String,
    /// Play on with settings of options the engines do not declare (warned about); without it
    /// such a setting stops the run before any game.
    pub allow_unknown_options: bool,
}

impl MatchConfig {
    /// The subcommand that runs such a match, for messages (`harness sprt --resume ...`).
    pub fn kind(&self) -> &'static str {
        if self.sprt.is_some() {
            "sprt"
        } else {
            "match"
        }
    }

    /// A config with the usual defaults for these engines and openings: one round, game pairs,
    /// one game at a time, recover on, 10 s startup, 5 s ping, no files, no SPRT, quiet.
    pub fn new(engines: Vec<EngineConfig>, openings: Vec<Opening>) -> MatchConfig {
        MatchConfig {
            engines,
            openings,
            book_name: String::new(),
            book: None,
            rounds: 1,
            games_per_round: 2,
            concurrency: 1,
            affinity: false,
            mode: Mode::Gauntlet,
            adjudication: Adjudication::default(),
            recover: true,
            fault_rules: FaultRules::default(),
            log: None,
            max_failure_files: crate::forensics::files::DEFAULT_MAX_FILES,
            variant: Variant::Standard,
            startup: timeouts::STARTUP,
            ping: timeouts::PING,
            pgn_out: None,
            pgn_style: PgnStyle::default(),
            match_lines: Vec::new(),
            game_line: None,
            results: None,
            resume: false,
            sprt: None,
            plot: None,
            stages: None,
            rating_interval: 0,
            progress: false,
            event: "Sable match".to_owned(),
            allow_unknown_options: false,
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

/// When engine faults make a run untrustworthy. A starting failure (no process, no `uciok`, no
/// `readyok`) always stops the run and is never scored; these rules govern faults in games.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FaultRules {
    /// Stop the run, without a verdict, when one engine faults in this many of its games in a
    /// row (0 = never).
    pub max_consecutive: u32,
    /// Withhold an SPRT verdict (and mark a match's result) when an engine's faults exceed this
    /// share of its games (0.02 = 2 %).
    pub max_share: f64,
}

impl Default for FaultRules {
    fn default() -> FaultRules {
        FaultRules {
            max_consecutive: 3,
            max_share: 0.02,
        }
    }
}

/// Why a run ended without a trustworthy result. Every variant means: no verdict (exit code 4).
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// An engine could not be started or made ready (the error names it, its command line and
    /// its last output).
    Setup(String),
    /// An engine crashed or hung and `--recover` is off.
    Fault(String),
    /// One engine faulted in this many of its games in a row.
    ConsecutiveFaults {
        /// The engine.
        engine: String,
        /// Faults in a row.
        count: u32,
        /// The last fault, in words.
        last: String,
    },
    /// The SPRT reached a bound, but an engine faulted in too large a share of its games.
    FaultShare {
        /// The engine.
        engine: String,
        /// Its faults.
        faults: u64,
        /// Its games.
        games: u64,
        /// The limit (a share).
        limit: f64,
        /// The bound the LLR reached.
        bound: Decision,
    },
    /// The user pressed Ctrl-C; the games in flight were abandoned and a resume replays them.
    Interrupted,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Setup(why) => write!(f, "{why}"),
            Stop::Fault(why) => write!(f, "{why}"),
            Stop::ConsecutiveFaults {
                engine,
                count,
                last,
            } => write!(
                f,
                "{engine} faulted in {count} games in a row (last: {last}); a broken engine \
                 gives no verdict (--max-consecutive-faults)"
            ),
            Stop::FaultShare {
                engine,
                faults,
                games,
                limit,
                bound,
            } => write!(
                f,
                "the SPRT reached its bound ({bound}), but {engine} faulted in {faults} of its \
                 {games} games ({:.1} %, more than the {:.1} % allowed by --max-fault-share): \
                 its losses are not chess, so no verdict is given",
                100.0 * *faults as f64 / (*games).max(1) as f64,
                100.0 * limit
            ),
            Stop::Interrupted => write!(
                f,
                "interrupted (Ctrl-C); the games in flight were abandoned and will be replayed"
            ),
        }
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
    /// Why the run stopped without a trustworthy result, if it did.
    pub stopped: Option<Stop>,
    /// Games played per engine index (for fault shares).
    pub engine_games: Vec<u64>,
    /// Games that repeated an earlier game with the same colours move for move.
    pub repeated_games: u64,
    /// Games that finished after the SPRT decided (recorded, but they did not change it).
    pub late_games: u64,
    /// The failure cases this run wrote beside its results, and those it did not.
    pub failures: crate::forensics::FailureSummary,
    /// Every finished game, for the joint rating list of a match of more than two engines.
    pub games_rated: Vec<crate::stats::ratings::RatedGame>,
}

impl MatchOutcome {
    /// The engines whose faults exceed `rules.max_share` of their games: (index, share).
    pub fn fault_shares_over(&self, rules: &FaultRules) -> Vec<(usize, f64)> {
        (0..self.faults.len())
            .filter_map(|i| {
                let games = self.engine_games.get(i).copied().unwrap_or(0);
                let share = self.faults[i].total() as f64 / games.max(1) as f64;
                (games > 0 && share > rules.max_share).then_some((i, share))
            })
            .collect()
    }

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
