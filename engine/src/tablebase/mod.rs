//! Syzygy endgame tablebases: loading the tables of a `SyzygyPath`, probing them for the
//! engine's positions (WDL in the search, DTZ at the root) and ranking root moves by them.
//!
//! A leaf below the search: it knows the board and move generation, nothing of the search.
//! Probing goes through shakmaty-syzygy (docs/syzygy.md says why); the engine's board becomes
//! a shakmaty position from its bitboards at each probe ([`convert`]).
//!
//! Bad tables never stop the engine: a folder or file that cannot be used is reported when the
//! path is set and skipped; a table that fails while probing (corrupt, unreadable, missing a
//! table it needs) makes that probe give no result, is reported once through the problem sink
//! and the search goes on without it.

mod convert;
mod load;
mod memfs;
pub mod root;

pub use convert::to_chess;
pub use load::{material_pieces, TableKind, TableProblem, MAX_TABLE_PIECES, PATH_SEPARATOR};
pub use shakmaty_syzygy::Wdl;

use crate::board::Board;
use shakmaty::Chess;
use shakmaty_syzygy::filesystem::Filesystem;
use shakmaty_syzygy::{Metric, ProbeError, SyzygyError, Tablebase};
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Where problems met while probing are told (the UCI loop prints them as `info string`).
pub type ProblemSink = Box<dyn Fn(&str) + Send + Sync>;

/// A distance-to-zeroing value: plies to the next capture or pawn move (or mate) with best
/// play, positive when the side to move wins, negative when it loses, 0 for a draw. Cursed
/// wins and blessed losses lie beyond ±100.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dtz {
    /// The value, in plies.
    pub plies: i32,
    /// The table stores this value halved, so the true distance may be one ply more
    /// (shakmaty-syzygy's `MaybeRounded::Rounded`).
    pub rounded: bool,
}

/// The tables of a `SyzygyPath`, shared by all search threads.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: Vec<(String, TableKind, PathBuf)>,
    max_pieces: u32,
    wdl: usize,
    dtz: usize,
    /// Set when a probe panicked inside shakmaty-syzygy (a table so corrupt that it trips an
    /// assertion): no further probes, since the table cannot be told apart.
    disabled: AtomicBool,
    /// Problems already told, so each is told once.
    told: Mutex<HashSet<String>>,
    sink: Option<ProblemSink>,
}

impl TableKind {
    fn of(metric: Metric) -> TableKind {
        match metric {
            Metric::Wdl => TableKind::Wdl,
            Metric::Dtz => TableKind::Dtz,
        }
    }
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("wdl", &self.wdl)
            .field("dtz", &self.dtz)
            .field("max_pieces", &self.max_pieces)
            .finish_non_exhaustive()
    }
}

impl Tablebases {
    /// Load the tables of the folders in `spec` (separated by [`PATH_SEPARATOR`]). Returns the
    /// tables, if any were found, and the folders and files skipped (each reason names them).
    pub fn open(spec: &str) -> (Option<Tablebases>, Vec<TableProblem>) {
        Tablebases::open_with_filesystem(spec, None)
    }

    /// [`Tablebases::open`], the files read through `fs` instead of the engine's own reader
    /// (small files in memory): for measuring shakmaty-syzygy's readers against it
    /// (`examples/tb_speed.rs`).
    pub fn open_with_filesystem(
        spec: &str,
        fs: Option<Arc<dyn Filesystem>>,
    ) -> (Option<Tablebases>, Vec<TableProblem>) {
        let loaded = load::load(spec, fs);
        let wdl = loaded.count(TableKind::Wdl);
        let dtz = loaded.count(TableKind::Dtz);
        let tables = (wdl + dtz > 0).then(|| Tablebases {
            tables: loaded.tables,
            files: loaded.files,
            max_pieces: loaded.max_pieces,
            wdl,
            dtz,
            disabled: AtomicBool::new(false),
            told: Mutex::new(HashSet::new()),
            sink: None,
        });
        (tables, loaded.problems)
    }

    /// Tell problems met while probing to `sink` (once each) from now on.
    pub fn set_problem_sink(&mut self, sink: ProblemSink) {
        self.sink = Some(sink);
    }

    /// Most pieces of any table loaded.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// How many materials have a table of `kind`.
    pub fn count(&self, kind: TableKind) -> usize {
        match kind {
            TableKind::Wdl => self.wdl,
            TableKind::Dtz => self.dtz,
        }
    }

    /// The one-line summary the UCI loop prints when the path is set.
    pub fn summary(&self) -> String {
        format!(
            "Syzygy: found {} WDL and {} DTZ tables, up to {} pieces",
            self.wdl, self.dtz, self.max_pieces
        )
    }

    /// The win/draw/loss of `board` for the side to move, as if it had just been reached by a
    /// capture or pawn move (the search probes only there, where the halfmove clock is 0).
    /// `None` when the tables cannot tell: too many pieces, castling rights, a table missing or
    /// unusable.
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        let pos = self.probe_position(board)?;
        self.guarded(|t| t.probe_wdl_after_zeroing(&pos))
    }

    /// The distance to zeroing of `board` for the side to move (needs the DTZ tables too).
    /// `None` as for [`Tablebases::probe_wdl`].
    pub fn probe_dtz(&self, board: &Board) -> Option<Dtz> {
        let pos = self.probe_position(board)?;
        self.guarded(|t| t.probe_dtz(&pos)).map(|d| {
            let rounded = d.precise().is_none();
            Dtz {
                plies: d.ignore_rounding().0,
                rounded,
            }
        })
    }

    /// `board` as a shakmaty position, if the tables could hold it at all.
    fn probe_position(&self, board: &Board) -> Option<Chess> {
        if board.occupied().count() > self.max_pieces
            || !board.castling().is_empty()
            || self.disabled.load(Ordering::Relaxed)
        {
            return None;
        }
        convert::to_chess(board)
    }

    /// Runs one probe: its result, or `None` after telling why it failed (once per cause). A
    /// panic inside shakmaty-syzygy (only a corrupt table can cause one) is caught here and
    /// turns the tables off, so the search never dies of a bad file.
    fn guarded<T>(
        &self,
        probe: impl FnOnce(&Tablebase<Chess>) -> Result<T, SyzygyError>,
    ) -> Option<T> {
        match catch_unwind(AssertUnwindSafe(|| probe(&self.tables))) {
            Ok(Ok(v)) => Some(v),
            Ok(Err(e)) => {
                self.tell_failure(&e);
                None
            }
            Err(_) => {
                self.disabled.store(true, Ordering::Relaxed);
                self.tell(
                    "Syzygy: a table made the prober fail (corrupt file?); tablebases off"
                        .to_string(),
                );
                None
            }
        }
    }

    /// Reports a failed probe, naming the table file when there is one.
    fn tell_failure(&self, e: &SyzygyError) {
        let message = match e {
            // Positions the tables do not cover: not a problem.
            SyzygyError::Castling | SyzygyError::TooManyPieces => return,
            SyzygyError::MissingTable { metric, material } => format!(
                "Syzygy: no {metric} table {material} (needed by a probe); those probes give no result"
            ),
            SyzygyError::ProbeFailed {
                metric,
                material,
                error,
            } => {
                let cause = match error.as_ref() {
                    ProbeError::Read { error } => format!("read error: {error}"),
                    ProbeError::Magic { magic } => format!("wrong magic bytes {magic:02x?}"),
                    ProbeError::CorruptedTable { .. } => "corrupt or truncated table".to_string(),
                };
                let name = material.to_string();
                let file = self
                    .files
                    .iter()
                    .find(|(m, k, _)| *m == name && *k == TableKind::of(*metric))
                    .map_or(format!("{metric} table {name}"), |(_, _, p)| {
                        format!("'{}'", p.display())
                    });
                format!("Syzygy: {file}: {cause}; probes needing it give no result")
            }
        };
        self.tell(message);
    }

    fn tell(&self, message: String) {
        let mut told = self.told.lock().unwrap_or_else(|p| p.into_inner());
        if told.insert(message.clone()) {
            if let Some(sink) = &self.sink {
                sink(&message);
            }
        }
    }
}
