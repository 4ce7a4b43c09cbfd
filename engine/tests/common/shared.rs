//! The shared reference data beside the checkout, for the tests that need it.

use std::io::Write;
use std::path::PathBuf;

/// The shared reference data: `$SABLE_SHARED_DATA`, else `../shared/data` beside the
/// checkout (as `.ci/run` has it). `None`, after printing why, when there is none (a plain
/// clone, the GitHub workflow); with `SABLE_REQUIRE_SHARED_DATA` set (`.ci/run` sets it) a
/// missing directory fails instead. The harness's tests look there too
/// (src/suites/mod.rs).
pub fn shared_data() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SABLE_SHARED_DATA").map(PathBuf::from) {
        assert!(
            dir.is_dir(),
            "SABLE_SHARED_DATA={} is no directory",
            dir.display()
        );
        return Some(dir);
    }
    // The engine crate is `<checkout>/engine`, so two levels up is beside the checkout.
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
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

/// The Syzygy tables of the shared data (`syzygy/`, all 3- and 4-piece `.rtbw` and `.rtbz`),
/// or `None` (after saying why) as for [`shared_data`].
pub fn syzygy_dir() -> Option<PathBuf> {
    let dir = shared_data()?.join("syzygy");
    assert!(dir.is_dir(), "no Syzygy tables in {}", dir.display());
    Some(dir)
}
