//! The words fastchess's options take, and the small readers that turn them into typed values
//! or into an [`ArgsError`] naming the option: the leaf under the option table (`args`) and the
//! options' values (`values`).

use std::fmt;
use std::path::PathBuf;

/// `-openings file= format= order= start= plies=`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Openings {
    /// The book.
    pub file: Option<String>,
    /// `epd` or `pgn` (fastchess: from the file's ending when absent).
    pub format: Option<String>,
    /// `random` or `sequential` (fastchess's default: sequential).
    pub order: Option<String>,
    /// The first opening, 1-based.
    pub start: Option<u64>,
    /// Plies of a PGN opening to play.
    pub plies: Option<u32>,
}

/// `-sprt elo0= elo1= alpha= beta= model=`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SprtWords {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// `normalized` (fastchess's default) or `logistic`.
    pub logistic: bool,
}

/// `-pgnout file= nodes= seldepth= match_line=`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgnOut {
    /// The PGN file (appended to); fastchess names one after the date without it.
    pub file: Option<String>,
    /// `n=` in every engine move's comment.
    pub nodes: bool,
    /// `sd=` in every engine move's comment.
    pub seldepth: bool,
    /// Engine lines to keep in the move comments.
    pub match_lines: Vec<String>,
}

/// `-config file= outname=`: resume a run, or name the file a run is saved to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConfigWords {
    /// The saved run to resume.
    pub file: Option<PathBuf>,
    /// Where to save this run.
    pub outname: Option<PathBuf>,
}

/// Why a fastchess command line was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgsError {
    /// An option fastchess does not have; the nearest one it has, if any is near.
    Unknown {
        /// The option as written.
        flag: String,
        /// The nearest option, with its dash.
        nearest: Option<String>,
    },
    /// An option of fastchess's that the harness does not take, and what it offers instead.
    Refused {
        /// The option as written.
        flag: String,
        /// The harness's nearest spelling, or why there is none.
        instead: &'static str,
    },
    /// A word before any option.
    Stray(String),
    /// An option without the value it needs.
    Missing {
        /// The option.
        flag: String,
        /// What it needs.
        needs: &'static str,
    },
    /// A value the option cannot take.
    Bad {
        /// The option.
        flag: String,
        /// The value as written.
        value: String,
        /// What it takes.
        expected: String,
    },
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgsError::Unknown { flag, nearest } => {
                write!(f, "unknown option `{flag}`")?;
                match nearest {
                    Some(n) => write!(f, "; did you mean `{n}`?"),
                    None => write!(f, " (-help lists the options)"),
                }
            }
            ArgsError::Refused { flag, instead } => {
                write!(
                    f,
                    "`{flag}` is a fastchess option the harness does not take: {instead}"
                )
            }
            ArgsError::Stray(w) => write!(f, "`{w}` is not an option (options start with -)"),
            ArgsError::Missing { flag, needs } => write!(f, "`{flag}` needs {needs}"),
            ArgsError::Bad {
                flag,
                value,
                expected,
            } => write!(f, "`{flag}`: `{value}` is not {expected}"),
        }
    }
}

impl std::error::Error for ArgsError {}

pub(super) fn bad(flag: &str, value: &str, expected: impl Into<String>) -> ArgsError {
    ArgsError::Bad {
        flag: flag.to_owned(),
        value: value.to_owned(),
        expected: expected.into(),
    }
}

/// Exactly one value, parsed.
pub(super) fn single<T: std::str::FromStr>(
    flag: &str,
    v: &[String],
    what: &'static str,
) -> Result<T, ArgsError> {
    match v {
        [one] => one.parse().map_err(|_| bad(flag, one, what)),
        [] => Err(ArgsError::Missing {
            flag: flag.to_owned(),
            needs: what,
        }),
        more => Err(bad(flag, &more.join(" "), format!("one value ({what})"))),
    }
}

/// At most one value, parsed.
pub(super) fn optional<T: std::str::FromStr>(
    flag: &str,
    v: &[String],
    what: &'static str,
) -> Result<Option<T>, ArgsError> {
    match v {
        [] => Ok(None),
        _ => single(flag, v, what).map(Some),
    }
}

/// No value.
pub(super) fn none(flag: &str, v: &[String]) -> Result<(), ArgsError> {
    match v {
        [] => Ok(()),
        more => Err(bad(
            flag,
            &more.join(" "),
            "expected: the option takes no value",
        )),
    }
}

/// `key=value` words, split at the first `=`.
pub(super) fn key_values(flag: &str, v: &[String]) -> Result<Vec<String>, ArgsError> {
    if v.is_empty() {
        return Err(ArgsError::Missing {
            flag: flag.to_owned(),
            needs: "key=value words",
        });
    }
    match v.iter().find(|w| !w.contains('=')) {
        Some(w) => Err(bad(flag, w, "a key=value word")),
        None => Ok(v.to_vec()),
    }
}

pub(super) fn pairs(flag: &str, v: &[String]) -> Result<Vec<(String, String)>, ArgsError> {
    Ok(key_values(flag, v)?
        .iter()
        .map(|w| {
            let (k, v) = w.split_once('=').expect("checked");
            (k.to_owned(), v.to_owned())
        })
        .collect())
}

pub(super) fn boolean(flag: &str, key: &str, value: &str) -> Result<bool, ArgsError> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(
            flag,
            &format!("{key}={value}"),
            format!("{key}=true or {key}=false"),
        )),
    }
}

pub(super) fn unknown_key(flag: &str, key: &str, value: &str, keys: &[&str]) -> ArgsError {
    let list: Vec<String> = keys.iter().map(|k| format!("{k}=")).collect();
    let mut expected = format!("one of {}", list.join(", "));
    if let Some(k) = crate::report::suggest::nearest(key, keys) {
        expected = format!("{expected} (did you mean `{k}=`?)");
    }
    bad(flag, &format!("{key}={value}"), expected)
}
