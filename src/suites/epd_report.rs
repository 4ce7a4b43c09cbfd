//! Reports of an EPD run: the summary (per suite, per STS theme), the failures, one CSV row per
//! position, and the comparison with a baseline CSV from an earlier run.

use super::error::SuiteError;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::epd_run::{EpdReport, PositionResult, Status};

/// One CSV row: a position's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CsvRow {
    /// Suite name.
    pub suite: String,
    /// Position id.
    pub id: String,
    /// 1 when solved, else 0.
    pub solved: u8,
    /// STS points earned (empty when not STS).
    pub points: Option<u32>,
    /// STS points available (empty when not STS).
    pub max_points: Option<u32>,
    /// The move played (SAN).
    pub played: String,
    /// The expected answer.
    pub expected: String,
    /// Milliseconds until the engine settled on a correct move (empty when unsolved).
    pub solved_ms: Option<u64>,
    /// Depth at which it settled (empty when unsolved or unknown).
    pub solved_depth: Option<u32>,
    /// Last depth reported.
    pub depth: Option<u32>,
    /// Last score reported.
    pub score: String,
    /// `ok`, `hung`, `crashed: ...`, `illegal move ...`.
    pub status: String,
}

impl From<&PositionResult> for CsvRow {
    fn from(r: &PositionResult) -> CsvRow {
        CsvRow {
            suite: r.suite.clone(),
            id: r.id.clone(),
            solved: u8::from(r.verdict.solved),
            points: r.verdict.points,
            max_points: r.max_points,
            played: r.played.clone().unwrap_or_default(),
            expected: r.expected.clone(),
            solved_ms: r.verdict.solved_at_ms,
            solved_depth: r.verdict.solved_at_depth,
            depth: r.verdict.depth,
            score: r.verdict.score.map(|s| s.to_string()).unwrap_or_default(),
            status: r.status.to_string(),
        }
    }
}

/// The CSV rows of a report.
pub fn csv_rows(report: &EpdReport) -> Vec<CsvRow> {
    report.results.iter().map(CsvRow::from).collect()
}

/// Writes one row per position to `path`.
pub fn write_csv(path: &Path, rows: &[CsvRow]) -> Result<(), SuiteError> {
    let what = || format!("cannot write {}", path.display());
    let csv_error = |source| SuiteError::Csv {
        context: what(),
        source,
    };
    let mut w = csv::Writer::from_path(path).map_err(csv_error)?;
    for row in rows {
        w.serialize(row).map_err(csv_error)?;
    }
    w.flush().map_err(SuiteError::io(what()))?;
    Ok(())
}

/// Reads rows written by [`write_csv`] from text (`name` is used in errors).
pub fn parse_csv(name: &str, text: &str) -> Result<Vec<CsvRow>, SuiteError> {
    let mut rows = Vec::new();
    for (i, row) in csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .enumerate()
    {
        rows.push(row.map_err(|source| SuiteError::Csv {
            context: format!("{name}: row {}", i + 1),
            source,
        })?);
    }
    Ok(rows)
}

/// Reads a baseline CSV file.
pub fn read_csv(path: &Path) -> Result<Vec<CsvRow>, SuiteError> {
    let text = std::fs::read_to_string(path)
        .map_err(SuiteError::io(format!("cannot read {}", path.display())))?;
    parse_csv(&path.display().to_string(), &text)
}

#[derive(Default)]
struct Tally {
    solved: usize,
    total: usize,
    points: u64,
    max_points: u64,
}

impl Tally {
    fn add(&mut self, r: &PositionResult) {
        self.solved += usize::from(r.verdict.solved);
        self.total += 1;
        self.points += u64::from(r.verdict.points.unwrap_or(0));
        self.max_points += u64::from(r.max_points.unwrap_or(0));
    }

    fn line(&self, name: &str, width: usize) -> String {
        let mut s = format!("{name:<width$} {:>5} / {:<5}", self.solved, self.total);
        let pct = 100.0 * self.solved as f64 / self.total.max(1) as f64;
        let _ = write!(s, " {pct:5.1}%");
        if self.max_points > 0 {
            let _ = write!(s, "  points {} / {}", self.points, self.max_points);
        }
        s
    }
}

/// The human-readable summary: totals, per suite, per STS theme, and engine trouble.
pub fn summary(report: &EpdReport) -> String {
    let mut total = Tally::default();
    let mut suites: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut themes: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut trouble = 0;
    for r in &report.results {
        total.add(r);
        suites.entry(&r.suite).or_default().add(r);
        if let Some(t) = &r.theme {
            themes.entry(t).or_default().add(r);
        }
        trouble += usize::from(r.status != Status::Ok);
    }
    let names = suites.keys().chain(themes.keys());
    let width = names.map(|n| n.len() + 2).max().unwrap_or(0).max(20);
    let mut out = format!("Engine {} at {}\n", report.engine, report.limit);
    for (name, t) in &suites {
        let _ = writeln!(out, "{}", t.line(name, width));
    }
    if !themes.is_empty() {
        let _ = writeln!(out, "STS themes:");
        for (name, t) in &themes {
            let _ = writeln!(out, "  {}", t.line(name, width - 2));
        }
    }
    let _ = writeln!(out, "{}", total.line("Total", width));
    if trouble > 0 {
        let _ = writeln!(
            out,
            "Engine trouble (crash, hang, illegal move) on {}",
            crate::report::plural(trouble, "position")
        );
    }
    if report.skipped_lines > 0 {
        let _ = writeln!(
            out,
            "Skipped {} (each named in a warning above); --strict makes them an error",
            crate::report::plural(report.skipped_lines, "unreadable line")
        );
    }
    out
}

/// The failures, one line each: suite, id, what was expected and what the engine played.
pub fn failures(report: &EpdReport) -> String {
    let mut out = String::new();
    for r in report.results.iter().filter(|r| !r.verdict.solved) {
        let played = r.played.as_deref().unwrap_or("-");
        let _ = write!(
            out,
            "FAIL {} {}: expected {}, played {}",
            r.suite, r.id, r.expected, played
        );
        if let Some(s) = r.verdict.score {
            let _ = write!(out, " ({s})");
        }
        if r.status != Status::Ok {
            let _ = write!(out, " [{}]", r.status);
        }
        out.push('\n');
    }
    out
}

/// The comparison of a run with a baseline, over the positions both contain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaselineDiff {
    /// Positions solved in the baseline and failed now (`suite id`).
    pub newly_failed: Vec<String>,
    /// Positions failed in the baseline and solved now.
    pub newly_solved: Vec<String>,
    /// Solved in the baseline, over the common positions.
    pub baseline_solved: usize,
    /// Solved now, over the common positions.
    pub current_solved: usize,
    /// Positions in only one of the two.
    pub unmatched: usize,
    /// Whether the solved count dropped by more than the tolerance.
    pub regressed: bool,
}

/// Compares `current` with `baseline` by (suite, id); a regression is a drop of the solved
/// count by more than `tolerance`.
pub fn compare_baseline(current: &[CsvRow], baseline: &[CsvRow], tolerance: usize) -> BaselineDiff {
    let before: HashMap<(&str, &str), &CsvRow> = baseline
        .iter()
        .map(|r| ((r.suite.as_str(), r.id.as_str()), r))
        .collect();
    let mut diff = BaselineDiff {
        newly_failed: Vec::new(),
        newly_solved: Vec::new(),
        baseline_solved: 0,
        current_solved: 0,
        unmatched: 0,
        regressed: false,
    };
    let mut matched = 0;
    for row in current {
        let Some(old) = before.get(&(row.suite.as_str(), row.id.as_str())) else {
            diff.unmatched += 1;
            continue;
        };
        matched += 1;
        diff.baseline_solved += usize::from(old.solved);
        diff.current_solved += usize::from(row.solved);
        let name = format!("{} {}", row.suite, row.id);
        match (old.solved, row.solved) {
            (1, 0) => diff.newly_failed.push(name),
            (0, 1) => diff.newly_solved.push(name),
            _ => {}
        }
    }
    diff.unmatched += baseline.len() - matched;
    diff.regressed = diff.current_solved + tolerance < diff.baseline_solved;
    diff
}

impl std::fmt::Display for BaselineDiff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Baseline: solved {} before, {} now ({:+})",
            self.baseline_solved,
            self.current_solved,
            self.current_solved as i64 - self.baseline_solved as i64
        )?;
        for name in &self.newly_failed {
            writeln!(f, "  newly failed: {name}")?;
        }
        for name in &self.newly_solved {
            writeln!(f, "  newly solved: {name}")?;
        }
        if self.unmatched > 0 {
            writeln!(
                f,
                "  {} in only one of the two runs",
                match self.unmatched {
                    1 => "1 position is".to_owned(),
                    n => format!("{n} positions are"),
                }
            )?;
        }
        if self.regressed {
            writeln!(
                f,
                "REGRESSION: the solved count dropped beyond the tolerance"
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(suite: &str, id: &str, solved: u8) -> CsvRow {
        CsvRow {
            suite: suite.into(),
            id: id.into(),
            solved,
            points: None,
            max_points: None,
            played: "e4".into(),
            expected: "bm e4".into(),
            solved_ms: None,
            solved_depth: None,
            depth: Some(3),
            score: String::new(),
            status: "ok".into(),
        }
    }

    #[test]
    fn baseline_lists_changes_and_applies_tolerance() {
        let base = [
            row("a", "1", 1),
            row("a", "2", 1),
            row("a", "3", 0),
            row("b", "1", 1),
        ];
        let now = [
            row("a", "1", 0),
            row("a", "2", 0),
            row("a", "3", 1),
            row("c", "9", 1),
        ];
        let d = compare_baseline(&now, &base, 1);
        assert_eq!(d.newly_failed, ["a 1", "a 2"]);
        assert_eq!(d.newly_solved, ["a 3"]);
        assert_eq!(
            (d.baseline_solved, d.current_solved, d.unmatched),
            (2, 1, 2)
        );
        assert!(!d.regressed, "a drop of 1 is within tolerance 1");
        assert!(compare_baseline(&now, &base, 0).regressed);
        assert!(d.to_string().contains("newly failed: a 2"));
    }

    #[test]
    fn csv_round_trip_and_row_errors() {
        let mut r = row("ECM", "ECM.001", 1);
        r.points = Some(46);
        r.expected = "bm f7+, \"quoted\"".into();
        let dir = crate::test_dir("epd-csv");
        let path = dir.join("r.csv");
        write_csv(&path, &[r.clone(), row("x", "y", 0)]).unwrap();
        assert_eq!(read_csv(&path).unwrap(), [r, row("x", "y", 0)]);
        std::fs::remove_dir_all(&dir).unwrap();
        let bad = "suite,id,solved\nECM,1,maybe\n";
        let e = parse_csv("b.csv", bad).unwrap_err().to_string();
        assert!(e.starts_with("b.csv: row 1:"), "{e}");
    }
}
