//! The results: a JSON summary file (rewritten atomically after every game; its size does not
//! grow with the number of games) and beside it a journal with one JSON line per finished game
//! (`FILE.games.jsonl`, appended and flushed after every game). An interrupted match loses no
//! finished game; `--resume FILE` reads both back and plays only the missing games.

use crate::game::{Fault, GameRecord, Outcome};
use crate::plumbing::append::{AppendFile, Restored};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a results file or its journal could not be read or written: the file (with the line)
/// and the cause.
#[derive(Debug)]
pub enum ResultsError {
    /// Reading or writing the file failed.
    Io {
        /// The file.
        file: PathBuf,
        /// What the operating system said.
        cause: std::io::Error,
    },
    /// The file is not a results file.
    NotResults {
        /// The file.
        file: PathBuf,
        /// Why its JSON does not parse as one.
        cause: serde_json::Error,
    },
    /// A journal line that is no game (other than a last line cut short by a kill).
    JournalLine {
        /// The journal.
        file: PathBuf,
        /// 1-based line number.
        line: usize,
        /// Why the line does not parse as a game.
        cause: serde_json::Error,
    },
    /// Appending to the journal failed.
    JournalWrite(std::io::Error),
    /// Writing the summary failed.
    Write(crate::plumbing::atomic::AtomicError),
    /// A game or the summary could not be encoded as JSON.
    Encode(serde_json::Error),
    /// A results file with nothing to resume from: neither a record nor (version 1) words.
    NoRecord {
        /// The file.
        file: PathBuf,
    },
    /// A results file written by a newer harness.
    Newer {
        /// The file.
        file: PathBuf,
        /// Its version.
        version: u32,
    },
}

impl fmt::Display for ResultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultsError::Io { file, cause } => write!(f, "{}: {cause}", file.display()),
            ResultsError::NotResults { file, cause } => {
                write!(f, "{}: not a results file: {cause}", file.display())
            }
            ResultsError::JournalLine { file, line, cause } => {
                write!(f, "{}:{line}: {cause}", file.display())
            }
            ResultsError::JournalWrite(cause) => write!(f, "writing the journal: {cause}"),
            ResultsError::Write(e) => write!(f, "{e}"),
            ResultsError::Encode(cause) => write!(f, "{cause}"),
            ResultsError::NoRecord { file } => write!(
                f,
                "{}: holds no record of its run (neither `record` nor the `args` of a version 1 \
                 file), so it cannot be resumed; start the run again with its options and a new \
                 --results file",
                file.display()
            ),
            ResultsError::Newer { file, version } => write!(
                f,
                "{}: results file version {version}, newer than this harness reads \
                 ({RESULTS_VERSION}); resume it with the harness that wrote it",
                file.display()
            ),
        }
    }
}

impl std::error::Error for ResultsError {}

/// The [`ResultsError::Io`] of `file`.
fn io_error(file: &Path) -> impl Fn(std::io::Error) -> ResultsError + '_ {
    move |cause| ResultsError::Io {
        file: file.to_owned(),
        cause,
    }
}

/// One finished game as stored in the results file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEntry {
    /// Game number in the schedule.
    pub id: u64,
    /// Pair number.
    pub pair: u64,
    /// Pairing index.
    pub pairing: usize,
    /// White's engine index.
    pub white: usize,
    /// Black's engine index.
    pub black: usize,
    /// Opening index.
    pub opening: usize,
    /// The result.
    pub outcome: Outcome,
    /// The reason in words.
    pub reason: String,
    /// The deciding engine fault, if any.
    pub fault: Option<Fault>,
    /// Half-moves played (book included).
    pub plies: usize,
    /// Wall time of the game.
    pub duration_ms: u64,
    /// A fingerprint of the players and every move (to find games that repeat exactly).
    #[serde(default)]
    pub moves_hash: Option<u64>,
    /// The PGN file's length once this game was written to it (the PGN is written before the
    /// journal line): a resume cuts the PGN back to the last journaled game's end, so a game
    /// written but not journaled when the run was killed (or half written) is not kept twice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgn_end: Option<u64>,
}

impl GameEntry {
    /// The entry for a finished game.
    pub fn new(job: &super::schedule::GameJob, record: &GameRecord) -> GameEntry {
        GameEntry {
            id: job.id,
            pair: job.pair,
            pairing: job.pairing,
            white: job.white,
            black: job.black,
            opening: job.opening,
            outcome: record.outcome,
            reason: record.reason.clone(),
            fault: record.fault.clone(),
            plies: record.moves.len(),
            duration_ms: record.duration_ms,
            moves_hash: Some(fingerprint(job, record)),
            pgn_end: None,
        }
    }
}

/// FNV-1a over the engines, the start position and the moves: stable across runs and Rust
/// versions, so a resumed run still finds repeats of games played before.
fn fingerprint(job: &super::schedule::GameJob, record: &GameRecord) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    eat(&(job.white as u64).to_le_bytes());
    eat(&(job.black as u64).to_le_bytes());
    eat(record.start_fen.as_deref().unwrap_or("startpos").as_bytes());
    for m in &record.moves {
        eat(m.uci.as_bytes());
    }
    h
}

/// One engine's faults, for readers of the results file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FaultSummary {
    /// The engine.
    pub engine: String,
    /// Its games.
    pub games: u64,
    /// Crashes (the process exited mid-game).
    pub crashes: u64,
    /// Losses on time beyond the margin.
    pub time_losses: u64,
    /// Illegal or malformed moves.
    pub illegal_moves: u64,
    /// Hangs and protocol breaks.
    pub disconnects: u64,
    /// All of them as a share of its games.
    pub share: f64,
}

/// Summary figures of one pairing, for readers of the file (not needed to resume).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairingSummary {
    /// First engine's name (results from its view).
    pub engine: String,
    /// Second engine's name.
    pub opponent: String,
    /// Wins, losses, draws of `engine`.
    pub wld: [u64; 3],
    /// Pentanomial counts (pairs scoring 0, 0.5, 1, 1.5, 2 for `engine`).
    pub pentanomial: [u64; 5],
    /// Logistic Elo and its 95 % error.
    pub elo: [f64; 2],
    /// Normalized Elo and its 95 % error.
    pub nelo: [f64; 2],
    /// Likelihood of superiority.
    pub los: f64,
    /// SPRT log-likelihood ratio, if an SPRT runs.
    pub llr: Option<f64>,
}

/// The version of [`ResultsFile`] this harness writes. 1: the run stored as its command-line
/// words (`args`); 2: as a typed record (`record`).
pub const RESULTS_VERSION: u32 = 2;

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// Format version ([`RESULTS_VERSION`] when written).
    pub version: u32,
    /// What `--resume` needs to play the rest of the run.
    #[serde(default)]
    pub record: Option<super::record::RunRecord>,
    /// Legacy (version 1): the command-line words of the run. Read only to resume a file
    /// written before the record (converted once, through the old parser); never written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Engine names by index.
    pub engines: Vec<String>,
    /// Games scheduled in all.
    pub scheduled: u64,
    /// Games finished so far (the journal holds them).
    pub finished: u64,
    /// Per-pairing figures at the time of writing.
    pub pairings: Vec<PairingSummary>,
    /// The SPRT decision, once made (never set when the run was stopped: see `stopped`).
    pub decision: Option<String>,
    /// Why the run stopped without a trustworthy result, if it did.
    #[serde(default)]
    pub stopped: Option<String>,
    /// Faults per engine.
    #[serde(default)]
    pub faults: Vec<FaultSummary>,
    /// The rules the faults were judged by.
    #[serde(default)]
    pub fault_rules: Option<super::config::FaultRules>,
    /// Games that repeated an earlier game move for move.
    #[serde(default)]
    pub repeated_games: u64,
    /// The joint rating list of a match of more than two engines.
    #[serde(default)]
    pub ratings: Option<crate::stats::ratings::RatingList>,
}

/// What a results file holds to resume its run.
#[derive(Debug, Clone, PartialEq)]
pub enum StoredRun {
    /// The run as data (version 2 on).
    Record(Box<super::record::RunRecord>),
    /// Legacy: the command-line words of a version 1 file, which only the old parser (kept in
    /// `cmd::legacy_resume` for this alone) turns into a run.
    Legacy(Vec<String>),
}

/// The journal path for a results file: `match.json` → `match.json.games.jsonl`.
pub fn journal_path(results: &Path) -> std::path::PathBuf {
    crate::plumbing::naming::journal(results)
}

/// Reads a journal. A last line cut short by a kill is skipped; any other bad line is an error
/// naming the line.
pub fn read_journal(path: &Path) -> Result<Vec<GameEntry>, ResultsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(path)(e)),
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut games = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(g) => games.push(g),
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => break,
            Err(e) => {
                return Err(ResultsError::JournalLine {
                    file: path.to_owned(),
                    line: i + 1,
                    cause: e,
                })
            }
        }
    }
    Ok(games)
}

/// Appends one game to the journal and flushes it to the operating system; says where the
/// journal was put back if its path no longer named it (see [`AppendFile`]).
pub fn append_journal(
    file: &mut AppendFile,
    entry: &GameEntry,
) -> Result<Option<Restored>, ResultsError> {
    let mut line = serde_json::to_string(entry).map_err(ResultsError::Encode)?;
    line.push('\n');
    file.append(line.as_bytes())
        .map_err(ResultsError::JournalWrite)
}

impl ResultsFile {
    /// Reads a results file.
    pub fn load(path: &Path) -> Result<ResultsFile, ResultsError> {
        let text = std::fs::read_to_string(path).map_err(io_error(path))?;
        serde_json::from_str(&text).map_err(|e| ResultsError::NotResults {
            file: path.to_owned(),
            cause: e,
        })
    }

    /// What the file holds to resume its run: its record, or the words of a version 1 file.
    pub fn stored_run(self, path: &Path) -> Result<StoredRun, ResultsError> {
        if self.version > RESULTS_VERSION {
            return Err(ResultsError::Newer {
                file: path.to_owned(),
                version: self.version,
            });
        }
        match (self.record, self.args) {
            (Some(record), _) => Ok(StoredRun::Record(Box::new(record))),
            (None, words) if !words.is_empty() => Ok(StoredRun::Legacy(words)),
            (None, _) => Err(ResultsError::NoRecord {
                file: path.to_owned(),
            }),
        }
    }

    /// Writes the file atomically ([`crate::plumbing::atomic`]), so neither a kill nor a
    /// power cut leaves half a file.
    pub fn save(&self, path: &Path) -> Result<(), ResultsError> {
        let text = serde_json::to_string_pretty(self).map_err(ResultsError::Encode)?;
        crate::plumbing::atomic::write(path, text).map_err(ResultsError::Write)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_loads_and_rejects_garbage() {
        let dir = crate::test_dir("resume");
        let path = dir.join("r.json");
        let entry = GameEntry {
            id: 3,
            pair: 1,
            pairing: 0,
            white: 1,
            black: 0,
            opening: 1,
            outcome: Outcome::Draw,
            reason: "Draw by stalemate".into(),
            fault: None,
            plies: 80,
            duration_ms: 1234,
            moves_hash: Some(99),
            pgn_end: Some(1000),
        };
        let f = ResultsFile {
            version: 1,
            args: vec!["--rounds".into(), "2".into()],
            finished: 1,
            ..Default::default()
        };
        f.save(&path).unwrap();
        assert_eq!(ResultsFile::load(&path).unwrap(), f);
        let journal = journal_path(&path);
        assert!(journal.to_string_lossy().ends_with("r.json.games.jsonl"));
        let mut file = AppendFile::open(&journal).unwrap();
        append_journal(&mut file, &entry).unwrap();
        append_journal(
            &mut file,
            &GameEntry {
                id: 4,
                ..entry.clone()
            },
        )
        .unwrap();
        let mut text = std::fs::read_to_string(&journal).unwrap();
        text.push_str("{\"id\": 5, \"pa"); // killed mid-line
        std::fs::write(&journal, &text).unwrap();
        let games = read_journal(&journal).unwrap();
        assert_eq!(games.iter().map(|g| g.id).collect::<Vec<_>>(), [3, 4]);
        std::fs::write(&journal, "garbage\n{}\n").unwrap();
        let err = read_journal(&journal).unwrap_err();
        assert!(
            matches!(err, ResultsError::JournalLine { line: 1, .. }),
            "{err}"
        );
        assert!(err.to_string().contains(":1:"));
        std::fs::write(&path, "{ nope").unwrap();
        assert!(ResultsFile::load(&path)
            .unwrap_err()
            .to_string()
            .contains("not a results file"));
        std::fs::remove_dir_all(&dir).ok();
    }
}
