//! One progress reporter for every long job: matches, SPSA, data generation, tuning, perft and
//! EPD suites, labels, books, the tuner's cache and bisect's builds all draw through
//! [`Reporter`], so every bar has one layout (`what [elapsed] [bar] 3/10 units (rate, eta)
//! message`) and one place decides when it is drawn.
//!
//! A job that wants to be observed by a test takes a `&mut dyn Progress<Event>` (the one
//! progress trait: a start and a step with the job's own event); `()` ignores it, and
//! [`Reporter`] draws it, with the event's text from [`Describe`]. Jobs that only count take
//! the reporter itself (`&Reporter` is `Sync`: indicatif's bars are).
//!
//! indicatif draws nothing when stderr is not a terminal (a log file, CI). A reporter made
//! [`Reporter::with_lines`] then prints a line at the start and one at every step instead, so a
//! long SPSA run in a log still says how far it got.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// What a bar counts, in the singular and the plural ("iteration 3/10", "3/10 iterations").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    pub one: &'static str,
    pub many: &'static str,
}

impl Unit {
    pub const GAMES: Unit = Unit::new("game", "games");
    pub const POSITIONS: Unit = Unit::new("position", "positions");
    pub const ITERATIONS: Unit = Unit::new("iteration", "iterations");
    pub const EPOCHS: Unit = Unit::new("epoch", "epochs");
    pub const OPENINGS: Unit = Unit::new("opening", "openings");
    /// Bytes are shown as sizes (`12.5 MiB/1.2 GiB`).
    pub const BYTES: Unit = Unit::new("byte", "bytes");

    pub const fn new(one: &'static str, many: &'static str) -> Unit {
        Unit { one, many }
    }
}

/// A job's progress as it goes: how far (`done`) and the job's own event (a game's summary, an
/// epoch's losses, the parameters after an SPSA iteration).
pub trait Progress<E: ?Sized> {
    /// Called once before the first step: the steps done already (a resumed run) and planned.
    fn start(&mut self, _done: u64, _total: u64) {}
    /// Called after each step, `done` counting it.
    fn step(&mut self, _done: u64, _event: &E) {}
    /// A warning for the user, on stderr, out of the bar's way.
    fn warn(&mut self, text: &str) {
        errln!("warning: {text}");
    }
}

/// Hears nothing (tests, and callers that show no progress).
impl<E: ?Sized> Progress<E> for () {}

/// The text a reporter shows for an event, after the count.
pub trait Describe {
    fn describe(&self) -> String;
}

/// A progress bar on stderr, or lines off a terminal, or nothing.
pub struct Reporter {
    bar: Option<ProgressBar>,
    /// Off a terminal, with [`Reporter::with_lines`]: what to name in each line.
    lines: Option<Lines>,
}

struct Lines {
    what: String,
    unit: Unit,
    len: AtomicU64,
}

impl Reporter {
    /// Shows nothing.
    pub fn hidden() -> Reporter {
        Reporter {
            bar: None,
            lines: None,
        }
    }

    /// A bar named `what` counting `len` units; hidden unless `shown`.
    pub fn new(shown: bool, what: &str, unit: Unit, len: u64) -> Reporter {
        if !shown {
            return Reporter::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        bar.set_style(style(!what.is_empty(), unit, true));
        bar.set_prefix(what.to_owned());
        Reporter {
            bar: Some(bar),
            lines: None,
        }
    }

    /// Leaves the rate and the time left to the message (a match estimates its own, from the
    /// pace of games and an SPRT's drift); the bar shows the count alone.
    pub fn paced_by_message(self, unit: Unit) -> Reporter {
        if let Some(bar) = &self.bar {
            bar.set_style(style(!bar.prefix().is_empty(), unit, false));
        }
        self
    }

    /// Off a terminal (where the bar draws nothing), prints a line at [`Progress::start`] and
    /// at every step instead: `SPSA: 0 of 2 iterations done`, `SPSA iteration 1/2: message`.
    pub fn with_lines(mut self, what: &str, unit: Unit) -> Reporter {
        if self.bar.is_some() && !std::io::stderr().is_terminal() {
            self.lines = Some(Lines {
                what: what.to_owned(),
                unit,
                len: AtomicU64::new(self.bar.as_ref().and_then(|b| b.length()).unwrap_or(0)),
            });
        }
        self
    }

    /// A spinner with the elapsed time and `what`, for work that cannot count; hidden unless
    /// `shown`.
    pub fn spinner(shown: bool, what: &str) -> Reporter {
        if !shown {
            return Reporter::hidden();
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .expect("static template"),
        );
        bar.set_message(what.to_owned());
        bar.enable_steady_tick(Duration::from_millis(200));
        Reporter {
            bar: Some(bar),
            lines: None,
        }
    }

    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    pub fn set_position(&self, pos: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(pos);
        }
    }

    pub fn set_length(&self, len: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(len);
        }
        if let Some(lines) = &self.lines {
            lines.len.store(len, Ordering::Relaxed);
        }
    }

    pub fn set_message(&self, message: impl Into<String>) {
        if let Some(bar) = &self.bar {
            bar.set_message(message.into());
        }
    }

    /// Runs `f` with the bar out of the way (for text printed while it is drawn).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Leaves the bar drawn at its last state.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
        }
    }

    /// Removes the bar.
    pub fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl<E: ?Sized + Describe> Progress<E> for Reporter {
    fn start(&mut self, done: u64, total: u64) {
        self.set_length(total);
        self.set_position(done);
        if let Some(l) = &self.lines {
            errln!("{}: {done} of {total} {} done", l.what, l.unit.many);
        }
    }

    fn step(&mut self, done: u64, event: &E) {
        let text = event.describe();
        if let Some(l) = &self.lines {
            let len = l.len.load(Ordering::Relaxed);
            errln!("{} {} {done}/{len}: {text}", l.what, l.unit.one);
        }
        self.set_position(done);
        self.set_message(text);
    }

    fn warn(&mut self, text: &str) {
        self.suspend(|| errln!("warning: {text}"));
    }
}

/// The one layout: `what [elapsed] [bar] 3/10 units (rate, eta) message`.
fn style(named: bool, unit: Unit, pace: bool) -> ProgressStyle {
    let count = if unit == Unit::BYTES {
        "{bytes}/{total_bytes}".to_owned()
    } else {
        format!("{{pos}}/{{len}} {}", unit.many)
    };
    let template = format!(
        "{prefix}[{{elapsed_precise}}] [{{bar:30}}] {count} {pace}{{msg}}",
        prefix = if named { "{prefix} " } else { "" },
        pace = if pace { "({per_sec}, eta {eta}) " } else { "" },
    );
    ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

/// Runs `work` with a spinner and the elapsed time on stderr (when `shown`).
pub fn spin<T>(shown: bool, what: &str, work: impl FnOnce() -> T) -> T {
    let spinner = Reporter::spinner(shown, what);
    let out = work();
    spinner.clear();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Event(&'static str);

    impl Describe for Event {
        fn describe(&self) -> String {
            self.0.to_owned()
        }
    }

    #[test]
    fn a_hidden_reporter_takes_every_call_and_spin_returns_the_work() {
        let mut r = Reporter::new(false, "x", Unit::GAMES, 10);
        assert!(r.bar.is_none());
        Progress::<Event>::start(&mut r, 2, 10);
        r.step(3, &Event("three"));
        r.inc(1);
        r.set_length(20);
        r.finish();
        assert_eq!(spin(false, "work", || 7), 7);
    }

    #[test]
    fn a_shown_bar_counts_and_keeps_the_events_text() {
        let mut r = Reporter::new(true, "test", Unit::POSITIONS, 10);
        Progress::<Event>::start(&mut r, 4, 12);
        r.step(5, &Event("five done"));
        let bar = r.bar.as_ref().unwrap();
        assert_eq!((bar.position(), bar.length()), (5, Some(12)));
        assert_eq!(bar.message(), "five done");
        r.inc(2);
        assert_eq!(r.bar.as_ref().unwrap().position(), 7);
        r.clear();
    }
}
