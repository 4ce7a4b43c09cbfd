//! Reading an engine's stdout and stderr in the thread that talks to it: `poll(2)` on both pipes
//! with the deadline of the current wait as its timeout, non-blocking reads, lines split and
//! capped.
//!
//! Why no reader thread: a thread per pipe hands every line over a channel, so each line costs a
//! futex wake and wait on top of the pipe read, and the runner keeps three threads per engine. At
//! 64 games at once that is CPU taken from the engines and scheduling latency on their clocks.
//! Here the game's own thread sleeps in `poll` until the engine writes or the deadline passes
//! (fastchess does the same), and a line's time stamp is taken the moment it is read.
//!
//! Why bounds: an engine that floods its output (a line of a gigabyte, millions of `info` lines)
//! must not exhaust the harness's memory. Lines longer than [`MAX_LINE`] are truncated, and at
//! most one read of [`READ_CHUNK`] bytes is split into lines before they are handed out, so the
//! pending lines never hold more than that; a flooding engine blocks on its own full pipe until
//! the harness reads again.

use super::direction::Direction;
use super::log::Tap;
use std::collections::VecDeque;
use std::io::ErrorKind;
use std::os::fd::{AsRawFd, RawFd};
use std::process::{ChildStderr, ChildStdout};
use std::time::{Duration, Instant};

/// Longest line kept, in bytes; the rest of a longer line is discarded.
pub const MAX_LINE: usize = 64 * 1024;
/// Bytes read from a pipe at a time.
pub const READ_CHUNK: usize = 64 * 1024;

/// Splits a byte stream into lines without their line ends (`\n`, `\r\n`), keeping at most
/// [`MAX_LINE`] bytes of each.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
}

impl LineSplitter {
    /// Feeds bytes; `emit` gets each completed line.
    pub fn feed(&mut self, mut bytes: &[u8], emit: &mut dyn FnMut(&[u8])) {
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            self.keep(&bytes[..end]);
            self.emit_partial(emit);
            bytes = &bytes[end + 1..];
        }
        self.keep(bytes);
    }

    /// The end of the stream: a last line without a line end is still a line.
    pub fn finish(&mut self, emit: &mut dyn FnMut(&[u8])) {
        if !self.partial.is_empty() {
            self.emit_partial(emit);
        }
    }

    fn keep(&mut self, bytes: &[u8]) {
        let room = MAX_LINE.saturating_sub(self.partial.len());
        self.partial
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn emit_partial(&mut self, emit: &mut dyn FnMut(&[u8])) {
        while self.partial.last() == Some(&b'\r') {
            self.partial.pop();
        }
        emit(&self.partial);
        self.partial.clear();
    }
}

/// What the next wait for a line brought.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// One line of stdout, without its line end, and the moment it was read.
    Line(String, Instant),
    /// The engine closed its stdout (it exited or crashed) and every line was handed out.
    Eof,
    /// The deadline passed with no line.
    Timeout,
}

/// An engine's two output pipes, read on demand by the thread that owns the engine.
pub struct Pipes {
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    out_lines: LineSplitter,
    err_lines: LineSplitter,
    /// Complete stdout lines read but not yet handed out (at most one chunk's worth).
    pending: VecDeque<(String, Instant)>,
    buf: Vec<u8>,
    tap: Option<Tap>,
}

impl Pipes {
    /// Takes over the pipes and makes them non-blocking; `tap` (if any) sees every line.
    pub fn new(
        stdout: ChildStdout,
        stderr: Option<ChildStderr>,
        tap: Option<Tap>,
    ) -> std::io::Result<Pipes> {
        set_nonblocking(stdout.as_raw_fd())?;
        if let Some(e) = &stderr {
            set_nonblocking(e.as_raw_fd())?;
        }
        Ok(Pipes {
            stdout: Some(stdout),
            stderr,
            out_lines: LineSplitter::default(),
            err_lines: LineSplitter::default(),
            pending: VecDeque::new(),
            buf: vec![0; READ_CHUNK],
            tap,
        })
    }

    /// The next stdout line, waiting until `deadline` at most. A line already read is returned
    /// even when the deadline has passed; stderr is read into the tap on the way.
    pub fn next_line(&mut self, deadline: Instant) -> Next {
        loop {
            if let Some((line, at)) = self.pending.pop_front() {
                return Next::Line(line, at);
            }
            if self.stdout.is_none() {
                return Next::Eof;
            }
            let now = Instant::now();
            let wait = deadline.saturating_duration_since(now);
            match self.wait(wait) {
                Waited::Ready => {}
                Waited::Timeout if Instant::now() >= deadline => return Next::Timeout,
                // poll's millisecond rounding woke us a little early, or a signal did.
                Waited::Timeout => {}
            }
        }
    }

    /// Reads whatever both pipes still hold until they close or `grace` passes: the last words of
    /// an engine that exited or was killed.
    pub fn drain(&mut self, grace: Duration) {
        let until = Instant::now() + grace;
        while self.stdout.is_some() || self.stderr.is_some() {
            let left = until.saturating_duration_since(Instant::now());
            if let Waited::Timeout = self.wait(left) {
                if Instant::now() >= until {
                    return;
                }
            }
        }
    }

    /// One `poll` on the open pipes for at most `wait`, then one read from each ready pipe.
    fn wait(&mut self, wait: Duration) -> Waited {
        let fd = |p: Option<RawFd>| p.unwrap_or(-1); // poll ignores negative descriptors
        let mut fds = [
            libc::pollfd {
                fd: fd(self.stdout.as_ref().map(AsRawFd::as_raw_fd)),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: fd(self.stderr.as_ref().map(AsRawFd::as_raw_fd)),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // Rounded up, so that a wait never ends before its deadline for want of precision.
        let ms = wait.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as libc::c_int;
        // SAFETY: `fds` is a valid array of two pollfd for the duration of the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
        if n < 0 {
            if std::io::Error::last_os_error().kind() == ErrorKind::Interrupted {
                return Waited::Timeout;
            }
            // poll itself failed (it cannot on valid descriptors): treat the engine as gone.
            self.close_stdout();
            self.close_stderr();
            return Waited::Ready;
        }
        if n == 0 {
            return Waited::Timeout;
        }
        // POLLHUP and POLLERR come without POLLIN when the engine is gone: the read says so.
        let ready = |r: libc::c_short| r & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0;
        if ready(fds[1].revents) {
            self.read_stderr();
        }
        if ready(fds[0].revents) {
            self.read_stdout();
        }
        Waited::Ready
    }

    fn read_stdout(&mut self) {
        let Some(out) = self.stdout.as_mut() else {
            return;
        };
        match read_some(out, &mut self.buf) {
            Got::Data(n) => {
                let at = Instant::now();
                let (pending, tap) = (&mut self.pending, &self.tap);
                self.out_lines.feed(&self.buf[..n], &mut |l| {
                    pending.push_back((received(tap, Direction::Received, l), at));
                });
            }
            Got::NotYet => {}
            Got::Closed => self.close_stdout(),
        }
    }

    fn read_stderr(&mut self) {
        let Some(err) = self.stderr.as_mut() else {
            return;
        };
        match read_some(err, &mut self.buf) {
            Got::Data(n) => {
                let tap = &self.tap;
                self.err_lines.feed(&self.buf[..n], &mut |l| {
                    received(tap, Direction::Stderr, l);
                });
            }
            Got::NotYet => {}
            Got::Closed => self.close_stderr(),
        }
    }

    fn close_stdout(&mut self) {
        if self.stdout.take().is_some() {
            let at = Instant::now();
            let (pending, tap) = (&mut self.pending, &self.tap);
            self.out_lines.finish(&mut |l| {
                pending.push_back((received(tap, Direction::Received, l), at));
            });
        }
    }

    fn close_stderr(&mut self) {
        if self.stderr.take().is_some() {
            let tap = &self.tap;
            self.err_lines.finish(&mut |l| {
                received(tap, Direction::Stderr, l);
            });
        }
    }
}

/// Turns a line's bytes into text and shows it to the tap.
fn received(tap: &Option<Tap>, dir: Direction, line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line).into_owned();
    if let Some(tap) = tap {
        tap.record(dir, &text);
    }
    text
}

enum Waited {
    Ready,
    Timeout,
}

enum Got {
    Data(usize),
    NotYet,
    Closed,
}

fn read_some(source: &mut impl std::io::Read, buf: &mut [u8]) -> Got {
    loop {
        return match source.read(buf) {
            Ok(0) => Got::Closed,
            Ok(n) => Got::Data(n),
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == ErrorKind::WouldBlock => Got::NotYet,
            Err(_) => Got::Closed,
        };
    }
}

fn set_nonblocking(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns; no memory is passed.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<String> {
        let mut s = LineSplitter::default();
        let mut out = Vec::new();
        for c in chunks {
            s.feed(c, &mut |l| {
                out.push(String::from_utf8_lossy(l).into_owned())
            });
        }
        s.finish(&mut |l| out.push(String::from_utf8_lossy(l).into_owned()));
        out
    }

    #[test]
    fn splits_lines_and_strips_line_ends() {
        assert_eq!(
            split(&[b"uciok\r\nready", b"ok\n", b"last"]),
            ["uciok", "readyok", "last"]
        );
        assert_eq!(split(&[b"a\n\nb\n"]), ["a", "", "b"]);
    }

    #[test]
    fn truncates_very_long_lines_across_chunks() {
        let long = vec![b'x'; MAX_LINE];
        let got = split(&[&long, &long, &long, b"\nbestmove e2e4\n"]);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].len(), MAX_LINE);
        assert_eq!(got[1], "bestmove e2e4");
    }

    /// A child that writes `script` with the shell; its pipes, read by [`Pipes`].
    fn shell(script: &str) -> (std::process::Child, Pipes) {
        let mut child = std::process::Command::new("sh")
            .args(["-c", script])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let err = child.stderr.take();
        (child, Pipes::new(out, err, None).unwrap())
    }

    fn line(n: Next) -> String {
        match n {
            Next::Line(l, _) => l,
            other => panic!("expected a line, got {other:?}"),
        }
    }

    #[test]
    fn lines_then_end_of_output() {
        let (mut child, mut p) = shell("echo one; echo two >&2; printf 'three'");
        let far = Instant::now() + Duration::from_secs(10);
        assert_eq!(line(p.next_line(far)), "one");
        assert_eq!(line(p.next_line(far)), "three");
        assert_eq!(p.next_line(far), Next::Eof);
        assert_eq!(p.next_line(far), Next::Eof);
        child.wait().unwrap();
    }

    #[test]
    fn a_silent_engine_times_out_at_the_deadline_not_before() {
        let (mut child, mut p) = shell("sleep 5");
        let t = Instant::now();
        assert_eq!(p.next_line(t + Duration::from_millis(50)), Next::Timeout);
        let waited = t.elapsed();
        assert!(waited >= Duration::from_millis(50), "{waited:?}");
        assert!(waited < Duration::from_secs(2), "{waited:?}");
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn a_line_already_read_is_returned_after_the_deadline() {
        let (mut child, mut p) = shell("printf 'a\\nb\\n'; sleep 5");
        let far = Instant::now() + Duration::from_secs(10);
        assert_eq!(line(p.next_line(far)), "a");
        // "b" came in the same read: the past deadline does not hide it.
        assert_eq!(line(p.next_line(Instant::now())), "b");
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn drain_reads_stderr_to_its_end() {
        let tap = Tap {
            tail: super::super::log::OutputTail::default(),
            log: None,
            name: "sh".into(),
            pid: 0,
            recorder: Default::default(),
        };
        let mut child = std::process::Command::new("sh")
            .args(["-c", "echo last words >&2; exit 3"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let mut p = Pipes::new(out, child.stderr.take(), Some(tap.clone())).unwrap();
        child.wait().unwrap();
        p.drain(Duration::from_secs(5));
        assert_eq!(tap.tail.lines(), ["stderr: last words"]);
        assert_eq!(p.next_line(Instant::now()), Next::Eof);
    }
}
