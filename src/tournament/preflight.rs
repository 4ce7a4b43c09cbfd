//! What is checked before the first game, so that a broken setup costs seconds and gives no
//! verdict: the configuration (unique names, bounded limits, files), one start of every engine
//! (handshake and options), and warnings about openings that make games repeat.

use super::config::MatchConfig;
use super::error::MatchError;
use super::schedule::GameJob;
use crate::game::Variant;
use crate::uci::option::UnknownOption;
use crate::uci::{Engine, EngineSpec, StartError, TrafficLog};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Errors for configurations no game can be played with.
pub fn check_config(cfg: &MatchConfig) -> Result<(), MatchError> {
    if cfg.engines.len() < 2 {
        return Err(MatchError::TooFewEngines {
            got: cfg.engines.len(),
        });
    }
    if !(1..=2).contains(&cfg.games_per_round) {
        return Err(MatchError::GamesPerRound {
            got: cfg.games_per_round,
        });
    }
    if cfg.concurrency == 0 {
        return Err(MatchError::NoConcurrency);
    }
    let mut names = HashSet::new();
    for e in &cfg.engines {
        let name = e.spec.display_name();
        if !names.insert(name.clone()) {
            return Err(MatchError::SameName { name });
        }
        if !e.limits.is_bounded() {
            return Err(MatchError::Unbounded { name });
        }
    }
    if let (Some(path), false) = (&cfg.results, cfg.resume) {
        if path.exists() {
            return Err(MatchError::ResultsExist {
                path: path.clone(),
                kind: cfg.kind().to_string(),
            });
        }
    }
    Ok(())
}

/// The first engine whose program is given by a path that does not exist, in words: such an
/// engine cannot start, which stops the run before any engine is started (exit code 4, as any
/// engine that cannot start). A bare name (`stockfish`) is looked up in `PATH` when started.
pub fn missing_engine(cfg: &MatchConfig) -> Option<MissingProgram> {
    cfg.engines.iter().find_map(|e| missing_program(&e.spec))
}

/// An engine given by a path whose program does not exist: it cannot start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingProgram {
    /// The engine's name.
    pub engine: String,
    /// The program's path as it was looked for.
    pub program: PathBuf,
    /// The folder a relative path was looked for from.
    pub relative_to: Option<String>,
}

impl std::fmt::Display for MissingProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let place = self
            .relative_to
            .as_ref()
            .map(|cwd| format!(" (relative to {cwd})"))
            .unwrap_or_default();
        write!(
            f,
            "engine {} cannot start: its program `{}` does not exist{place}; check its path \
             (cmd=, --dev, --base or --engine) or build it first",
            self.engine,
            self.program.display()
        )
    }
}

impl std::error::Error for MissingProgram {}

/// Why a match stops before its first game, having played and written nothing.
#[derive(Debug)]
pub enum SetupError {
    /// An engine's program does not exist.
    Missing(MissingProgram),
    /// An engine does not start or get ready.
    Start(StartError),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Missing(e) => write!(f, "{e}"),
            SetupError::Start(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// Why `spec`'s program cannot be started, if its path does not exist.
pub fn missing_program(spec: &EngineSpec) -> Option<MissingProgram> {
    let cmd = Path::new(&spec.cmd);
    if !spec.cmd.contains('/') {
        return None;
    }
    let full = match &spec.dir {
        Some(dir) if cmd.is_relative() && !cmd.exists() => dir.join(cmd),
        _ => cmd.to_owned(),
    };
    if full.exists() {
        return None;
    }
    let relative_to = full
        .is_relative()
        .then(|| std::env::current_dir().map_or_else(|_| ".".into(), |d| d.display().to_string()));
    Some(MissingProgram {
        engine: spec.display_name(),
        program: full,
        relative_to,
    })
}

/// Starts every engine once (handshake, options, `isready`) and quits it. The first that fails
/// to start is returned (inside `Ok`). A setting of an option the engine does not declare, or
/// a value outside what an option declares (a spin's range, a combo's values, a check's
/// true/false), is an error; with `allow_unknown_options` the first is only a warning. An engine
/// without `UCI_Chess960` in a Chess960 match is a configuration error. With `--affinity` they run
/// on `cpus`, the first game's cores, where they are about to play.
pub fn start_each(
    cfg: &MatchConfig,
    log: Option<&TrafficLog>,
    cpus: &[usize],
) -> Result<Result<Vec<String>, StartError>, MatchError> {
    let mut warnings = Vec::new();
    for e in &cfg.engines {
        let engine = match Engine::start_pinned(&e.spec, cfg.startup, log, cpus) {
            Ok(engine) => engine,
            Err(e) => return Ok(Err(e)),
        };
        let chess960 = engine
            .declared_options()
            .iter()
            .any(|o| o.eq_ignore_ascii_case("UCI_Chess960"));
        if cfg.variant == Variant::Chess960 && !chess960 {
            let name = e.spec.display_name();
            engine.quit(std::time::Duration::from_millis(500));
            return Err(MatchError::NoChess960 { name });
        }
        let mut refused = Vec::new();
        for (name, value) in &e.spec.options {
            match engine.declared(name) {
                Some(option) => {
                    if let Err(why) = option.check(value) {
                        refused.push(why.to_string());
                    }
                }
                None => {
                    let unknown = UnknownOption::new(name, &engine.declared_options());
                    if cfg.allow_unknown_options {
                        warnings.push(format!(
                            "engine {}: {unknown}; played as asked (--allow-unknown-options)",
                            e.spec.display_name()
                        ));
                    } else {
                        refused.push(unknown.to_string());
                    }
                }
            }
        }
        engine.quit(std::time::Duration::from_millis(500));
        // Refused rather than warned about: an engine clamps or ignores such a value (or a
        // setting it does not declare), so every game would test another setting than the one
        // the results file and report name.
        if !refused.is_empty() {
            return Err(MatchError::RefusedOptions {
                name: e.spec.display_name(),
                refused,
            });
        }
    }
    Ok(Ok(warnings))
}

/// Warnings about openings: more rounds than openings (each is then played again), and
/// deterministic limits, with which a repeated opening repeats the same games.
pub fn opening_warnings(cfg: &MatchConfig, jobs: &[GameJob], n_openings: usize) -> Vec<String> {
    let mut out = Vec::new();
    let needed = jobs.iter().map(|j| j.round).max().map_or(0, |r| r + 1) as usize;
    let deterministic = cfg
        .engines
        .iter()
        .all(|e| e.limits.tc.is_none() && e.limits.movetime_ms.is_none());
    let book = if cfg.book_name.is_empty() {
        "the start position".to_owned()
    } else {
        cfg.book_name.clone()
    };
    if needed > n_openings {
        let mut w = format!(
            "{needed} rounds need {needed} openings, but {book} has {n_openings}: after \
             {n_openings} rounds they are used again"
        );
        if deterministic {
            w.push_str(
                ", and with node or depth limits only a repeated opening gives the same games \
                 move for move. Those pairs are not independent, so the error bars and the SPRT \
                 overstate the evidence. Use a larger book, a clock (tc= or st=), or fewer rounds",
            );
        } else {
            w.push_str(
                "; with a clock the games still differ, but the openings' own bias counts more \
                 than once",
            );
        }
        out.push(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Limits;
    use crate::tournament::schedule::schedule;
    use crate::tournament::{EngineConfig, Mode};
    use crate::uci::EngineSpec;

    fn cfg(limits: Limits) -> MatchConfig {
        let e = |n: &str| EngineConfig {
            spec: EngineSpec {
                name: Some(n.into()),
                ..EngineSpec::new("/bin/true")
            },
            limits,
            revision: None,
        };
        MatchConfig::new(vec![e("a"), e("b")], vec![])
    }

    #[test]
    fn repeated_openings_are_warned_about_and_deterministic_limits_more_so() {
        let nodes = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        let jobs = schedule(2, Mode::Gauntlet, 5, 2, 3);
        let w = opening_warnings(&cfg(nodes), &jobs, 3);
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("5 rounds need 5 openings"), "{}", w[0]);
        assert!(w[0].contains("not independent"), "{}", w[0]);
        let clock = Limits {
            tc: Some("1+0.01".parse().unwrap()),
            ..Limits::default()
        };
        let w = opening_warnings(&cfg(clock), &jobs, 3);
        assert!(!w[0].contains("not independent"), "{}", w[0]);
        assert!(opening_warnings(&cfg(nodes), &jobs, 5).is_empty());
    }

    #[test]
    fn duplicate_names_and_an_existing_results_file_are_refused() {
        let mut c = cfg(Limits {
            nodes: Some(1),
            ..Limits::default()
        });
        c.engines[1].spec.name = Some("a".into());
        let err = check_config(&c).unwrap_err().to_string();
        assert!(err.contains("two engines are named `a`"), "{err}");
        c.engines[1].spec.name = Some("b".into());
        let path = std::env::temp_dir().join(format!("sable-pre-{}.json", std::process::id()));
        std::fs::write(&path, "{}").unwrap();
        c.results = Some(path.clone());
        let err = check_config(&c).unwrap_err().to_string();
        assert!(err.contains("--resume"), "{err}");
        c.resume = true;
        check_config(&c).unwrap();
        std::fs::remove_file(&path).ok();
    }
}
