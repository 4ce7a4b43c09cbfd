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
