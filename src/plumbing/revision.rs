//! Engines given as git revisions of this repository (`rev:HEAD~1`, `rev:abc123`, `rev:WORKTREE`):
//! each revision of `sable` is built once (git worktree + cargo build --release) into a cache
//! under `target/sable-revs/`, keyed by commit hash, and reused. The runner's `rev:` engines
//! (`tournament::revision`), bisect's builds and the tuner's cache key stand on it; the git
//! worktrees of a revision are made and removed here for all of them.

use super::hash::fnv;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why a revision could not be named or built.
#[derive(Debug)]
pub enum RevisionError {
    /// git or cargo could not be started, or failed: the command, and why (its exit status and
    /// the last lines of its stderr).
    Command { command: String, cause: String },
    /// The revision names no commit of the repository.
    NotACommit { rev: String, repo: PathBuf },
    /// The built binary could not be copied into the cache.
    Install { path: PathBuf, cause: String },
    /// A resumed run's build of uncommitted changes is gone from the cache: that tree is no
    /// commit, so it cannot be built again.
    Gone { exe: String, rev: String },
}

impl std::fmt::Display for RevisionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RevisionError::Command { command, cause } => write!(f, "{command}{cause}"),
            RevisionError::NotACommit { rev, repo } => {
                write!(f, "`{rev}` is not a commit of {}", repo.display())
            }
            RevisionError::Install { path, cause } => write!(f, "{}: {cause}", path.display()),
            RevisionError::Gone { exe, rev } => write!(
                f,
                "{exe} (rev:{rev} with uncommitted changes) is gone and cannot be built again; \
                 start a new run"
            ),
        }
    }
}

impl std::error::Error for RevisionError {}

/// Runs a command and returns its stdout, or an error with its stderr.
fn run(cmd: &mut Command) -> Result<String, RevisionError> {
    let command = format!("{cmd:?}");
    let out = cmd.output().map_err(|e| RevisionError::Command {
        command: command.clone(),
        cause: format!(": {e}"),
    })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(RevisionError::Command {
            command,
            cause: format!(" failed ({}):\n{}", out.status, tail.join("\n")),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// `git -C repo`.
pub fn git(repo: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C").arg(repo);
    c
}

/// A detached git worktree of `commit` at `dir`; `Err` carries git's complaint.
pub fn worktree_add(repo: &Path, dir: &Path, commit: &str) -> Result<(), RevisionError> {
    run(git(repo)
        .args(["worktree", "add", "--detach", "--quiet"])
        .arg(dir)
        .arg(commit))
    .map(drop)
}

/// Removes the worktree at `dir` (and whatever is left of the folder); best effort, as it is
/// called while cleaning up after a build that may have failed half way.
pub fn worktree_remove(repo: &Path, dir: &Path) {
    if dir.exists() {
        let _ = run(git(repo).args(["worktree", "remove", "--force"]).arg(dir));
        let _ = std::fs::remove_dir_all(dir);
    }
    let _ = run(git(repo).args(["worktree", "prune"]));
}

/// The cache key of a revision: the commit hash, plus a fingerprint of uncommitted changes for
/// `WORKTREE`.
pub fn revision_key(repo: &Path, rev: &str) -> Result<String, RevisionError> {
    if rev == "WORKTREE" {
        let head = run(git(repo).args(["rev-parse", "HEAD"]))?;
        let diff =
            run(git(repo).args(["diff", "HEAD", "--", "engine", "Cargo.toml", "Cargo.lock"]))?;
        let untracked =
            run(git(repo).args(["ls-files", "--others", "--exclude-standard", "engine"]))?;
        if diff.is_empty() && untracked.is_empty() {
            return Ok(head);
        }
        return Ok(format!(
            "{head}-dirty-{:016x}",
            fnv(format!("{diff}\0{untracked}").as_bytes())
        ));
    }
    run(git(repo).args([
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{rev}^{{commit}}"),
    ]))
    .map_err(|_| RevisionError::NotACommit {
        rev: rev.to_owned(),
        repo: repo.to_owned(),
    })
}

/// The repository root containing the current directory.
pub fn repo_root() -> Result<PathBuf, RevisionError> {
    run(Command::new("git").args(["rev-parse", "--show-toplevel"])).map(PathBuf::from)
}

/// The path of a built `sable` for `rev` (without the `rev:` prefix), building it if needed.
/// `log` receives one line per step.
pub fn build_revision(
    repo: &Path,
    rev: &str,
    log: &mut dyn FnMut(&str),
) -> Result<PathBuf, RevisionError> {
    let key = revision_key(repo, rev)?;
    let cache = repo.join("target").join("sable-revs");
    let exe = cache.join(&key).join("sable");
    if exe.exists() {
        log(&format!("rev:{rev} = {key}: cached {}", exe.display()));
        return Ok(exe);
    }
    let built = if rev == "WORKTREE" {
        log(&format!(
            "rev:{rev}: building the working tree (cargo build --release -p sable)"
        ));
        cargo_build_sable(repo, None)?
    } else {
        let src = cache.join(format!("src-{key}"));
        worktree_remove(repo, &src);
        log(&format!(
            "rev:{rev} = {key}: git worktree add + cargo build --release"
        ));
        worktree_add(repo, &src, &key)?;
        let result = cargo_build_sable(&src, Some(&cache.join("build")));
        worktree_remove(repo, &src);
        result?
    };
    install(&built, &exe)?;
    log(&format!("rev:{rev}: built {}", exe.display()));
    Ok(exe)
}

/// `cargo build --release -p sable --bin sable` in `dir` (into `target_dir` when given, else
/// `dir`'s own `target/`); returns the built binary's path.
fn cargo_build_sable(dir: &Path, target_dir: Option<&Path>) -> Result<PathBuf, RevisionError> {
    let mut cargo = Command::new("cargo");
    cargo
        .current_dir(dir)
        .args(["build", "--release", "-p", "sable", "--bin", "sable"]);
    if let Some(t) = target_dir {
        cargo.arg("--target-dir").arg(t);
    }
    run(&mut cargo)?;
    let target = target_dir.map_or_else(|| dir.join("target"), Path::to_owned);
    Ok(target.join("release").join("sable"))
}

/// The git revision an engine was built from: as the user named it and as it was pinned.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Revision {
    /// As given (`HEAD~1`, `WORKTREE`, a branch).
    pub rev: String,
    /// Its cache key when it was built: the commit hash, with `-dirty-<fingerprint>` for a
    /// working tree with uncommitted changes.
    pub commit: String,
}

/// Copies `built` to `exe` atomically ([`crate::plumbing::atomic`]), so that `exe` either does
/// not exist or is complete: a kill during the copy leaves no file a later run could mistake
/// for a cached build.
fn install(built: &Path, exe: &Path) -> Result<(), RevisionError> {
    let dir = exe.parent().expect("the cache path has a parent");
    let at = |path: &Path| {
        let path = path.to_owned();
        move |e: &dyn std::fmt::Display| RevisionError::Install {
            path,
            cause: e.to_string(),
        }
    };
    std::fs::create_dir_all(dir).map_err(|e| at(dir)(&e))?;
    let copying = |e: std::io::Error| RevisionError::Install {
        path: exe.to_owned(),
        cause: format!("copying {}: {e}", built.display()),
    };
    let mut from = std::fs::File::open(built).map_err(copying)?;
    let mode = from.metadata().map_err(copying)?.permissions();
    let mut to = crate::plumbing::atomic::AtomicFile::create(exe).map_err(|e| at(exe)(&e))?;
    std::io::copy(&mut from, &mut to).map_err(copying)?;
    // The copy is a new file: give it the build's mode (executable).
    to.file().set_permissions(mode).map_err(copying)?;
    to.commit().map_err(|e| at(exe)(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_lands_in_the_cache_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("sable-install-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let built = dir.join("built");
        std::fs::write(&built, vec![7u8; 100_000]).unwrap();
        let exe = dir.join("cache").join("abc").join("sable");
        // A copy killed half way leaves a partial file beside, never at, the cached path.
        std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
        let planted = ".sable.1-0.tmp";
        std::fs::write(exe.with_file_name(planted), [7u8; 10]).unwrap();
        assert!(!exe.exists());
        install(&built, &exe).unwrap();
        assert_eq!(std::fs::read(&exe).unwrap().len(), 100_000);
        let leftovers: Vec<_> = std::fs::read_dir(exe.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".tmp") && n != planted)
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
            assert_eq!(mode(&exe), mode(&built), "the build's mode is kept");
        }
        assert!(install(&dir.join("missing"), &exe)
            .unwrap_err()
            .to_string()
            .contains("missing"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn keys_are_commit_hashes_and_bad_revisions_are_errors() {
        let Ok(repo) = repo_root() else { return }; // Not in a git checkout (e.g. a source tarball).
        let head = revision_key(&repo, "HEAD").unwrap();
        assert_eq!(head.len(), 40);
        assert!(revision_key(&repo, "WORKTREE").unwrap().starts_with(&head));
        assert!(matches!(
            revision_key(&repo, "no-such-branch-xyz"),
            Err(RevisionError::NotACommit { .. })
        ));
    }
}
