//! The engine's UCI options: declarations for `uci` and `setoption` handling.

use crate::search::time::DEFAULT_MOVE_OVERHEAD;
use crate::search::{params, ThreadPool};
use std::path::Path;
use std::time::Duration;

/// Largest hash table accepted, in MB.
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;
/// Largest `Move Overhead`, in ms.
const MAX_OVERHEAD_MS: u64 = 5_000;

/// Current option values that are not kept in the searcher itself.
pub struct Options {
    /// `Hash` in MB.
    pub hash_mb: usize,
    /// `EvalFile` (empty = compiled-in weights).
    pub eval_file: String,
    /// `UCI_Chess960`: castling moves read and written as king takes rook, FENs printed in
    /// Shredder-FEN. FENs with Chess960 castling rights are read either way.
    pub chess960: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            eval_file: String::new(),
            chess960: false,
        }
    }
}

/// The `option ...` lines sent in reply to `uci`.
pub fn declarations() -> Vec<String> {
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
    ];
    if cfg!(feature = "tune") {
        v.extend(params::PARAMS.iter().map(|p| p.uci_option()));
    }
    v
}

impl Options {
    /// Apply `setoption name <name> value <value>`; `Err` explains a bad name or value.
    pub fn apply(
        &mut self,
        name: &str,
        value: Option<&str>,
        searcher: &mut ThreadPool,
    ) -> Result<(), String> {
        let lname = name.to_ascii_lowercase();
        let need = || value.ok_or_else(|| format!("option '{name}' needs a value"));
        match lname.as_str() {
            "hash" => {
                let mb = spin(need()?, name, 1, MAX_HASH_MB as u64)? as usize;
                self.hash_mb = mb;
                searcher.resize_tt(mb);
            }
            "threads" => {
                let n = spin(need()?, name, 1, MAX_THREADS as u64)?;
                searcher.set_threads(n as usize);
            }
            "move overhead" => {
                let ms = spin(need()?, name, 0, MAX_OVERHEAD_MS)?;
                searcher.set_move_overhead(Duration::from_millis(ms));
            }
            "clear hash" => searcher.clear(),
            "uci_chess960" => self.chess960 = check(need()?, name)?,
            "evalfile" => {
                let path = need()?.trim();
                if path.is_empty() || path == "<empty>" {
                    self.eval_file.clear();
                    searcher.set_params(crate::eval::Params::default());
                    return Ok(());
                }
                let params = crate::eval::Params::load(Path::new(path)).map_err(|e| {
                    format!("EvalFile '{path}' not loaded ({e}); keeping the current weights")
                })?;
                searcher.set_params(params);
                self.eval_file = path.to_string();
            }
            // The tuning build's search parameters (none in the shipping build).
            _ if cfg!(feature = "tune") && params::get(name).is_some() => {
                let p = params::PARAMS
                    .iter()
                    .find(|p| p.name.eq_ignore_ascii_case(name))
                    .expect("get found it");
                let v = need()?.trim();
                let n: i32 = v
                    .parse()
                    .ok()
                    .filter(|n| (p.min..=p.max).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "option '{name}': '{v}' is not a number in {}..={}; unchanged",
                            p.min, p.max
                        )
                    })?;
                params::set(name, n);
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }
}

fn spin(v: &str, name: &str, min: u64, max: u64) -> Result<u64, String> {
    match v.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "option '{name}': '{v}' is not a number in {min}..={max}; unchanged"
        )),
    }
}

fn check(v: &str, name: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "option '{name}': '{v}' is not true or false; unchanged"
        )),
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
        assert!(o.apply("Hash", Some("lots"), &mut s).is_err());
        assert!(o.apply("Hash", Some("0"), &mut s).is_err());
        assert_eq!(o.hash_mb, 2);
        assert!(o.apply("Move Overhead", Some("50"), &mut s).is_ok());
        assert_eq!(s.move_overhead(), Duration::from_millis(50));
        assert!(o.apply("Move Overhead", Some("-1"), &mut s).is_err());
        assert_eq!(s.move_overhead(), Duration::from_millis(50));
        // The search features are plain code, not options.
        assert!(o.apply("NullMove", Some("false"), &mut s).is_err());
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
        assert!(o.apply("UCI_Chess960", Some("yes"), &mut s).is_err());
        assert!(o.chess960);
        assert!(o
            .apply("EvalFile", Some("/nonexistent/weights.json"), &mut s)
            .is_err());
        assert!(o.eval_file.is_empty());
    }
}
