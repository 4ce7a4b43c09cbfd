//! A file a run only appends to (a match's PGN and journal) that stays where its path says.
//!
//! A run holds its PGN and journal open for hours. If the path is unlinked meanwhile (a `git
//! checkout` of a branch without the file, a `rm`, a sync tool), or replaced by another file (a
//! checkout of a branch with an older copy), every later game would go to a file no name reaches
//! and vanish when the run ends. So before each append the handle is compared with the path
//! (device and inode); where they no longer match, the run's whole file, still readable through
//! the handle, is put back: at its own path when the path is empty or holds a prefix of it (an
//! older copy of the same file, so nothing is lost by replacing it), beside it under a new name
//! when the path holds something else (which is left as it is). The caller is told, once, where
//! the file is now.

use super::atomic;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A file opened for appending (and reading, so that it can be put back).
#[derive(Debug)]
pub struct AppendFile {
    path: PathBuf,
    file: File,
}

/// What [`AppendFile::append`] found and did when the path no longer named its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Restored {
    /// The path was gone; the whole file was written back there.
    Recreated(PathBuf),
    /// The path held an older copy (a prefix of the file); the whole file replaced it.
    Replaced(PathBuf),
    /// The path held another file, left alone; the file now lives at `to`.
    Moved {
        /// The path the run was given.
        from: PathBuf,
        /// Where the run's file is now, and where it goes on.
        to: PathBuf,
    },
}

impl fmt::Display for Restored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Restored::Recreated(p) => write!(
                f,
                "{} was removed while this run wrote to it: written back whole, nothing lost",
                p.display()
            ),
            Restored::Replaced(p) => write!(
                f,
                "{} was replaced by an older copy of itself while this run wrote to it: written \
                 back whole, nothing lost",
                p.display()
            ),
            Restored::Moved { from, to } => write!(
                f,
                "{} was replaced by another file while this run wrote to it; that file is left \
                 as it is, and this run's file, whole, goes on at {}",
                from.display(),
                to.display()
            ),
        }
    }
}

impl AppendFile {
    /// Opens `path` for appending, creating it if absent; never truncates.
    pub fn open(path: &Path) -> io::Result<AppendFile> {
        Ok(AppendFile {
            path: path.to_owned(),
            file: open(path)?,
        })
    }

    /// Where the file is now.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The open file (for its length, or to cut it back before the first append).
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Appends `bytes` and flushes, first putting the file back at its path if the path no
    /// longer names it; says what was put back where, if anything was.
    pub fn append(&mut self, bytes: &[u8]) -> io::Result<Option<Restored>> {
        let restored = self.keep_in_place()?;
        self.file.write_all(bytes)?;
        self.file.flush()?;
        Ok(restored)
    }

    /// Puts the file back where a name reaches it, if its path no longer does.
    fn keep_in_place(&mut self) -> io::Result<Option<Restored>> {
        if same_file(&self.file, &self.path) {
            return Ok(None);
        }
        let mut ours = Vec::new();
        self.file.seek(SeekFrom::Start(0))?;
        self.file.read_to_end(&mut ours)?;
        let there = match std::fs::read(&self.path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let (target, restored) = match there {
            None => (self.path.clone(), Restored::Recreated(self.path.clone())),
            Some(older) if ours.starts_with(&older) => {
                (self.path.clone(), Restored::Replaced(self.path.clone()))
            }
            Some(_) => {
                let to = free_sibling(&self.path);
                let moved = Restored::Moved {
                    from: self.path.clone(),
                    to: to.clone(),
                };
                (to, moved)
            }
        };
        atomic::write(&target, &ours).map_err(io::Error::other)?;
        self.file = open(&target)?;
        self.path = target;
        Ok(Some(restored))
    }
}

fn open(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
}

/// `stem.restored.ext`, or `stem.restored-2.ext`, ...: the first name not taken.
fn free_sibling(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(String::new, |e| format!(".{}", e.to_string_lossy()));
    let restored = path.with_file_name(format!("{stem}.restored{ext}"));
    super::output::first_free(&restored, Path::exists)
}

/// Whether `path` names the open `file` (same device and inode).
#[cfg(unix)]
pub fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether `path` names the open `file`: without inodes, whether the path exists at all.
#[cfg(not(unix))]
pub fn same_file(_: &File, path: &Path) -> bool {
    path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sable-append-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_removed_file_is_written_back_whole_and_appending_goes_on_there() {
        let dir = temp_dir("removed");
        let path = dir.join("games.pgn");
        let mut f = AppendFile::open(&path).unwrap();
        assert_eq!(f.append(b"game 1\n").unwrap(), None);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            f.append(b"game 2\n").unwrap(),
            Some(Restored::Recreated(path.clone()))
        );
        assert_eq!(f.append(b"game 3\n").unwrap(), None, "told once");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "game 1\ngame 2\ngame 3\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_older_copy_put_in_its_place_is_replaced_by_the_whole_file() {
        let dir = temp_dir("older");
        let path = dir.join("r.json.games.jsonl");
        let mut f = AppendFile::open(&path).unwrap();
        f.append(b"{\"id\":0}\n").unwrap();
        f.append(b"{\"id\":1}\n").unwrap();
        // What `git checkout` of a commit with the first game does: a new file, same bytes.
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "{\"id\":0}\n").unwrap();
        assert_eq!(
            f.append(b"{\"id\":2}\n").unwrap(),
            Some(Restored::Replaced(path.clone()))
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"id\":0}\n{\"id\":1}\n{\"id\":2}\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn another_file_in_its_place_is_left_alone_and_the_run_goes_on_beside_it() {
        let dir = temp_dir("other");
        let path = dir.join("games.pgn");
        std::fs::write(dir.join("games.restored.pgn"), "taken").unwrap();
        let mut f = AppendFile::open(&path).unwrap();
        f.append(b"mine 1\n").unwrap();
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "someone else's\n").unwrap();
        let to = dir.join("games.restored-2.pgn");
        assert_eq!(
            f.append(b"mine 2\n").unwrap(),
            Some(Restored::Moved {
                from: path.clone(),
                to: to.clone()
            })
        );
        f.append(b"mine 3\n").unwrap();
        assert_eq!(f.path(), to);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "someone else's\n");
        assert_eq!(
            std::fs::read_to_string(&to).unwrap(),
            "mine 1\nmine 2\nmine 3\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn opening_never_truncates() {
        let dir = temp_dir("open");
        let path = dir.join("games.pgn");
        std::fs::write(&path, "earlier\n").unwrap();
        let mut f = AppendFile::open(&path).unwrap();
        f.append(b"later\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "earlier\nlater\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
