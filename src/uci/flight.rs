//! The flight recorder: one game's UCI transcript (both engines, sent, received and stderr, with
//! the time since the game started) kept in memory, so that a game that goes wrong can be handed
//! to a developer with everything that was said, and a game that ends normally costs nothing but
//! its bounded buffer, dropped unread.
//!
//! A [`Transcript`] is the game's ring of lines; each engine gets a [`FlightRecorder`] on it,
//! labelled with its side, which the engine's [`super::log::Tap`] feeds through a
//! [`RecorderSlot`]. The slot is shared by every clone of the tap (the reader threads hold
//! clones), so a recorder can be attached to or taken from a running engine.
//!
//! The ring is bounded twice: by lines and by bytes, the oldest lines leaving first (the end of a
//! game is what explains its failure). Engine output is cut at [`Bounds::line_bytes`]; the lines
//! the harness sent are kept whole, as a replay must send them exactly.

use super::direction::Direction;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How much one game's transcript may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Lines kept; older ones are dropped.
    pub lines: usize,
    /// Bytes of text kept (each line counts its text and [`LINE_OVERHEAD`]); older lines are
    /// dropped.
    pub bytes: usize,
    /// Longest line of engine output kept; the rest is cut (sent lines are never cut).
    pub line_bytes: usize,
}

/// What a kept line costs beyond its text, for the byte bound (time, side, kind, allocation).
pub const LINE_OVERHEAD: usize = 48;

impl Default for Bounds {
    /// 20,000 lines and 4 MiB a game: a few minutes of a chatty engine's `info` lines at a fast
    /// control, and little enough for dozens of games at once.
    fn default() -> Bounds {
        Bounds {
            lines: 20_000,
            bytes: 4 << 20,
            line_bytes: 4096,
        }
    }
}

/// What a transcript line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Harness to engine (stdin).
    Sent,
    /// Engine to harness (stdout).
    Received,
    /// The engine's stderr.
    Stderr,
    /// A remark of the harness (an engine started, a verdict), not UCI traffic.
    Note,
}

impl Kind {
    /// The mark in a written transcript: `>` sent, `<` received, `!` stderr, `#` note (the marks
    /// of the `--log` file, plus `#`).
    pub fn mark(self) -> &'static str {
        match self {
            Kind::Sent => ">",
            Kind::Received => "<",
            Kind::Stderr => "!",
            Kind::Note => "#",
        }
    }

    /// The kind a mark names.
    pub fn from_mark(mark: &str) -> Option<Kind> {
        match mark {
            ">" => Some(Kind::Sent),
            "<" => Some(Kind::Received),
            "!" => Some(Kind::Stderr),
            "#" => Some(Kind::Note),
            _ => None,
        }
    }
}

impl From<Direction> for Kind {
    fn from(d: Direction) -> Kind {
        match d {
            Direction::Sent => Kind::Sent,
            Direction::Received => Kind::Received,
            Direction::Stderr => Kind::Stderr,
        }
    }
}

/// One line of a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Microseconds since the game started.
    pub at_us: u64,
    /// Whose line: the side's label (`white`, `black`).
    pub source: String,
    /// Which way it went.
    pub kind: Kind,
    /// The line, without its line end (engine output possibly cut).
    pub text: String,
}

/// The transcript as it stands: its lines, oldest first, and how many older ones were dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The kept lines, oldest first.
    pub entries: Vec<Entry>,
    /// Lines dropped from the front to keep within the bounds.
    pub dropped: u64,
}

impl Snapshot {
    /// The last lines from `source` of this `kind` that start with `prefix`, at most `n`,
    /// oldest first.
    pub fn last(&self, source: &str, kind: Kind, prefix: &str, n: usize) -> Vec<&str> {
        let mut found: Vec<&str> = self
            .entries
            .iter()
            .rev()
            .filter(|e| e.source == source && e.kind == kind && e.text.starts_with(prefix))
            .take(n)
            .map(|e| e.text.as_str())
            .collect();
        found.reverse();
        found
    }
}

struct Ring {
    bounds: Bounds,
    entries: VecDeque<Entry>,
    bytes: usize,
    dropped: u64,
}

impl Ring {
    fn push(&mut self, entry: Entry) {
        self.bytes += cost(&entry);
        self.entries.push_back(entry);
        // The newest line always stays, even alone over the byte bound.
        while self.entries.len() > 1
            && (self.entries.len() > self.bounds.lines || self.bytes > self.bounds.bytes)
        {
            if let Some(old) = self.entries.pop_front() {
                self.bytes -= cost(&old);
                self.dropped += 1;
            }
        }
    }
}

fn cost(e: &Entry) -> usize {
    e.text.len() + e.source.len() + LINE_OVERHEAD
}

/// One game's transcript: a bounded ring of lines shared by the recorders of both engines.
/// Cloning gives another handle on the same ring.
#[derive(Clone)]
pub struct Transcript {
    ring: Arc<Mutex<Ring>>,
    start: Instant,
}

impl std::fmt::Debug for Transcript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lines = self.ring.lock().map(|r| r.entries.len()).unwrap_or(0);
        write!(f, "Transcript({lines} lines)")
    }
}

impl Transcript {
    /// An empty transcript whose clock starts now.
    pub fn new(bounds: Bounds) -> Transcript {
        Transcript {
            ring: Arc::new(Mutex::new(Ring {
                bounds,
                entries: VecDeque::new(),
                bytes: 0,
                dropped: 0,
            })),
            start: Instant::now(),
        }
    }

    /// A recorder that writes into this transcript under `source` (the side's label).
    pub fn recorder(&self, source: &str) -> FlightRecorder {
        FlightRecorder {
            transcript: self.clone(),
            source: Arc::from(source),
        }
    }

    /// Adds a line (engine output cut to the bounds' `line_bytes`).
    pub fn push(&self, source: &str, kind: Kind, text: &str) {
        let at_us = self.start.elapsed().as_micros().min(u128::from(u64::MAX)) as u64;
        let Ok(mut ring) = self.ring.lock() else {
            return;
        };
        let text = match kind {
            Kind::Received | Kind::Stderr => cut(text, ring.bounds.line_bytes),
            Kind::Sent | Kind::Note => text.to_owned(),
        };
        ring.push(Entry {
            at_us,
            source: source.to_owned(),
            kind,
            text,
        });
    }

    /// A copy of the lines kept so far.
    pub fn snapshot(&self) -> Snapshot {
        self.ring
            .lock()
            .map(|r| Snapshot {
                entries: r.entries.iter().cloned().collect(),
                dropped: r.dropped,
            })
            .unwrap_or_default()
    }
}

/// `text` cut to at most `max` bytes (at a character boundary), saying how much was cut.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} [cut: {} bytes]", &text[..end], text.len())
}

/// One engine's pen on a game's [`Transcript`].
#[derive(Clone, Debug)]
pub struct FlightRecorder {
    transcript: Transcript,
    source: Arc<str>,
}

impl FlightRecorder {
    /// Records one line of UCI traffic.
    pub fn record(&self, dir: Direction, text: &str) {
        self.transcript.push(&self.source, dir.into(), text);
    }

    /// Records a remark of the harness about this engine.
    pub fn note(&self, text: &str) {
        self.transcript.push(&self.source, Kind::Note, text);
    }
}

/// Where an engine's tap finds its current recorder, if any; shared by the tap's clones.
#[derive(Clone, Default, Debug)]
pub struct RecorderSlot(Arc<Mutex<Option<FlightRecorder>>>);

impl RecorderSlot {
    /// Attaches `recorder` (or, with `None`, detaches the current one).
    pub fn set(&self, recorder: Option<FlightRecorder>) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = recorder;
        }
    }

    /// Records a line with the attached recorder, if there is one.
    pub fn record(&self, dir: Direction, text: &str) {
        if let Ok(slot) = self.0.lock() {
            if let Some(r) = slot.as_ref() {
                r.record(dir, text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(lines: usize, bytes: usize) -> Bounds {
        Bounds {
            lines,
            bytes,
            line_bytes: 16,
        }
    }

    #[test]
    fn the_ring_keeps_the_newest_lines_within_both_bounds() {
        let t = Transcript::new(bounds(5, 1 << 20));
        let w = t.recorder("white");
        for i in 0..12 {
            w.record(Direction::Sent, &format!("go {i}"));
        }
        let s = t.snapshot();
        let texts: Vec<&str> = s.entries.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, ["go 7", "go 8", "go 9", "go 10", "go 11"]);
        assert_eq!(s.dropped, 7);

        // Three lines of 10 bytes cost 3 * (10 + 5 + 48) = 189 bytes: a bound of 150 keeps two.
        let t = Transcript::new(bounds(100, 150));
        let b = t.recorder("black");
        for c in ['a', 'b', 'c'] {
            b.record(Direction::Received, &c.to_string().repeat(10));
        }
        let s = t.snapshot();
        assert_eq!(s.entries.len(), 2);
        assert_eq!(s.entries[0].text, "b".repeat(10));
        assert_eq!(s.dropped, 1);
        // A line over the byte bound on its own is still kept: it is the newest.
        b.record(Direction::Sent, &"p".repeat(500));
        let s = t.snapshot();
        assert_eq!(s.entries.len(), 1);
        assert_eq!(s.entries[0].text.len(), 500);
    }

    #[test]
    fn engine_output_is_cut_and_sent_lines_are_kept_whole() {
        let t = Transcript::new(bounds(100, 1 << 20));
        let w = t.recorder("white");
        w.record(Direction::Received, &"é".repeat(20));
        w.record(Direction::Stderr, "short");
        w.record(Direction::Sent, &"x".repeat(40));
        w.note("engine started");
        let s = t.snapshot();
        // 16 bytes is 8 two-byte characters.
        assert_eq!(
            s.entries[0].text,
            format!("{} [cut: 40 bytes]", "é".repeat(8))
        );
        assert_eq!(s.entries[1].text, "short");
        assert_eq!(s.entries[2].text.len(), 40);
        let kinds: Vec<Kind> = s.entries.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [Kind::Received, Kind::Stderr, Kind::Sent, Kind::Note]
        );
        assert!(s.entries.windows(2).all(|p| p[0].at_us <= p[1].at_us));
    }

    #[test]
    fn a_slot_records_only_while_a_recorder_is_attached_and_finds_last_lines() {
        let t = Transcript::new(Bounds::default());
        let slot = RecorderSlot::default();
        let clone = slot.clone();
        clone.record(Direction::Received, "before");
        slot.set(Some(t.recorder("black")));
        clone.record(Direction::Received, "info depth 1");
        clone.record(Direction::Sent, "go movetime 10");
        clone.record(Direction::Received, "info depth 2");
        clone.record(Direction::Received, "bestmove e7e5");
        slot.set(None);
        clone.record(Direction::Received, "after");
        let s = t.snapshot();
        assert_eq!(s.entries.len(), 4);
        assert_eq!(
            s.last("black", Kind::Received, "info", 5),
            ["info depth 1", "info depth 2"]
        );
        assert_eq!(s.last("black", Kind::Received, "info", 1), ["info depth 2"]);
        assert!(s.last("white", Kind::Received, "info", 5).is_empty());
        assert_eq!(s.last("black", Kind::Sent, "go ", 1), ["go movetime 10"]);
    }
}
