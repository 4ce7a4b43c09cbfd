//! `rev:` engines of a match: an engine named by a git revision is replaced by the path of
//! `sable` built at it, through the build cache of [`crate::plumbing::revision`], and the commit
//! is pinned in the run's record so that a resumed run plays the same binary.

use crate::plumbing::revision::{build_revision, repo_root, revision_key, RevisionError};
use std::path::Path;

pub use crate::plumbing::revision::Revision;

/// Replaces an engine's `cmd=rev:REV` by the path of sable built at that revision (named REV
/// unless it has a name) and pins the commit in `e.revision`; other engines are left alone.
/// `verbose` prints the build steps.
pub fn resolve_engine_revision(
    e: &mut super::EngineConfig,
    verbose: bool,
) -> Result<(), RevisionError> {
    let Some(rev) = e.spec.cmd.strip_prefix("rev:") else {
        return Ok(());
    };
    let rev = rev.to_owned();
    let repo = repo_root()?;
    let mut log = |line: &str| {
        if verbose {
            errln!("{line}");
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
pub fn ensure_pinned_build(
    e: &mut super::EngineConfig,
    verbose: bool,
) -> Result<(), RevisionError> {
    let Some(pin) = &e.revision else {
        return Ok(());
    };
    if Path::new(&e.spec.cmd).exists() {
        return Ok(());
    }
    if pin.commit.contains("-dirty-") {
        return Err(RevisionError::Gone {
            exe: e.spec.cmd.clone(),
            rev: pin.rev.clone(),
        });
    }
    let repo = repo_root()?;
    let mut log = |line: &str| {
        if verbose {
            errln!("{line}");
        }
    };
    let exe = build_revision(&repo, &pin.commit, &mut log)?;
    e.spec.cmd = exe.to_string_lossy().into_owned();
    Ok(())
}
