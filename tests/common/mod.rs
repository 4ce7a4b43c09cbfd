//! Helpers shared by the harness's command-line tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Output;

/// A fresh, empty directory for one test: `sable-<kind>-<name>-<pid>` in the temp folder.
pub fn temp_dir(kind: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sable-{kind}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A process's stdout followed by its stderr, for assertions and messages.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The shared reference data (`$SABLE_SHARED_DATA`, else `../shared/data` beside the
/// checkout), as the library's unit tests find it: `None`, after printing why, when there is
/// none, unless `SABLE_REQUIRE_SHARED_DATA` is set (`.ci/run`), which makes that a failure.
pub fn shared_data() -> Option<PathBuf> {
    use std::io::Write;
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
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
    None
}
