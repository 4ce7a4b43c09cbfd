//! One run per results file: a run holds an exclusive lock on `FILE.lock` for as long as it
//! owns `FILE`, so a second run started on the same file (by mistake, or by a second terminal)
//! is refused before it writes anything, with the process and command line holding it.
//!
//! The lock is the operating system's (`flock` on Linux, through std's `File::try_lock`): it
//! goes away with the process, however that ends. The file goes away with the run too: it is
//! deleted while still locked when the run ends (returns, fails, panics, or is stopped by
//! Ctrl-C, even a second one, see [`unlink_held`]). Only a run killed outright (SIGKILL, a
//! power cut) leaves the file behind; the next run on the results file finds it unlocked, takes
//! it over and says so. Deleting a lock file someone may have just opened is safe because a
//! run that gets the lock checks that the file it locked is still the one at the path, and
//! starts over if not.

use super::append::same_file;
use std::ffi::CString;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicPtr, Ordering};

/// The lock of a results file; released, and its file deleted, when dropped.
#[derive(Debug)]
pub struct RunLock {
    file: Option<File>,
    path: PathBuf,
    /// When the lock file was left by a run that ended without removing it (killed): a line
    /// saying whose it was, for the caller to show.
    pub taken_over: Option<String>,
}

impl Drop for RunLock {
    fn drop(&mut self) {
        forget_held(&self.path);
        // Deleted before the lock is let go (by closing the file), so no run ever locks a file
        // that is about to vanish without noticing (see `acquire`).
        let _ = std::fs::remove_file(&self.path);
        drop(self.file.take());
    }
}

/// The lock file of a results file: `match.json` → `match.json.lock`.
pub fn lock_path(results: &Path) -> PathBuf {
    crate::plumbing::naming::lock(results)
}

/// Why a run could not take the lock of its results file.
#[derive(Debug)]
pub enum LockError {
    /// The results file's folder does not exist (nothing would be written anyway).
    NoFolder { results: PathBuf, folder: PathBuf },
    /// Another live run holds the lock; `holder` is what it wrote into the lock file.
    InUse { results: PathBuf, holder: String },
    /// The lock file could not be created, locked or written (`what` says which).
    Io {
        what: &'static str,
        path: PathBuf,
        cause: std::io::Error,
    },
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockError::NoFolder { results, folder } => write!(
                f,
                "the folder of {} does not exist: create {} first, or choose another file",
                results.display(),
                folder.display()
            ),
            LockError::InUse { results, holder } => write!(
                f,
                "{} is in use by another run ({holder}); wait for it to finish or stop it, or \
                 choose another file with --results",
                results.display()
            ),
            // The cause is part of the message (not a `source`), so that it is printed once
            // however the caller prints the error.
            LockError::Io { what, path, cause } => {
                write!(f, "cannot {what} {}: {cause}", path.display())
            }
        }
    }
}

impl std::error::Error for LockError {}

/// Takes the lock of `results`, or says which run holds it. `holder` describes this run (its
/// command line); it is written into the lock file for the next one to read.
pub fn acquire(results: &Path, holder: &str) -> Result<RunLock, LockError> {
    let path = lock_path(results);
    let folder = results.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(folder) = folder.filter(|f| !f.is_dir()) {
        return Err(LockError::NoFolder {
            results: results.to_owned(),
            folder: folder.to_owned(),
        });
    }
    let (mut file, before) = loop {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|cause| io_error("create the lock file", &path, cause))?;
        let mut before = String::new();
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let _ = file.read_to_string(&mut before);
                return Err(LockError::InUse {
                    results: results.to_owned(),
                    holder: before.trim().to_owned(),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io_error("lock", &path, e)),
        }
        // The run that held it may have deleted it between our open and our lock: then we
        // hold a file no other run can see, and must start over on the path's new file.
        if !same_file(&file, &path) {
            continue;
        }
        let _ = file.read_to_string(&mut before);
        break (file, before);
    };
    let me = format!("pid {}: {holder}\n", std::process::id());
    file.set_len(0)
        .and_then(|_| file.rewind())
        .and_then(|_| file.write_all(me.as_bytes()))
        .and_then(|_| file.flush())
        .map_err(|cause| io_error("write", &path, cause))?;
    remember_held(&path);
    Ok(RunLock {
        file: Some(file),
        taken_over: stale_note(&path, before.trim()),
        path,
    })
}

fn io_error(what: &'static str, path: &Path, cause: std::io::Error) -> LockError {
    LockError::Io {
        what,
        path: path.to_owned(),
        cause,
    }
}

/// What to say about a lock file found unlocked with `text` in it (a run that ended without
/// deleting it).
fn stale_note(path: &Path, text: &str) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    let pid = text
        .strip_prefix("pid ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|p| p.trim().parse::<i32>().ok());
    let state = match pid {
        Some(pid) if pid_alive(pid) => "which no longer holds it",
        Some(_) => "which is no longer running",
        None => "which no longer holds it",
    };
    Some(format!(
        "taking over the stale lock {} left by {text}, {state}; its results file is resumed or \
         refused as usual",
        path.display()
    ))
}

/// Whether a process with this id exists (it may be another program that got the id).
fn pid_alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// The lock files this process holds (a bisection holds its own and its step's), as C strings
/// the signal handler can pass to `unlink`. The strings are leaked on purpose: a handler may
/// still read one after its lock is dropped, and a few bytes per run cost nothing.
static HELD: [AtomicPtr<libc::c_char>; 4] = [const { AtomicPtr::new(std::ptr::null_mut()) }; 4];

fn remember_held(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return;
    };
    let c = c.into_raw();
    let null = std::ptr::null_mut();
    for slot in &HELD {
        if slot
            .compare_exchange(null, c, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
    // More locks at once than slots: the rest are only deleted by their own drop.
}

fn forget_held(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    for slot in &HELD {
        let held = slot.load(Ordering::SeqCst);
        if held.is_null() {
            continue;
        }
        // SAFETY: a non-null slot always points to a leaked, never freed CString.
        let name = unsafe { std::ffi::CStr::from_ptr(held) };
        if name.to_bytes() == path.as_os_str().as_bytes() {
            slot.store(std::ptr::null_mut(), Ordering::SeqCst);
            return;
        }
    }
}

/// Deletes the lock files of the runs in progress, if any. Async-signal-safe (atomic loads and
/// `unlink`): for the Ctrl-C handler that exits at once, so that even then no lock is left.
pub fn unlink_held() {
    for slot in &HELD {
        let held = slot.load(Ordering::SeqCst);
        if !held.is_null() {
            // SAFETY: a non-null slot points to a leaked, NUL-terminated path, never freed.
            unsafe { libc::unlink(held) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_on_the_same_file_is_refused_until_the_first_ends() {
        let dir = crate::test_dir("lock");
        let results = dir.join("r.json");
        let first = acquire(&results, "harness match --rounds 9").unwrap();
        assert_eq!(first.taken_over, None);
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
        assert!(!lock_path(&results).exists(), "the lock goes with its run");
        let again = acquire(&results, "harness sprt").unwrap();
        assert_eq!(again.taken_over, None, "nothing stale after a clean end");
        let text = std::fs::read_to_string(lock_path(&results)).unwrap();
        assert_eq!(text, format!("pid {}: harness sprt\n", std::process::id()));
        drop(again);
        assert!(!lock_path(&results).exists());
        let err = acquire(&dir.join("runs/r.json"), "harness match")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("runs/r.json does not exist: create") && err.contains("runs first"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_lock_file_left_by_a_killed_run_is_taken_over_with_a_note() {
        let dir = crate::test_dir("lock-stale");
        let results = dir.join("r.json");
        // A process that has surely ended: a child we started and waited for.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        std::fs::write(
            lock_path(&results),
            format!("pid {dead}: harness sprt --x\n"),
        )
        .unwrap();
        let lock = acquire(&results, "harness sprt").unwrap();
        let note = lock.taken_over.clone().unwrap();
        assert!(
            note.contains(&format!("left by pid {dead}: harness sprt --x")),
            "{note}"
        );
        assert!(note.contains("no longer"), "{note}");
        drop(lock);
        assert!(!lock_path(&results).exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_lock_file_deleted_under_a_waiting_run_is_not_locked_in_vain() {
        // The race the identity check guards against: a file opened, then deleted by its
        // holder before it is locked, must not count as this run's lock.
        let dir = crate::test_dir("lock-race");
        let results = dir.join("r.json");
        let path = lock_path(&results);
        std::fs::write(&path, "").unwrap();
        let opened = File::open(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(!same_file(&opened, &path));
        std::fs::write(&path, "").unwrap();
        assert!(
            !same_file(&opened, &path),
            "a new file at the path is another file"
        );
        assert!(same_file(&File::open(&path).unwrap(), &path));
        std::fs::remove_dir_all(&dir).ok();
    }
}
