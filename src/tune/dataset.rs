//! Readers for labelled-position datasets: `FEN c9 "1-0";` (EPD), `FEN [1.0]` and CSV `fen,result,score`.
//!
//! Every line becomes a [`Record`] with the game result from White's point of view. A malformed line
//! is a [`DatasetError`] naming the file, the line and the cause; with `skip_bad` such lines are
//! counted and skipped instead.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The position (FEN, four or six fields).
    pub fen: String,
    /// The game result from White's view: 1.0 win, 0.5 draw, 0.0 loss.
    pub result: f64,
    /// The search score in centipawns from White's view, when the format carries one.
    pub score: Option<i32>,
}

/// A malformed dataset line (or an unreadable file), with where it happened.
#[derive(Debug)]
pub struct DatasetError {
    /// The file being read.
    pub file: PathBuf,
    /// The 1-based line number (0 when the file itself could not be read).
    pub line: usize,
    /// What is wrong.
    pub cause: LineError,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.cause)
        } else {
            write!(f, "{}:{}: {}", self.file.display(), self.line, self.cause)
        }
    }
}

impl std::error::Error for DatasetError {}

/// Why one dataset line (or the file) could not be read, in plain words when displayed.
#[derive(Debug)]
pub enum LineError {
    /// The file could not be opened or a line could not be read.
    Read(std::io::Error),
    /// The result token is no result (`1-0`, `0-1`, `1/2-1/2` or a number).
    Result(String),
    /// The result is a number outside [0, 1].
    ResultRange(f64),
    /// The FEN lacks the board or the side to move.
    NotAFen(String),
    /// The FEN's board has not 8 ranks.
    NotABoard(String),
    /// The side to move is neither `w` nor `b`.
    Side(String),
    /// An EPD line with fewer than its 4 FEN fields.
    EpdFields(String),
    /// `FEN [result` without the `]`.
    Unclosed,
    /// A CSV line of fewer than 2 or more than 3 columns.
    Columns(usize),
    /// The CSV score is no integer.
    Score(String),
    /// No format's result marker on the line.
    NoResult,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Read(e) => write!(f, "{e}"),
            LineError::Result(tok) => write!(f, "cannot read result `{tok}`"),
            LineError::ResultRange(v) => write!(f, "result {v} is outside [0, 1]"),
            LineError::NotAFen(fen) => {
                write!(f, "`{fen}` is not a FEN (needs board and side to move)")
            }
            LineError::NotABoard(board) => {
                write!(f, "`{board}` is not a FEN board (needs 8 ranks)")
            }
            LineError::Side(side) => write!(f, "side to move `{side}` is not w or b"),
            LineError::EpdFields(part) => {
                write!(f, "`{part}` has fewer than the 4 EPD fields")
            }
            LineError::Unclosed => write!(f, "unclosed `[` in result"),
            LineError::Columns(n) => write!(f, "expected 2 or 3 CSV columns, found {n}"),
            LineError::Score(s) => write!(f, "cannot read score `{s}`"),
            LineError::NoResult => write!(
                f,
                "no result found (expected `c9 \"1-0\";`, `[1.0]` or `fen,result,score`)"
            ),
        }
    }
}

impl std::error::Error for LineError {}

/// Parses a result token: `1-0`, `0-1`, `1/2-1/2`, or a number in [0, 1] (`1.0`, `0.5`, `0`).
pub fn parse_result(tok: &str) -> Result<f64, LineError> {
    let t = tok.trim().trim_matches('"');
    match t {
        "1-0" => return Ok(1.0),
        "0-1" => return Ok(0.0),
        "1/2-1/2" | "1/2" | "½-½" => return Ok(0.5),
        _ => {}
    }
    match t.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        Ok(v) => Err(LineError::ResultRange(v)),
        Err(_) => Err(LineError::Result(tok.to_owned())),
    }
}

/// Checks that a FEN has a plausible shape (board with 8 ranks, side to move); the engine's own
/// FEN parser gives the precise verdict later.
fn check_fen_shape(fen: &str) -> Result<(), LineError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 {
        return Err(LineError::NotAFen(fen.to_owned()));
    }
    if fields[0].split('/').count() != 8 {
        return Err(LineError::NotABoard(fields[0].to_owned()));
    }
    if fields[1] != "w" && fields[1] != "b" {
        return Err(LineError::Side(fields[1].to_owned()));
    }
    Ok(())
}

/// Parses one non-empty, non-comment line in any of the three formats.
pub fn parse_line(line: &str) -> Result<Record, LineError> {
    let line = line.trim();
    if let Some(pos) = line.find(" c9 ") {
        // EPD: `FEN c9 "1-0";` (other opcodes before c9 are ignored)
        let fen_part = &line[..pos];
        let rest = line[pos + 4..].trim();
        let value = rest.split(';').next().unwrap_or("").trim();
        let fen = epd_fen(fen_part)?;
        let result = parse_result(value)?;
        return Ok(Record {
            fen,
            result,
            score: None,
        });
    }
    if let Some(open) = line.rfind('[') {
        // `FEN [1.0]`
        let close = line[open..].find(']').ok_or(LineError::Unclosed)?;
        let fen = line[..open].trim().to_string();
        check_fen_shape(&fen)?;
        let result = parse_result(&line[open + 1..open + close])?;
        return Ok(Record {
            fen,
            result,
            score: None,
        });
    }
    if line.contains(',') {
        return parse_csv_line(line);
    }
    Err(LineError::NoResult)
}

/// The FEN part of an EPD line: four fields, completed with `0 1` counters.
fn epd_fen(part: &str) -> Result<String, LineError> {
    let fields: Vec<&str> = part.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(LineError::EpdFields(part.to_owned()));
    }
    let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
        fields[..6].join(" ")
    } else {
        format!("{} 0 1", fields[..4].join(" "))
    };
    check_fen_shape(&fen)?;
    Ok(fen)
}

/// CSV: `fen,result,score` (score optional or empty).
fn parse_csv_line(line: &str) -> Result<Record, LineError> {
    let cols: Vec<&str> = line.split(',').collect();
    if cols.len() < 2 || cols.len() > 3 {
        return Err(LineError::Columns(cols.len()));
    }
    let fen = cols[0].trim().to_string();
    check_fen_shape(&fen)?;
    let result = parse_result(cols[1])?;
    let score = match cols.get(2).map(|s| s.trim()) {
        None | Some("") => None,
        Some(s) => Some(
            s.parse::<i32>()
                .map_err(|_| LineError::Score(s.to_owned()))?,
        ),
    };
    Ok(Record { fen, result, score })
}

/// What a reader did: the records and how many bad lines were skipped.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The records, in file order.
    pub records: Vec<Record>,
    /// Malformed lines skipped (only with `skip_bad`).
    pub skipped: usize,
}

/// Reads a dataset file. Blank lines, `#` comments and a CSV header `fen,result,score` are ignored.
/// A malformed line is an error unless `skip_bad`, in which case it is counted in [`Loaded::skipped`].
pub fn read_file(path: &Path, skip_bad: bool) -> Result<Loaded, DatasetError> {
    let mut out = Loaded::default();
    out.skipped = for_each_in_file(path, skip_bad, |r| out.records.push(r))?;
    Ok(out)
}

/// Streams a dataset file: `f` gets each record in file order, and nothing is kept, so a file
/// far larger than memory can be read. Returns the number of malformed lines skipped.
pub fn for_each_in_file(
    path: &Path,
    skip_bad: bool,
    f: impl FnMut(Record),
) -> Result<usize, DatasetError> {
    let file = File::open(path).map_err(|e| DatasetError {
        file: path.to_path_buf(),
        line: 0,
        cause: LineError::Read(e),
    })?;
    for_each_line(BufReader::new(file), path, skip_bad, f)
}

/// Reads dataset lines from any reader; `path` is only used in error messages.
#[cfg(test)]
pub fn read_lines<R: BufRead>(r: R, path: &Path, skip_bad: bool) -> Result<Loaded, DatasetError> {
    let mut out = Loaded::default();
    out.skipped = for_each_line(r, path, skip_bad, |rec| out.records.push(rec))?;
    Ok(out)
}

/// The streaming reader behind the others: `f` gets each record; returns the lines skipped.
fn for_each_line<R: BufRead>(
    r: R,
    path: &Path,
    skip_bad: bool,
    mut f: impl FnMut(Record),
) -> Result<usize, DatasetError> {
    let mut skipped = 0;
    for (i, line) in r.lines().enumerate() {
        let lineno = i + 1;
        let line = line.map_err(|e| DatasetError {
            file: path.to_path_buf(),
            line: lineno,
            cause: LineError::Read(e),
        })?;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.eq_ignore_ascii_case("fen,result,score") {
            continue;
        }
        match parse_line(t) {
            Ok(rec) => f(rec),
            Err(_) if skip_bad => skipped += 1,
            Err(cause) => {
                return Err(DatasetError {
                    file: path.to_path_buf(),
                    line: lineno,
                    cause,
                });
            }
        }
    }
    Ok(skipped)
}

/// Formats a record as a CSV line `fen,result,score` (the format datagen and extract write).
pub fn to_csv_line(rec: &Record) -> String {
    match rec.score {
        Some(s) => format!("{},{:.1},{}", rec.fen, rec.result, s),
        None => format!("{},{:.1},", rec.fen, rec.result),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn epd_c9_lines() {
        let r = parse_line("8/8/1p1k4/1P6/8/3p3P/1r4P1/5K2 w - - c9 \"0-1\";").unwrap();
        assert_eq!(r.fen, "8/8/1p1k4/1P6/8/3p3P/1r4P1/5K2 w - - 0 1");
        assert_eq!(r.result, 0.0);
        let r = parse_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";")
            .unwrap();
        assert_eq!(r.result, 0.5);
        assert_eq!(r.score, None);
    }

    #[test]
    fn bracket_and_csv_lines() {
        let r = parse_line(&format!("{START} [1.0]")).unwrap();
        assert_eq!((r.fen.as_str(), r.result), (START, 1.0));
        let r = parse_line(&format!("{START} [0.5]")).unwrap();
        assert_eq!(r.result, 0.5);
        let r = parse_line(&format!("{START},0.0,-35")).unwrap();
        assert_eq!((r.result, r.score), (0.0, Some(-35)));
        let r = parse_line(&format!("{START},1-0,")).unwrap();
        assert_eq!((r.result, r.score), (1.0, None));
        assert_eq!(parse_line(&to_csv_line(&r)).unwrap(), r);
    }

    #[test]
    fn bad_lines_are_errors_with_causes() {
        assert!(parse_line(&format!("{START} [2.0]"))
            .unwrap_err()
            .to_string()
            .contains("outside"));
        assert!(parse_line("garbage").is_err());
        assert!(parse_line("8/8/8 w - - c9 \"1-0\";")
            .unwrap_err()
            .to_string()
            .contains("8 ranks"));
        assert!(parse_line(&format!("{START},1.0,abc"))
            .unwrap_err()
            .to_string()
            .contains("score"));
        assert!(parse_line(&format!("{START} [1.0")).is_err());
    }

    #[test]
    fn reader_names_file_and_line_or_skips() {
        let text =
            format!("# comment\nfen,result,score\n{START},1.0,5\n\nbad line\n{START} [0.0]\n");
        let path = Path::new("mem.csv");
        let e = read_lines(text.as_bytes(), path, false).unwrap_err();
        assert_eq!(e.line, 5);
        assert!(e.to_string().starts_with("mem.csv:5: "), "{e}");
        let ok = read_lines(text.as_bytes(), path, true).unwrap();
        assert_eq!((ok.records.len(), ok.skipped), (2, 1));
    }

    #[test]
    #[ignore = "reads ../shared/data (skips when it is absent)"]
    fn reads_zurichess_subset() {
        let Some(data) = crate::suites::shared_data() else {
            return;
        };
        let p = data.join("tuning/quiet-labeled-subset-1_1000.epd");
        let l = read_file(&p, false).unwrap();
        let lines = std::fs::read_to_string(&p).unwrap();
        let want = lines.lines().filter(|l| !l.trim().is_empty()).count();
        assert!(want >= 1000);
        assert_eq!(l.records.len(), want);
        assert_eq!(l.skipped, 0);
        assert!(l
            .records
            .iter()
            .all(|r| [0.0, 0.5, 1.0].contains(&r.result)));
    }
}
