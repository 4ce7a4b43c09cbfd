//! One run per results file: a run holds an exclusive lock on `FILE.lock` for as long as it
//! owns `FILE`, so a second run started on the same file (by mistake, or by a second terminal)
//! is refused before it writes anything, with the process and command line holding it.
//!
//! The lock is the operating system's (`flock` on Linux, through std's `File::try_lock`): it
//! goes away with the process, however that ends, so a killed run never leaves a stale lock. The
//! file itself stays (deleting it would let two later runs lock two different files).

use anyhow::{bail, Context};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The lock of a results file; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

/// The lock file of a results file: `match.json` → `match.json.lock`.
pub fn lock_path(results: &Path) -> PathBuf {
    let mut name = results.as_os_str().to_owned();
    name.push(".lock");
    name.into()
}

/// Takes the lock of `results`, or says which run holds it. `holder` describes this run (its
/// command line); it is written into the lock file for the next one to read.
pub fn acquire(results: &Path, holder: &str) -> anyhow::Result<RunLock> {
    let path = lock_path(results);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut who = String::new();
            let _ = file.read_to_string(&mut who);
            bail!(
                "{} is in use by another run ({}); wait for it to finish or stop it, or choose \
                 another file with --results",
                results.display(),
                who.trim()
            );
        }
        Err(TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
    let me = format!("pid {}: {holder}\n", std::process::id());
    file.set_len(0)
        .and_then(|_| file.rewind())
        .and_then(|_| file.write_all(me.as_bytes()))
        .and_then(|_| file.flush())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(RunLock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_on_the_same_file_is_refused_until_the_first_ends() {
        let dir = crate::test_dir("lock");
        let results = dir.join("r.json");
        let first = acquire(&results, "harness match --rounds 9").unwrap();
        let err = acquire(&results, "harness match").unwrap_err().to_string();
        assert!(err.contains("r.json is in use by another run"), "{err}");
        assert!(
            err.contains(&format!(
                "pid {}: harness match --rounds 9",
                std::process::id()
            )),
            "{err}"
        );
        drop(first);
        let again = acquire(&results, "harness sprt").unwrap();
        let text = std::fs::read_to_string(lock_path(&results)).unwrap();
        assert_eq!(text, format!("pid {}: harness sprt\n", std::process::id()));
        drop(again);
        std::fs::remove_dir_all(&dir).ok();
    }
}
