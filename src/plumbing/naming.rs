//! How a run names its files. Every file a `match`, `sprt` or `spsa` run writes sits beside its
//! results file and is named after it, so two runs with two results files never touch each
//! other's files:
//!
//! | file | name | example |
//! |---|---|---|
//! | results (summary, resume file) | `--results`, else [`default_results`] | `sprt-dev-vs-base-2026-11-25.json` |
//! | journal (one line per game) | results + `.games.jsonl` | `sprt-dev-vs-base-2026-11-25.json.games.jsonl` |
//! | lock (while the run lives) | results + `.lock` | `sprt-dev-vs-base-2026-11-25.json.lock` |
//! | chart | stem + `.svg` | `sprt-dev-vs-base-2026-11-25.svg` |
//! | PGN (`--pgnout` without a file) | stem + `.pgn` | `sprt-dev-vs-base-2026-11-25.pgn` |
//! | failure cases | stem + `.failures/` | `sprt-dev-vs-base-2026-11-25.failures/` |
//! | a two-stage SPRT's stage | stem + `.stc`/`.ltc` + extension ([`stage_file`]) | `sprt.stc.json`, `sprt.ltc.svg` |
//!
//! The journal and the lock add to the whole name (not the stem) so that `r.json` and `r.csv`
//! never share them; the rest replace the extension, as a user would name them by hand.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The default results file of a run: its kind, its engines and the day (UTC), e.g.
/// `sprt-dev-vs-base-2026-11-25.json`, so that runs of different engines (or of other days)
/// never collide. More than three engines are named by the first two and a count.
pub fn default_results(kind: &str, engines: &[String], date: &str, ext: &str) -> PathBuf {
    let slugs: Vec<String> = engines.iter().map(|e| slug(e)).collect();
    let who = if slugs.len() > 3 {
        format!("{}-vs-{}-and-{}-more", slugs[0], slugs[1], slugs.len() - 2)
    } else {
        slugs.join("-vs-")
    };
    let mut name = kind.to_owned();
    if !who.is_empty() {
        name.push('-');
        name.push_str(&who);
    }
    PathBuf::from(format!("{name}-{date}.{ext}"))
}

/// The first of `path`, `stem-2.ext`, `stem-3.ext`, ... that no run has used (no results file,
/// journal or lock), and whether it differs from `path`. Only default names are numbered: a
/// name the user gave is refused when taken, never changed.
pub fn first_free(path: &Path) -> (PathBuf, bool) {
    let free = crate::plumbing::output::first_free(path, is_taken);
    let numbered = free != path;
    (free, numbered)
}

/// Whether a run has used `results`: the file, its journal or its lock exists.
pub fn is_taken(results: &Path) -> bool {
    results.exists() || journal(results).exists() || lock(results).exists()
}

/// The journal of a results file: `match.json` → `match.json.games.jsonl`.
pub fn journal(results: &Path) -> PathBuf {
    with_suffix(results, ".games.jsonl")
}

/// The lock file of a results file: `match.json` → `match.json.lock`.
pub fn lock(results: &Path) -> PathBuf {
    with_suffix(results, ".lock")
}

/// The failure cases' folder of a run: `match.json` → `match.failures/` (`forensics::files`
/// writes into it).
pub fn failures(results: &Path) -> PathBuf {
    sibling(results, "failures")
}

/// A file of the run beside its results, with the results' stem and extension `ext`:
/// `runs/a.json` → `runs/a.svg`. Never the results file itself (`a.svg` → `a.svg.svg`).
pub fn sibling(results: &Path, ext: &str) -> PathBuf {
    let path = results.with_extension(ext);
    if path == results {
        return with_suffix(results, &format!(".{ext}"));
    }
    path
}

/// The file of `stage` beside the main file: `dir/sprt.json` -> `dir/sprt.stc.json`
/// (`sprt.svg` -> `sprt.stc.svg`; a name without an extension gets `.stc`).
pub fn stage_file(main: &Path, stage: &str) -> PathBuf {
    match (main.file_stem(), main.extension()) {
        (Some(stem), Some(ext)) => main.with_file_name(format!(
            "{}.{stage}.{}",
            stem.to_string_lossy(),
            ext.to_string_lossy()
        )),
        _ => {
            let mut name = main.as_os_str().to_owned();
            name.push(format!(".{stage}"));
            PathBuf::from(name)
        }
    }
}

/// The main file and the index in `stages` of a stage's file (`sprt.ltc.json` -> `sprt.json`,
/// 1 with `stages` = `tournament::stages::STAGES`), or `None` when the name is no stage's.
pub fn main_of(stage_path: &Path, stages: &[&str]) -> Option<(PathBuf, usize)> {
    let name = stage_path.file_name()?.to_string_lossy().into_owned();
    stages.iter().enumerate().find_map(|(k, stage)| {
        let infix = format!(".{stage}");
        let at = name.rfind(&infix)?;
        let rest = &name[at + infix.len()..];
        (rest.is_empty() || rest.starts_with('.')).then(|| {
            (
                stage_path.with_file_name(format!("{}{rest}", &name[..at])),
                k,
            )
        })
    })
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name: OsString = path.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}

/// An engine name as a file-name part: letters, digits, `.`, `_`, `+` and `-` kept, anything
/// else (spaces, slashes) becomes `_`; a name of dots only becomes `engine`.
fn slug(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._+-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    match s.trim_matches('.') {
        "" => "engine".to_owned(),
        s => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn default_names_carry_kind_engines_and_date() {
        let d = "2026-11-25";
        assert_eq!(
            default_results("sprt", &names("dev base"), d, "json"),
            Path::new("sprt-dev-vs-base-2026-11-25.json")
        );
        assert_eq!(
            default_results("match", &names("sable glaurung"), d, "json"),
            Path::new("match-sable-vs-glaurung-2026-11-25.json")
        );
        assert_eq!(
            default_results("match", &names("a b c d e"), d, "json"),
            Path::new("match-a-vs-b-and-3-more-2026-11-25.json")
        );
        assert_eq!(
            default_results("spsa", &names("sable-tune"), d, "csv"),
            Path::new("spsa-sable-tune-2026-11-25.csv")
        );
        // Names are made safe for a file name.
        assert_eq!(
            default_results("match", &["Stockfish 15/x".into(), "..".into()], d, "json"),
            Path::new("match-Stockfish_15_x-vs-engine-2026-11-25.json")
        );
        let today = crate::report::dates::today();
        assert_eq!(today.len(), 10);
        assert_eq!(&today[4..5], "-");
    }

    #[test]
    fn every_file_of_a_run_is_named_after_its_results() {
        let r = Path::new("runs/sprt-tuned.json");
        assert_eq!(journal(r), Path::new("runs/sprt-tuned.json.games.jsonl"));
        assert_eq!(lock(r), Path::new("runs/sprt-tuned.json.lock"));
        assert_eq!(sibling(r, "svg"), Path::new("runs/sprt-tuned.svg"));
        assert_eq!(sibling(r, "pgn"), Path::new("runs/sprt-tuned.pgn"));
        assert_eq!(sibling(Path::new("x"), "svg"), Path::new("x.svg"));
        assert_eq!(sibling(Path::new("x.svg"), "svg"), Path::new("x.svg.svg"));
    }

    #[test]
    fn stage_files_are_named_after_the_main_file_and_lead_back_to_it() {
        let main = Path::new("runs/sprt.json");
        assert_eq!(stage_file(main, "stc"), Path::new("runs/sprt.stc.json"));
        assert_eq!(stage_file(Path::new("x"), "ltc"), Path::new("x.ltc"));
        assert_eq!(
            stage_file(Path::new("s.svg"), "ltc"),
            Path::new("s.ltc.svg")
        );
        let stages = ["stc", "ltc"];
        for (k, stage) in stages.iter().enumerate() {
            assert_eq!(
                main_of(&stage_file(main, stage), &stages),
                Some((main.to_owned(), k))
            );
        }
        assert_eq!(
            main_of(Path::new("x.ltc"), &stages),
            Some((PathBuf::from("x"), 1))
        );
        assert_eq!(main_of(Path::new("sprt.json"), &stages), None);
    }

    #[test]
    fn a_taken_default_name_is_numbered() {
        let dir = crate::test_dir("naming");
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("match-a-vs-b-2026-11-25.json");
        assert_eq!(first_free(&path), (path.clone(), false));
        std::fs::write(&path, "{}").unwrap();
        let second = dir.join("match-a-vs-b-2026-11-25-2.json");
        assert_eq!(first_free(&path), (second.clone(), true));
        // A run that has only started (its lock or journal exists) counts as taken too.
        std::fs::write(lock(&second), "").unwrap();
        let third = dir.join("match-a-vs-b-2026-11-25-3.json");
        assert_eq!(first_free(&path), (third.clone(), true));
        std::fs::write(journal(&third), "").unwrap();
        assert_eq!(
            first_free(&path).0,
            dir.join("match-a-vs-b-2026-11-25-4.json")
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
