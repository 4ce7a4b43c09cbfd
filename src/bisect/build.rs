//! Building one revision for a step: `sable` through the `rev:` cache
//! (`plumbing::revision`, one build per commit under `target/sable-revs/`), or a command of the
//! user's run in a git worktree of the revision (`--build CMD`, the engine at `--engine-path`
//! inside it), or nothing (`--build none`, for a `--test` command that builds for itself).
//!
//! The worktrees live under `target/sable-revs/bisect-<fingerprint of the build>/<commit>` and
//! stay while the bisection runs (the engine runs from there, and a resumed run reuses them);
//! [`Builder::remove_trees`] removes them once it is over. A build that fails is reported, not
//! raised: the commit is skipped, as `git bisect skip` would.

use crate::plumbing::hash::fnv;
use crate::plumbing::progress::spin;
use crate::plumbing::revision::{build_revision, worktree_add, worktree_remove, RevisionError};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why `--build` and `--engine-path` do not go together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildSpecError {
    /// `--engine-path` given with `--build sable` or `--build none` (`build`).
    EnginePath { build: String },
    /// `--build` given an empty command.
    NoCommand,
}

impl fmt::Display for BuildSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildSpecError::EnginePath { build } => write!(
                f,
                "--engine-path goes with a build command, not with --build {build}"
            ),
            BuildSpecError::NoCommand => write!(f, "--build needs a command (or sable, or none)"),
        }
    }
}

impl std::error::Error for BuildSpecError {}

/// Why a revision does not build (the step is skipped, as `git bisect skip` would).
#[derive(Debug)]
pub enum BuildError {
    /// The build (`what`: cargo build, or the user's command) failed: the last line of its
    /// output, and the log file that holds the rest (None when the log could not be written).
    Failed {
        what: String,
        last: String,
        log: Option<PathBuf>,
    },
    /// The build command could not be started.
    Start { cmd: String, cause: std::io::Error },
    /// The build command succeeded but made no engine at `--engine-path`.
    NoEngine { cmd: String, engine_path: String },
    /// A worktree's folder or its build stamp could not be written.
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
    /// The revision's worktree could not be made.
    Tree(RevisionError),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Failed { what, last, log } => {
                write!(f, "{what} failed: {last}")?;
                match log {
                    Some(log) => write!(f, " (log: {})", log.display()),
                    None => Ok(()),
                }
            }
            BuildError::Start { cmd, cause } => write!(f, "sh -c {cmd:?}: {cause}"),
            BuildError::NoEngine { cmd, engine_path } => write!(
                f,
                "`{cmd}` succeeded, but made no {engine_path} (--engine-path)"
            ),
            BuildError::Write { path, cause } => write!(f, "{}: {cause}", path.display()),
            BuildError::Tree(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// How each revision is built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildSpec {
    /// `sable` through the `rev:` cache.
    Sable,
    /// No build: the test command builds what it needs.
    Nothing,
    /// A shell command run in the revision's worktree; the engine is `engine_path` inside it.
    Command {
        /// The command (`sh -c`).
        cmd: String,
        /// The engine, relative to the worktree.
        engine_path: String,
    },
}

impl BuildSpec {
    /// From `--build` (`sable`, `none` or a command) and `--engine-path`.
    pub fn parse(build: &str, engine_path: Option<&str>) -> Result<BuildSpec, BuildSpecError> {
        match (build.trim(), engine_path) {
            ("sable", None) => Ok(BuildSpec::Sable),
            ("none", None) => Ok(BuildSpec::Nothing),
            ("sable" | "none", Some(_)) => Err(BuildSpecError::EnginePath {
                build: build.to_owned(),
            }),
            ("", _) => Err(BuildSpecError::NoCommand),
            (cmd, path) => Ok(BuildSpec::Command {
                cmd: cmd.to_owned(),
                engine_path: path.unwrap_or("target/release/sable").to_owned(),
            }),
        }
    }

    /// The words stored in the state file.
    pub fn describe(&self) -> String {
        match self {
            BuildSpec::Sable => "sable".into(),
            BuildSpec::Nothing => "none".into(),
            BuildSpec::Command { cmd, .. } => cmd.clone(),
        }
    }
}

/// A built revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The engine (absent with [`BuildSpec::Nothing`]).
    pub engine: Option<PathBuf>,
    /// The revision's worktree (a custom build, or any build for a test command).
    pub tree: Option<PathBuf>,
}

/// Builds revisions of one repository, one way.
pub struct Builder {
    repo: PathBuf,
    spec: BuildSpec,
    /// Whether a worktree is needed even when the build makes none (a test command runs there).
    need_tree: bool,
    /// Where the build logs go (the bisection's folder).
    logs: PathBuf,
    /// Show a spinner while building.
    verbose: bool,
}

impl Builder {
    /// A builder for `repo`; build logs are written to `logs`.
    pub fn new(repo: &Path, spec: BuildSpec, need_tree: bool, logs: &Path, verbose: bool) -> Self {
        Builder {
            repo: repo.to_owned(),
            spec,
            need_tree,
            logs: logs.to_owned(),
            verbose,
        }
    }

    /// The folder of this build's worktrees.
    fn trees(&self) -> PathBuf {
        let key = fnv(self.spec.describe().as_bytes()) & 0xffff_ffff;
        self.repo
            .join("target")
            .join("sable-revs")
            .join(format!("bisect-{key:08x}"))
    }

    /// Builds `hash`; `Err` says why it does not build (the last lines of its output, and the
    /// log file that holds the rest).
    pub fn build(&self, hash: &str) -> Result<Built, BuildError> {
        let short = super::history::short(hash);
        let mut built = Built {
            engine: None,
            tree: None,
        };
        if self.need_tree || matches!(self.spec, BuildSpec::Command { .. }) {
            built.tree = Some(self.tree(hash)?);
        }
        match &self.spec {
            BuildSpec::Nothing => {}
            BuildSpec::Sable => {
                let what = format!("building sable at {short} (rev: cache)");
                let result = spin(self.verbose, &what, || {
                    build_revision(&self.repo, hash, &mut |_| {})
                });
                match result {
                    Ok(exe) => built.engine = Some(exe),
                    Err(e) => return Err(self.failure(short, "cargo build", &e.to_string())),
                }
            }
            BuildSpec::Command { cmd, engine_path } => {
                let tree = built.tree.as_deref().expect("made above");
                built.engine = Some(self.run_command(short, cmd, tree, engine_path)?);
            }
        }
        Ok(built)
    }

    /// `--build CMD` for `short` in its worktree `tree`, once (a stamp beside the tree marks it
    /// built); returns the engine it left at `engine_path`.
    fn run_command(
        &self,
        short: &str,
        cmd: &str,
        tree: &Path,
        engine_path: &str,
    ) -> Result<PathBuf, BuildError> {
        let stamp = tree.with_extension("built");
        let engine = tree.join(engine_path);
        if stamp.exists() {
            return Ok(engine);
        }
        let what = format!("building {short}: {cmd}");
        let out = spin(self.verbose, &what, || {
            Command::new("sh")
                .arg("-c")
                .arg(cmd)
                .current_dir(tree)
                .output()
        })
        .map_err(|cause| BuildError::Start {
            cmd: cmd.to_owned(),
            cause,
        })?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !out.status.success() {
            let why = format!("`{cmd}` failed ({})\n{text}", out.status);
            return Err(self.failure(short, cmd, &why));
        }
        if !engine.exists() {
            return Err(BuildError::NoEngine {
                cmd: cmd.to_owned(),
                engine_path: engine_path.to_owned(),
            });
        }
        std::fs::write(&stamp, text).map_err(|cause| BuildError::Write {
            path: stamp.clone(),
            cause,
        })?;
        Ok(engine)
    }

    /// Writes a failed build's output to `build-<short>.log` and returns the reason in one line.
    fn failure(&self, short: &str, what: &str, output: &str) -> BuildError {
        let log = self.logs.join(format!("build-{short}.log"));
        let last = output
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("no output");
        BuildError::Failed {
            what: what.to_owned(),
            last: last.to_owned(),
            log: std::fs::write(&log, output).ok().map(|()| log),
        }
    }

    /// A fresh worktree of `hash` (an earlier one is reused if its build finished).
    fn tree(&self, hash: &str) -> Result<PathBuf, BuildError> {
        let dir = self.trees().join(hash);
        if dir.join(".git").exists()
            && (dir.with_extension("built").exists()
                || !matches!(self.spec, BuildSpec::Command { .. }))
        {
            return Ok(dir);
        }
        self.remove_tree(&dir);
        std::fs::create_dir_all(self.trees()).map_err(|cause| BuildError::Write {
            path: dir.clone(),
            cause,
        })?;
        worktree_add(&self.repo, &dir, hash).map_err(BuildError::Tree)?;
        Ok(dir)
    }

    fn remove_tree(&self, dir: &Path) {
        let _ = std::fs::remove_file(dir.with_extension("built"));
        worktree_remove(&self.repo, dir);
    }

    /// Removes every worktree of this build (when the bisection is over).
    pub fn remove_trees(&self) {
        let Ok(entries) = std::fs::read_dir(self.trees()) else {
            return;
        };
        for e in entries.flatten() {
            if e.path().is_dir() {
                self.remove_tree(&e.path());
            }
        }
        let _ = std::fs::remove_dir_all(self.trees());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_words_choose_the_build() {
        assert_eq!(BuildSpec::parse("sable", None), Ok(BuildSpec::Sable));
        assert_eq!(BuildSpec::parse("none", None), Ok(BuildSpec::Nothing));
        assert_eq!(
            BuildSpec::parse("make", None),
            Ok(BuildSpec::Command {
                cmd: "make".into(),
                engine_path: "target/release/sable".into()
            })
        );
        assert!(BuildSpec::parse("sable", Some("x")).is_err());
        assert!(BuildSpec::parse(" ", None).is_err());
    }
}
