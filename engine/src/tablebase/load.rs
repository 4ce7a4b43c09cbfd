//! Finding the table files of a `SyzygyPath`: folder by folder, file by file, so that one bad
//! folder or file is reported and skipped while the rest still load.
//!
//! shakmaty-syzygy's own `add_directory` stops at the first file of a wrong size and opens
//! nothing before the first probe, so a file with a wrong header would only fail (silently,
//! again at every probe) during a search. Here each file is checked up front, cheaply: a
//! standard chess table name, a size that a table can have, and the magic bytes of the first
//! four bytes. What cannot be seen without decoding (a corrupt body) is caught at probe time
//! (`Tablebases::probe_*`).

use super::memfs::MemoryFilesystem;
use shakmaty::Chess;
use shakmaty_syzygy::filesystem::Filesystem;
use shakmaty_syzygy::{Syzygy, Tablebase};
use std::collections::BTreeSet;
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Most pieces a Syzygy table for standard chess holds.
pub const MAX_TABLE_PIECES: u32 = 7;

/// The separator between folders in `SyzygyPath` (Stockfish's: `;` on Windows, `:` elsewhere).
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// WDL or DTZ: the two kinds of table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TableKind {
    /// Win/draw/loss (`.rtbw`), probed during the search.
    Wdl,
    /// Distance to zeroing (`.rtbz`), probed at the root.
    Dtz,
}

impl TableKind {
    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            TableKind::Wdl => "rtbw",
            TableKind::Dtz => "rtbz",
        }
    }

    fn magic(self) -> [u8; 4] {
        match self {
            TableKind::Wdl => Chess::TBW.magic,
            TableKind::Dtz => Chess::TBZ.magic,
        }
    }
}

/// Why a folder or a file of `SyzygyPath` was skipped. Each names the folder or file.
#[derive(Debug)]
pub enum TableProblem {
    /// The folder does not exist.
    NoFolder(PathBuf),
    /// The path exists but is no folder.
    NotAFolder(PathBuf),
    /// The folder could not be listed.
    Unreadable {
        /// The folder.
        folder: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
    /// The folder holds no table file.
    NoTables(PathBuf),
    /// A `.rtbw`/`.rtbz` name that no standard chess table has (each side needs exactly one
    /// king, at most seven pieces in all): a table of another variant or another file.
    NotAChessTable(PathBuf),
    /// A file whose size no table can have (truncated or not a table).
    BadSize {
        /// The file.
        file: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// A file whose first four bytes are not those of a standard chess table of its kind.
    BadMagic {
        /// The file.
        file: PathBuf,
        /// The bytes found.
        found: [u8; 4],
        /// What they are, when they are another known table type.
        variant: Option<&'static str>,
    },
    /// A file that could not be opened or read.
    Unopenable {
        /// The file.
        file: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
}

impl fmt::Display for TableProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableProblem::NoFolder(p) => write!(f, "folder '{}' does not exist", p.display()),
            TableProblem::NotAFolder(p) => write!(f, "'{}' is not a folder", p.display()),
            TableProblem::Unreadable { folder, error } => {
                write!(f, "cannot list folder '{}': {error}", folder.display())
            }
            TableProblem::NoTables(p) => {
                write!(f, "no .rtbw or .rtbz table in folder '{}'", p.display())
            }
            TableProblem::NotAChessTable(p) => write!(
                f,
                "skipped '{}': not a standard chess table name (one king a side, at most 7 pieces)",
                p.display()
            ),
            TableProblem::BadSize { file, size } => write!(
                f,
                "skipped '{}': {size} bytes is no table size (truncated?)",
                file.display()
            ),
            TableProblem::BadMagic {
                file,
                found,
                variant,
            } => {
                write!(
                    f,
                    "skipped '{}': wrong magic bytes {:02x}{:02x}{:02x}{:02x}",
                    file.display(),
                    found[0],
                    found[1],
                    found[2],
                    found[3]
                )?;
                match variant {
                    Some(v) => write!(f, " (a table for {v}, not standard chess)"),
                    None => write!(f, " (not a standard chess Syzygy table)"),
                }
            }
            TableProblem::Unopenable { file, error } => {
                write!(f, "skipped '{}': {error}", file.display())
            }
        }
    }
}

impl std::error::Error for TableProblem {}

/// The tables found in a `SyzygyPath`, and what was skipped.
pub struct Loaded {
    /// The prober with every accepted file added.
    pub tables: Tablebase<Chess>,
    /// Accepted files: material name (`KQvKR`) and kind, with the file (the last folder wins
    /// when two folders have the same table).
    pub files: Vec<(String, TableKind, PathBuf)>,
    /// Most pieces in an accepted table (0 when none).
    pub max_pieces: u32,
    /// Folders and files skipped, in the order met.
    pub problems: Vec<TableProblem>,
}

impl Loaded {
    /// Distinct materials with a table of `kind`.
    pub fn count(&self, kind: TableKind) -> usize {
        self.files
            .iter()
            .filter(|(_, k, _)| *k == kind)
            .map(|(m, _, _)| m)
            .collect::<BTreeSet<_>>()
            .len()
    }
}

/// Load every table of the folders in `spec` (separated by [`PATH_SEPARATOR`]; empty parts are
/// ignored), to be read through `fs` (`None`: [`MemoryFilesystem`]).
pub fn load(spec: &str, fs: Option<Arc<dyn Filesystem>>) -> Loaded {
    let fs = fs.unwrap_or_else(|| Arc::new(MemoryFilesystem::default()));
    let mut loaded = Loaded {
        tables: Tablebase::with_filesystem(fs),
        files: Vec::new(),
        max_pieces: 0,
        problems: Vec::new(),
    };
    for part in spec.split(PATH_SEPARATOR) {
        let part = part.trim();
        if !part.is_empty() {
            load_folder(Path::new(part), &mut loaded);
        }
    }
    loaded
}

fn load_folder(folder: &Path, loaded: &mut Loaded) {
    if !folder.exists() {
        loaded
            .problems
            .push(TableProblem::NoFolder(folder.to_path_buf()));
        return;
    }
    if !folder.is_dir() {
        loaded
            .problems
            .push(TableProblem::NotAFolder(folder.to_path_buf()));
        return;
    }
    let mut entries: Vec<PathBuf> = match std::fs::read_dir(folder) {
        Ok(dir) => dir.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(error) => {
            loaded.problems.push(TableProblem::Unreadable {
                folder: folder.to_path_buf(),
                error,
            });
            return;
        }
    };
    // The order of a listing is the filesystem's; sorted, the messages are reproducible.
    entries.sort();
    let mut seen = 0;
    for path in entries {
        let Some(kind) = table_kind(&path) else {
            continue;
        };
        seen += 1;
        match check_file(&path, kind) {
            Ok((material, pieces)) => match loaded.tables.add_file(&path) {
                Ok(()) => {
                    loaded.max_pieces = loaded.max_pieces.max(pieces);
                    loaded
                        .files
                        .retain(|(m, k, _)| !(*m == material && *k == kind));
                    loaded.files.push((material, kind, path));
                }
                Err(error) => loaded
                    .problems
                    .push(TableProblem::Unopenable { file: path, error }),
            },
            Err(problem) => loaded.problems.push(problem),
        }
    }
    if seen == 0 {
        loaded
            .problems
            .push(TableProblem::NoTables(folder.to_path_buf()));
    }
}

/// The kind of table a file's extension says it is, if any.
fn table_kind(path: &Path) -> Option<TableKind> {
    match path.extension()?.to_str()? {
        "rtbw" => Some(TableKind::Wdl),
        "rtbz" => Some(TableKind::Dtz),
        _ => None,
    }
}

/// Checks the name, size and magic bytes of a table file; its material name and piece count
/// when it looks like a standard chess table.
fn check_file(path: &Path, kind: TableKind) -> Result<(String, u32), TableProblem> {
    let material = path
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| material_pieces(s).is_some())
        .ok_or_else(|| TableProblem::NotAChessTable(path.to_path_buf()))?;
    let pieces = material_pieces(material).unwrap_or(0);
    let unopenable = |error| TableProblem::Unopenable {
        file: path.to_path_buf(),
        error,
    };
    let mut file = File::open(path).map_err(unopenable)?;
    let size = file.metadata().map_err(unopenable)?.len();
    // Every Syzygy file is 16 bytes of header and tables padded to 64-byte blocks (the same
    // test shakmaty-syzygy makes when a file is added).
    if size % 64 != 16 {
        return Err(TableProblem::BadSize {
            file: path.to_path_buf(),
            size,
        });
    }
    let mut found = [0u8; 4];
    file.read_exact(&mut found).map_err(unopenable)?;
    if found != kind.magic() {
        return Err(TableProblem::BadMagic {
            file: path.to_path_buf(),
            found,
            variant: variant_of(found),
        });
    }
    Ok((material.to_string(), pieces))
}

/// The variant whose table starts with `magic`, for the other variants shakmaty-syzygy knows
/// (their constants are only compiled with its `variant` feature, so they are written out).
fn variant_of(magic: [u8; 4]) -> Option<&'static str> {
    match magic {
        [0x55, 0x8d, 0xa4, 0x49] | [0x91, 0xa9, 0x5e, 0xeb] => Some("atomic chess"),
        [0xbc, 0x55, 0xbc, 0x21]
        | [0xd6, 0xf5, 0x1b, 0x50]
        | [0x7b, 0xf6, 0x93, 0x15]
        | [0xe4, 0xcf, 0xe7, 0x23] => Some("antichess"),
        m if m == Chess::TBW.magic => Some("standard chess WDL (named as DTZ)"),
        m if m == Chess::TBZ.magic => Some("standard chess DTZ (named as WDL)"),
        _ => None,
    }
}

/// The number of pieces of a standard chess table name such as `KRPvKB`: a king and up to six
/// other pieces a side, `v` between them, seven pieces at most. `None` for any other name.
pub fn material_pieces(name: &str) -> Option<u32> {
    let (white, black) = name.split_once('v')?;
    let side = |s: &str| -> Option<u32> {
        let rest = s.strip_prefix('K')?;
        rest.chars()
            .all(|c| matches!(c, 'Q' | 'R' | 'B' | 'N' | 'P'))
            .then_some(1 + rest.len() as u32)
    };
    let pieces = side(white)? + side(black)?;
    (pieces <= MAX_TABLE_PIECES).then_some(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_standard_chess_only() {
        assert_eq!(material_pieces("KQvK"), Some(3));
        assert_eq!(material_pieces("KRPvKB"), Some(5));
        assert_eq!(material_pieces("KQQQvKRR"), Some(7));
        // Antichess and atomic names: no king, two kings, too many pieces, no `v`.
        for bad in [
            "QvR",
            "KKvK",
            "KvKK",
            "RvK",
            "KQQQQvKRR",
            "KQK",
            "kqvk",
            "KQvKX",
            "",
        ] {
            assert_eq!(material_pieces(bad), None, "{bad}");
        }
    }
}
