//! The binary dataset cache: a tuning set traced once, stored as the tuner's own records, and
//! memory-mapped by later runs, so that a set larger than memory streams through the page cache.
//!
//! ```text
//! 0..8    magic "SABLETUN"
//! 8..16   format version (u64 little endian, as every field)
//! 16..24  length of the identity text
//! 24..32  length of the dictionary of macros
//! 32..64  training positions, training bytes, validation positions, validation bytes
//! 64..72  checksum: FNV-1a over everything after the header
//! 72..    identity text, the dictionary ([`super::dict`]), the training records, the
//!         validation records, the training records' lengths, the validation records' lengths
//!         (one byte a position)
//! ```
//!
//! The identity text names what the records were made from, one `key=value` line each: every
//! source file's size, modification time and FNV-1a hash, the weight layout (the number of
//! weights, a hash of their names, a hash of the engine's trace of a few fixed positions) and
//! the options that shape the records. A file whose identity differs, that is shorter or
//! longer than its header says, whose checksum fails or whose records do not decode is refused
//! with the reason; the caller then rebuilds it. A cache is written beside its final name and
//! renamed into place, so an interrupted build never leaves a half file under that name.

use super::dict::Dict;
pub use super::error::CacheError;
use super::store::{Bytes, Store};
use super::tune_error::TuneError;
use crate::plumbing::atomic::{AtomicFile, Step};
use crate::plumbing::hash::{fnv_extend, FNV_START};
use crate::plumbing::progress::{Reporter, Unit};
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Arc;

/// The first eight bytes of every cache file.
pub const MAGIC: &[u8; 8] = b"SABLETUN";
/// The record layout's version; a file of another version is refused (and rebuilt). Version 2:
/// long gaps of the general group bridged by zero terms (version 1 had escape bytes). Version 3:
/// ±2 terms in the chain with ±1, a 3-byte header with the scale byte only when not 128.
/// Version 4: records hold the slots of a dictionary stored in the file, in a chain and far
/// terms; their lengths are a section of their own. Version 5: every record holds a fixed
/// end-game part (the complexity term's adjustment at the compiled-in weights).
pub const VERSION: u64 = 5;
/// Bytes before the identity text.
const HEADER: usize = 72;

/// Writes a cache file section by section (training records, then validation records).
pub struct Writer {
    out: BufWriter<AtomicFile>,
    sum: u64,
    /// The dictionary of every appended store, once written.
    dict: Option<(Arc<Dict>, u64)>,
    /// (positions, bytes) of each finished section, then of the open one.
    sections: Vec<(u64, u64)>,
    /// The records' lengths, written after the records (one byte a position).
    lens: Vec<u8>,
}

impl Writer {
    /// Starts `path` (written beside it until [`Writer::finish`], [`crate::plumbing::atomic`])
    /// for the given identity.
    pub fn create(path: &Path, identity: &str) -> Result<Writer, TuneError> {
        let file = AtomicFile::create(path)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        for bytes in [&[0u8; HEADER][..], identity.as_bytes()] {
            out.write_all(bytes)
                .map_err(|e| TuneError::Atomic(out.get_ref().error(Step::Write, e)))?;
        }
        Ok(Writer {
            out,
            sum: fnv_extend(FNV_START, identity.as_bytes()),
            dict: None,
            sections: vec![(0, 0)],
            lens: Vec::new(),
        })
    }

    /// Appends the records of `s` to the open section; every store appended must have the
    /// dictionary of the first, which is written before its records.
    pub fn append(&mut self, s: &Store) -> Result<(), TuneError> {
        match &self.dict {
            None => {
                let b = s.dict().to_bytes();
                self.out.write_all(&b).map_err(|e| self.write_error(e))?;
                self.sum = fnv_extend(self.sum, &b);
                self.dict = Some((Arc::clone(s.dict()), b.len() as u64));
            }
            Some((d, _)) if !Arc::ptr_eq(d, s.dict()) => return Err(TuneError::CacheDicts),
            Some(_) => {}
        }
        let d = s.data();
        self.out.write_all(d).map_err(|e| self.write_error(e))?;
        self.sum = fnv_extend(self.sum, d);
        self.lens.extend_from_slice(s.lens());
        let last = self.sections.last_mut().expect("one open section");
        last.0 += s.len() as u64;
        last.1 += d.len() as u64;
        Ok(())
    }

    /// Closes the open section (the training records) and opens the next.
    pub fn next_section(&mut self) {
        self.sections.push((0, 0));
    }

    /// Writes the header and moves the file to its name.
    /// A failed write of the cache's bytes, naming the file.
    fn write_error(&self, e: std::io::Error) -> TuneError {
        TuneError::Atomic(self.out.get_ref().error(Step::Write, e))
    }

    pub fn finish(mut self) -> Result<(), TuneError> {
        if self.sections.len() != 2 {
            return Err(TuneError::CacheSections);
        }
        self.out
            .write_all(&self.lens)
            .map_err(|e| self.write_error(e))?;
        self.sum = fnv_extend(self.sum, &self.lens);
        let mut h = Vec::with_capacity(HEADER);
        h.extend_from_slice(MAGIC);
        let dict_len = self.dict.as_ref().map_or(0, |d| d.1);
        let ident_len = self
            .out
            .stream_position()
            .map_err(|e| self.write_error(e))?
            - HEADER as u64
            - dict_len
            - self.sections.iter().map(|s| s.0 + s.1).sum::<u64>();
        for v in [
            VERSION,
            ident_len,
            dict_len,
            self.sections[0].0,
            self.sections[0].1,
            self.sections[1].0,
            self.sections[1].1,
            self.sum,
        ] {
            h.extend_from_slice(&v.to_le_bytes());
        }
        self.out
            .seek(SeekFrom::Start(0))
            .map_err(|e| self.write_error(e))?;
        self.out.write_all(&h).map_err(|e| self.write_error(e))?;
        let file = self.out.into_inner().map_err(|e| {
            let (e, out) = e.into_parts();
            TuneError::Atomic(out.get_ref().error(Step::Write, e))
        })?;
        file.commit()?;
        Ok(())
    }
}

/// Opens the cache at `path` if it was made from exactly `identity` and is whole; returns the
/// training and validation stores over the mapped file, or why the file cannot be used.
///
/// # Safety
/// The stores read the file through a memory map, as shakmaty-syzygy reads its tables: the
/// caller must make sure that no one truncates the file while the stores live (the map would
/// fault) and that no one rewrites it in place (its bytes would change under safe slices).
/// Every record is checked here, and the kernel's reads and writes of the tables are checked
/// again where they happen (a slot past a table reads NaN and the block is refused), so a file
/// rewritten between the two gives an error, not a write outside the weight tables; but the
/// language's guarantees for the slices hold only under this contract.
/// The harness writes caches only under another name and renames them into place
/// ([`crate::plumbing::atomic`]), which leaves a mapped file untouched.
pub unsafe fn open(
    path: &Path,
    identity: &str,
    params: usize,
) -> Result<(Store, Store), CacheError> {
    let mut file = File::open(path).map_err(CacheError::Open)?;
    let size = file.metadata().map_err(CacheError::Read)?.len();
    let Header {
        ident_len,
        dict_len,
        n_train,
        train_bytes,
        valid_bytes,
        sum,
    } = Header::read(&mut file, size)?;
    // SAFETY: the caller's contract (this function's `# Safety`): the file is neither
    // truncated nor rewritten while mapped.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(CacheError::Map)?;
    let map = Arc::new(map);
    let id_end = HEADER + ident_len as usize;
    let theirs = String::from_utf8_lossy(&map[HEADER..id_end]);
    if let Some(why) = identity_difference(&theirs, identity) {
        return Err(CacheError::Stale(why));
    }
    check_sum(&map[HEADER..], sum)?;
    let d_end = id_end + dict_len as usize;
    let dict = if dict_len == 0 {
        Dict::none()
    } else {
        Dict::from_bytes(&map[id_end..d_end], params).map_err(CacheError::Dict)?
    };
    let dict = Arc::new(dict);
    let t_end = d_end + train_bytes as usize;
    let v_end = t_end + valid_bytes as usize;
    let l_end = v_end + n_train as usize;
    let section = |records: std::ops::Range<usize>, lens: std::ops::Range<usize>, what| {
        Store::from_bytes(
            Bytes::Mapped(Arc::clone(&map), records),
            Bytes::Mapped(Arc::clone(&map), lens),
            params,
            Arc::clone(&dict),
        )
        .map_err(|cause| CacheError::Records { what, cause })
    };
    let train = section(d_end..t_end, v_end..l_end, "training")?;
    let valid = section(t_end..v_end, l_end..size as usize, "validation")?;
    #[cfg(unix)]
    {
        // one pass after another from start to end: read ahead, drop behind
        let _ = map.advise(memmap2::Advice::Sequential);
    }
    Ok((train, valid))
}

/// The sizes and the checksum a cache's header gives, checked against the file's size.
struct Header {
    ident_len: u64,
    dict_len: u64,
    n_train: u64,
    train_bytes: u64,
    valid_bytes: u64,
    sum: u64,
}

impl Header {
    /// Reads the header of a file of `size` bytes, refusing another file, another version, or
    /// sizes that do not add up to the file's.
    fn read(file: &mut File, size: u64) -> Result<Header, CacheError> {
        let mut h = [0u8; HEADER];
        if size < HEADER as u64 {
            return Err(CacheError::Truncated { size });
        }
        file.read_exact(&mut h).map_err(CacheError::Read)?;
        if &h[..8] != MAGIC {
            return Err(CacheError::Magic);
        }
        let field = |i: usize| u64::from_le_bytes(h[8 * i..8 * i + 8].try_into().expect("8 bytes"));
        let (version, ident_len, dict_len) = (field(1), field(2), field(3));
        let (n_train, train_bytes, n_valid, valid_bytes, sum) =
            (field(4), field(5), field(6), field(7), field(8));
        if version != VERSION {
            return Err(CacheError::Version {
                found: version,
                reads: VERSION,
            });
        }
        let want = (HEADER as u64)
            .checked_add(ident_len)
            .and_then(|x| x.checked_add(dict_len))
            .and_then(|x| x.checked_add(train_bytes))
            .and_then(|x| x.checked_add(valid_bytes))
            .and_then(|x| x.checked_add(n_train))
            .and_then(|x| x.checked_add(n_valid));
        if want != Some(size) {
            return Err(CacheError::Size { size, want });
        }
        Ok(Header {
            ident_len,
            dict_len,
            n_train,
            train_bytes,
            valid_bytes,
            sum,
        })
    }
}

/// Refuses a body whose FNV-1a checksum is not the header's `sum` (with a bar: a large cache
/// takes seconds).
fn check_sum(body: &[u8], sum: u64) -> Result<(), CacheError> {
    let bar = Reporter::new(true, "checking cache", Unit::BYTES, body.len() as u64);
    let mut s = FNV_START;
    for chunk in body.chunks(1 << 24) {
        s = fnv_extend(s, chunk);
        bar.inc(chunk.len() as u64);
    }
    bar.clear();
    if s != sum {
        return Err(CacheError::Checksum {
            got: s,
            header: sum,
        });
    }
    Ok(())
}

/// The first line in which two identity texts differ, in words; None when they are equal.
fn identity_difference(theirs: &str, ours: &str) -> Option<String> {
    if theirs == ours {
        return None;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (theirs.lines().collect(), ours.lines().collect());
    for i in 0..a.len().max(b.len()) {
        match (a.get(i), b.get(i)) {
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                return Some(format!(
                    "made from `{}`, but this run has `{}`",
                    x.unwrap_or(&"(nothing)"),
                    y.unwrap_or(&"(nothing)")
                ))
            }
        }
    }
    Some("identity differs".into())
}

/// A source file's identity line: size, modification time (ns since the epoch) and FNV-1a hash
/// of its bytes (read in 1 MiB pieces, with a progress bar for large files).
pub fn source_identity(path: &Path) -> Result<String, TuneError> {
    let err = |source| TuneError::Source {
        path: path.to_owned(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(err)?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let mut f = File::open(path).map_err(err)?;
    let bar = Reporter::new(true, "hashing", Unit::BYTES, meta.len());
    bar.set_message(path.display().to_string());
    let mut buf = vec![0u8; 1 << 20];
    let mut h = FNV_START;
    loop {
        let n = f.read(&mut buf).map_err(err)?;
        if n == 0 {
            break;
        }
        h = fnv_extend(h, &buf[..n]);
        bar.inc(n as u64);
    }
    bar.clear();
    Ok(format!("size={} mtime={mtime} fnv={h:016x}", meta.len()))
}

/// The weight layout's identity line: how many weights, a hash of their names, and a hash of
/// the engine's trace of a few fixed positions (so a changed evaluation invalidates a cache
/// even when no weight was renamed).
pub fn layout_identity() -> String {
    let n = sable::eval::Params::len();
    let names: String = (0..n)
        .map(sable::eval::Params::name)
        .collect::<Vec<_>>()
        .join("\n");
    let mut probe = FNV_START;
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "6k1/5pp1/8/8/8/8/1Q6/6K1 b - - 0 1",
    ] {
        let b = sable::board::Board::from_fen(fen).expect("a valid probe FEN");
        probe = fnv_extend(
            probe,
            format!("{:?}", super::coefs::of_board(&b)).as_bytes(),
        );
    }
    format!(
        "weights={n} names={:016x} trace={probe:016x}",
        fnv_extend(FNV_START, names.as_bytes())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_differences_are_named() {
        assert_eq!(identity_difference("a=1\nb=2", "a=1\nb=2"), None);
        let d = identity_difference("a=1\nb=2", "a=1\nb=3").unwrap();
        assert!(d.contains("`b=2`") && d.contains("`b=3`"), "{d}");
        let d = identity_difference("a=1", "a=1\nc=4").unwrap();
        assert!(d.contains("(nothing)") && d.contains("c=4"), "{d}");
    }

    /// A cache of a synthetic store (training) and an empty validation section.
    fn written(name: &str) -> (std::path::PathBuf, Store) {
        let dir = std::env::temp_dir().join(format!("sable-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.cache");
        let s = super::super::kernel::tests::synthetic(300, 30);
        let mut w = Writer::create(&path, "test").unwrap();
        w.append(&s).unwrap();
        w.next_section();
        w.finish().unwrap();
        (path, s)
    }

    #[test]
    fn a_damaged_cache_is_refused_with_its_reason() {
        let (path, _) = written("damaged");
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x5A;
        std::fs::write(&path, &bytes).unwrap();
        // SAFETY: nothing else touches this test's file while the stores live.
        let e = unsafe { open(&path, "test", 30) }
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("checksum mismatch"), "{e}");
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn a_cache_rewritten_under_a_running_store_gives_an_error_not_a_panic() {
        use super::super::model::to_dense;
        let (path, _) = written("rewritten");
        // SAFETY: the test breaks the contract on purpose (it rewrites the file in place, the
        // same length), to see the kernel refuse the changed slots; the bytes are only read.
        let (train, _) = unsafe { open(&path, "test", 30) }.unwrap();
        let w = to_dense(&vec![[3.0, -1.0]; 30]).unwrap();
        let kernel = super::super::kernel::loss;
        assert!(kernel(&train, &w, 1.0, 0..train.len()).is_ok());
        // Where the records start in the file: after the header, identity and dictionary.
        let header = std::fs::read(&path).unwrap();
        let field =
            |i: usize| u64::from_le_bytes(header[8 + 8 * i..16 + 8 * i].try_into().unwrap());
        let start = HEADER + (field(1) + field(2)) as usize;
        let first = train.rec(0).bytes.as_ptr() as usize;
        // Every record becomes one chain of 255-slot gaps, far past the table (after the
        // three header bytes and a fixed end-game part of -1).
        let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        for p in 0..train.len() {
            let r = train.rec(p).bytes;
            let at = start + (r.as_ptr() as usize - first);
            let mut new = vec![0u8, (r.len() - 5) as u8, 0];
            new.resize(r.len(), 0xFF);
            file.seek(SeekFrom::Start(at as u64)).unwrap();
            file.write_all(&new).unwrap();
        }
        file.sync_all().unwrap();
        let e = kernel(&train, &w, 1.0, 0..train.len()).unwrap_err();
        assert!(e.to_string().contains("outside the weight tables"), "{e}");
        let mut grad = super::super::model::zero_dense();
        let g = super::super::kernel::loss_and_grad(&train, &w, 1.0, 0..train.len(), &mut grad[..]);
        assert!(g.is_err());
        assert!(super::super::kernel::evals(&train, &w, 0..train.len()).is_err());
        drop(train);
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn layout_identity_is_stable() {
        assert_eq!(layout_identity(), layout_identity());
        assert!(layout_identity().starts_with(&format!("weights={} ", sable::eval::Params::len())));
    }
}
