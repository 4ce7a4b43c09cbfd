//! What an engine said, kept for diagnosis: a [`TrafficLog`] file of every line to and from every
//! engine (`--log FILE`, like fastchess's `-log`), and an [`OutputTail`] of each engine's last
//! lines in memory, printed when that engine faults or fails to start.
//!
//! Each [`Tap`] also feeds the game's flight recorder ([`super::flight`]) when one is attached.
//!
//! Both are bounded where it matters: the tail holds a fixed number of lines of a fixed length, so
//! an engine that floods its stderr costs no memory; the log streams to disk.

use super::direction::Direction;
use super::flight::RecorderSlot;
use crate::report::dates::utc_timestamp;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// Lines kept in an [`OutputTail`].
pub const TAIL_LINES: usize = 20;
/// Bytes kept of each line in an [`OutputTail`].
pub const TAIL_LINE_BYTES: usize = 400;

/// A log file shared by every engine of a run. Each line reads
/// `2026-11-25T10:04:05.123Z sable#4242 > go nodes 2000`: UTC time, the engine's name and process
/// id, the direction (`>` sent, `<` received, `!` stderr) and the line.
#[derive(Clone)]
pub struct TrafficLog {
    inner: Arc<Mutex<LogFile>>,
}

struct LogFile {
    out: BufWriter<File>,
    path: PathBuf,
    failed: bool,
}

impl std::fmt::Debug for TrafficLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self
            .inner
            .lock()
            .map(|l| l.path.clone())
            .unwrap_or_default();
        write!(f, "TrafficLog({})", path.display())
    }
}

impl TrafficLog {
    /// Opens `path` for appending (a resumed run adds to its log; nothing is ever truncated).
    pub fn open(path: &Path) -> std::io::Result<TrafficLog> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(TrafficLog {
            inner: Arc::new(Mutex::new(LogFile {
                out: BufWriter::new(file),
                path: path.to_owned(),
                failed: false,
            })),
        })
    }

    /// Writes one line. A failing disk stops the logging (with one warning), not the match.
    pub fn line(&self, engine: &str, pid: u32, dir: Direction, text: &str) {
        let Ok(mut log) = self.inner.lock() else {
            return;
        };
        if log.failed {
            return;
        }
        let stamp = utc_timestamp(SystemTime::now());
        let written = writeln!(log.out, "{stamp} {engine}#{pid} {} {text}", dir.mark())
            // Flushed per line so that the log is complete up to a crash or a kill.
            .and_then(|_| log.out.flush());
        if let Err(e) = written {
            log.failed = true;
            errln!(
                "warning: {}: {e}; the UCI log stops here",
                log.path.display()
            );
        }
    }
}

/// The last [`TAIL_LINES`] lines an engine wrote (stdout and stderr, stderr marked), each cut to
/// [`TAIL_LINE_BYTES`].
#[derive(Clone, Default, Debug)]
pub struct OutputTail {
    lines: Arc<Mutex<VecDeque<String>>>,
}

impl OutputTail {
    /// Remembers a line, forgetting the oldest when full.
    pub fn push(&self, dir: Direction, text: &str) {
        let mut cut = text;
        if cut.len() > TAIL_LINE_BYTES {
            let mut end = TAIL_LINE_BYTES;
            while !cut.is_char_boundary(end) {
                end -= 1;
            }
            cut = &cut[..end];
        }
        let line = match dir {
            Direction::Stderr => format!("stderr: {cut}"),
            _ => format!("stdout: {cut}"),
        };
        if let Ok(mut lines) = self.lines.lock() {
            if lines.len() == TAIL_LINES {
                lines.pop_front();
            }
            lines.push_back(line);
        }
    }

    /// The remembered lines, oldest first.
    pub fn lines(&self) -> Vec<String> {
        self.lines
            .lock()
            .map(|l| l.iter().cloned().collect())
            .unwrap_or_default()
    }
}

/// Where one engine's lines go: its tail and, with `--log`, the log file.
#[derive(Clone, Debug)]
pub struct Tap {
    /// The engine's last lines.
    pub tail: OutputTail,
    /// The run's log, if any.
    pub log: Option<TrafficLog>,
    /// The engine's display name.
    pub name: String,
    /// Its process id.
    pub pid: u32,
    /// The current game's flight recorder, if one is attached (see [`super::flight`]).
    pub recorder: RecorderSlot,
}

impl Tap {
    /// Records one line (sent lines go to the log only: the tail is what the engine printed).
    pub fn record(&self, dir: Direction, text: &str) {
        if dir != Direction::Sent {
            self.tail.push(dir, text);
        }
        if let Some(log) = &self.log {
            log.line(&self.name, self.pid, dir, text);
        }
        self.recorder.record(dir, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_lines_cut_short() {
        let tail = OutputTail::default();
        for i in 0..100 {
            tail.push(Direction::Stderr, &format!("line {i}"));
        }
        tail.push(Direction::Received, &"é".repeat(TAIL_LINE_BYTES));
        let lines = tail.lines();
        assert_eq!(lines.len(), TAIL_LINES);
        assert_eq!(lines[0], format!("stderr: line {}", 101 - TAIL_LINES));
        let last = lines.last().unwrap();
        assert!(last.starts_with("stdout: é"));
        assert!(last.len() <= TAIL_LINE_BYTES + "stdout: ".len());
    }

    #[test]
    fn the_log_names_engine_direction_and_line() {
        let path = std::env::temp_dir().join(format!("sable-log-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let log = TrafficLog::open(&path).unwrap();
        log.line("dev", 12, Direction::Sent, "uci");
        log.line("dev", 12, Direction::Received, "uciok");
        log.line("base", 13, Direction::Stderr, "oops");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].ends_with(" dev#12 > uci"), "{}", lines[0]);
        assert!(lines[1].ends_with(" dev#12 < uciok"), "{}", lines[1]);
        assert!(lines[2].ends_with(" base#13 ! oops"), "{}", lines[2]);
        assert!(lines[0].chars().nth(4) == Some('-') && lines[0].contains('T'));
        std::fs::remove_file(&path).ok();
    }
}
