//! The engine's UCI options: declarations for `uci` and `setoption` handling.

use crate::eval::{Params, ParamsError};
use crate::search::time::DEFAULT_MOVE_OVERHEAD;
use crate::search::{params, TbConfig, ThreadPool};
use crate::tablebase::{Tablebases, MAX_TABLE_PIECES};
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Largest hash table accepted, in MB.
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;
/// Largest `Move Overhead`, in ms.
const MAX_OVERHEAD_MS: u64 = 5_000;
/// Largest `SyzygyProbeDepth` (Stockfish's).
const MAX_PROBE_DEPTH: i64 = 100;

/// Current option values that are not kept in the searcher itself.
pub struct Options {
    /// `Hash` in MB.
    pub hash_mb: usize,
    /// `EvalFile` (empty = compiled-in weights).
    pub eval_file: String,
    /// `UCI_Chess960`: castling moves read and written as king takes rook, FENs printed in
    /// Shredder-FEN. FENs with Chess960 castling rights are read either way.
    pub chess960: bool,
    /// `SyzygyPath` as set (empty = no tables).
    pub syzygy_path: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            eval_file: String::new(),
            chess960: false,
            syzygy_path: String::new(),
        }
    }
}

/// The `option ...` lines sent in reply to `uci`.
pub fn declarations() -> Vec<String> {
    let d = TbConfig::default();
    let mut v = vec![
        format!("option name Hash type spin default 16 min 1 max {MAX_HASH_MB}"),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD_MS}",
            DEFAULT_MOVE_OVERHEAD.as_millis()
        ),
        "option name EvalFile type string default <empty>".to_string(),
        "option name Clear Hash type button".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name SyzygyPath type string default <empty>".to_string(),
        format!(
            "option name SyzygyProbeDepth type spin default {} min 1 max {MAX_PROBE_DEPTH}",
            d.probe_depth
        ),
        format!(
            "option name Syzygy50MoveRule type check default {}",
            d.rule50
        ),
        format!(
            "option name SyzygyProbeLimit type spin default {} min 0 max {MAX_TABLE_PIECES}",
            d.probe_limit
        ),
    ];
    if cfg!(feature = "tune") {
        v.extend(params::PARAMS.iter().map(|p| p.uci_option()));
    }
    v
}

impl Options {
    /// Apply `setoption name <name> value <value>`: the lines to tell the GUI (`info string`),
    /// or `Err` saying what is wrong with the name or value (the option is then unchanged).
    pub fn apply(
        &mut self,
        name: &str,
        value: Option<&str>,
        searcher: &mut ThreadPool,
    ) -> Result<Vec<String>, OptionError> {
        let lname = name.to_ascii_lowercase();
        let need = || value.ok_or_else(|| OptionError::MissingValue(name.to_string()));
        match lname.as_str() {
            "hash" => {
                let mb = spin(need()?, name, 1, MAX_HASH_MB as i64)? as usize;
                self.hash_mb = mb;
                searcher.resize_tt(mb);
            }
            "threads" => {
                let n = spin(need()?, name, 1, MAX_THREADS as i64)?;
                searcher.set_threads(n as usize);
            }
            "move overhead" => {
                let ms = spin(need()?, name, 0, MAX_OVERHEAD_MS as i64)?;
                searcher.set_move_overhead(Duration::from_millis(ms as u64));
            }
            "clear hash" => searcher.clear(),
            "uci_chess960" => self.chess960 = check(need()?, name)?,
            "evalfile" => {
                let path = need()?.trim();
                if path.is_empty() || path == "<empty>" {
                    self.eval_file.clear();
                    searcher.set_params(Params::default());
                    return Ok(Vec::new());
                }
                let params = Params::load(Path::new(path)).map_err(OptionError::EvalFile)?;
                searcher.set_params(params);
                self.eval_file = path.to_string();
            }
            "syzygypath" => return Ok(self.set_syzygy_path(need()?, searcher)),
            "syzygyprobedepth" => {
                let depth = spin(need()?, name, 1, MAX_PROBE_DEPTH)?;
                let config = searcher.tb_config();
                searcher.set_tb_config(TbConfig {
                    probe_depth: depth as i32,
                    ..config
                });
            }
            "syzygy50moverule" => {
                let rule50 = check(need()?, name)?;
                let config = searcher.tb_config();
                searcher.set_tb_config(TbConfig { rule50, ..config });
            }
            "syzygyprobelimit" => {
                let limit = spin(need()?, name, 0, MAX_TABLE_PIECES as i64)?;
                let config = searcher.tb_config();
                searcher.set_tb_config(TbConfig {
                    probe_limit: limit as u32,
                    ..config
                });
            }
            // The tuning build's search parameters (none in the shipping build).
            _ if cfg!(feature = "tune") && params::get(name).is_some() => {
                let p = params::PARAMS
                    .iter()
                    .find(|p| p.name.eq_ignore_ascii_case(name))
                    .expect("get found it");
                let n = spin(need()?, name, p.min as i64, p.max as i64)?;
                params::set(name, n as i32);
            }
            _ => return Err(OptionError::Unknown(name.to_string())),
        }
        Ok(Vec::new())
    }

    /// `SyzygyPath`: load the tables of its folders (replacing any loaded before) and say what
    /// was found and what was skipped. A path with no usable table turns the tables off; that
    /// is never an error, since a bad folder must not stop the engine.
    fn set_syzygy_path(&mut self, value: &str, searcher: &mut ThreadPool) -> Vec<String> {
        let path = value.trim();
        // The old tables close first, so their files are not held open twice.
        searcher.set_tablebases(None);
        self.syzygy_path.clear();
        if path.is_empty() || path == "<empty>" {
            return vec!["Syzygy: tablebases off".to_string()];
        }
        let (tables, problems) = Tablebases::open(path);
        let mut lines: Vec<String> = problems.iter().map(|p| format!("Syzygy: {p}")).collect();
        match tables {
            Some(mut tables) => {
                tables.set_problem_sink(Box::new(super::info_string));
                lines.push(tables.summary());
                searcher.set_tablebases(Some(Arc::new(tables)));
                self.syzygy_path = path.to_string();
            }
            None => lines.push(format!(
                "Syzygy: no table found in '{path}'; tablebases off"
            )),
        }
        lines
    }
}

/// Why a `setoption` was not applied.
#[derive(Debug)]
pub enum OptionError {
    /// No option of this name.
    Unknown(String),
    /// The option needs a value and `setoption` gave none.
    MissingValue(String),
    /// A spin option's value is no whole number in its range.
    NotANumber {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// A check option's value is neither `true` nor `false`.
    NotABool {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
    /// The `EvalFile` could not be loaded; the current weights stay.
    EvalFile(ParamsError),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::MissingValue(name) => write!(f, "option '{name}' needs a value"),
            OptionError::NotANumber {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "option '{name}': '{value}' is not a number in {min}..={max}; unchanged"
            ),
            OptionError::NotABool { name, value } => {
                write!(
                    f,
                    "option '{name}': '{value}' is not true or false; unchanged"
                )
            }
            OptionError::EvalFile(e) => {
                write!(f, "EvalFile not loaded ({e}); keeping the current weights")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// The value of a spin option, if it is a whole number in `min..=max`.
fn spin(v: &str, name: &str, min: i64, max: i64) -> Result<i64, OptionError> {
    match v.trim().parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(OptionError::NotANumber {
            name: name.to_string(),
            value: v.to_string(),
            min,
            max,
        }),
    }
}

/// The value of a check option, if it is `true` or `false` (any case).
fn check(v: &str, name: &str) -> Result<bool, OptionError> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::NotABool {
            name: name.to_string(),
            value: v.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_apply_and_reject() {
        let mut o = Options::default();
        let mut s = ThreadPool::new(1);
        assert!(o.apply("Hash", Some("2"), &mut s).is_ok());
        assert_eq!(o.hash_mb, 2);
        assert!(matches!(
            o.apply("Hash", Some("lots"), &mut s),
            Err(OptionError::NotANumber { min: 1, .. })
        ));
        let zero = o.apply("Hash", Some("0"), &mut s).unwrap_err();
        assert_eq!(
            zero.to_string(),
            "option 'Hash': '0' is not a number in 1..=65536; unchanged"
        );
        assert!(matches!(
            o.apply("Hash", None, &mut s),
            Err(OptionError::MissingValue(_))
        ));
        assert_eq!(o.hash_mb, 2);
        assert!(o.apply("Move Overhead", Some("50"), &mut s).is_ok());
        assert_eq!(s.move_overhead(), Duration::from_millis(50));
        assert!(o.apply("Move Overhead", Some("-1"), &mut s).is_err());
        assert_eq!(s.move_overhead(), Duration::from_millis(50));
        // The search features are plain code, not options.
        assert!(matches!(
            o.apply("NullMove", Some("false"), &mut s),
            Err(OptionError::Unknown(_))
        ));
        assert!(o.apply("Threads", Some("4"), &mut s).is_ok());
        assert_eq!(s.threads(), 4);
        assert!(o.apply("Threads", Some("257"), &mut s).is_err());
        assert!(o.apply("Threads", Some("0"), &mut s).is_err());
        assert_eq!(s.threads(), 4);
        assert!(o.apply("Threads", Some("1"), &mut s).is_ok());
        assert_eq!(s.threads(), 1);
        assert!(o.apply("Frobnication", Some("1"), &mut s).is_err());
        assert!(!o.chess960);
        assert!(o.apply("UCI_Chess960", Some("true"), &mut s).is_ok());
        assert!(o.chess960);
        assert!(matches!(
            o.apply("UCI_Chess960", Some("yes"), &mut s),
            Err(OptionError::NotABool { .. })
        ));
        assert!(o.chess960);
        let missing = o
            .apply("EvalFile", Some("/nonexistent/weights.json"), &mut s)
            .unwrap_err();
        assert!(matches!(missing, OptionError::EvalFile(_)));
        assert!(
            missing.to_string().contains("/nonexistent/weights.json"),
            "{missing}"
        );
        assert!(o.eval_file.is_empty());
    }
}
