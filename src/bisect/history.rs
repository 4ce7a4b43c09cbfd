//! The commits to search: bad's first-parent line back to good (`git rev-list --first-parent
//! good..bad`), oldest first, each with its subject and `Bench:` signature.
//!
//! First-parent, not the whole `--ancestry-path` DAG: on one line "weaker from commit i on" is
//! a property that can be halved, and a branch merged into the line is judged as its merge
//! commit (bisect the branch itself next, from the merge base to the merge's second parent).

use crate::check::signature::parse_bench_line;
use crate::plumbing::revision::git as git_in;
use std::fmt;
use std::path::{Path, PathBuf};

/// One commit of the range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// Full hash.
    pub hash: String,
    /// First line of its message.
    pub subject: String,
    /// Its `Bench: N` line, if any (the last one wins, as `harness check` reads it).
    pub bench: Option<u64>,
    /// Whether it is a merge (more than one parent).
    pub merge: bool,
}

impl Commit {
    /// The abbreviated hash shown everywhere (12 digits).
    pub fn short(&self) -> &str {
        short(&self.hash)
    }
}

/// The first 12 characters of a hash (all of it if shorter; a hash read back from a state file
/// edited by hand may hold anything, so this cuts at a character boundary).
pub fn short(hash: &str) -> &str {
    hash.char_indices()
        .nth(12)
        .map_or(hash, |(i, _)| &hash[..i])
}

/// The good revision and the commits after it up to bad, oldest first (bad is the last).
#[derive(Debug, Clone)]
pub struct History {
    /// The good revision.
    pub good: Commit,
    /// The commits of `good..bad` on bad's first-parent line, oldest first.
    pub commits: Vec<Commit>,
}

/// Why the range could not be read.
#[derive(Debug)]
pub enum HistoryError {
    /// git could not be run, or failed.
    Git {
        /// The repository.
        repo: PathBuf,
        /// The git command and what it said.
        cause: String,
    },
    /// A revision given is not a commit.
    NotACommit {
        /// The option (`--good` or `--bad`).
        option: &'static str,
        /// The revision as given.
        rev: String,
    },
    /// good is not an ancestor of bad (or is bad).
    NotAncestor {
        /// good's hash.
        good: String,
        /// bad's hash.
        bad: String,
    },
    /// good is an ancestor of bad, but not on bad's first-parent line.
    NotFirstParent {
        /// good's hash.
        good: String,
        /// The oldest commit of the line after good's merge.
        oldest: String,
    },
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::Git { repo, cause } => write!(f, "git in {}: {cause}", repo.display()),
            HistoryError::NotACommit { option, rev } => {
                write!(f, "{option} {rev}: not a commit of this repository")
            }
            HistoryError::NotAncestor { good, bad } => write!(
                f,
                "--good {good} is not an ancestor of --bad {bad}: bisect searches the commits \
                 between them, so good must come first"
            ),
            HistoryError::NotFirstParent { good, oldest } => write!(
                f,
                "--good {good} is not on --bad's first-parent line (that line meets good's \
                 history only at the merge {oldest}); give a good revision on the line, e.g. \
                 the merge's first parent"
            ),
        }
    }
}

impl std::error::Error for HistoryError {}

/// Runs git in `repo` and returns its stdout.
fn git(repo: &Path, args: &[&str]) -> Result<String, HistoryError> {
    let out = git_in(repo)
        .args(args)
        .output()
        .map_err(|e| HistoryError::Git {
            repo: repo.to_owned(),
            cause: format!("git {}: {e}", args.join(" ")),
        })?;
    if !out.status.success() {
        return Err(HistoryError::Git {
            repo: repo.to_owned(),
            cause: format!(
                "git {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The full hash of `rev`, or [`HistoryError::NotACommit`].
pub fn resolve(repo: &Path, option: &'static str, rev: &str) -> Result<String, HistoryError> {
    git(
        repo,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map(|s| s.trim().to_owned())
    .map_err(|_| HistoryError::NotACommit {
        option,
        rev: rev.to_owned(),
    })
}

/// Field and record separators of the `git log` format below (they never occur in messages).
const FIELD: char = '\u{1f}';
const RECORD: char = '\u{1e}';

/// Parses `git log --format=%H%x1f%P%x1f%s%x1f%B%x1e` output.
fn parse_log(text: &str) -> Vec<Commit> {
    text.split(RECORD)
        .filter_map(|rec| {
            let mut f = rec.trim_start_matches('\n').splitn(4, FIELD);
            let hash = f.next()?.trim().to_owned();
            if hash.is_empty() {
                return None;
            }
            let parents = f.next().unwrap_or("");
            let subject = f.next().unwrap_or("").to_owned();
            let body = f.next().unwrap_or("");
            Some(Commit {
                hash,
                subject,
                bench: parse_bench_line(body),
                merge: parents.split_whitespace().count() > 1,
            })
        })
        .collect()
}

fn log(repo: &Path, args: &[&str]) -> Result<Vec<Commit>, HistoryError> {
    let format = format!("--format=%H{FIELD}%P{FIELD}%s{FIELD}%B{RECORD}");
    let mut all = vec!["log", format.as_str()];
    all.extend_from_slice(args);
    Ok(parse_log(&git(repo, &all)?))
}

/// Reads the range between `good` and `bad` (revisions as the user gave them).
pub fn read(repo: &Path, good: &str, bad: &str) -> Result<History, HistoryError> {
    let good_hash = resolve(repo, "--good", good)?;
    let bad_hash = resolve(repo, "--bad", bad)?;
    let ancestor = git_in(repo)
        .args(["merge-base", "--is-ancestor", &good_hash, &bad_hash])
        .status()
        .map_err(|e| HistoryError::Git {
            repo: repo.to_owned(),
            cause: format!("git merge-base: {e}"),
        })?;
    if !ancestor.success() || good_hash == bad_hash {
        return Err(HistoryError::NotAncestor {
            good: good_hash,
            bad: bad_hash,
        });
    }
    let good = log(repo, &["-1", &good_hash])?
        .pop()
        .ok_or_else(|| HistoryError::NotACommit {
            option: "--good",
            rev: good.to_owned(),
        })?;
    let range = format!("{good_hash}..{bad_hash}");
    let commits = log(repo, &["--first-parent", "--reverse", &range])?;
    let first_parent = git(repo, &["rev-parse", &format!("{}^1", commits[0].hash)])?;
    if first_parent.trim() != good_hash {
        return Err(HistoryError::NotFirstParent {
            good: good_hash,
            oldest: commits[0].hash.clone(),
        });
    }
    Ok(History { good, commits })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_hashes_cut_at_twelve_characters() {
        assert_eq!(short("0123456789abcdef"), "0123456789ab");
        assert_eq!(short("abc"), "abc");
        assert_eq!(short("ééééééééééééé"), "éééééééééééé");
    }

    #[test]
    fn log_records_give_hash_subject_bench_and_merges() {
        let text = format!(
            "aaaa{FIELD}p1{FIELD}Halve the queen{FIELD}Halve the queen\n\nBench: 1,234\n{RECORD}\n\
             bbbb{FIELD}p1 p2{FIELD}Merge branch{FIELD}Merge branch\n{RECORD}\n"
        );
        let c = parse_log(&text);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].hash, "aaaa");
        assert_eq!(c[0].subject, "Halve the queen");
        assert_eq!(c[0].bench, Some(1234));
        assert!(!c[0].merge);
        assert_eq!(c[1].bench, None);
        assert!(c[1].merge);
    }

    #[test]
    fn this_repository_reads_as_a_first_parent_range() {
        let Ok(repo) = crate::plumbing::revision::repo_root() else {
            return; // Not in a git checkout (e.g. a source tarball).
        };
        let Ok(h) = read(Path::new(&repo), "HEAD~2", "HEAD") else {
            return; // A shallow clone.
        };
        assert_eq!(h.commits.len(), 2);
        assert_eq!(
            h.commits[1].hash,
            resolve(Path::new(&repo), "--bad", "HEAD").unwrap()
        );
        let err = read(Path::new(&repo), "HEAD", "HEAD~1").unwrap_err();
        assert!(matches!(err, HistoryError::NotAncestor { .. }), "{err}");
        let err = read(Path::new(&repo), "no-such-rev-xyz", "HEAD").unwrap_err();
        assert!(err.to_string().contains("--good no-such-rev-xyz"), "{err}");
    }
}
