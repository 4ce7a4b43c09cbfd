//! Where a run keeps its failure cases: a folder (the runner names it `<results-stem>.failures/`
//! beside the results file, `plumbing::naming::failures`), one file a failed game (`game-000123-illegal-move.txt`), at most `--max-failure-files` of them, so
//! that an engine that fails every game cannot fill the disk. The files of a resumed run count
//! against the same bound.

use super::format::to_text;
use crate::game::FailureCase;
use std::path::{Path, PathBuf};

/// The bound on failure files when none is given (`--max-failure-files`).
pub const DEFAULT_MAX_FILES: usize = 50;

/// What a run did with its failure cases, for the report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FailureSummary {
    /// The folder of the case files (`None` when the run keeps none: no results file).
    pub dir: Option<PathBuf>,
    /// Case files written by this run.
    pub written: u64,
    /// Failed games whose case was not written: the bound was reached, or the disk refused.
    pub not_recorded: u64,
    /// The bound.
    pub max: usize,
}

/// The failure folder of a run and its bound.
#[derive(Debug)]
pub struct FailureFiles {
    dir: PathBuf,
    /// Case files in the folder, from earlier calls of this run or of a run it resumes.
    present: usize,
    summary: FailureSummary,
}

/// The file name of a game's case: `game-000123-illegal-move.txt`.
pub fn file_name(case: &FailureCase) -> String {
    format!("game-{:06}-{}.txt", case.game, case.kind.slug())
}

fn is_case_file(name: &str) -> bool {
    name.starts_with("game-") && name.ends_with(".txt")
}

impl FailureFiles {
    /// The failure folder `dir`, keeping at most `max` case files (those already there count).
    /// Nothing is created until the first failure. The folder's name is the runner's to choose
    /// (`plumbing::naming::failures`): this room stays below the runner.
    pub fn new(dir: &Path, max: usize) -> FailureFiles {
        let dir = dir.to_path_buf();
        let present = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| is_case_file(&e.file_name().to_string_lossy()))
                    .count()
            })
            .unwrap_or(0);
        FailureFiles {
            summary: FailureSummary {
                dir: Some(dir.clone()),
                max,
                ..FailureSummary::default()
            },
            dir,
            present,
        }
    }

    /// Writes `case` into the folder, or counts it as not recorded once the bound is reached.
    /// Returns the file written; an error is the disk's (the game still counts as not recorded,
    /// and the run goes on: a lost case must not cost the match).
    pub fn keep(&mut self, case: &FailureCase) -> std::io::Result<Option<PathBuf>> {
        if self.present >= self.summary.max {
            self.summary.not_recorded += 1;
            return Ok(None);
        }
        let path = self.dir.join(file_name(case));
        let replaced = path.exists();
        let written = write_atomically(&path, &to_text(case, &path));
        if let Err(e) = written {
            self.summary.not_recorded += 1;
            return Err(e);
        }
        // A game replayed by a resume (it was in flight when the run stopped) replaces its own
        // earlier case.
        if !replaced {
            self.present += 1;
        }
        self.summary.written += 1;
        Ok(Some(path))
    }

    /// What was kept and what was not.
    pub fn summary(&self) -> &FailureSummary {
        &self.summary
    }
}

/// Writes `text` to `path` atomically ([`crate::plumbing::atomic`]), so that a case file is
/// never seen half written; the error keeps the system's kind, with the file and the step.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::plumbing::atomic::write(path, text)
        .map_err(|e| std::io::Error::new(e.source.kind(), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::case::EngineCase;
    use crate::game::{FailureKind, Opening, Variant};
    use crate::uci::EngineSpec;

    fn case(game: u64, kind: FailureKind) -> FailureCase {
        let engine = EngineCase {
            name: "e".into(),
            spec: EngineSpec::new("e"),
        };
        FailureCase {
            game,
            kind,
            white_failed: true,
            reason: "White disconnects".into(),
            detail: "engine crashed (exit status: 3)".into(),
            started: String::new(),
            variant: Variant::Standard,
            opening: Opening::default(),
            book: String::new(),
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            position: "position startpos".into(),
            go: "go movetime 10".into(),
            deadline_ms: 10,
            startup_ms: 1000,
            ping_ms: 1000,
            engines: [engine.clone(), engine],
            info: Vec::new(),
            transcript: Default::default(),
        }
    }

    #[test]
    fn the_folder_keeps_at_most_its_bound_across_resumes() {
        let root = crate::test_dir("failure-files");
        let dir = root.join("run.failures");
        let _ = std::fs::remove_dir_all(&dir);
        let mut files = FailureFiles::new(&dir, 3);
        assert!(!dir.exists(), "nothing before a failure");
        let first = files.keep(&case(1, FailureKind::Crash)).unwrap().unwrap();
        assert_eq!(first, root.join("run.failures/game-000001-crash.txt"));
        assert!(super::super::format::read(&first).is_ok());
        files.keep(&case(2, FailureKind::Hang)).unwrap().unwrap();
        // The same game again (replayed by a resume) replaces its file.
        files.keep(&case(2, FailureKind::Hang)).unwrap().unwrap();
        assert_eq!(files.summary().written, 3);
        // A resumed run finds two files and may write one more.
        let mut resumed = FailureFiles::new(&dir, 3);
        assert!(resumed
            .keep(&case(4, FailureKind::TimeLoss))
            .unwrap()
            .is_some());
        for game in 5..9 {
            assert_eq!(resumed.keep(&case(game, FailureKind::Crash)).unwrap(), None);
        }
        let s = resumed.summary();
        assert_eq!((s.written, s.not_recorded, s.max), (1, 4, 3));
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
