//! The runner's one error at its boundary: a configuration no game can be played with, a file
//! of the run that cannot be read or written, and the errors of the rooms below it (a book, the
//! tables, a `rev:` build, the lock), each shown as that room says it.
//!
//! An engine that does not start is no error here: it stops the run with no verdict
//! ([`super::preflight::SetupError`], kept in the results file).

use super::affinity::AffinityError;
use super::engine_args::WordsError;
use super::record::RecordError;
use super::resume::ResultsError;
use crate::game::line_pattern::PatternError;
use crate::openings::BookError;
use crate::plumbing::lock::LockError;
use crate::plumbing::revision::RevisionError;
use crate::report::plot::ChartError;
use crate::tablebase::TbError;
use std::fmt;
use std::path::PathBuf;

/// Why a match could not be set up, played or written.
#[derive(Debug)]
pub enum MatchError {
    /// A file of the run (`context` names it and what was done) and the system's error.
    Io {
        context: String,
        source: std::io::Error,
    },
    /// The results file or its journal.
    Results(ResultsError),
    /// A run record that cannot be played again.
    Record(RecordError),
    /// An engine's words (`--engine`, `--each`, `--draw`, `--resign`).
    Words(WordsError),
    /// The openings.
    Book(BookError),
    /// The `--tb` tables.
    Tablebase(TbError),
    /// A `rev:` engine's build.
    Revision(RevisionError),
    /// A `--pgn-match-line` pattern.
    Pattern(PatternError),
    /// Another run holds the results file.
    Lock(LockError),
    /// `--affinity`'s cores.
    Affinity(AffinityError),
    /// The SPRT's chart.
    Chart(ChartError),
    /// Fewer than two engines.
    TooFewEngines { got: usize },
    /// Games per round other than 1 or 2.
    GamesPerRound { got: u32 },
    /// `--concurrency 0`.
    NoConcurrency,
    /// Two engines of one name.
    SameName { name: String },
    /// An engine without a time control or limit.
    Unbounded { name: String },
    /// A new run's results file that holds an earlier run's.
    ResultsExist { path: PathBuf, kind: String },
    /// A Chess960 match with an engine that does not offer it.
    NoChess960 { name: String },
    /// Option settings an engine does not declare or refuses.
    RefusedOptions { name: String, refused: Vec<String> },
    /// `--resume` without a results file.
    ResumeWithoutResults,
    /// A resumed results file of another match (or of more games).
    DifferentMatch {
        path: PathBuf,
        recorded: u64,
        scheduled: u64,
    },
    /// A results file of version 1, which `cmd` converts.
    LegacyResults { path: PathBuf, kind: String },
    /// `--max-fault-share` outside 0..=100.
    FaultShare { pct: f64 },
    /// An SPRT of other than two engines.
    SprtEngines { got: usize },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(e) = self.wrapped() {
            return write!(f, "{e}");
        }
        match self {
            MatchError::Io { context, .. } => write!(f, "{context}"),
            MatchError::ResumeWithoutResults => write!(f, "--resume needs a results file"),
            MatchError::DifferentMatch {
                path,
                recorded,
                scheduled,
            } => write!(
                f,
                "{}: recorded for a different match ({recorded} games scheduled there, \
                 {scheduled} now; --rounds may extend a run, not shorten it)",
                path.display()
            ),
            MatchError::LegacyResults { path, kind } => write!(
                f,
                "{}: a results file of version 1 (the run stored as command-line words); \
                 `harness {kind} --resume {}` converts it",
                path.display(),
                path.display()
            ),
            MatchError::FaultShare { pct } => write!(
                f,
                "--max-fault-share must be a percentage from 0 to 100 (got {pct})"
            ),
            MatchError::SprtEngines { got } => {
                write!(f, "an SPRT needs exactly two engines (got {got})")
            }
            _ => self.fmt_config(f),
        }
    }
}

impl MatchError {
    /// The messages of a configuration no game can be played with ([`super::preflight`]).
    fn fmt_config(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::TooFewEngines { got } => {
                write!(f, "a match needs at least two engines (got {got})")
            }
            MatchError::GamesPerRound { got } => {
                write!(f, "games per round must be 1 or 2 (got {got})")
            }
            MatchError::NoConcurrency => write!(f, "concurrency must be at least 1"),
            MatchError::SameName { name } => write!(
                f,
                "two engines are named `{name}`: their results would merge; give each its own \
                 name= (e.g. --engine cmd=... name=dev --engine cmd=... name=base)"
            ),
            MatchError::Unbounded { name } => write!(
                f,
                "engine {name}: no time control or limit (give tc=, st=, nodes= or depth=; \
                 tc=inf needs nodes= or depth=)"
            ),
            MatchError::ResultsExist { path, kind } => write!(
                f,
                "{} already holds the results of a run; it is never overwritten. Continue that \
                 run with `harness {kind} --resume {}`, or choose another file with --results FILE \
                 (without --results, a new name is chosen for you)",
                path.display(),
                path.display()
            ),
            MatchError::NoChess960 { name } => write!(
                f,
                "engine {name} does not offer UCI_Chess960, so it cannot play --variant \
                 fischerandom"
            ),
            MatchError::RefusedOptions { name, refused } => write!(
                f,
                "engine {name}: {}; an engine clamps or ignores such a setting, so the games would \
                 not test the setting asked for: give a name and a value it declares (or \
                 --allow-unknown-options, when it takes an option it does not declare)",
                refused.join("; ")
            ),
            _ => unreachable!("not a configuration error: {self:?}"),
        }
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MatchError::Io { source, .. } => Some(source),
            // A wrapped error is shown as itself, so its source is its own.
            _ => self.wrapped().and_then(|e| e.source()),
        }
    }
}

impl MatchError {
    /// The error of a room below that this one wraps whole, if it is one.
    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            MatchError::Results(e) => e,
            MatchError::Record(e) => e,
            MatchError::Words(e) => e,
            MatchError::Book(e) => e,
            MatchError::Tablebase(e) => e,
            MatchError::Revision(e) => e,
            MatchError::Pattern(e) => e,
            MatchError::Lock(e) => e,
            MatchError::Affinity(e) => e,
            MatchError::Chart(e) => e,
            _ => return None,
        })
    }
}

error_from!(
    MatchError:
    Results(ResultsError),
    Record(RecordError),
    Words(WordsError),
    Book(BookError),
    Tablebase(TbError),
    Revision(RevisionError),
    Pattern(PatternError),
    Lock(LockError),
    Affinity(AffinityError),
    Chart(ChartError),
);

impl MatchError {
    /// The `map_err` of a failed system call on a file of the run, with what was done.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> MatchError {
        let context = context.into();
        move |source| MatchError::Io { context, source }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    /// Every variant has its words (the configuration's through `fmt_config`), the words the
    /// tests of `tests/` look for among them; a wrapped error is shown as itself, and a file's
    /// system error is the source, not repeated in the message.
    #[test]
    fn every_variant_says_what_failed() {
        let path = PathBuf::from("r.json");
        let cases = [
            (
                MatchError::TooFewEngines { got: 1 },
                "at least two engines (got 1)",
            ),
            (
                MatchError::GamesPerRound { got: 3 },
                "must be 1 or 2 (got 3)",
            ),
            (MatchError::NoConcurrency, "concurrency must be at least 1"),
            (
                MatchError::SameName { name: "a".into() },
                "two engines are named `a`",
            ),
            (
                MatchError::Unbounded { name: "a".into() },
                "engine a: no time control",
            ),
            (
                MatchError::ResultsExist {
                    path: path.clone(),
                    kind: "sprt".into(),
                },
                "`harness sprt --resume r.json`",
            ),
            (
                MatchError::NoChess960 { name: "a".into() },
                "does not offer UCI_Chess960",
            ),
            (
                MatchError::RefusedOptions {
                    name: "a".into(),
                    refused: vec!["x".into(), "y".into()],
                },
                "engine a: x; y; an engine clamps",
            ),
            (
                MatchError::ResumeWithoutResults,
                "--resume needs a results file",
            ),
            (
                MatchError::DifferentMatch {
                    path: path.clone(),
                    recorded: 10,
                    scheduled: 4,
                },
                "10 games scheduled there, 4 now",
            ),
            (
                MatchError::LegacyResults {
                    path: path.clone(),
                    kind: "match".into(),
                },
                "`harness match --resume r.json` converts it",
            ),
            (MatchError::FaultShare { pct: 101.0 }, "0 to 100 (got 101)"),
            (
                MatchError::SprtEngines { got: 3 },
                "exactly two engines (got 3)",
            ),
        ];
        for (e, words) in cases {
            assert!(e.to_string().contains(words), "{e} lacks {words}");
            assert!(e.source().is_none(), "{e}");
        }
        let words = WordsError::NoCommand {
            words: "name=a".into(),
        };
        let wrapped = MatchError::from(words.clone());
        assert_eq!(wrapped.to_string(), words.to_string());
        let io = MatchError::io("writing the PGN file")(std::io::Error::other("disk full"));
        assert_eq!(io.to_string(), "writing the PGN file");
        assert_eq!(io.source().map(|s| s.to_string()), Some("disk full".into()));
    }
}
