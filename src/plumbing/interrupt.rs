//! Ctrl-C during a match: the first one stops the run in an orderly way (no new game starts,
//! games in flight are abandoned between moves and replayed on resume, everything finished is
//! written, the engines are stopped, the interim report and the resume command are printed);
//! a second one exits at once (the engines die with the harness, see `uci::engine`; the run's
//! lock file is deleted first, see `lock::unlink_held`).

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Exit code after an interruption (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

/// Whether the user asked the run to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

extern "C" fn on_sigint(_: libc::c_int) {
    // Only async-signal-safe work here: an atomic swap, and `unlink` and `_exit` the second time.
    if REQUESTED.swap(true, Ordering::SeqCst) {
        super::lock::unlink_held();
        unsafe { libc::_exit(EXIT_INTERRUPTED) };
    }
}

/// Installs the Ctrl-C (SIGINT) and SIGTERM handler; call once from a command that runs games.
pub fn install() {
    let handler: extern "C" fn(libc::c_int) = on_sigint;
    // SAFETY: the handler only touches atomics and calls `unlink` and `_exit`, all
    // async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
    }
}
