//! The harness's own printing (`outln!`, `out!`, `errln!`, defined in lib.rs): a reader that
//! goes away ends the printing, not the command. Rust's `outln!` panics when its pipe is
//! closed, so `harness tune data.csv | head -1` died in the middle of its report, exit 101 with
//! a backtrace, before the rest of its outputs were written; a terminal closed under a long
//! run would do the same. Here the first failed write marks that stream gone, later lines to it
//! are dropped, and the command finishes its work and writes its files.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

static OUT_GONE: AtomicBool = AtomicBool::new(false);
static ERR_GONE: AtomicBool = AtomicBool::new(false);

/// Writes to standard output (flushed) unless its reader has gone. (In unit tests, through
/// `print!`, which the test harness captures.)
pub fn out(args: fmt::Arguments) {
    if cfg!(test) {
        print!("{args}");
    } else {
        write_to(io::stdout().lock(), &OUT_GONE, args);
    }
}

/// Writes to standard error (flushed) unless its reader has gone. (In unit tests, through
/// `eprint!`, which the test harness captures.)
pub fn err(args: fmt::Arguments) {
    if cfg!(test) {
        eprint!("{args}");
    } else {
        write_to(io::stderr().lock(), &ERR_GONE, args);
    }
}

fn write_to(mut stream: impl Write, gone: &AtomicBool, args: fmt::Arguments) {
    if gone.load(Relaxed) {
        return;
    }
    if stream
        .write_fmt(args)
        .and_then(|()| stream.flush())
        .is_err()
    {
        gone.store(true, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that takes `room` bytes, then is gone (a closed pipe).
    struct Pipe {
        room: usize,
        got: Vec<u8>,
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.got.len() + buf.len() > self.room {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            self.got.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_reader_ends_the_printing_without_a_panic() {
        let gone = AtomicBool::new(false);
        let mut pipe = Pipe {
            room: 8,
            got: Vec::new(),
        };
        write_to(&mut pipe, &gone, format_args!("line 1\n"));
        assert!(!gone.load(Relaxed));
        write_to(&mut pipe, &gone, format_args!("line 2\n"));
        assert!(gone.load(Relaxed), "the failed write marks the stream gone");
        pipe.room = 100;
        write_to(&mut pipe, &gone, format_args!("line 3\n"));
        assert_eq!(
            pipe.got, b"line 1\n",
            "nothing more is written once it is gone"
        );
    }
}
