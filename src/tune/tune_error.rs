//! The tuning room's one error at its boundary ([`TuneError`]): what the run, the loading, the
//! cache file, a checkpoint and the outputs return. Its own file, above the data's errors
//! (`super::error`), which the dictionary, records and kernel stand on.

use super::error::{CacheError, CapacityError};

/// Why a tuning run (or a part of it the room's callers use: the loading, the cache file, a
/// checkpoint, the outputs) failed: the room's one error at its boundary. Each variant names
/// what failed and keeps its cause as the error's source, so `{:#}` reads as before: the
/// context, then the cause.
#[derive(Debug)]
pub enum TuneError {
    /// A file read or written (`context` names it and what was done).
    Io {
        context: String,
        source: std::io::Error,
    },
    /// A dataset that cannot be read to make the cache's identity (shown as `path: cause`).
    Source {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// A file replaced whole (cache, checkpoint, weights) that could not be written.
    Atomic(crate::plumbing::atomic::AtomicError),
    /// A checkpoint that is not one, or one that cannot be written as JSON.
    Json {
        context: String,
        source: serde_json::Error,
    },
    /// A weights file (`--init`, the SPRT's) the engine refuses.
    Weights(sable::eval::ParamsError),
    /// A dataset that cannot be read.
    Dataset(super::dataset::DatasetError),
    /// The cache file this run has just written cannot be opened again.
    CacheWritten {
        path: std::path::PathBuf,
        source: CacheError,
    },
    /// More weights than the tuner's tables hold.
    Capacity(CapacityError),
    /// A record names a slot past the weight tables.
    Slot(super::kernel::SlotError),
    /// `--emit-rust` refused for want of a won SPRT (`harness tune` exits 1 for it).
    Adopt(super::adopt::AdoptError),
    /// The loss curve's picture.
    Chart(crate::report::plot::ChartError),
    /// `--valid` outside [0, 1).
    ValidFraction,
    /// A `--freeze` name that is no group of the layout.
    UnknownGroup {
        group: String,
        groups: std::collections::BTreeSet<String>,
    },
    /// A traced position uses a parameter index past the layout's `n`.
    IndexBeyond { n: usize },
    /// `--resume` without `--checkpoint`.
    ResumeWithoutCheckpoint,
    /// An output (`flag`) that is the `--init` file itself.
    OverwritesInit { flag: &'static str, path: String },
    /// `--emit-rust` without `--sprt` or `--unverified`.
    EmitNeedsSprt { target: String },
    /// `--sprt` with `--init` other than a weights file.
    SprtInitNotFile { init: String },
    /// `--sprt` with a run that would tune further.
    SprtTunesFurther { epochs: usize },
    /// Datasets without a single position.
    NoPositions,
    /// A cache written from stores of two dictionaries.
    CacheDicts,
    /// A cache finished with other than two sections.
    CacheSections,
    /// A frozen mask of the wrong length.
    FrozenMask { entries: usize, weights: usize },
    /// A checkpoint made on other data.
    CheckpointSizes {
        made: (usize, usize),
        now: (usize, usize),
    },
}

impl std::fmt::Display for TuneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuneError::Io { context, .. } | TuneError::Json { context, .. } => {
                write!(f, "{context}")
            }
            TuneError::Source { path, source } => write!(f, "{}: {source}", path.display()),
            TuneError::CacheWritten { path, source } => {
                write!(f, "{}: the cache just written: {source}", path.display())
            }
            TuneError::ValidFraction => write!(f, "--valid must be in [0, 1)"),
            TuneError::UnknownGroup { group, groups } => write!(
                f,
                "unknown group `{group}` for --freeze or --only (groups: {groups:?})"
            ),
            TuneError::IndexBeyond { n } => write!(
                f,
                "the trace uses a parameter index beyond Params::len() = {n}"
            ),
            TuneError::ResumeWithoutCheckpoint => write!(f, "resuming needs a checkpoint file"),
            TuneError::OverwritesInit { flag, path } => write!(
                f,
                "{flag} {path} is the --init weights file: the run would overwrite its own input. \
                 Write elsewhere (e.g. -o tuned2.json; -o defaults to tuned.json), or pass \
                 --overwrite-init to replace it"
            ),
            TuneError::EmitNeedsSprt { target } => write!(
                f,
                "--emit-rust replaces the engine's compiled-in defaults; it needs the results of an \
                 SPRT that the weights won against the shipped engine: `harness sprt --engine \
                 cmd=target/release/sable name=tuned option.EvalFile=$PWD/tuned.json --engine \
                 cmd=target/release/sable name=shipped --each nodes=10000 --elo0 0 --elo1 5 \
                 --results tuned-sprt.json`, then `harness tune DATA --init tuned.json --epochs 0 \
                 -o data/tuned.json --force --emit-rust {target} --sprt tuned-sprt.json` (or --unverified \
                 to skip the check)"
            ),
            TuneError::SprtInitNotFile { init } => write!(
                f,
                "--sprt checks the --init weights file that the SPRT played (--init tuned.json), \
                 not --init {init}"
            ),
            TuneError::SprtTunesFurther { epochs } => write!(
                f,
                "--sprt vouches for the --init weights as they are; this run would tune them further \
                 (--epochs {epochs}), and weights it makes have not been SPRT-ed: use --epochs 0"
            ),
            TuneError::NoPositions => write!(f, "no positions to tune on"),
            TuneError::CacheDicts => write!(f, "a cache's records share one dictionary"),
            TuneError::CacheSections => write!(f, "a cache has two sections"),
            TuneError::FrozenMask { entries, weights } => write!(
                f,
                "frozen mask has {entries} entries for {weights} weights"
            ),
            TuneError::CheckpointSizes { made, now } => write!(
                f,
                "checkpoint was made on {made:?} training/validation positions, this run has {now:?}"
            ),
            _ => write!(f, "{}", self.wrapped().expect("the other variants wrap an error")),
        }
    }
}

impl std::error::Error for TuneError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TuneError::Io { source, .. } => Some(source),
            TuneError::Json { source, .. } => Some(source),
            TuneError::Source { source, .. } => source.source(),
            TuneError::CacheWritten { source, .. } => source.source(),
            // A wrapped error is shown as itself, so its source is its own.
            _ => self.wrapped().and_then(|e| e.source()),
        }
    }
}

impl TuneError {
    /// The error of a file or room below that this one wraps whole, if it is one.
    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            TuneError::Atomic(e) => e,
            TuneError::Weights(e) => e,
            TuneError::Dataset(e) => e,
            TuneError::Capacity(e) => e,
            TuneError::Slot(e) => e,
            TuneError::Adopt(e) => e,
            TuneError::Chart(e) => e,
            _ => return None,
        })
    }
}

error_from!(
    TuneError:
    Atomic(crate::plumbing::atomic::AtomicError),
    Weights(sable::eval::ParamsError),
    Dataset(super::dataset::DatasetError),
    Capacity(CapacityError),
    Slot(super::kernel::SlotError),
    Adopt(super::adopt::AdoptError),
    Chart(crate::report::plot::ChartError),
);
