//! Labelled positions on disk (CSV `fen,result,score`): the appending, deduplicating writer
//! that `datagen` and `extract` share ([`LabelWriter`]; opening an existing file reads it back
//! first, so a restarted run continues where it stopped and never writes a position twice), and
//! `harness label`'s scores from a reference engine ([`label_records`]), written in the input's
//! order so that an interrupted run goes on after the last whole line.

use super::DatagenError;
use crate::plumbing::append::{AppendFile, Restored};
use crate::tablebase::{parse_position, SyzygyRule};
use crate::tune::dataset::{self, Record};
use crate::uci::pool::{self, Job, JobError, JobFailure, PoolConfig};
use crate::uci::{Engine, GoParams, Info, Score};
use std::collections::{BTreeMap, HashSet};
use std::fs::OpenOptions;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::Duration;

/// The deduplication key: board, side to move, castling and en passant (no move counters).
pub fn key(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// Writer that appends new positions and drops repeats. Lines are kept until [`flush`], which
/// appends them to a file that stays at its path (see [`AppendFile`]).
///
/// [`flush`]: LabelWriter::flush
pub struct LabelWriter {
    out: AppendFile,
    /// Whole lines not yet appended (at most about [`PENDING_MAX`] bytes).
    pending: Vec<u8>,
    /// Where the file was put back since the last flush, each time its path stopped naming it.
    restored: Vec<Restored>,
    seen: HashSet<u64>,
    /// Positions in the file (including those there before opening).
    pub count: usize,
}

fn hash_key(fen: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key(fen).hash(&mut h);
    h.finish()
}

impl LabelWriter {
    /// Opens `path` for appending, loading the keys of the positions already there.
    pub fn open(path: &Path) -> Result<LabelWriter, DatagenError> {
        let mut seen = HashSet::new();
        let mut count = 0;
        if path.exists() {
            // a half-written last line from a killed run is skipped, not fatal
            let old = dataset::read_file(path, true)?;
            for r in &old.records {
                seen.insert(hash_key(&r.fen));
            }
            count = old.records.len();
            let text = std::fs::read(path)
                .map_err(DatagenError::io(format!("reading {}", path.display())))?;
            if text.last().is_some_and(|&b| b != b'\n') {
                // terminate the partial line so the next record starts on its own line
                OpenOptions::new()
                    .append(true)
                    .open(path)
                    .and_then(|mut f| f.write_all(b"\n"))
                    .map_err(DatagenError::io(format!("writing {}", path.display())))?;
            }
        }
        let out = AppendFile::open(path)
            .map_err(DatagenError::io(format!("opening {}", path.display())))?;
        Ok(LabelWriter {
            out,
            pending: Vec::new(),
            restored: Vec::new(),
            seen,
            count,
        })
    }

    /// Writes `r` unless its position was written before; returns whether it was new.
    pub fn write(&mut self, r: &Record) -> std::io::Result<bool> {
        if !self.seen.insert(hash_key(&r.fen)) {
            return Ok(false);
        }
        writeln!(self.pending, "{}", dataset::to_csv_line(r))?;
        if self.pending.len() >= PENDING_MAX {
            self.append()?;
        }
        self.count += 1;
        Ok(true)
    }

    /// Appends the lines written since the last flush to the file; says where the file was put
    /// back since the last flush, each time its path no longer named it.
    pub fn flush(&mut self) -> std::io::Result<Vec<Restored>> {
        self.append()?;
        Ok(std::mem::take(&mut self.restored))
    }

    fn append(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            self.restored.extend(self.out.append(&self.pending)?);
            self.pending.clear();
        }
        Ok(())
    }
}

/// Lines still pending when a writer is dropped (a run that stops on an error) are appended
/// then, as a `BufWriter` would: what was written is kept.
impl Drop for LabelWriter {
    fn drop(&mut self) {
        let _ = self.append();
    }
}

/// Bytes of whole lines a [`LabelWriter`] keeps before it appends them unasked (an `extract`
/// of a large PGN flushes once, at its end).
const PENDING_MAX: usize = 1 << 16;

/// The centipawn score written for a forced mate (sign from White's view).
pub const MATE_CP: i32 = 3000;

/// Positions labelled between two writes of `harness label`'s output file.
pub const CHUNK: usize = 4096;

/// How `harness label` scores positions.
#[derive(Clone, Debug)]
pub struct ReferenceLabels {
    /// The reference engine and how many of it (the one engine pool: restarts, failures).
    pub pool: PoolConfig,
    /// The search per position (`go nodes N` or `go depth N`).
    pub search: GoParams,
    /// How long a search may take before the engine counts as hung.
    pub search_timeout: Duration,
    /// Syzygy tables: positions in them get their exact result and score, unsearched.
    pub syzygy: Option<SyzygyRule>,
    /// Positions between two writes of the output (and its flushes).
    pub chunk: usize,
}

impl ReferenceLabels {
    /// `pool`'s engine searching each position with `search`, a minute at most, no tables.
    pub fn new(pool: PoolConfig, search: GoParams) -> ReferenceLabels {
        ReferenceLabels {
            pool,
            search,
            search_timeout: Duration::from_secs(60),
            syzygy: None,
            chunk: CHUNK,
        }
    }
}

/// What [`label_records`] did.
#[derive(Debug)]
pub struct LabelSummary {
    /// Positions written.
    pub labelled: usize,
    /// Of those, positions whose label came from the tables.
    pub from_tables: usize,
    /// Positions the engine failed on (written without a score), with why.
    pub failures: Vec<JobFailure>,
    /// Where the output was put back after its path stopped naming it mid-run, if it was.
    pub restored: Vec<Restored>,
}

/// One position to label: its place in the input (from 1) and its record.
struct Position<'a>(usize, &'a Record);

impl Job for Position<'_> {
    fn describe(&self) -> String {
        format!("position {} ({})", self.0, self.1.fen)
    }
}

/// Gives every record the reference engine's score from White's view (the tables' exact
/// result and score where `syzygy` has the position), keeping its game result, and appends the
/// records to `out` in their order, a chunk at a time; `first` is the place in the input of
/// `records[0]` (from 1), for reports. The file is opened at the first write, so an engine that
/// cannot start leaves it untouched. A position the engine fails on is written without a score
/// and listed in the summary; an engine that fails on position after position ends the run with
/// an error (see `uci::pool`), after the positions labelled before it were written.
pub fn label_records(
    records: &[Record],
    first: usize,
    out: &Path,
    config: &ReferenceLabels,
    on_position: &mut dyn FnMut(),
) -> Result<LabelSummary, DatagenError> {
    let jobs: Vec<Position> = records
        .iter()
        .enumerate()
        .map(|(i, r)| Position(first + i, r))
        .collect();
    let mut output = OrderedOutput::new(out, config.chunk);
    let mut from_tables = 0;
    let run = pool::run(
        &config.pool,
        &jobs,
        |engine, Position(_, r)| label(engine, r, config),
        |i, outcome| {
            on_position();
            let record = match outcome {
                Ok(Label::Table(r)) => {
                    from_tables += 1;
                    r.clone()
                }
                Ok(Label::Searched(score)) => Record {
                    score: Some(*score),
                    ..records[i].clone()
                },
                Err(_) => Record {
                    score: None,
                    ..records[i].clone()
                },
            };
            match output.put(i, record) {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            }
        },
    );
    // What is whole is written even when the run failed: a rerun goes on from there. A write
    // error is what stopped the run, if it stopped.
    let restored = output.finish()?;
    let run = run?;
    Ok(LabelSummary {
        labelled: run.outcomes.len(),
        from_tables,
        failures: run.outcomes.into_iter().filter_map(Result::err).collect(),
        restored,
    })
}

/// A position's label.
enum Label {
    /// The tables' record (exact result and score).
    Table(Record),
    /// The engine's score, from White's view.
    Searched(i32),
}

/// The tables' label, else one search; no score in the engine's `info` lines is an answer the
/// job cannot use.
fn label(engine: &mut Engine, r: &Record, config: &ReferenceLabels) -> Result<Label, JobError> {
    if let Some(exact) = config.syzygy.as_ref().and_then(|rule| table_label(rule, r)) {
        return Ok(Label::Table(exact));
    }
    let mut last = None;
    engine.set_position::<&str>(Some(&r.fen), &[])?;
    engine.go(&config.search, config.search_timeout, |info: &Info| {
        if info.bound.is_none() && info.multipv.unwrap_or(1) == 1 {
            if let Some(s) = info.score {
                last = Some(s);
            }
        }
    })?;
    let cp = match last {
        Some(Score::Cp(cp)) => cp,
        Some(Score::Mate(m)) => MATE_CP * m.signum(),
        None => return Err(JobError::Answer("no score in its info lines".into())),
    };
    Ok(Label::Searched(if black_to_move(&r.fen) {
        -cp
    } else {
        cp
    }))
}

/// The record with the tables' exact result and its score (+-MATE_CP or 0, White's view), if
/// the position is in them and they answer.
fn table_label(rule: &SyzygyRule, r: &Record) -> Option<Record> {
    let pos = parse_position(&r.fen).ok()?;
    let (result, score) = match rule.exact(&pos).ok()?.outcome {
        shakmaty::KnownOutcome::Decisive { winner } if winner.is_white() => (1.0, MATE_CP),
        shakmaty::KnownOutcome::Decisive { .. } => (0.0, -MATE_CP),
        shakmaty::KnownOutcome::Draw => (0.5, 0),
    };
    Some(Record {
        fen: r.fen.clone(),
        result,
        score: Some(score),
    })
}

/// Whether the FEN's side-to-move field is `b`.
fn black_to_move(fen: &str) -> bool {
    fen.split_whitespace().nth(1) == Some("b")
}

/// Records that arrive in any order, appended to the file in their own order, `chunk` at a time.
struct OrderedOutput<'a> {
    path: &'a Path,
    file: Option<AppendFile>,
    chunk: usize,
    /// Arrived ahead of the next one to write, by index.
    waiting: BTreeMap<usize, Record>,
    /// The next index to write.
    next: usize,
    /// In order, not yet written.
    ready: Vec<Record>,
    /// The first write error (nothing is written after it).
    error: Option<DatagenError>,
    /// Where the file was put back, each time its path stopped naming it.
    restored: Vec<Restored>,
}

impl<'a> OrderedOutput<'a> {
    fn new(path: &'a Path, chunk: usize) -> OrderedOutput<'a> {
        OrderedOutput {
            path,
            file: None,
            chunk: chunk.max(1),
            waiting: BTreeMap::new(),
            next: 0,
            ready: Vec::new(),
            error: None,
            restored: Vec::new(),
        }
    }

    /// Takes record `i`; writes a chunk when one is whole. `Err` after a write failed.
    fn put(&mut self, i: usize, record: Record) -> Result<(), ()> {
        self.waiting.insert(i, record);
        while let Some(r) = self.waiting.remove(&self.next) {
            self.ready.push(r);
            self.next += 1;
        }
        if self.ready.len() >= self.chunk {
            self.write();
        }
        match self.error {
            Some(_) => Err(()),
            None => Ok(()),
        }
    }

    /// Writes what is in order and not yet written; the first error, if any, or where the file
    /// was put back.
    fn finish(mut self) -> Result<Vec<Restored>, DatagenError> {
        self.write();
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.restored),
        }
    }

    fn write(&mut self) {
        if self.error.is_some() || self.ready.is_empty() {
            return;
        }
        let mut text = String::new();
        for r in self.ready.drain(..) {
            text.push_str(&dataset::to_csv_line(&r));
            text.push('\n');
        }
        let path = self.path;
        let written = match &mut self.file {
            Some(f) => Ok(f),
            None => AppendFile::open(path).map(|f| self.file.insert(f)),
        }
        .and_then(|f| f.append(text.as_bytes()));
        match written {
            Ok(restored) => self.restored.extend(restored),
            Err(e) => {
                self.error = Some(DatagenError::io(format!("writing {}", path.display()))(e));
            }
        }
    }
}

/// Positions already in `harness label`'s output file (0 when there is none). A half-written
/// last line is cut off, so that the run goes on from the last whole position.
pub fn already_labelled(path: &Path) -> Result<usize, DatagenError> {
    if !path.exists() {
        return Ok(0);
    }
    let text = std::fs::read_to_string(path)
        .map_err(DatagenError::io(format!("reading {}", path.display())))?;
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(whole as u64))
            .map_err(DatagenError::io(format!(
                "cutting the half-written last line of {}",
                path.display()
            )))?;
    }
    Ok(text[..whole]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::tests::faulty;

    /// `n` records from the sample: distinct positions with their results and no scores.
    fn records(n: usize) -> Vec<Record> {
        let sample = include_str!("../../data/sample.csv");
        let given: Vec<Record> = sample
            .lines()
            .filter(|l| !l.starts_with('#'))
            .take(n)
            .map(|l| Record {
                score: None,
                ..dataset::parse_line(l).unwrap()
            })
            .collect();
        assert_eq!(given.len(), n);
        given
    }

    fn config(flags: &[&str], engines: usize, chunk: usize) -> ReferenceLabels {
        let search = GoParams {
            nodes: Some(1),
            ..GoParams::default()
        };
        ReferenceLabels {
            chunk,
            ..ReferenceLabels::new(PoolConfig::new(faulty(flags), engines), search)
        }
    }

    #[test]
    fn every_position_is_labelled_in_input_order_across_chunks_and_engines() {
        let dir = crate::test_dir("labels-order");
        let out = dir.join("out.csv");
        let given = records(11);
        let mut seen = 0;
        let summary =
            label_records(&given, 1, &out, &config(&[], 3, 4), &mut || seen += 1).unwrap();
        assert_eq!((summary.labelled, seen), (11, 11));
        assert!(summary.failures.is_empty(), "{:?}", summary.failures);
        let back = dataset::read_file(&out, false).unwrap().records;
        assert_eq!(back.len(), 11);
        for (b, g) in back.iter().zip(&given) {
            assert_eq!((&b.fen, b.result), (&g.fen, g.result), "kept, in order");
            // The faulty engine's scores lie within ±20 cp.
            assert!(b.score.is_some_and(|s| s.abs() <= 20), "{b:?}");
        }
        // A second call appends (what `harness label` does after `already_labelled`).
        label_records(&given[..2], 12, &out, &config(&[], 1, 4), &mut || {}).unwrap();
        assert_eq!(already_labelled(&out).unwrap(), 13);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_position_the_engine_fails_on_is_written_without_a_score_and_listed() {
        let dir = crate::test_dir("labels-crash");
        let out = dir.join("out.csv");
        let given = records(7);
        // One process crashing on its third search: positions 3 and 6 (from 1) of this call,
        // which are 13 and 16 of the input when it starts at 11.
        let summary = label_records(
            &given,
            11,
            &out,
            &config(&["--crash-after", "2"], 1, 3),
            &mut || {},
        )
        .unwrap();
        let failed: Vec<String> = summary
            .failures
            .iter()
            .map(|f| f.position.clone())
            .collect();
        assert_eq!(
            failed,
            [
                format!("position 13 ({})", given[2].fen),
                format!("position 16 ({})", given[5].fen)
            ]
        );
        let back = dataset::read_file(&out, false).unwrap().records;
        let scored: Vec<bool> = back.iter().map(|r| r.score.is_some()).collect();
        assert_eq!(scored, [true, true, false, true, true, false, true]);
        assert_eq!(
            back.iter().map(|r| &r.fen).collect::<Vec<_>>(),
            given.iter().map(|r| &r.fen).collect::<Vec<_>>()
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn an_engine_that_always_fails_ends_the_run_and_one_that_cannot_start_writes_nothing() {
        let dir = crate::test_dir("labels-abandon");
        let out = dir.join("out.csv");
        let err = label_records(
            &records(9),
            1,
            &out,
            &config(&["--crash-after", "0"], 1, 2),
            &mut || {},
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("failed 3 times in a row") && err.contains("run abandoned"),
            "{err}"
        );
        // The failed positions before the end were written, in order, without scores: a rerun
        // goes on after them.
        let back = dataset::read_file(&out, false).unwrap().records;
        assert_eq!(back.len(), 3);
        assert!(back.iter().all(|r| r.score.is_none()));
        std::fs::remove_file(&out).unwrap();
        let mut config = config(&[], 2, 2);
        config.pool.spec = crate::uci::EngineSpec::new("/nonexistent/engine");
        let err = label_records(&records(3), 1, &out, &config, &mut || {}).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
        assert!(!out.exists(), "nothing written");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn appends_dedups_and_resumes() {
        let dir = crate::test_dir("labels");
        let p = dir.join("d.csv");
        let a = Record {
            fen: "8/8/8/8/8/8/4k3/4K3 w - - 0 1".into(),
            result: 0.5,
            score: Some(0),
        };
        let b = Record {
            fen: "8/8/8/8/8/8/4k3/4K3 b - - 3 9".into(),
            result: 0.5,
            score: None,
        };
        let mut w = LabelWriter::open(&p).unwrap();
        assert!(w.write(&a).unwrap());
        assert!(!w
            .write(&Record {
                fen: "8/8/8/8/8/8/4k3/4K3 w - - 7 40".into(),
                ..a.clone()
            })
            .unwrap());
        w.flush().unwrap();
        drop(w);
        // a killed run leaves half a line
        std::fs::write(
            &p,
            std::fs::read_to_string(&p).unwrap() + "8/8/8/8/8/8/4k3/4K",
        )
        .unwrap();
        let mut w = LabelWriter::open(&p).unwrap();
        assert_eq!(w.count, 1);
        assert!(!w.write(&a).unwrap());
        assert!(w.write(&b).unwrap());
        w.flush().unwrap();
        let back = dataset::read_file(&p, true).unwrap();
        assert_eq!(
            (back.records, back.skipped),
            (vec![a.clone(), b.clone()], 1)
        );
        std::fs::remove_dir_all(&dir).ok();

        // The file removed under a running writer (a checkout, an rm) is written back whole at
        // the next flush, and said so; lines pending when the writer is dropped are kept.
        let dir = std::env::temp_dir().join(format!("sable-lw-gone-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("out.csv");
        let mut w = LabelWriter::open(&p).unwrap();
        w.write(&a).unwrap();
        assert_eq!(w.flush().unwrap(), vec![]);
        std::fs::remove_file(&p).unwrap();
        w.write(&b).unwrap();
        assert_eq!(w.flush().unwrap(), vec![Restored::Recreated(p.clone())]);
        let c = Record {
            fen: "8/8/8/8/8/8/3k4/4K3 b - - 0 1".into(),
            ..a.clone()
        };
        w.write(&c).unwrap();
        drop(w);
        let back = dataset::read_file(&p, true).unwrap();
        assert_eq!(back.records, vec![a, b, c]);
        std::fs::remove_dir_all(&dir).ok();
    }
}
