//! Suite formats: EPD test suites (bm, am, id, dm, c0, c9) and perft suites; scoring.

pub mod epd;
pub mod epd_embedded;
pub mod epd_error;
pub mod epd_gen;
pub mod epd_mate;
pub mod epd_report;
pub mod epd_run;
pub mod epd_score;
pub mod error;
pub mod perft;
pub mod perft960;
pub mod perft_check;
pub mod perft_referee;

pub use error::SuiteError;

/// The shared reference data, for the tests that read it: `$SABLE_SHARED_DATA`, else
/// `../shared/data` beside the checkout (as `.ci/run` has it).
///
/// `None`, after printing why, when there is none (a plain clone, the GitHub workflow): the
/// caller skips. With `SABLE_REQUIRE_SHARED_DATA` set (`.ci/run` sets it) a missing directory
/// fails instead, and so does a `$SABLE_SHARED_DATA` that is not a directory.
#[cfg(test)]
pub(crate) fn shared_data() -> Option<std::path::PathBuf> {
    use std::io::Write;
    use std::path::PathBuf;
    if let Some(dir) = std::env::var_os("SABLE_SHARED_DATA").map(PathBuf::from) {
        assert!(
            dir.is_dir(),
            "SABLE_SHARED_DATA={} is no directory",
            dir.display()
        );
        return Some(dir);
    }
    let beside = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if beside.is_dir() {
        return Some(beside);
    }
    let why = format!(
        "no shared reference data in {} (set SABLE_SHARED_DATA)",
        beside.display()
    );
    assert!(
        std::env::var_os("SABLE_REQUIRE_SHARED_DATA").is_none(),
        "{why}"
    );
    // Straight to stderr: the test harness would swallow eprintln! of a passing test.
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
    None
}
