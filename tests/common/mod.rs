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

/// The names in `dir`, sorted (a folder's name ends with `/`), to compare a run's files with
/// what it should have written.
pub fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                format!("{name}/")
            } else {
                name
            }
        })
        .collect();
    names.sort();
    names
}

/// A process id that surely names no running process: a child started and waited for.
pub fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

/// A shell script in `dir` that touches `dir/<name>.started` and then runs `engine` with its
/// arguments: proof of whether a run started the engine at all.
pub fn marked_engine(dir: &std::path::Path, name: &str, engine: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join(format!("{name}.sh"));
    let marker = dir.join(format!("{name}.started"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntouch '{}'\nexec '{engine}' \"$@\"\n",
            marker.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}
