//! One atomic write for every file the harness replaces (results summaries, bisect and SPSA
//! state, the tuner's cache and checkpoints, engine defaults, failure cases, cached builds).
//!
//! The bytes go to a temporary file with a unique name in the target's own folder (a rename
//! is atomic only within one file system), which is flushed and synced before it is renamed
//! over the target, and the folder is synced after, so that after a crash or a power cut the
//! target is either the old file or the whole new one, never a prefix, and the rename itself
//! survives. A write that fails or is dropped before [`AtomicFile::commit`] removes its
//! temporary file and leaves the target as it was.

use std::fmt;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The step of an atomic write that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Creating the temporary file beside the target.
    Create,
    /// Writing the bytes.
    Write,
    /// Syncing the temporary file to the disk.
    SyncFile,
    /// Renaming it over the target.
    Rename,
    /// Syncing the folder (the rename's record).
    SyncFolder,
}

/// Why an atomic write failed: the target, the step and the system's error.
#[derive(Debug)]
pub struct AtomicError {
    /// The file that was to be written.
    pub path: PathBuf,
    /// What failed.
    pub step: Step,
    /// The system's error.
    pub source: io::Error,
}

impl fmt::Display for AtomicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let step = match self.step {
            Step::Create => "creating a temporary file beside it",
            Step::Write => "writing",
            Step::SyncFile => "syncing the temporary file",
            Step::Rename => "renaming the temporary file over it",
            Step::SyncFolder => "syncing its folder",
        };
        write!(
            f,
            "cannot write {} ({step}): {}",
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for AtomicError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Writes `bytes` to `path` atomically (see the module's documentation).
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), AtomicError> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes.as_ref())
        .map_err(|e| file.error(Step::Write, e))?;
    file.commit()
}

/// A file being written beside its target; [`AtomicFile::commit`] puts it in place, dropping
/// it removes it.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    tmp: PathBuf,
    file: Option<File>,
}

/// Distinguishes the temporary files of one process (threads may write beside each other).
static NEXT: AtomicU64 = AtomicU64::new(0);

impl AtomicFile {
    /// Creates the temporary file `.<name>.<pid>-<n>.tmp` in `target`'s folder (the folder
    /// must exist).
    pub fn create(target: &Path) -> Result<AtomicFile, AtomicError> {
        let err = |source| AtomicError {
            path: target.to_owned(),
            step: Step::Create,
            source,
        };
        let name = target
            .file_name()
            .ok_or_else(|| err(io::Error::other("the path names no file")))?;
        let folder = folder_of(target);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let mut tmp_name = std::ffi::OsString::from(".");
            tmp_name.push(name);
            tmp_name.push(format!(".{}-{n}.tmp", std::process::id()));
            let tmp = folder.join(tmp_name);
            match File::options().write(true).create_new(true).open(&tmp) {
                Ok(file) => {
                    return Ok(AtomicFile {
                        target: target.to_owned(),
                        tmp,
                        file: Some(file),
                    })
                }
                // Left by a killed process of the same id: take the next name.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(err(e)),
            }
        }
    }

    /// The open temporary file (to set its permissions, say).
    pub fn file(&self) -> &File {
        self.file.as_ref().expect("open until committed")
    }

    /// The error of `step` for this write.
    pub fn error(&self, step: Step, source: io::Error) -> AtomicError {
        AtomicError {
            path: self.target.clone(),
            step,
            source,
        }
    }

    /// Syncs the temporary file, renames it over the target and syncs the folder.
    pub fn commit(mut self) -> Result<(), AtomicError> {
        let file = self.file.take().expect("open until committed");
        let synced = file.sync_all();
        drop(file);
        if let Err(e) = synced {
            let _ = std::fs::remove_file(&self.tmp);
            return Err(self.error(Step::SyncFile, e));
        }
        if let Err(e) = std::fs::rename(&self.tmp, &self.target) {
            let _ = std::fs::remove_file(&self.tmp);
            return Err(self.error(Step::Rename, e));
        }
        sync_folder(folder_of(&self.target)).map_err(|e| self.error(Step::SyncFolder, e))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.as_mut().expect("open until committed").write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().expect("open until committed").flush()
    }
}

impl Seek for AtomicFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.file.as_mut().expect("open until committed").seek(pos)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            // Never committed: the target stays as it was.
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// The folder a relative or absolute file path lives in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Syncs a folder so that a rename in it is on the disk (Unix; elsewhere the rename is
/// trusted as the system leaves it).
fn sync_folder(folder: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(folder)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = folder;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sable-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_content_is_complete_and_no_temporary_file_is_left() {
        let dir = folder("whole");
        let path = dir.join("state.json");
        let big: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        write(&path, &big).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), big);
        assert_eq!(names(&dir), ["state.json"]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_target_is_replaced_whole() {
        let dir = folder("replace");
        let path = dir.join("results.json");
        std::fs::write(&path, "an old and much longer content than the new one\n").unwrap();
        write(&path, "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        // A write dropped before its commit leaves the old file as it was, and no litter.
        {
            let mut f = AtomicFile::create(&path).unwrap();
            f.write_all(b"half").unwrap();
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(names(&dir), ["results.json"]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn writes_beside_each_other_get_their_own_temporary_files() {
        let dir = folder("beside");
        let path = dir.join("cache.bin");
        let mut a = AtomicFile::create(&path).unwrap();
        let mut b = AtomicFile::create(&path).unwrap();
        a.write_all(b"first").unwrap();
        b.write_all(b"second").unwrap();
        a.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        b.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(names(&dir), ["cache.bin"]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_missing_folder_is_a_typed_error_naming_the_file() {
        let dir = folder("missing");
        let path = dir.join("no/such/folder/x.json");
        let e = write(&path, "x").unwrap_err();
        assert_eq!(e.step, Step::Create);
        assert!(e.to_string().contains("x.json"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
