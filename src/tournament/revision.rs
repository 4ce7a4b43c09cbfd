//! Engines given as git revisions of this repository (`rev:HEAD~1`, `rev:abc123`, `rev:WORKTREE`):
//! each revision of `sable` is built once (git worktree + cargo build --release) into a cache
//! under `target/sable-revs/`, keyed by commit hash, and reused.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs a command and returns its stdout, or an error with its stderr.
fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!(
            "{cmd:?} failed ({}):\n{}",
            out.status,
            tail.join("\n")
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn git(repo: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C").arg(repo);
    c
}

/// FNV-1a: a stable short fingerprint of the working tree's changes (and of `bisect`'s build
/// commands, which key their own caches).
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    fnv_extend(FNV_START, bytes)
}

/// The FNV-1a hash of no bytes, where a streamed hash starts.
pub(crate) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Continues the FNV-1a hash `h` over `bytes` (so a file can be hashed a piece at a time; the
/// tuner's dataset cache fingerprints its sources and checksums itself this way).
pub(crate) fn fnv_extend(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The cache key of a revision: the commit hash, plus a fingerprint of uncommitted changes for
/// `WORKTREE`.
pub fn revision_key(repo: &Path, rev: &str) -> Result<String, String> {
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
    .map_err(|_| format!("`{rev}` is not a commit of {}", repo.display()))
}

/// The repository root containing the current directory.
pub fn repo_root() -> Result<PathBuf, String> {
    run(Command::new("git").args(["rev-parse", "--show-toplevel"])).map(PathBuf::from)
}

/// The path of a built `sable` for `rev` (without the `rev:` prefix), building it if needed.
/// `log` receives one line per step.
pub fn build_revision(
    repo: &Path,
    rev: &str,
    log: &mut dyn FnMut(&str),
) -> Result<PathBuf, String> {
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
        run(Command::new("cargo").current_dir(repo).args([
            "build",
            "--release",
            "-p",
            "sable",
            "--bin",
            "sable",
        ]))?;
        repo.join("target").join("release").join("sable")
    } else {
        let src = cache.join(format!("src-{key}"));
        if src.exists() {
            let _ = run(git(repo).args(["worktree", "remove", "--force"]).arg(&src));
            let _ = std::fs::remove_dir_all(&src);
        }
        log(&format!(
            "rev:{rev} = {key}: git worktree add + cargo build --release"
        ));
        run(git(repo)
            .args(["worktree", "add", "--detach"])
            .arg(&src)
            .arg(&key))?;
        let target_dir = cache.join("build");
        let result = run(Command::new("cargo")
            .current_dir(&src)
            .args([
                "build",
                "--release",
                "-p",
                "sable",
                "--bin",
                "sable",
                "--target-dir",
            ])
            .arg(&target_dir));
        let _ = run(git(repo).args(["worktree", "remove", "--force"]).arg(&src));
        result?;
        target_dir.join("release").join("sable")
    };
    install(&built, &exe)?;
    log(&format!("rev:{rev}: built {}", exe.display()));
    Ok(exe)
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

/// Replaces an engine's `cmd=rev:REV` by the path of sable built at that revision (named REV
/// unless it has a name) and pins the commit in `e.revision`; other engines are left alone.
/// `verbose` prints the build steps.
pub fn resolve_engine_revision(e: &mut super::EngineConfig, verbose: bool) -> Result<(), String> {
    let Some(rev) = e.spec.cmd.strip_prefix("rev:") else {
        return Ok(());
    };
    let rev = rev.to_owned();
    let repo = repo_root()?;
    let mut log = |line: &str| {
        if verbose {
            eprintln!("{line}");
        }
    };
    let commit = revision_key(&repo, &rev)?;
    let exe = build_revision(&repo, &rev, &mut log)?;
    if e.spec.name.is_none() {
        e.spec.name = Some(rev.clone());
    }
    e.spec.cmd = exe.to_string_lossy().into_owned();
    e.revision = Some(Revision { rev, commit });
    Ok(())
}

/// Makes sure a resumed run's pinned engine is there: a `rev:` build removed from the cache
/// since is built again at its pinned commit (the same binary, as builds are reproducible
/// enough for a match); a working tree's uncommitted build cannot be, and says so.
pub fn ensure_pinned_build(e: &mut super::EngineConfig, verbose: bool) -> Result<(), String> {
    let Some(pin) = &e.revision else {
        return Ok(());
    };
    if Path::new(&e.spec.cmd).exists() {
        return Ok(());
    }
    if pin.commit.contains("-dirty-") {
        return Err(format!(
            "{} (rev:{} with uncommitted changes) is gone and cannot be built again; start a \
             new run",
            e.spec.cmd, pin.rev
        ));
    }
    let repo = repo_root()?;
    let mut log = |line: &str| {
        if verbose {
            eprintln!("{line}");
        }
    };
    let exe = build_revision(&repo, &pin.commit, &mut log)?;
    e.spec.cmd = exe.to_string_lossy().into_owned();
    Ok(())
}

/// Copies `built` to `exe` atomically ([`crate::plumbing::atomic`]), so that `exe` either does
/// not exist or is complete: a kill during the copy leaves no file a later run could mistake
/// for a cached build.
fn install(built: &Path, exe: &Path) -> Result<(), String> {
    let dir = exe.parent().expect("the cache path has a parent");
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let copying = |e: std::io::Error| format!("copying {}: {e}", built.display());
    let mut from = std::fs::File::open(built).map_err(copying)?;
    let mode = from.metadata().map_err(copying)?.permissions();
    let mut to = crate::plumbing::atomic::AtomicFile::create(exe).map_err(|e| e.to_string())?;
    std::io::copy(&mut from, &mut to).map_err(copying)?;
    // The copy is a new file: give it the build's mode (executable).
    to.file().set_permissions(mode).map_err(copying)?;
    to.commit().map_err(|e| e.to_string())
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
            .contains("missing"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn keys_are_commit_hashes_and_bad_revisions_are_errors() {
        let Ok(repo) = repo_root() else { return }; // Not in a git checkout (e.g. a source tarball).
        let head = revision_key(&repo, "HEAD").unwrap();
        assert_eq!(head.len(), 40);
        assert!(revision_key(&repo, "WORKTREE").unwrap().starts_with(&head));
        assert!(revision_key(&repo, "no-such-branch-xyz")
            .unwrap_err()
            .contains("not a commit"));
    }
}
