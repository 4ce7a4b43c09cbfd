//! Reading and writing `Params`: the JSON EvalFile and the Rust source of the defaults.
//!
//! The file names every weight (`"pst.knight.e4": [mg, eg]`), so a file written by an older or
//! newer layout is rejected with the missing or unknown names instead of being misread.

use super::params::{Labels, Params, BLOCKS, LEN};
use super::S;
use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::io;
use std::path::{Path, PathBuf};

/// The `format` tag of an EvalFile.
pub const FORMAT: &str = "sable-eval";
/// The current EvalFile layout version.
pub const VERSION: u32 = 1;

/// Why an EvalFile could not be loaded: the file and the cause in plain words.
#[derive(Debug)]
pub enum ParamsError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        cause: io::Error,
    },
    /// The file was read, but it is no EvalFile of this engine's layout.
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with its text.
        cause: EvalFileError,
    },
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (path, cause): (&Path, &dyn fmt::Display) = match self {
            ParamsError::Read { path, cause } => (path, cause),
            ParamsError::Invalid { path, cause } => (path, cause),
        };
        write!(
            f,
            "cannot load evaluation parameters from {}: {cause}",
            path.display()
        )
    }
}

// The message already holds the cause, so `source` stays `None` (a chain printer would say it
// twice).
impl std::error::Error for ParamsError {}

/// What is wrong with the text of an EvalFile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalFileError {
    /// Not JSON of the EvalFile's shape: the JSON reader's message, with line and column.
    Json(String),
    /// The `format` tag is not [`FORMAT`].
    Format(String),
    /// The `version` is not [`VERSION`].
    Version(u32),
    /// A weight does not fit an `i16`.
    OutOfRange {
        /// The weight's name.
        name: String,
        /// Its middle-game value.
        mg: i64,
        /// Its end-game value.
        eg: i64,
    },
    /// Weights of the layout that the file lacks (by name, in index order).
    Missing(Vec<String>),
    /// Names in the file that the layout has no weight for.
    Unknown(Vec<String>),
}

impl fmt::Display for EvalFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalFileError::Json(why) => write!(f, "{why}"),
            EvalFileError::Format(tag) => write!(f, "format is {tag:?}, expected {FORMAT:?}"),
            EvalFileError::Version(v) => {
                write!(f, "version is {v}, this engine reads version {VERSION}")
            }
            EvalFileError::OutOfRange { name, mg, eg } => {
                write!(f, "weight {name} = [{mg}, {eg}] is outside -32768..=32767")
            }
            EvalFileError::Missing(names) => write!(
                f,
                "{} of {LEN} weights missing (parameter layout mismatch?), first: {}",
                names.len(),
                first_few(names)
            ),
            EvalFileError::Unknown(names) => write!(
                f,
                "{} unknown weight names (parameter layout mismatch?), first: {}",
                names.len(),
                first_few(names)
            ),
        }
    }
}

impl std::error::Error for EvalFileError {}

/// The EvalFile as it sits on disk.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRepr {
    format: String,
    version: u32,
    weights: BTreeMap<String, [i64; 2]>,
}

impl FileRepr {
    /// Checks the header and that the names match the layout exactly.
    fn into_params(self) -> Result<Params, EvalFileError> {
        if self.format != FORMAT {
            return Err(EvalFileError::Format(self.format));
        }
        if self.version != VERSION {
            return Err(EvalFileError::Version(self.version));
        }
        let mut p = Params::material_only();
        let mut missing = Vec::new();
        let mut map = self.weights;
        for i in 0..LEN {
            let name = Params::name(i);
            match map.remove(&name) {
                Some([mg, eg]) => {
                    let ok = |x: i64| (-32768..=32767).contains(&x);
                    if !ok(mg) || !ok(eg) {
                        return Err(EvalFileError::OutOfRange { name, mg, eg });
                    }
                    p.set(i, S::new(mg as i32, eg as i32));
                }
                None => missing.push(name),
            }
        }
        if !missing.is_empty() {
            return Err(EvalFileError::Missing(missing));
        }
        if !map.is_empty() {
            return Err(EvalFileError::Unknown(map.into_keys().collect()));
        }
        Ok(p)
    }
}

/// Up to five names, comma-separated.
fn first_few(names: &[String]) -> String {
    names.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
}

impl Params {
    /// Reads an EvalFile (JSON, see `to_json`); every weight of the layout must be present.
    pub fn load(path: &Path) -> Result<Params, ParamsError> {
        let path_buf = || path.to_path_buf();
        let text = std::fs::read_to_string(path).map_err(|cause| ParamsError::Read {
            path: path_buf(),
            cause,
        })?;
        Params::from_json(&text).map_err(|cause| ParamsError::Invalid {
            path: path_buf(),
            cause,
        })
    }

    /// Parses EvalFile text (JSON syntax errors say the line and column).
    pub fn from_json(text: &str) -> Result<Params, EvalFileError> {
        let repr: FileRepr =
            serde_json::from_str(text).map_err(|e| EvalFileError::Json(e.to_string()))?;
        repr.into_params()
    }

    /// Writes the EvalFile (JSON, one weight per line, in index order).
    pub fn save(&self, path: &Path) -> io::Result<()> {
        std::fs::write(path, self.to_json())
    }

    /// The EvalFile text: `{"format": "sable-eval", "version": 1, "weights": {name: [mg, eg]}}`.
    pub fn to_json(&self) -> String {
        let mut out = format!(
            "{{\n  \"format\": \"{FORMAT}\",\n  \"version\": {VERSION},\n  \"weights\": {{\n"
        );
        for i in 0..LEN {
            let s = self.get(i);
            let comma = if i + 1 < LEN { "," } else { "" };
            // Names are [a-z0-9._] only, so they need no JSON escaping.
            let _ = writeln!(
                out,
                "    \"{}\": [{}, {}]{comma}",
                Params::name(i),
                s.mg(),
                s.eg()
            );
        }
        out.push_str("  }\n}\n");
        out
    }

    /// Rust source of a `defaults.rs` holding these weights; `to_rust()` of the compiled-in
    /// defaults reproduces `engine/src/eval/defaults.rs` byte for byte.
    pub fn to_rust(&self) -> String {
        let mut out = String::new();
        out.push_str("//! Default evaluation weights. Generated by `Params::to_rust()`: do not edit by hand;\n");
        out.push_str(
            "//! regenerate it (e.g. with the tuner's `--emit-rust`) and replace this file.\n\n",
        );
        // The length is written out rather than imported, so that the defaults depend on the
        // score type alone; `Params::default` checks it against the layout at compile time.
        out.push_str("use super::score::S;\n\n");
        out.push_str(
            "/// Every default weight as `S::new(mg, eg)`, in `Params::name` index order.\n",
        );
        let _ = writeln!(
            out,
            "#[rustfmt::skip]\npub(super) const DEFAULT_WEIGHTS: [S; {LEN}] = ["
        );
        for b in BLOCKS {
            let (per_line, note) = match b.labels {
                Labels::Squares => (8, " (a1..h1, a2..h2, ..., a8..h8)"),
                Labels::Numbers => (8, " (by count)"),
                Labels::Grid(_, cols) => (cols.len(), " (row by row)"),
                _ => (4, ""),
            };
            let _ = writeln!(out, "    // {}{note}", b.name);
            for chunk in (b.start..b.start + b.len)
                .collect::<Vec<_>>()
                .chunks(per_line)
            {
                let cells: Vec<String> = chunk
                    .iter()
                    .map(|&i| format!("S::new({:4}, {:4}),", self.get(i).mg(), self.get(i).eg()))
                    .collect();
                let _ = writeln!(out, "    {}", cells.join(" "));
            }
        }
        out.push_str("];\n");
        out
    }
}

/// Serialised as the EvalFile object (format, version, weights by name in index order).
impl Serialize for Params {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        struct Weights<'a>(&'a Params);
        impl Serialize for Weights<'_> {
            fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
                let mut m = s.serialize_map(Some(LEN))?;
                for i in 0..LEN {
                    m.serialize_entry(&Params::name(i), &self.0.get(i))?;
                }
                m.end()
            }
        }
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("format", FORMAT)?;
        m.serialize_entry("version", &VERSION)?;
        m.serialize_entry("weights", &Weights(self))?;
        m.end()
    }
}

impl<'de> Deserialize<'de> for Params {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Params, D::Error> {
        FileRepr::deserialize(d)?
            .into_params()
            .map_err(D::Error::custom)
    }
}
