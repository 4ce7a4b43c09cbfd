//! The one rule for output files: never overwritten silently.
//!
//! Every file a command writes falls under one of three cases, chosen by who named it:
//!
//! | who named the file | it exists already | policy |
//! |---|---|---|
//! | the command (a default name) | the first free `stem-2.ext`, `stem-3.ext`, ... is written, with a `note:` | [`Policy::Number`] |
//! | the user (`--csv FILE`, `--out FILE`, ...) | refused before any work, saying what to type | [`Policy::Refuse`] |
//! | either, with `--force` | replaced | [`Policy::Replace`] |
//!
//! A name the user gave is never changed behind their back (a script reads that file next);
//! a name the command chose is never a promise, so it moves aside instead. Files that a command
//! appends to or continues by design (a datagen CSV, a PGN, a run's journal) are not outputs in
//! this sense: they are never truncated.
//!
//! Claims are made before the work starts, so that a refusal costs nothing; the file itself is
//! written at the end.

use std::fmt;
use std::path::{Path, PathBuf};

/// What to do when the output's name is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The user named the file with `flag` (e.g. `--csv`): refuse to touch an existing one.
    Refuse {
        /// The option that named the file, for the message.
        flag: &'static str,
    },
    /// The user asked for the file to be replaced (`--force`).
    Replace,
    /// The command chose the name: move to the first free numbered name.
    Number,
}

impl Policy {
    /// The policy of an output named by `flag`: [`Policy::Replace`] with `force` (the user
    /// means it, whoever chose the name), else [`Policy::Number`] for a default name (`given`
    /// false) and [`Policy::Refuse`] for the user's.
    pub fn for_output(given: bool, force: bool, flag: &'static str) -> Policy {
        match (given, force) {
            (_, true) => Policy::Replace,
            (false, false) => Policy::Number,
            (true, false) => Policy::Refuse { flag },
        }
    }
}

/// An output file a command may write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    /// The file to write.
    pub path: PathBuf,
    /// The name first asked for, when it was taken and [`Claimed::path`] is a numbered one.
    pub moved_from: Option<PathBuf>,
}

impl Claimed {
    /// The `note:` line a command prints when the name moved, else `None`.
    pub fn note(&self) -> Option<String> {
        self.moved_from.as_ref().map(|from| {
            format!(
                "note: {} exists already and is kept; this run writes {}",
                from.display(),
                self.path.display()
            )
        })
    }

    /// Prints [`Claimed::note`] to stderr, if any, and gives the path.
    pub fn announced(self) -> PathBuf {
        if let Some(note) = self.note() {
            errln!("{note}");
        }
        self.path
    }
}

/// Why an output was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputError {
    /// The file the user named exists and `--force` was not given.
    Exists {
        /// The file.
        path: PathBuf,
        /// The option that named it.
        flag: &'static str,
    },
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Exists { path, flag } => write!(
                f,
                "{} exists already; it is never overwritten silently. Add --force to replace it, \
                 or give {flag} another file name",
                path.display()
            ),
        }
    }
}

impl std::error::Error for OutputError {}

/// The output a command writes: the user's `given` name (replaced with `force`, else refused
/// when it exists) or the command's `default` (numbered when taken, with a `note:` on stderr).
pub fn resolve(
    given: Option<&Path>,
    default: &Path,
    force: bool,
    flag: &'static str,
) -> Result<PathBuf, OutputError> {
    let path = given.unwrap_or(default);
    Ok(claim(path, Policy::for_output(given.is_some(), force, flag))?.announced())
}

/// An output the user may name with `flag` (none when not named): refused when it exists,
/// unless `force`.
pub fn named(
    given: Option<&Path>,
    force: bool,
    flag: &'static str,
) -> Result<Option<PathBuf>, OutputError> {
    given.map(|p| resolve(Some(p), p, force, flag)).transpose()
}

/// Claims `path` as an output under `policy`, counting it as taken when it exists.
pub fn claim(path: &Path, policy: Policy) -> Result<Claimed, OutputError> {
    claim_with(path, policy, |p| p.exists())
}

/// [`claim`] with the command's own meaning of taken (a run's name is taken by its journal or
/// lock too; a picture by the CSV written beside it).
pub fn claim_with(
    path: &Path,
    policy: Policy,
    taken: impl Fn(&Path) -> bool,
) -> Result<Claimed, OutputError> {
    let unchanged = Claimed {
        path: path.to_owned(),
        moved_from: None,
    };
    if !taken(path) {
        return Ok(unchanged);
    }
    match policy {
        Policy::Replace => Ok(unchanged),
        Policy::Refuse { flag } => Err(OutputError::Exists {
            path: path.to_owned(),
            flag,
        }),
        Policy::Number => Ok(Claimed {
            path: first_free(path, taken),
            moved_from: Some(path.to_owned()),
        }),
    }
}

/// The first of `path`, `stem-2.ext`, `stem-3.ext`, ... that is not `taken`.
pub fn first_free(path: &Path, taken: impl Fn(&Path) -> bool) -> PathBuf {
    if !taken(path) {
        return path.to_owned();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path.extension().map(|e| e.to_string_lossy().into_owned());
    (2u64..)
        .map(|n| {
            path.with_file_name(match &ext {
                Some(ext) => format!("{stem}-{n}.{ext}"),
                None => format!("{stem}-{n}"),
            })
        })
        .find(|candidate| !taken(candidate))
        .expect("some number is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sable-output-{name}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_free_name_is_kept_under_every_policy() {
        let d = dir("free");
        let path = d.join("a.csv");
        for policy in [
            Policy::Number,
            Policy::Replace,
            Policy::Refuse { flag: "--csv" },
        ] {
            let c = claim(&path, policy).unwrap();
            assert_eq!((c.path.as_path(), c.note()), (path.as_path(), None));
        }
        std::fs::remove_dir_all(&d).ok();
    }

    #[test]
    fn a_taken_name_is_refused_replaced_or_numbered() {
        let d = dir("taken");
        let path = d.join("a.csv");
        std::fs::write(&path, "old").unwrap();
        let err = claim(&path, Policy::Refuse { flag: "--csv" }).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("a.csv exists already"), "{text}");
        assert!(
            text.contains("--force") && text.contains("give --csv another"),
            "{text}"
        );
        assert_eq!(claim(&path, Policy::Replace).unwrap().path, path);
        let numbered = claim(&path, Policy::Number).unwrap();
        assert_eq!(numbered.path, d.join("a-2.csv"));
        let note = numbered.note().unwrap();
        assert!(
            note.starts_with("note: ") && note.contains("a-2.csv"),
            "{note}"
        );
        // The claim itself writes nothing: the old file is untouched.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        std::fs::write(d.join("a-2.csv"), "").unwrap();
        assert_eq!(
            claim(&path, Policy::Number).unwrap().path,
            d.join("a-3.csv")
        );
        std::fs::remove_dir_all(&d).ok();
    }

    #[test]
    fn numbering_keeps_names_without_an_extension_and_asks_the_callers_taken() {
        let taken = |p: &Path| ["x", "x-2"].contains(&p.to_str().unwrap());
        assert_eq!(first_free(Path::new("x"), taken), Path::new("x-3"));
        let taken = |p: &Path| p == Path::new("dir/r.json");
        assert_eq!(
            claim_with(Path::new("dir/r.json"), Policy::Number, taken)
                .unwrap()
                .path,
            Path::new("dir/r-2.json")
        );
    }

    #[test]
    fn the_policy_follows_who_named_the_file() {
        assert_eq!(Policy::for_output(false, false, "--out"), Policy::Number);
        assert_eq!(Policy::for_output(false, true, "--out"), Policy::Replace);
        assert_eq!(Policy::for_output(true, true, "--out"), Policy::Replace);
        assert_eq!(
            Policy::for_output(true, false, "--out"),
            Policy::Refuse { flag: "--out" }
        );
    }
}
