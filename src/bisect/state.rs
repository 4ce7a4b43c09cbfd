//! `bisect.json`: the settings a bisection was started with and every finished step, rewritten
//! (temporary file + rename) after each step. A rerun of the same command reads it, replays the
//! finished steps without building or playing anything, and goes on from there; a rerun with
//! other settings is refused, since verdicts from other conditions would mix.

use super::plan::Verdict;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The layout version of the state file.
pub const VERSION: u32 = 1;

/// Everything that decides the verdicts: a rerun must have the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// good's full hash.
    pub good: String,
    /// bad's full hash.
    pub bad: String,
    /// `games` (SPRTs against good) or `test: CMD`.
    pub mode: String,
    /// `sable` (the rev: cache), `none`, or the build command.
    pub build: String,
    /// The engine's path in the revision's worktree (custom builds).
    pub engine_path: Option<String>,
    /// Whether commits keeping their parent's Bench are skipped.
    pub bench_skip: bool,
    /// The SPRT of each step (games mode).
    pub sprt: Option<SprtSettings>,
    /// The match options that change games (tc, nodes, openings, adjudication, ...), in words.
    pub match_options: String,
}

/// The statistics of the games mode, fixed before anything runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    /// Elo of a bad commit against good (H0).
    pub elo0: f64,
    /// Elo of a good commit against good (H1).
    pub elo1: f64,
    /// `normalized` or `logistic`.
    pub model: String,
    /// The bound on the whole search's error.
    pub max_error: f64,
    /// The SPRTs planned at most.
    pub max_tests: usize,
    /// alpha = beta of each SPRT: `max_error / max_tests`.
    pub per_step: f64,
}

/// The games of one SPRT step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Games played.
    pub games: u64,
    /// Wins, losses, draws of the tested commit.
    pub wld: [u64; 3],
    /// Logistic Elo against good and its 95 % half-width.
    pub elo: [f64; 2],
    /// The final LLR.
    pub llr: f64,
    /// The LLR bounds (lower: bad, upper: good).
    pub bounds: [f64; 2],
    /// The step's results file (with its journal beside it).
    pub results: String,
}

/// One finished step: a commit built and tested, or skipped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The commit's full hash.
    pub commit: String,
    /// Its subject line.
    pub subject: String,
    /// What the step found.
    pub verdict: Verdict,
    /// Why, in words (the SPRT's decision, the exit code, or why it was skipped).
    pub reason: String,
    /// The games, for an SPRT step.
    #[serde(default)]
    pub evidence: Option<Evidence>,
    /// The test command's exit code, for a test step.
    #[serde(default)]
    pub exit_code: Option<i32>,
}

impl Step {
    /// Whether the step ran a test (an SPRT or the test command), not only a build.
    pub fn ran(&self) -> bool {
        self.evidence.is_some() || self.exit_code.is_some()
    }
}

/// The whole file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// [`VERSION`].
    pub version: u32,
    /// The settings.
    pub settings: Settings,
    /// The finished steps, in order.
    pub steps: Vec<Step>,
}

/// Why the state file could not be used.
#[derive(Debug)]
pub enum StateError {
    /// Reading or writing failed.
    Io {
        /// The file.
        file: PathBuf,
        /// What the operating system said.
        cause: std::io::Error,
    },
    /// Writing the file failed.
    Write(crate::plumbing::atomic::AtomicError),
    /// The file is not a bisect state file.
    Parse {
        /// The file.
        file: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// What is wrong there.
        cause: String,
    },
    /// The file was made with other settings.
    Different {
        /// The file.
        file: PathBuf,
        /// The first setting that differs: its name, the recorded and the new value.
        what: String,
    },
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Io { file, cause } => write!(f, "{}: {cause}", file.display()),
            StateError::Write(e) => write!(f, "{e}"),
            StateError::Parse { file, line, cause } => {
                write!(
                    f,
                    "{}:{line}: not a bisect state file: {cause}",
                    file.display()
                )
            }
            StateError::Different { file, what } => write!(
                f,
                "{} records a bisection with other settings ({what}); rerun with the same \
                 options to continue it, or give another --dir",
                file.display()
            ),
        }
    }
}

impl std::error::Error for StateError {}

impl State {
    /// A new state with no steps.
    pub fn new(settings: Settings) -> State {
        State {
            version: VERSION,
            settings,
            steps: Vec::new(),
        }
    }

    /// Reads `file` if it exists (`None` if not) and checks it was made with `settings`.
    pub fn load(file: &Path, settings: &Settings) -> Result<Option<State>, StateError> {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(cause) => {
                return Err(StateError::Io {
                    file: file.to_owned(),
                    cause,
                })
            }
        };
        let state: State = serde_json::from_str(&text).map_err(|e| StateError::Parse {
            file: file.to_owned(),
            line: e.line(),
            cause: e.to_string(),
        })?;
        if state.version != VERSION {
            return Err(StateError::Parse {
                file: file.to_owned(),
                line: 1,
                cause: format!("version {} (this harness writes {VERSION})", state.version),
            });
        }
        if let Some(what) = difference(&state.settings, settings) {
            return Err(StateError::Different {
                file: file.to_owned(),
                what,
            });
        }
        Ok(Some(state))
    }

    /// Writes the state to `file` whole ([`crate::plumbing::atomic`]).
    pub fn save(&self, file: &Path) -> Result<(), StateError> {
        let text = serde_json::to_string_pretty(self).expect("the state is plain data");
        crate::plumbing::atomic::write(file, text + "\n").map_err(StateError::Write)
    }

    /// The step recorded for `commit`, if any.
    pub fn step(&self, commit: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.commit == commit)
    }
}

/// The first setting that differs, in words, or `None`.
fn difference(old: &Settings, new: &Settings) -> Option<String> {
    let a = serde_json::to_value(old).expect("plain data");
    let b = serde_json::to_value(new).expect("plain data");
    let (a, b) = (a.as_object()?, b.as_object()?);
    a.iter()
        .find(|(k, v)| b.get(*k) != Some(v))
        .map(|(k, v)| format!("{k}: recorded {v}, now {}", b.get(k).unwrap_or(&v.clone())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            good: "a".repeat(40),
            bad: "b".repeat(40),
            mode: "games".into(),
            build: "sable".into(),
            engine_path: None,
            bench_skip: true,
            sprt: Some(SprtSettings {
                elo0: -10.0,
                elo1: 0.0,
                model: "normalized".into(),
                max_error: 0.1,
                max_tests: 4,
                per_step: 0.025,
            }),
            match_options: "tc=1+0.01".into(),
        }
    }

    #[test]
    fn a_state_reads_back_and_refuses_other_settings() {
        let dir = crate::test_dir("bisect-state");
        let file = dir.join("bisect.json");
        let _ = std::fs::remove_file(&file);
        assert!(State::load(&file, &settings()).unwrap().is_none());
        let mut s = State::new(settings());
        s.steps.push(Step {
            commit: "c".repeat(40),
            subject: "Halve the queen".into(),
            verdict: Verdict::Bad,
            reason: "H0 accepted".into(),
            evidence: Some(Evidence {
                games: 12,
                wld: [0, 10, 2],
                elo: [-400.0, 120.0],
                llr: -3.1,
                bounds: [-3.0, 3.0],
                results: "sprt-c.json".into(),
            }),
            exit_code: None,
        });
        s.save(&file).unwrap();
        let back = State::load(&file, &settings()).unwrap().unwrap();
        assert_eq!(back, s);
        assert_eq!(back.step(&"c".repeat(40)).unwrap().verdict, Verdict::Bad);
        let mut other = settings();
        other.match_options = "tc=2+0.02".into();
        let err = State::load(&file, &other).unwrap_err().to_string();
        assert!(
            err.contains("match_options") && err.contains("tc=2+0.02"),
            "{err}"
        );
    }

    #[test]
    fn a_broken_state_file_names_its_line() {
        let dir = crate::test_dir("bisect-state-bad");
        let file = dir.join("bisect.json");
        std::fs::write(&file, "{\n  \"version\": 1,\n  \"settings\": 7\n}\n").unwrap();
        let err = State::load(&file, &settings()).unwrap_err().to_string();
        assert!(err.contains("bisect.json:3:"), "{err}");
    }
}
