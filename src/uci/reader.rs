//! The reader thread: turns an engine's stdout into bounded lines on a bounded channel.
//!
//! Why a thread: reads from a pipe block, and the game loop must be able to give up on an engine at
//! a deadline. Why bounds: an engine that floods output (a line of a gigabyte, or millions of
//! `info` lines) must not exhaust the harness's memory. Lines longer than the cap are truncated;
//! `info` lines are dropped (and counted) when the channel is full, while every other line waits
//! for room, which in turn makes the engine block on its own pipe.

use super::log::{Direction, Tap};
use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Instant;

/// Longest line kept, in bytes; the rest of a longer line is discarded.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines buffered between the reader thread and the engine's owner.
pub const CHANNEL_CAPACITY: usize = 4096;

/// What the reader thread reports.
#[derive(Debug)]
pub enum Event {
    /// One line of output, without its line end, at most [`MAX_LINE`] bytes, and when it was
    /// read (so that move times do not include the consumer's wake-up latency).
    Line(String, Instant),
    /// The engine closed its stdout (it exited or crashed).
    Eof,
}

/// Starts the reader thread for `source`; `dropped` counts the `info` lines thrown away; `tap`
/// (if any) sees every line, dropped ones included.
pub fn spawn<R: Read + Send + 'static>(
    source: R,
    dropped: Arc<AtomicU64>,
    tap: Option<Tap>,
) -> Receiver<Event> {
    let (tx, rx) = sync_channel(CHANNEL_CAPACITY);
    std::thread::Builder::new()
        .name("uci-reader".into())
        .spawn(move || read_loop(source, &tx, &dropped, tap.as_ref()))
        .expect("spawning a thread");
    rx
}

/// Starts a thread that reads an engine's stderr into `tap` until the engine closes it.
pub fn spawn_stderr<R: Read + Send + 'static>(source: R, tap: Tap) {
    std::thread::Builder::new()
        .name("uci-stderr".into())
        .spawn(move || {
            let mut reader = BufReader::with_capacity(16 * 1024, source);
            let mut line = Vec::with_capacity(256);
            while next_line(&mut reader, &mut line) {
                tap.record(Direction::Stderr, &String::from_utf8_lossy(&line));
            }
            tap.tail.close_stderr();
        })
        .expect("spawning a thread");
}

fn read_loop<R: Read>(source: R, tx: &SyncSender<Event>, dropped: &AtomicU64, tap: Option<&Tap>) {
    let mut reader = BufReader::with_capacity(64 * 1024, source);
    let mut line = Vec::with_capacity(256);
    while next_line(&mut reader, &mut line) {
        let text = String::from_utf8_lossy(&line).into_owned();
        if let Some(tap) = tap {
            tap.record(Direction::Received, &text);
        }
        let droppable = text.starts_with("info");
        let event = Event::Line(text, Instant::now());
        let sent = if droppable {
            match tx.try_send(event) {
                Ok(()) => true,
                Err(TrySendError::Full(_)) => {
                    dropped.fetch_add(1, Ordering::Relaxed);
                    true
                }
                Err(TrySendError::Disconnected(_)) => false,
            }
        } else {
            tx.send(event).is_ok()
        };
        if !sent {
            return; // The engine's owner is gone.
        }
    }
    let _ = tx.send(Event::Eof);
}

/// Reads the next line (at most [`MAX_LINE`] bytes, without its line end) into `line`; false at
/// the end of the input or on a read error.
fn next_line<R: BufRead>(reader: &mut R, line: &mut Vec<u8>) -> bool {
    line.clear();
    if !matches!(read_capped_line(reader, line, MAX_LINE), Ok(true)) {
        return false;
    }
    while line.last().is_some_and(|&b| b == b'\r' || b == b'\n') {
        line.pop();
    }
    true
}

/// Reads one line into `out`, keeping at most `cap` bytes of it; returns false at end of input
/// when nothing was read.
fn read_capped_line<R: BufRead>(r: &mut R, out: &mut Vec<u8>, cap: usize) -> std::io::Result<bool> {
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = cap.saturating_sub(out.len());
        out.extend_from_slice(&buf[..chunk.min(room)]);
        r.consume(chunk);
        if done {
            return Ok(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn lines(rx: &Receiver<Event>) -> Vec<String> {
        let mut v = Vec::new();
        while let Ok(ev) = rx.recv_timeout(Duration::from_secs(5)) {
            match ev {
                Event::Line(l, _) => v.push(l),
                Event::Eof => break,
            }
        }
        v
    }

    #[test]
    fn splits_lines_and_strips_line_ends() {
        let rx = spawn(&b"uciok\r\nreadyok\nlast"[..], Arc::default(), None);
        assert_eq!(lines(&rx), ["uciok", "readyok", "last"]);
    }

    #[test]
    fn truncates_very_long_lines() {
        let mut data = vec![b'x'; MAX_LINE * 3];
        data.extend_from_slice(b"\nbestmove e2e4\n");
        let rx = spawn(std::io::Cursor::new(data), Arc::default(), None);
        let got = lines(&rx);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].len(), MAX_LINE);
        assert_eq!(got[1], "bestmove e2e4");
    }

    #[test]
    fn drops_info_lines_when_the_consumer_is_slow() {
        let mut data = Vec::new();
        for i in 0..CHANNEL_CAPACITY * 3 {
            data.extend_from_slice(format!("info nodes {i}\n").as_bytes());
        }
        data.extend_from_slice(b"bestmove a2a3\n");
        let dropped = Arc::new(AtomicU64::new(0));
        let rx = spawn(std::io::Cursor::new(data), dropped.clone(), None);
        // Let the reader fill the channel before consuming anything.
        std::thread::sleep(Duration::from_millis(300));
        let got = lines(&rx);
        assert_eq!(got.last().map(String::as_str), Some("bestmove a2a3"));
        let d = dropped.load(Ordering::Relaxed) as usize;
        assert!(d >= CHANNEL_CAPACITY, "dropped {d}");
        assert_eq!(got.len() + d, CHANNEL_CAPACITY * 3 + 1);
    }
}
