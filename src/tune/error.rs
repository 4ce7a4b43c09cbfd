//! The tuner's errors about its own data: a dictionary, a packed record, a store and a cache
//! file that cannot be used, and a layout too large for the tuner. Displayed in plain words;
//! the caller adds the file.

/// Why a dictionary (its rules, or its bytes in a cache file) is malformed, or a record names a
/// slot it lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DictError {
    /// A rule defines a slot past the limit, or one defined before.
    NotFree { rule: usize, slot: usize },
    /// A pair's part is no slot defined by an earlier rule.
    PartUndefined { rule: usize, part: usize },
    /// A pair of one slot with itself.
    SameParts { rule: usize, slot: u32 },
    /// A pair that stands for more terms than a slot may (a forged file's Fibonacci growth).
    Expansion {
        rule: usize,
        slot: usize,
        terms: usize,
    },
    /// A scaled weight of an index past the layout or of coefficient 0 (`twice`: defined
    /// twice).
    Scaled {
        rule: usize,
        index: u16,
        coef: i16,
        twice: bool,
    },
    /// A slot below the largest that no rule defines.
    Undefined { slot: usize },
    /// The bytes end inside a word.
    CutShort,
    /// The rule count does not match the byte count.
    Size { rules: usize, bytes: usize },
    /// A scaled rule's index or coefficient word (`what`) out of range.
    Word {
        rule: usize,
        what: &'static str,
        word: u32,
    },
    /// A record's slot past the dictionary's slots.
    SlotPast { slot: usize, slots: usize },
}

impl std::fmt::Display for DictError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DictError::NotFree { rule, slot } => {
                write!(f, "rule {rule}: slot {slot} is not a free slot")
            }
            DictError::PartUndefined { rule, part } => {
                write!(f, "rule {rule}: part {part} is not defined before it")
            }
            DictError::SameParts { rule, slot } => {
                write!(f, "rule {rule}: both parts are slot {slot}")
            }
            DictError::Expansion { rule, slot, terms } => {
                write!(f, "rule {rule}: slot {slot} stands for {terms} terms")
            }
            DictError::Scaled {
                rule,
                index,
                coef,
                twice,
            } => {
                let why = if *twice { "twice" } else { "out of range" };
                write!(f, "rule {rule}: scaled weight ({index}, {coef}) {why}")
            }
            DictError::Undefined { slot } => write!(f, "slot {slot} is not defined"),
            DictError::CutShort => write!(f, "dictionary cut short"),
            DictError::Size { rules, bytes } => {
                write!(f, "dictionary of {rules} rules in {bytes} bytes")
            }
            DictError::Word { rule, what, word } => {
                write!(f, "rule {rule}: {what} {word:#x} out of range")
            }
            DictError::SlotPast { slot, slots } => {
                write!(f, "slot {slot} past the dictionary's {slots} slots")
            }
        }
    }
}

impl std::error::Error for DictError {}

/// Why a position cannot be packed into a record ([`super::record::encode`]), or why a
/// record's bytes are not one ([`super::record::decode`]).
#[derive(Debug, Clone, PartialEq)]
pub enum RecordError {
    /// The phase is outside `0..=PHASE_MAX`.
    Phase(i32),
    /// The scale is outside `0..=SCALE_MAX`.
    Scale(i32),
    /// The result is outside [0, 1].
    Result(f64),
    /// The fixed part does not fit 16 bits.
    Fixed(i32),
    /// The fixed end-game part does not fit 16 bits.
    EgFixed(i32),
    /// A parameter index at or past the store's limit.
    Index(u16),
    /// More far terms than a record holds.
    FarTerms(usize),
    /// More bytes of small terms than a record holds.
    SmallTerms(usize),
    /// The whole record is longer than a length byte says.
    TooLong(usize),
    /// A record whose bytes lie past the end of the data.
    PastEnd { len: usize, at: usize },
    /// A record shorter than its header, or than its header says (`says`).
    Short { len: usize, says: bool },
    /// A phase byte out of range.
    PhaseByte(u8),
    /// The groups end inside a two-byte term.
    InsideTerm(usize),
    /// A scale byte out of range.
    ScaleByte(u8),
    /// A stored result above 1.
    ResultAbove(f64),
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::terms::{MAX_FAR, MAX_LEN, MAX_PARAMS, PHASE_MAX, SCALE_MAX};
        match self {
            RecordError::Phase(p) => write!(f, "phase {p} outside 0..={PHASE_MAX}"),
            RecordError::Scale(s) => write!(f, "scale {s} outside 0..={SCALE_MAX}"),
            RecordError::Result(r) => write!(f, "result {r} outside [0, 1]"),
            RecordError::Fixed(x) => write!(f, "fixed {x} too large"),
            RecordError::EgFixed(x) => write!(f, "fixed end-game part {x} too large"),
            RecordError::Index(i) => {
                write!(
                    f,
                    "parameter index {i} beyond the store's limit {MAX_PARAMS}"
                )
            }
            RecordError::FarTerms(n) => {
                write!(f, "{n} far terms exceed the record's limit of {MAX_FAR}")
            }
            RecordError::SmallTerms(n) => {
                write!(
                    f,
                    "{n} bytes of small terms exceed the record's limit of 255"
                )
            }
            RecordError::TooLong(len) => {
                write!(f, "a record of {len} bytes exceeds the limit of {MAX_LEN}")
            }
            RecordError::PastEnd { len, at } => {
                write!(f, "record of {len} bytes at byte {at} past the end")
            }
            RecordError::Short { len, says: false } => {
                write!(f, "record of {len} bytes shorter than its header")
            }
            RecordError::Short { len, says: true } => {
                write!(f, "record of {len} bytes shorter than its header says")
            }
            RecordError::PhaseByte(p) => write!(f, "phase {p} out of range"),
            RecordError::InsideTerm(len) => write!(f, "record of {len} bytes ends inside a term"),
            RecordError::ScaleByte(s) => write!(f, "scale byte {s} out of range"),
            RecordError::ResultAbove(r) => write!(f, "result {r} above 1"),
        }
    }
}

impl std::error::Error for RecordError {}

/// Why a store's bytes (a cache file's section) are refused ([`super::store::Store::from_bytes`]).
#[derive(Debug, Clone, PartialEq)]
pub enum StoreError {
    /// Position `position`'s record is malformed.
    Record { position: usize, cause: RecordError },
    /// Position `position` names a slot the dictionary lacks.
    Slot { position: usize, cause: DictError },
    /// Position `position` names a parameter past the layout's `limit`.
    Index {
        position: usize,
        index: usize,
        limit: usize,
    },
    /// Bytes left over after the last position.
    Trailing { bytes: usize, positions: usize },
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Record { position, cause } => write!(f, "position {position}: {cause}"),
            StoreError::Slot { position, cause } => write!(f, "position {position}: {cause}"),
            StoreError::Index {
                position,
                index,
                limit,
            } => write!(
                f,
                "position {position}: parameter index {index} beyond the layout's {limit}"
            ),
            StoreError::Trailing { bytes, positions } => {
                write!(f, "{bytes} bytes after the last of {positions} positions")
            }
        }
    }
}

impl std::error::Error for StoreError {}

/// Why a cache file cannot be used ([`super::cache::open`]); the caller names the file.
#[derive(Debug)]
pub enum CacheError {
    /// The file could not be opened.
    Open(std::io::Error),
    /// The file's size or header could not be read.
    Read(std::io::Error),
    /// Shorter than the header.
    Truncated { size: u64 },
    /// Not a cache of this tuner.
    Magic,
    /// A format version (`found`) this harness, which reads `reads`, does not read.
    Version { found: u64, reads: u64 },
    /// The header's sections do not add up to the file's size (`want` None: past 2^64).
    Size { size: u64, want: Option<u64> },
    /// The file could not be memory-mapped.
    Map(std::io::Error),
    /// Made from other data or options: the first difference, in words.
    Stale(String),
    /// The checksum over the body does not match the header's.
    Checksum { got: u64, header: u64 },
    /// The dictionary section is malformed.
    Dict(DictError),
    /// The training or validation section (`what`) is malformed.
    Records {
        what: &'static str,
        cause: StoreError,
    },
}

impl std::fmt::Display for CacheError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CacheError::Open(e) => write!(f, "cannot open: {e}"),
            CacheError::Read(e) => write!(f, "{e}"),
            CacheError::Truncated { size } => {
                write!(f, "truncated: {size} bytes, shorter than the header")
            }
            CacheError::Magic => write!(f, "not a Sable tuning cache (wrong magic bytes)"),
            CacheError::Version { found, reads } => write!(
                f,
                "format version {found}, this harness reads version {reads}"
            ),
            CacheError::Size { size, want } => write!(
                f,
                "truncated or damaged: {size} bytes, the header accounts for {}",
                want.map_or("more than 2^64".to_string(), |w| w.to_string())
            ),
            CacheError::Map(e) => write!(f, "cannot map: {e}"),
            CacheError::Stale(why) => write!(f, "stale: {why}"),
            CacheError::Checksum { got, header } => write!(
                f,
                "checksum mismatch ({got:016x}, the header says {header:016x}): the file is \
                 damaged"
            ),
            CacheError::Dict(e) => write!(f, "damaged dictionary: {e}"),
            CacheError::Records { what, cause } => write!(f, "damaged {what} records: {cause}"),
        }
    }
}

impl std::error::Error for CacheError {}

/// More parameters than the tuner's dense tables hold ([`super::model::to_dense`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapacityError {
    /// The number of parameters asked for.
    pub params: usize,
}

impl std::fmt::Display for CapacityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} parameters exceed the tuner's capacity {}",
            self.params,
            super::terms::MAX_PARAMS
        )
    }
}

impl std::error::Error for CapacityError {}

/// A position the tuner leaves out (counted, with the first few shown as examples).
#[derive(Debug, Clone, PartialEq)]
pub enum Rejection {
    /// The engine refuses the FEN.
    Fen {
        fen: String,
        cause: sable::board::FenError,
    },
    /// The position's terms do not fit a record.
    Record(RecordError),
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rejection::Fen { fen, cause } => write!(f, "{fen}: {cause}"),
            Rejection::Record(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Rejection {}

/// `--init` given as an empty word (clap shows this under the flag).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitError;

impl std::fmt::Display for InitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "expected current, material, zero or a weights file")
    }
}

impl std::error::Error for InitError {}
