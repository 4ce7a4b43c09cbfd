//! The Sable test harness as a library: perft suites, tactical EPD suites, matches and SPRT,
//! SPSA and Texel tuning for UCI chess engines. The `harness` binary (src/main.rs) is its
//! command line.
//!
//! The domain modules never import [`cmd`]: each `cmd` module only turns its clap arguments
//! into calls of the domain modules and prints what they return.

/// The `From` impls of a room's error enum for the errors it wraps whole (one variant each,
/// displayed as the wrapped error), so that `?` converts them. Defined before the rooms, so
/// every room sees it.
macro_rules! error_from {
    ($enum:ident: $($variant:ident($ty:ty)),* $(,)?) => {
        $(impl From<$ty> for $enum {
            fn from(e: $ty) -> $enum {
                $enum::$variant(e)
            }
        })*
    };
}

/// `println!` for the harness's reports: a closed reader (`| head`) ends the printing, not the
/// command (see `plumbing::stdio`).
#[macro_export]
macro_rules! outln {
    () => { $crate::plumbing::stdio::out(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::plumbing::stdio::out(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `print!` for the harness's reports (see [`outln!`]).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::plumbing::stdio::out(format_args!($($arg)*)) };
}

/// `eprintln!` for the harness's notes and warnings (see [`outln!`]).
#[macro_export]
macro_rules! errln {
    () => { $crate::plumbing::stdio::err(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::plumbing::stdio::err(format_args!("{}\n", format_args!($($arg)*))) };
}

pub mod bisect;
pub mod check;
pub mod cmd;
pub mod datagen;
pub mod fastchess;
pub mod forensics;
pub mod game;
pub mod openings;
pub mod plumbing;
pub mod report;
pub mod spsa;
pub mod stats;
pub mod suites;
pub mod tablebase;
pub mod tournament;
pub mod tune;
pub mod uci;

#[cfg(test)]
mod hostile_input;

/// A scratch folder for one unit test's files, `sable-NAME-PID` under the system's temporary
/// folder, created if missing (not emptied: tests sharing a name may run at once).
#[cfg(test)]
pub(crate) fn test_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sable-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
