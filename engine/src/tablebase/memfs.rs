//! How shakmaty-syzygy reads the table files: small files whole into memory the first time a
//! probe needs them, larger ones (and any past a memory budget) with `pread` as its default.
//!
//! Why: its default reads every probe's few bytes with a system call or more, about 4 µs a WDL
//! probe on the 3- and 4-piece tables; from memory it is well under half that (docs/syzygy.md
//! has the numbers). Its memory-mapped alternative is as fast but `unsafe`: a table file that
//! shrinks while mapped kills the process with SIGBUS. Reading into memory is safe, and a file
//! that is truncated or corrupt on disk only fails its probes. The budget keeps a 6- or
//! 7-piece set (many gigabytes) from being read into memory: past it, files stay on disk.

use shakmaty_syzygy::filesystem::{Filesystem, OsFilesystem, RandomAccessFile, ReadHint};
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Largest file read into memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;
/// Most bytes of table files held in memory in all.
pub const BUDGET_BYTES: u64 = 256 << 20;

/// The filesystem of a [`super::Tablebases`]: see the module comment.
#[derive(Default)]
pub struct MemoryFilesystem {
    os: OsFilesystem,
    /// The files read so far, by path: a table that fails to open is opened again at every
    /// probe that needs it, and must not be read from disk again each time.
    files: Mutex<Loaded>,
}

#[derive(Default)]
struct Loaded {
    by_path: HashMap<PathBuf, Arc<[u8]>>,
    bytes: u64,
}

impl Filesystem for MemoryFilesystem {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        self.os.regular_file_size(path)
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        self.os.read_dir(path)
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        let mut files = self.files.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(bytes) = files.by_path.get(path) {
            return Ok(Box::new(InMemory(Arc::clone(bytes))));
        }
        let size = self.os.regular_file_size(path)?;
        if size > MAX_FILE_BYTES || files.bytes + size > BUDGET_BYTES {
            return self.os.open(path);
        }
        let bytes: Arc<[u8]> = std::fs::read(path)?.into();
        files.bytes += bytes.len() as u64;
        files.by_path.insert(path.to_path_buf(), Arc::clone(&bytes));
        Ok(Box::new(InMemory(bytes)))
    }
}

/// A table file held in memory.
struct InMemory(Arc<[u8]>);

impl RandomAccessFile for InMemory {
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        // Past the end reads nothing, as a file would (the caller then reports a truncated
        // table).
        let data = &self.0[..];
        let start = usize::try_from(offset).map_or(data.len(), |o| o.min(data.len()));
        let n = buf.len().min(data.len() - start);
        buf[..n].copy_from_slice(&data[start..start + n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_a_file_and_reads_each_file_once() {
        let dir = std::env::temp_dir().join(format!("sable-memfs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("KQvK.rtbw");
        std::fs::write(&path, (0..=99u8).collect::<Vec<_>>()).unwrap();
        let fs = MemoryFilesystem::default();
        let file = fs.open(&path).unwrap();
        let mut buf = [0u8; 8];
        assert_eq!(file.read_at(&mut buf, 10, ReadHint::Data).unwrap(), 8);
        assert_eq!(buf, [10, 11, 12, 13, 14, 15, 16, 17]);
        // The end: a short read, then nothing; far past the end too.
        assert_eq!(file.read_at(&mut buf, 96, ReadHint::Data).unwrap(), 4);
        assert_eq!(buf[..4], [96, 97, 98, 99]);
        assert_eq!(file.read_at(&mut buf, 100, ReadHint::Data).unwrap(), 0);
        assert_eq!(file.read_at(&mut buf, u64::MAX, ReadHint::Data).unwrap(), 0);
        assert!(file.read_exact_at(&mut buf, 95, ReadHint::Data).is_err());
        // Opened again after the file changed on disk: the bytes read the first time.
        std::fs::write(&path, [7u8; 100]).unwrap();
        let again = fs.open(&path).unwrap();
        assert_eq!(again.read_u8_at(10, ReadHint::Data).unwrap(), 10);
        assert_eq!(fs.files.lock().unwrap().bytes, 100);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
