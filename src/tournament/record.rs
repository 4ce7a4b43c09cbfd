//! The record of a run: everything `--resume` needs to play the rest of a match or an SPRT, as
//! typed data (the engines with their limits and pinned builds, the openings, the rules of
//! adjudication and of faults, the SPRT's bounds, ...). The results file stores it; a resume
//! reads it back without a command-line parser, so a run made by any front end (`harness
//! match`, `harness sprt`, a `harness bisect` step, a configuration built in code) resumes with
//! `harness match --resume FILE` or `harness sprt --resume FILE`.
//!
//! What a resume may change is not here: the results file (the record's own file), the progress
//! display, and the options the resuming command line gives (`--rounds`, the fault limits,
//! `--log`, `--max-failure-files`), which `tournament::cli` applies to the record.

use super::config::{FaultRules, MatchConfig, Mode};
use super::participant::EngineConfig;
use super::revision::ensure_pinned_build;
pub use super::stages::{SprtRecord, StageRecord, StagesRecord};
use crate::game::pgn::PgnStyle;
use crate::game::{Adjudication, DrawRule, LinePattern, ResignRule, Variant};
use crate::openings::{BookError, BookSource};
use crate::tablebase::{SyzygyRule, TbError, TbResults, TbTableArgs};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The version of [`RunRecord`] this harness writes; it reads this one and every earlier one.
/// Raise it when a field changes meaning (a field added with a default does not need it).
pub const RECORD_VERSION: u32 = 1;

/// A match or SPRT as data. [`RunRecord::of`] takes it from a configuration, [`RunRecord::config`]
/// makes the configuration again: `config(of(cfg))` plays the same games as `cfg`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// [`RECORD_VERSION`] when written.
    pub version: u32,
    /// The engines, in order (the first is the one results are reported for).
    pub engines: Vec<EngineConfig>,
    /// Where the openings come from.
    pub openings: BookSource,
    /// The rules.
    pub variant: Variant,
    /// Games per round and pairing.
    pub games_per_round: u32,
    /// Rounds (a resume's `--rounds` may raise it).
    pub rounds: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// Cores of their own for each game's engines.
    pub affinity: bool,
    /// Pairing scheme for more than two engines.
    pub tournament: Mode,
    /// Adjudication rules.
    pub adjudication: AdjudicationRecord,
    /// When faults stop the run or withhold its verdict.
    pub fault_rules: FaultRules,
    /// Restart an engine after a crash or hang and go on.
    pub recover: bool,
    /// Allowance for an engine's start, in milliseconds.
    pub startup_ms: u64,
    /// Allowance for `isready` and `stop`, in milliseconds.
    pub ping_ms: u64,
    /// The engine log, if any.
    pub log: Option<PathBuf>,
    /// Failure case files kept at most.
    pub max_failure_files: usize,
    /// The PGN every game is appended to, if any.
    pub pgn_out: Option<PathBuf>,
    /// Event name for the PGN.
    pub event: String,
    /// Interim report every this many games (0: only at the end).
    pub rating_interval: u64,
    /// The form of the PGN's move comments (fastchess's with `n=`/`sd=`, or the harness's).
    #[serde(default)]
    pub pgn_style: PgnStyle,
    /// The `match_line` patterns whose engine lines the PGN keeps with each move.
    #[serde(default)]
    pub match_lines: Vec<String>,
    /// Play on with settings of options the engines do not declare (`--allow-unknown-options`).
    #[serde(default)]
    pub allow_unknown_options: bool,
    /// The SPRT, when the run is one.
    pub sprt: Option<SprtRecord>,
    /// Where the SPRT's chart goes (default: beside the results file).
    #[serde(default)]
    pub plot: Option<PathBuf>,
    /// Both stages of a two-stage SPRT, when the run is one of them.
    #[serde(default)]
    pub stages: Option<StagesRecord>,
}

/// The adjudication rules as data (the Syzygy rule by the folders of its tables).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdjudicationRecord {
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw after this many full moves.
    pub maxmoves: Option<u32>,
    /// Syzygy adjudication.
    pub syzygy: Option<SyzygyRecord>,
}

/// The Syzygy rule of a run: which tables, how far to trust them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SyzygyRecord {
    /// The folders of the tables, `:`-separated (as `--tb` takes them).
    pub folders: String,
    /// Positions with more pieces are not looked up.
    pub max_pieces: usize,
    /// Which results end a game.
    pub results: TbResults,
    /// Cursed wins and blessed losses count as wins and losses.
    pub ignore_50: bool,
}

/// Why a record makes no configuration.
#[derive(Debug)]
pub enum RecordError {
    /// Written by a newer harness, with fields this one may misread.
    Newer {
        /// The record's version.
        found: u32,
    },
    /// The opening book cannot be read again.
    Book(BookError),
    /// The Syzygy tables cannot be loaded again.
    Tablebase(TbError),
    /// A pinned `rev:` build is gone and cannot be made again.
    Revision(crate::plumbing::revision::RevisionError),
    /// The SPRT's numbers are not a test.
    Sprt(String),
    /// Something that no configuration has (no engine, no stage of that number).
    Invalid(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Newer { found } => write!(
                f,
                "the run's record is version {found}, newer than this harness reads \
                 ({RECORD_VERSION}); resume it with the harness that started it"
            ),
            RecordError::Book(e) => write!(f, "the run's openings: {e}"),
            RecordError::Tablebase(e) => write!(f, "the run's Syzygy tables: {e}"),
            RecordError::Revision(e) => write!(f, "the run's engine: {e}"),
            RecordError::Sprt(e) => write!(f, "the run's SPRT: {e}"),
            RecordError::Invalid(e) => write!(f, "the run's record: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl RunRecord {
    /// The record of `cfg` (openings given in code are stored whole).
    pub fn of(cfg: &MatchConfig) -> RunRecord {
        let adj = &cfg.adjudication;
        RunRecord {
            version: RECORD_VERSION,
            engines: cfg.engines.clone(),
            openings: cfg.book.clone().unwrap_or_else(|| BookSource::Given {
                openings: cfg.openings.clone(),
            }),
            variant: cfg.variant,
            games_per_round: cfg.games_per_round,
            rounds: cfg.rounds,
            concurrency: cfg.concurrency,
            affinity: cfg.affinity,
            tournament: cfg.mode,
            adjudication: AdjudicationRecord {
                draw: adj.draw,
                resign: adj.resign,
                maxmoves: adj.maxmoves,
                syzygy: adj.syzygy.as_ref().map(syzygy_record),
            },
            fault_rules: cfg.fault_rules,
            recover: cfg.recover,
            startup_ms: millis(cfg.startup),
            ping_ms: millis(cfg.ping),
            log: cfg.log.clone(),
            max_failure_files: cfg.max_failure_files,
            pgn_out: cfg.pgn_out.clone(),
            event: cfg.event.clone(),
            rating_interval: cfg.rating_interval,
            pgn_style: cfg.pgn_style,
            match_lines: cfg
                .match_lines
                .iter()
                .map(|p| p.as_str().to_owned())
                .collect(),
            allow_unknown_options: cfg.allow_unknown_options,
            sprt: cfg.sprt.as_ref().map(SprtRecord::from),
            plot: cfg.plot.clone(),
            stages: cfg.stages.clone(),
        }
    }

    /// The configuration this record describes: the book read again, the tables loaded
    /// again, a pinned build that is gone built again. No results file, no resume, no progress
    /// display: the caller sets those. `verbose` prints what is loaded and built.
    pub fn config(&self, verbose: bool) -> Result<MatchConfig, RecordError> {
        if self.version > RECORD_VERSION {
            return Err(RecordError::Newer {
                found: self.version,
            });
        }
        if self.engines.is_empty() {
            return Err(RecordError::Invalid("no engines".into()));
        }
        let (openings, book_name) = self
            .openings
            .load(self.variant)
            .map_err(RecordError::Book)?;
        let syzygy = match &self.adjudication.syzygy {
            Some(s) => Some(load_syzygy(s, verbose)?),
            None => None,
        };
        let mut engines = self.engines.clone();
        for e in &mut engines {
            ensure_pinned_build(e, verbose).map_err(RecordError::Revision)?;
        }
        let mut cfg = MatchConfig::new(engines, openings);
        cfg.book_name = book_name;
        cfg.book = Some(self.openings.clone());
        cfg.variant = self.variant;
        cfg.games_per_round = self.games_per_round;
        cfg.rounds = self.rounds;
        cfg.concurrency = self.concurrency;
        cfg.affinity = self.affinity;
        cfg.mode = self.tournament;
        let a = &self.adjudication;
        cfg.adjudication = Adjudication {
            draw: a.draw,
            resign: a.resign,
            maxmoves: a.maxmoves,
            syzygy,
        };
        self.set_rules(&mut cfg)?;
        cfg.plot = self.plot.clone();
        cfg.stages = self.stages.clone();
        Ok(cfg)
    }

    /// The recorded fault rules, start-up limits, output files, patterns and SPRT in `cfg`.
    fn set_rules(&self, cfg: &mut MatchConfig) -> Result<(), RecordError> {
        cfg.fault_rules = self.fault_rules;
        cfg.recover = self.recover;
        cfg.startup = Duration::from_millis(self.startup_ms);
        cfg.ping = Duration::from_millis(self.ping_ms);
        cfg.log = self.log.clone();
        cfg.max_failure_files = self.max_failure_files;
        cfg.pgn_out = self.pgn_out.clone();
        cfg.event = self.event.clone();
        cfg.rating_interval = self.rating_interval;
        cfg.pgn_style = self.pgn_style;
        cfg.match_lines = self
            .match_lines
            .iter()
            .map(|p| LinePattern::new(p).map_err(|e| RecordError::Invalid(e.to_string())))
            .collect::<Result<_, _>>()?;
        cfg.allow_unknown_options = self.allow_unknown_options;
        cfg.sprt = self
            .sprt
            .as_ref()
            .map(|s| s.sprt().map_err(|e| RecordError::Sprt(e.to_string())))
            .transpose()?;
        Ok(())
    }

    /// This record as stage `k` of its two-stage SPRT: the stage's engines, test, rounds and
    /// chart, everything else as recorded.
    pub fn stage(&self, k: usize) -> Result<RunRecord, RecordError> {
        let stages = self
            .stages
            .as_ref()
            .ok_or_else(|| RecordError::Invalid("not a two-stage SPRT".into()))?;
        let s = stages
            .stages
            .get(k)
            .ok_or_else(|| RecordError::Invalid(format!("no stage {}", k + 1)))?;
        let mut rec = self.clone();
        rec.engines = s.engines.clone();
        rec.sprt = Some(s.sprt);
        rec.rounds = s.rounds;
        rec.plot = s.plot.clone();
        rec.pgn_out = s.pgn_out.clone();
        rec.stages = Some(StagesRecord {
            stage: k,
            stages: stages.stages.clone(),
        });
        Ok(rec)
    }
}

/// A duration in whole milliseconds (saturating: no allowance is near 500 million years).
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The record of a loaded Syzygy rule.
fn syzygy_record(rule: &SyzygyRule) -> SyzygyRecord {
    let folders: Vec<String> = rule
        .tables
        .folders()
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    SyzygyRecord {
        folders: folders.join(":"),
        max_pieces: rule.max_pieces,
        results: rule.results,
        ignore_50: rule.ignore_50,
    }
}

/// Loads the tables of a recorded Syzygy rule.
fn load_syzygy(s: &SyzygyRecord, verbose: bool) -> Result<SyzygyRule, RecordError> {
    let tables = TbTableArgs {
        tb: Some(s.folders.clone()),
        tb_pieces: Some(s.max_pieces),
        tb_ignore_50: s.ignore_50,
    };
    let found = tables.rule(s.results).map_err(RecordError::Tablebase)?;
    announce_syzygy(found, verbose).ok_or_else(|| RecordError::Invalid("no tables".into()))
}

/// Says which tables were loaded (when `verbose`) and which files were refused (always); the
/// rule, if any.
pub(crate) fn announce_syzygy(
    found: Option<(SyzygyRule, Vec<String>)>,
    verbose: bool,
) -> Option<SyzygyRule> {
    let (rule, warnings) = found?;
    if verbose {
        errln!("Syzygy: {}", rule.tables.describe());
    }
    for w in warnings {
        errln!("warning: {w}");
    }
    Some(rule)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Model;
    use crate::tournament::engine_args::engine_from_words;

    fn record() -> RunRecord {
        let words = ["cmd=/bin/true".to_owned()];
        let e = engine_from_words(&[], &words).unwrap();
        let mut cfg = MatchConfig::new(vec![e.clone(), e], Vec::new());
        cfg.book = Some(BookSource::Startpos);
        RunRecord::of(&cfg)
    }

    #[test]
    fn a_newer_record_is_refused_not_misread() {
        let mut r = record();
        assert!(r.config(false).is_ok());
        r.version = RECORD_VERSION + 1;
        let err = r.config(false).unwrap_err();
        assert!(matches!(err, RecordError::Newer { found } if found == RECORD_VERSION + 1));
        assert!(
            err.to_string().contains("newer than this harness reads"),
            "{err}"
        );
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        let mut r = record();
        r.sprt = Some(SprtRecord {
            elo0: 5.0,
            elo1: 0.0,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Normalized,
        });
        assert!(matches!(r.config(false), Err(RecordError::Sprt(_))));
        r.sprt = None;
        r.openings = BookSource::File {
            spec: crate::openings::BookSpec::parse(&["file=/no/such/book.epd".to_owned()]).unwrap(),
            seed: 0,
        };
        let err = r.config(false).unwrap_err();
        assert!(err.to_string().contains("/no/such/book.epd"), "{err}");
        assert!(matches!(record().stage(0), Err(RecordError::Invalid(_))));
        r.engines.clear();
        assert!(matches!(r.config(false), Err(RecordError::Invalid(_))));
    }

    #[test]
    fn a_stage_takes_its_own_engines_test_and_rounds() {
        let mut r = record();
        let mut fast = r.engines.clone();
        fast[0].limits.nodes = Some(100);
        let sprt = SprtRecord {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Normalized,
        };
        let stage = |engines: Vec<EngineConfig>, rounds| StageRecord {
            words: "nodes=100".into(),
            engines,
            sprt,
            rounds,
            plot: None,
            pgn_out: None,
        };
        r.stages = Some(StagesRecord {
            stage: 0,
            stages: vec![stage(fast.clone(), 7), stage(r.engines.clone(), 9)],
        });
        let second = r.stage(1).unwrap();
        assert_eq!(
            (second.rounds, second.stages.as_ref().unwrap().stage),
            (9, 1)
        );
        let first = r.stage(0).unwrap().config(false).unwrap();
        assert_eq!(first.engines, fast);
        assert_eq!(first.rounds, 7);
        assert!(first.sprt.is_some());
        assert!(matches!(r.stage(2), Err(RecordError::Invalid(_))));
    }
}
