//! The loaded tables: [`Tablebases::open`] reads one or more `:`-separated folders, counts what
//! it found and refuses what it cannot use; [`Tablebases::probe`] answers a position with its
//! WDL and DTZ, or says why it cannot ([`NoAnswer`]), never panicking.

use super::error::{NoAnswer, TbError};
use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{AmbiguousWdl, Dtz, Material, MaybeRounded, SyzygyError, Tablebase, Wdl};
use std::collections::BTreeSet;
use std::io::ErrorKind;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Syzygy tables for chess from one or more folders.
pub struct Tablebases {
    inner: Tablebase<Chess>,
    folders: Vec<PathBuf>,
    wdl: BTreeSet<String>,
    dtz: BTreeSet<String>,
    refused: Vec<(PathBuf, String)>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebases({})", self.describe())
    }
}

/// The WDL and DTZ of a position, from the side to move's view.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The material, White's pieces first: `KQvKR`, or `KRvKQ` when Black has the queen.
    pub material: String,
    /// The table's value: the result under the 50-move rule counted from a zeroing move (a
    /// capture or pawn move), i.e. ignoring the position's own halfmove clock.
    pub wdl: Wdl,
    /// Distance to zeroing in plies (negative when losing); `Rounded` values may be one ply
    /// short ([`MaybeRounded`]). Needs the DTZ table, hence a result of its own.
    pub dtz: Result<MaybeRounded<Dtz>, NoAnswer>,
    /// The position's halfmove clock.
    pub halfmoves: u32,
}

impl Probe {
    /// The value counting the position's halfmove clock: a win whose zeroing move comes after
    /// the 100th halfmove is a cursed win (a draw under the 50-move rule). Ambiguous (`MaybeWin`,
    /// `MaybeLoss`) only when a rounded DTZ lands exactly on the limit. `None` when the clock is
    /// not zero and the DTZ is unknown.
    pub fn wdl_with_clock(&self) -> Option<AmbiguousWdl> {
        if self.halfmoves == 0 {
            return Some(AmbiguousWdl::from(self.wdl));
        }
        let dtz = self.dtz.as_ref().ok()?;
        Some(AmbiguousWdl::from_dtz_and_halfmoves(*dtz, self.halfmoves))
    }
}

/// One legal move and what the tables say of it.
#[derive(Debug, Clone)]
pub struct MoveProbe {
    /// The move.
    pub mv: Move,
    /// The move's value for the side playing it, counting the halfmove clock after it (`None`
    /// when that needs a DTZ the tables could not give).
    pub wdl: Option<AmbiguousWdl>,
    /// The probe of the position after the move (the opponent's view).
    pub after: Probe,
}

/// Runs a probe; a panic inside the prober (a table broken in a way it does not expect)
/// becomes a [`NoAnswer`] too, so one bad file never stops a match.
fn guarded<T>(probe: impl FnOnce() -> Result<T, SyzygyError>) -> Result<T, NoAnswer> {
    match catch_unwind(AssertUnwindSafe(probe)) {
        Ok(answer) => answer.map_err(NoAnswer::from),
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_owned());
            Err(NoAnswer::ProberFailed(why))
        }
    }
}

/// Table extensions of the other Syzygy variants, refused by name (atomic, antichess).
const OTHER_VARIANTS: [(&str, &str); 6] = [
    ("atbw", "atomic"),
    ("atbz", "atomic"),
    ("gtbw", "antichess"),
    ("gtbz", "antichess"),
    ("stbw", "antichess"),
    ("stbz", "antichess"),
];

/// Folders, once loaded with [`Tablebases::open_shared`], for the life of the process.
static SHARED: Mutex<Vec<(String, &'static Tablebases)>> = Mutex::new(Vec::new());

impl Tablebases {
    /// Loads the tables of every folder in `folders` (`:`-separated). A folder that is missing,
    /// not a folder, unreadable or without any chess table is an error naming it. Files named
    /// like chess tables whose size cannot be a table's (truncated) are refused and listed in
    /// [`Tablebases::refused`]; the files themselves are opened only when first probed.
    pub fn open(folders: &str) -> Result<Tablebases, TbError> {
        let mut tb = Tablebases {
            inner: Tablebase::new(),
            folders: Vec::new(),
            wdl: BTreeSet::new(),
            dtz: BTreeSet::new(),
            refused: Vec::new(),
        };
        for folder in folders.split(':').filter(|f| !f.is_empty()) {
            tb.add_folder(Path::new(folder))?;
        }
        if tb.folders.is_empty() {
            return Err(TbError::NoFolder);
        }
        Ok(tb)
    }

    /// The tables of `folders`, loaded once per process and shared by every game and thread
    /// from then on (a `&'static` keeps the match's adjudication settings a plain `Copy` value;
    /// the prober keeps its files open for as long anyway).
    pub fn open_shared(folders: &str) -> Result<&'static Tablebases, TbError> {
        let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, tb)) = shared.iter().find(|(f, _)| f == folders) {
            return Ok(tb);
        }
        let tb: &'static Tablebases = Box::leak(Box::new(Tablebases::open(folders)?));
        shared.push((folders.to_owned(), tb));
        Ok(tb)
    }

    fn add_folder(&mut self, folder: &Path) -> Result<(), TbError> {
        let meta = std::fs::metadata(folder).map_err(|cause| TbError::Missing {
            folder: folder.to_owned(),
            cause,
        })?;
        if !meta.is_dir() {
            return Err(TbError::NotAFolder {
                folder: folder.to_owned(),
            });
        }
        let unreadable = |cause| TbError::Unreadable {
            folder: folder.to_owned(),
            cause,
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(folder).map_err(unreadable)? {
            files.push(entry.map_err(unreadable)?.path());
        }
        files.sort();
        let (mut added, mut refused) = (0, Vec::new());
        for file in files {
            let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
            if let Some((_, variant)) = OTHER_VARIANTS.iter().find(|(e, _)| *e == ext) {
                refused.push((file, format!("a table for {variant}, not chess")));
                continue;
            }
            if ext != "rtbw" && ext != "rtbz" {
                continue; // checksums, READMEs: not tables
            }
            match self.inner.add_file(&file) {
                Ok(()) => {
                    added += 1;
                    let set = if ext == "rtbw" {
                        &mut self.wdl
                    } else {
                        &mut self.dtz
                    };
                    set.insert(name.unwrap_or_default());
                }
                Err(e) if e.kind() == ErrorKind::InvalidInput => {
                    refused.push((file, "not a chess table name (like KQvKR.rtbw)".to_owned()))
                }
                Err(e) if e.kind() == ErrorKind::InvalidData => refused.push((
                    file,
                    "its size cannot be a table's (truncated or not a table)".to_owned(),
                )),
                Err(e) => refused.push((file, e.to_string())),
            }
        }
        if added == 0 {
            return Err(TbError::NoTables {
                folder: folder.to_owned(),
                refused,
            });
        }
        self.refused.extend(refused);
        self.folders.push(folder.to_owned());
        Ok(())
    }

    /// The folders the tables were read from, in the order given (a run's record stores them
    /// to load the same tables when it resumes).
    pub fn folders(&self) -> &[PathBuf] {
        &self.folders
    }

    /// The most pieces (kings included) of any table loaded.
    pub fn max_pieces(&self) -> usize {
        self.inner.max_pieces()
    }

    /// WDL tables loaded (distinct file names).
    pub fn wdl_tables(&self) -> usize {
        self.wdl.len()
    }

    /// DTZ tables loaded (distinct file names).
    pub fn dtz_tables(&self) -> usize {
        self.dtz.len()
    }

    /// Files that look like tables but were refused, with the reason (to warn about).
    pub fn refused(&self) -> &[(PathBuf, String)] {
        &self.refused
    }

    /// `35 WDL and 35 DTZ tables, up to 4 pieces, from DIR`.
    pub fn describe(&self) -> String {
        let folders: Vec<String> = self
            .folders
            .iter()
            .map(|f| f.display().to_string())
            .collect();
        format!(
            "{} WDL and {} DTZ tables, up to {} pieces, from {}",
            self.wdl_tables(),
            self.dtz_tables(),
            self.max_pieces(),
            folders.join(":")
        )
    }

    /// Why `pos` cannot be probed at all (castling rights, too many pieces), if so.
    pub fn unprobeable(&self, pos: &Chess, max_pieces: usize) -> Option<NoAnswer> {
        if pos.castles().any() {
            return Some(NoAnswer::Castling);
        }
        let pieces = pos.board().occupied().count();
        let max = max_pieces.min(self.max_pieces());
        (pieces > max).then_some(NoAnswer::TooManyPieces { pieces, max })
    }

    /// The WDL and DTZ of `pos`. The WDL is required; a DTZ that cannot be had is recorded in
    /// [`Probe::dtz`].
    pub fn probe(&self, pos: &Chess) -> Result<Probe, NoAnswer> {
        if let Some(no) = self.unprobeable(pos, usize::MAX) {
            return Err(no);
        }
        let wdl = guarded(|| self.inner.probe_wdl_after_zeroing(pos))?;
        let dtz = guarded(|| self.inner.probe_dtz(pos));
        Ok(Probe {
            material: Material::from_board(pos.board()).to_string(),
            wdl,
            dtz,
            halfmoves: pos.halfmoves(),
        })
    }

    /// Every legal move with its value, best first (by value, then the quickest win or the
    /// slowest loss).
    pub fn probe_moves(&self, pos: &Chess) -> Result<Vec<MoveProbe>, NoAnswer> {
        if let Some(no) = self.unprobeable(pos, usize::MAX) {
            return Err(no);
        }
        let mut moves = Vec::new();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let probe = self.probe(&after)?;
            moves.push(MoveProbe {
                mv,
                wdl: probe.wdl_with_clock().map(|w| -w),
                after: probe,
            });
        }
        moves.sort_by_key(|m| {
            let dtz = m.after.dtz.as_ref().map_or(0, |d| d.ignore_rounding().0);
            // The opponent's DTZ after a winning move is negative: nearer zero is quicker.
            (std::cmp::Reverse(m.wdl), std::cmp::Reverse(dtz))
        });
        Ok(moves)
    }

    /// The tables' recommended move (the best WDL, then the best DTZ) and its DTZ, as
    /// shakmaty-syzygy chooses it; `None` when there is no legal move.
    pub fn best_move(&self, pos: &Chess) -> Result<Option<(Move, MaybeRounded<Dtz>)>, NoAnswer> {
        if let Some(no) = self.unprobeable(pos, usize::MAX) {
            return Err(no);
        }
        guarded(|| self.inner.best_move(pos))
    }
}
