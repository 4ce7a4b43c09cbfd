//! Compiling tuned weights in only on evidence (`harness tune --emit-rust --sprt RESULTS`).
//!
//! A lower loss does not make a stronger engine: weights tuned on too few positions, or from the
//! wrong start, can lose hundreds of Elo while their loss falls. So `--emit-rust`, which replaces
//! the engine's compiled-in defaults, asks for the results file of an SPRT that shows these very
//! weights beating the shipped ones:
//! - the SPRT ended with H1 accepted, at bounds that test a gain (`elo0 >= 0`);
//! - the tested engine (the first) loaded an `EvalFile` holding exactly the weights to compile in;
//! - the baseline (the second) is the same program with the same arguments and no `EvalFile`,
//!   so it played the compiled-in defaults;
//! - the defaults file about to be replaced is the one this harness was built with, so those
//!   compiled-in defaults were the ones the file holds (a stale build could vouch for nothing).
//!
//! The checks are pure functions of an [`SprtEvidence`]; reading it from a results file is the
//! command's part.

use crate::uci::EngineSpec;
use sable::eval::Params;
use std::fmt;
use std::path::{Path, PathBuf};

/// What an SPRT's results file says about its run.
#[derive(Debug, Clone)]
pub struct SprtEvidence {
    /// The results file.
    pub file: PathBuf,
    /// Its decision in words ("H1 accepted", ...), `None` while undecided.
    pub decision: Option<String>,
    /// Why the run stopped without a verdict, if it did.
    pub stopped: Option<String>,
    /// The SPRT's lower bound.
    pub elo0: f64,
    /// The SPRT's upper bound.
    pub elo1: f64,
    /// The engines in the file's order: the tested one first.
    pub engines: Vec<EngineSpec>,
}

/// Why weights may not be compiled in.
#[derive(Debug)]
pub enum AdoptError {
    /// The SPRT did not accept H1 (undecided, H0, or stopped without a verdict).
    NotAccepted {
        /// The results file.
        file: PathBuf,
        /// What it ended with.
        verdict: String,
    },
    /// The bounds test a simplification, not a gain.
    NotAGainTest {
        /// The results file.
        file: PathBuf,
        /// Its lower bound.
        elo0: f64,
    },
    /// Not a match of two engines.
    Engines {
        /// The results file.
        file: PathBuf,
        /// How many engines it has.
        count: usize,
    },
    /// The tested engine did not load the weights to be compiled in.
    NotTheseWeights {
        /// The results file.
        file: PathBuf,
        /// What was wrong.
        why: String,
    },
    /// The baseline was not the shipped engine.
    BaselineNotShipped {
        /// The results file.
        file: PathBuf,
        /// What was wrong.
        why: String,
    },
    /// The defaults file to replace is not what this harness was built with.
    StaleDefaults {
        /// The file.
        file: PathBuf,
    },
}

impl fmt::Display for AdoptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdoptError::NotAccepted { file, verdict } => write!(
                f,
                "{}: the SPRT ended with `{verdict}`, not `H1 accepted`: the tuned weights have \
                 not shown a gain over the shipped ones, so they are not compiled in (resume it \
                 with `harness sprt --resume {}` if it is undecided)",
                file.display(),
                file.display()
            ),
            AdoptError::NotAGainTest { file, elo0 } => write!(
                f,
                "{}: the SPRT's elo0 is {elo0}; an H1 there says `not much worse`, not `better`. \
                 Run it with --elo0 0 --elo1 5",
                file.display()
            ),
            AdoptError::Engines { file, count } => write!(
                f,
                "{}: {count} engines; the evidence is an SPRT of two, the tuned weights against \
                 the shipped ones",
                file.display()
            ),
            AdoptError::NotTheseWeights { file, why } => {
                write!(f, "{}: the tested (first) engine {why}", file.display())
            }
            AdoptError::BaselineNotShipped { file, why } => write!(
                f,
                "{}: the baseline (second) engine {why}; it must be the same program without \
                 EvalFile, so that it plays the compiled-in defaults",
                file.display()
            ),
            AdoptError::StaleDefaults { file } => write!(
                f,
                "{} is not the compiled-in defaults this harness was built with, so the SPRT's \
                 baseline cannot be vouched for; rebuild (cargo build --release), run the SPRT \
                 against the rebuilt engine, then compile in",
                file.display()
            ),
        }
    }
}

impl std::error::Error for AdoptError {}

/// The value of `EvalFile` in `spec` (the last setting wins, names compare as UCI's do), `None`
/// when it is not set or empty.
fn eval_file(spec: &EngineSpec) -> Option<&str> {
    spec.options
        .iter()
        .rev()
        .find(|(name, _)| name.eq_ignore_ascii_case("EvalFile"))
        .map(|(_, value)| value.as_str())
        .filter(|v| !v.is_empty())
}

/// Where the engine found its `EvalFile`: relative to its working directory, else to `cwd`.
fn resolve(spec: &EngineSpec, value: &str, cwd: &Path) -> PathBuf {
    let path = Path::new(value);
    if path.is_absolute() {
        return path.to_path_buf();
    }
    spec.dir.as_deref().unwrap_or(cwd).join(path)
}

/// Checks that `evidence` shows `weights` beating the compiled-in defaults (see the module
/// documentation). Relative `EvalFile` paths are read from `cwd` (or the engine's `dir=`).
pub fn check(evidence: &SprtEvidence, weights: &Params, cwd: &Path) -> Result<(), AdoptError> {
    let file = || evidence.file.clone();
    if evidence.stopped.is_some() || evidence.decision.as_deref() != Some("H1 accepted") {
        let verdict = match (&evidence.stopped, &evidence.decision) {
            (Some(why), _) => format!("stopped: {why}"),
            (None, Some(d)) => d.clone(),
            (None, None) => "no decision yet".to_owned(),
        };
        return Err(AdoptError::NotAccepted {
            file: file(),
            verdict,
        });
    }
    if evidence.elo0 < 0.0 {
        return Err(AdoptError::NotAGainTest {
            file: file(),
            elo0: evidence.elo0,
        });
    }
    let [tested, base] = evidence.engines.as_slice() else {
        return Err(AdoptError::Engines {
            file: file(),
            count: evidence.engines.len(),
        });
    };
    let not_these = |why: String| AdoptError::NotTheseWeights { file: file(), why };
    let value = eval_file(tested).ok_or_else(|| not_these("loaded no EvalFile".into()))?;
    let path = resolve(tested, value, cwd);
    let played = Params::load(&path).map_err(|e| not_these(format!("loaded {value}: {e}")))?;
    if let Some(i) = (0..Params::len()).find(|&i| played.get(i) != weights.get(i)) {
        return Err(not_these(format!(
            "loaded {}, whose weights differ from the ones to compile in (first at {}: \
             ({}, {}) against ({}, {}))",
            path.display(),
            Params::name(i),
            played.get(i).mg(),
            played.get(i).eg(),
            weights.get(i).mg(),
            weights.get(i).eg()
        )));
    }
    let not_shipped = |why: String| AdoptError::BaselineNotShipped { file: file(), why };
    if let Some(v) = eval_file(base) {
        return Err(not_shipped(format!("loaded EvalFile {v}")));
    }
    if (&base.cmd, &base.args) != (&tested.cmd, &tested.args) {
        return Err(not_shipped(format!(
            "is `{} {}`, not the tested `{} {}`",
            base.cmd,
            base.args.join(" "),
            tested.cmd,
            tested.args.join(" ")
        )));
    }
    Ok(())
}

/// Checks that `defaults_rs`, the file `--emit-rust` replaces, holds the compiled-in defaults of
/// this build (as `Params::to_rust` writes them). A file that does not exist yet passes: there
/// is nothing stale to vouch for.
pub fn check_defaults_file(defaults_rs: &Path) -> Result<(), AdoptError> {
    match std::fs::read_to_string(defaults_rs) {
        Ok(text) if text != Params::default().to_rust() => Err(AdoptError::StaleDefaults {
            file: defaults_rs.to_path_buf(),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sable::eval::S;

    /// A folder with `tuned.json` (the defaults with the pawn's middle-game value + 5).
    fn setup(name: &str) -> (PathBuf, Params) {
        let dir = crate::test_dir(name);
        let mut w = Params::default().weights();
        w[0] = S::new(w[0].mg() + 5, w[0].eg());
        let tuned = Params::from_weights(&w);
        tuned.save(&dir.join("tuned.json")).unwrap();
        (dir, tuned)
    }

    fn evidence(dir: &Path) -> SprtEvidence {
        let sable = EngineSpec::new("target/release/sable");
        let mut tested = sable.clone();
        tested.set_option("EvalFile", &dir.join("tuned.json").display().to_string());
        SprtEvidence {
            file: dir.join("tuned-sprt.json"),
            decision: Some("H1 accepted".into()),
            stopped: None,
            elo0: 0.0,
            elo1: 5.0,
            engines: vec![tested, sable],
        }
    }

    #[test]
    fn an_h1_of_these_weights_against_the_shipped_engine_passes() {
        let (dir, tuned) = setup("adopt-pass");
        check(&evidence(&dir), &tuned, &dir).unwrap();
        // A relative EvalFile is read from the engine's folder (here: the working directory).
        let mut e = evidence(&dir);
        e.engines[0].set_option("EvalFile", "tuned.json");
        check(&e, &tuned, &dir).unwrap();
    }

    #[test]
    fn every_gap_in_the_evidence_is_refused_with_its_reason() {
        let (dir, tuned) = setup("adopt-refuse");
        let refused = |e: SprtEvidence, weights: &Params, words: &str| {
            let err = check(&e, weights, &dir).unwrap_err().to_string();
            assert!(err.contains(words), "`{words}` not in: {err}");
        };
        let mut e = evidence(&dir);
        e.decision = None;
        refused(e, &tuned, "no decision yet");
        let mut e = evidence(&dir);
        e.decision = Some("H0 accepted".into());
        refused(e, &tuned, "`H0 accepted`");
        let mut e = evidence(&dir);
        e.stopped = Some("engine crashed".into());
        refused(e, &tuned, "stopped: engine crashed");
        let mut e = evidence(&dir);
        e.elo0 = -5.0;
        refused(e, &tuned, "elo0 is -5");
        let mut e = evidence(&dir);
        e.engines.pop();
        refused(e, &tuned, "1 engines");
        // Other weights than the ones SPRT-ed: the shipped defaults themselves, say.
        refused(evidence(&dir), &Params::default(), "differ");
        let mut e = evidence(&dir);
        e.engines[0].options.clear();
        refused(e, &tuned, "loaded no EvalFile");
        let mut e = evidence(&dir);
        e.engines[0].set_option("EvalFile", "missing.json");
        refused(e, &tuned, "missing.json");
        let mut e = evidence(&dir);
        e.engines.swap(0, 1); // the defaults were the tested engine
        refused(e, &tuned, "loaded no EvalFile");
        let mut e = evidence(&dir);
        let tuned_file = dir.join("tuned.json").display().to_string();
        e.engines[1].set_option("EvalFile", &tuned_file);
        refused(e, &tuned, "baseline (second) engine loaded EvalFile");
        let mut e = evidence(&dir);
        e.engines[1].cmd = "/usr/games/stockfish".into();
        refused(e, &tuned, "not the tested");
    }

    #[test]
    fn the_defaults_file_must_be_this_builds() {
        let dir = crate::test_dir("adopt-defaults");
        let file = dir.join("defaults.rs");
        std::fs::write(&file, Params::default().to_rust()).unwrap();
        check_defaults_file(&file).unwrap();
        std::fs::write(&file, Params::material_only().to_rust()).unwrap();
        let err = check_defaults_file(&file).unwrap_err().to_string();
        assert!(err.contains("rebuild"), "{err}");
        check_defaults_file(&dir.join("new.rs")).unwrap();
        // The engine's own file is this build's (the harness links the engine it tests).
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/src/eval/defaults.rs");
        check_defaults_file(&shipped).unwrap();
    }
}
