//! The failure case file: a header of `key: value` lines, a blank line, then the game's UCI
//! transcript. Written for a person first (comment lines say what happened and how to replay
//! it) and read back by `harness replay`.
//!
//! ```text
//! # Sable failure case: game 3, Black (B) makes an illegal move a1a1 in ... (after `go ...`; ...)
//! # Replay: harness replay r.failures/game-000003-illegal-move.txt
//! format: sable-failure-case 1
//! game: 3
//! failure: illegal-move
//! side: black
//! ...
//! black.cmd: /path/to/engine
//! black.arg: --illegal-after
//! black.arg: 2
//! black.setoption: setoption name Hash value 16
//! ...
//!
//! +0.000112 white > ucinewgame
//! +0.004731 white < readyok
//! ```
//!
//! Values escape `\`, line feeds and carriage returns as `\\`, `\n` and `\r`; everything else is
//! verbatim (a value keeps its inner and trailing spaces). Repeated keys (`arg`, `setoption`,
//! `info`) keep their order. Transcript lines are `+SECONDS side mark text`, the marks being
//! those of the `--log` file (`>` sent, `<` received, `!` stderr) and `#` for the harness's
//! notes. Keys this version does not know are skipped, so a later version can add some.

use super::lines::{parse_go, parse_position, LineError};
use crate::game::case::{side_label, EngineCase, FailureCase, FailureKind};
use crate::game::variant::UnknownVariant;
use crate::game::{Opening, Variant};
use crate::uci::flight::{Entry, Kind, Snapshot};
use crate::uci::EngineSpec;
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

/// The `format:` line's value this version writes and reads.
pub const FORMAT: &str = "sable-failure-case 1";

/// Why a case file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseError {
    /// The file cannot be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        cause: String,
    },
    /// A line is malformed.
    Line {
        /// The file.
        path: PathBuf,
        /// Its line number, from 1.
        line: usize,
        /// What is wrong with it.
        cause: Cause,
    },
    /// A key every case has is missing.
    Missing {
        /// The file.
        path: PathBuf,
        /// The key.
        key: String,
    },
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseError::Io { path, cause } => write!(f, "{}: {cause}", path.display()),
            CaseError::Line { path, line, cause } => {
                write!(f, "{}:{line}: {cause}", path.display())
            }
            CaseError::Missing { path, key } => write!(
                f,
                "{}: no `{key}:` line in its header (is it a failure case of `{FORMAT}`?)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for CaseError {}

/// What is wrong with one line of a case file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// A value's backslash before something other than `\\`, `n` or `r` (None: the end).
    Backslash(Option<char>),
    /// A header line without its `:`.
    KeyValue(String),
    /// A key that needs a number.
    Number { key: String, value: String },
    /// A `setoption` value not in the form `setoption name N value V`.
    SetOption(String),
    /// A failure kind this version does not know.
    Failure(String),
    /// A side that is neither white nor black.
    Side(String),
    /// A `format:` this version does not read.
    Format(String),
    /// A variant this harness does not play.
    Variant(UnknownVariant),
    /// The recorded `position` or `go` line does not read back.
    Recorded(LineError),
    /// A transcript line not in the form `+SECONDS side mark text`.
    Transcript(String),
    /// A transcript line of a side other than white or black.
    TranscriptSide(String),
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Backslash(c) => {
                let what = c.map_or_else(|| "the end".to_owned(), |c| format!("`{c}`"));
                write!(f, "a backslash before {what}: write `\\\\` for one")
            }
            Cause::KeyValue(line) => write!(f, "expected `key: value`, got `{line}`"),
            Cause::Number { key, value } => write!(f, "`{key}` needs a number, got `{value}`"),
            Cause::SetOption(line) => {
                write!(f, "expected `setoption name N value V`, got `{line}`")
            }
            Cause::Failure(slug) => {
                let known: Vec<&str> = FailureKind::ALL.iter().map(|k| k.slug()).collect();
                write!(f, "unknown failure `{slug}` (one of {})", known.join(", "))
            }
            Cause::Side(side) => write!(f, "side `{side}`: expected white or black"),
            Cause::Format(format) => write!(f, "format `{format}`, expected `{FORMAT}`"),
            Cause::Variant(e) => write!(f, "{e}"),
            Cause::Recorded(e) => write!(f, "{e}"),
            Cause::Transcript(line) => write!(
                f,
                "expected `+SECONDS side mark text` in the transcript, got `{line}`"
            ),
            Cause::TranscriptSide(side) => write!(f, "unknown side `{side}` in the transcript"),
        }
    }
}

impl From<LineError> for Cause {
    fn from(e: LineError) -> Cause {
        Cause::Recorded(e)
    }
}

impl From<UnknownVariant> for Cause {
    fn from(e: UnknownVariant) -> Cause {
        Cause::Variant(e)
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

fn unescape(s: &str) -> Result<String, Cause> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            other => return Err(Cause::Backslash(other)),
        }
    }
    Ok(out)
}

/// A path as a shell word: quoted when it holds anything but plain characters.
pub fn shell_word(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+:=,@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The command that replays the case in `file`.
pub fn replay_command(file: &Path) -> String {
    format!("harness replay {}", shell_word(&file.to_string_lossy()))
}

/// The case as the text of `file` (the file's own path goes into the replay command).
pub fn to_text(case: &FailureCase, file: &Path) -> String {
    let mut out = String::new();
    write_header(&mut out, case, file);
    write_fields(&mut out, case, file);
    out.push('\n');
    for e in &case.transcript.entries {
        let _ = writeln!(
            out,
            "+{}.{:06} {} {} {}",
            e.at_us / 1_000_000,
            e.at_us % 1_000_000,
            e.source,
            e.kind.mark(),
            escape(&e.text)
        );
    }
    out
}

/// The `#` lines a reader sees first: what failed, how to replay it, the engines' commands.
fn write_header(out: &mut String, case: &FailureCase, file: &Path) {
    let failing = case.failing();
    let _ = writeln!(
        out,
        "# Sable failure case: game {}, {} ({}): {}",
        case.game,
        if case.white_failed { "White" } else { "Black" },
        failing.name,
        escape(&case.reason)
    );
    let _ = writeln!(out, "# Replay: {}", replay_command(file));
    for (label, e) in [("white", &case.engines[0]), ("black", &case.engines[1])] {
        let dir = e
            .spec
            .dir
            .as_ref()
            .map(|d| format!(" (in {})", d.display()))
            .unwrap_or_default();
        let words: Vec<String> = std::iter::once(&e.spec.cmd)
            .chain(&e.spec.args)
            .map(|w| shell_word(w))
            .collect();
        let _ = writeln!(out, "# {label}: {}{dir}", escape(&words.join(" ")));
    }
    out.push_str(
        "# Below: `key: value` lines, a blank line, the UCI transcript (seconds since the game \
         started, side, > sent, < received, ! stderr, # harness note, the line).\n",
    );
}

/// The `key: value` lines, in the order [`read`] expects them.
fn write_fields(out: &mut String, case: &FailureCase, file: &Path) {
    let failing = case.failing();
    let mut kv = |key: &str, value: &str| {
        let _ = writeln!(out, "{key}: {}", escape(value));
    };
    kv("format", FORMAT);
    kv("game", &case.game.to_string());
    kv("failure", case.kind.slug());
    kv("side", case.side());
    kv("engine", &failing.name);
    kv("reason", &case.reason);
    kv("detail", &case.detail);
    kv("started", &case.started);
    kv("variant", &case.variant.to_string());
    if let Some(v) = failing.chess960() {
        kv("uci-chess960", v);
    }
    kv(
        "opening.fen",
        case.opening.fen.as_deref().unwrap_or("startpos"),
    );
    kv("opening.moves", &case.opening.moves.join(" "));
    if let Some(origin) = &case.opening.origin {
        kv("opening.origin", origin);
    }
    if !case.book.is_empty() {
        kv("opening.book", &case.book);
    }
    kv("fen", &case.fen);
    kv("position", &case.position);
    kv("go", &case.go);
    kv("deadline-ms", &case.deadline_ms.to_string());
    kv("startup-ms", &case.startup_ms.to_string());
    kv("ping-ms", &case.ping_ms.to_string());
    for (label, e) in [("white", &case.engines[0]), ("black", &case.engines[1])] {
        kv(&format!("{label}.name"), &e.name);
        kv(&format!("{label}.cmd"), &e.spec.cmd);
        for a in &e.spec.args {
            kv(&format!("{label}.arg"), a);
        }
        if let Some(dir) = &e.spec.dir {
            kv(&format!("{label}.dir"), &dir.to_string_lossy());
        }
        for line in e.setoption_lines() {
            kv(&format!("{label}.setoption"), &line);
        }
    }
    for line in &case.info {
        kv("info", line);
    }
    kv("replay", &replay_command(file));
    kv("transcript.dropped", &case.transcript.dropped.to_string());
}

/// Reads the case file at `path`.
pub fn read(path: &Path) -> Result<FailureCase, CaseError> {
    let text = std::fs::read_to_string(path).map_err(|e| CaseError::Io {
        path: path.to_owned(),
        cause: e.to_string(),
    })?;
    parse(&text, path)
}

/// The header's values by key (each with its line numbers), in order of appearance, and the
/// file they came from (for errors).
struct Header<'a> {
    values: HashMap<String, Vec<(usize, String)>>,
    path: &'a Path,
}

impl<'a> Header<'a> {
    /// Reads the `key: value` lines up to the first empty line from `lines`; `None` for the
    /// body's first line when the file has no body.
    fn read<'t>(
        path: &'a Path,
        lines: &mut impl Iterator<Item = (usize, &'t str)>,
    ) -> Result<(Header<'a>, Option<usize>), CaseError> {
        let mut header = Header {
            values: HashMap::new(),
            path,
        };
        for (n, line) in lines {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.is_empty() {
                return Ok((header, Some(n + 1)));
            }
            if line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once(':')
                .ok_or_else(|| header.at(n, Cause::KeyValue(line.to_owned())))?;
            let value =
                unescape(value.strip_prefix(' ').unwrap_or(value)).map_err(|e| header.at(n, e))?;
            header
                .values
                .entry(key.trim().to_owned())
                .or_default()
                .push((n, value));
        }
        Ok((header, None))
    }

    /// The error of line `line`.
    fn at(&self, line: usize, cause: Cause) -> CaseError {
        CaseError::Line {
            path: self.path.to_owned(),
            line,
            cause,
        }
    }

    fn all(&self, key: &str) -> &[(usize, String)] {
        self.values.get(key).map_or(&[], Vec::as_slice)
    }

    fn get(&self, key: &str) -> Option<&(usize, String)> {
        self.all(key).last()
    }

    /// A key the format requires, with its line.
    fn need(&self, key: &str) -> Result<&(usize, String), CaseError> {
        self.get(key).ok_or_else(|| CaseError::Missing {
            path: self.path.to_owned(),
            key: key.to_owned(),
        })
    }

    fn text(&self, key: &str) -> Result<String, CaseError> {
        self.need(key).map(|(_, v)| v.clone())
    }

    fn optional(&self, key: &str) -> Option<String> {
        self.get(key).map(|(_, v)| v.clone())
    }

    fn number(&self, key: &str) -> Result<u64, CaseError> {
        let (n, v) = self.need(key)?;
        v.parse().map_err(|_| {
            let (key, value) = (key.to_owned(), v.clone());
            self.at(*n, Cause::Number { key, value })
        })
    }

    /// A required value read by `parse`, its error placed on the value's line.
    fn parsed<T, E: Into<Cause>>(
        &self,
        key: &str,
        parse: impl Fn(&str) -> Result<T, E>,
    ) -> Result<T, CaseError> {
        let (n, v) = self.need(key)?;
        parse(v).map_err(|e| self.at(*n, e.into()))
    }

    /// The engine that played `label` (white or black): how it was started and configured.
    fn engine(&self, label: &str) -> Result<EngineCase, CaseError> {
        let key = |k: &str| format!("{label}.{k}");
        let mut spec = EngineSpec::new(self.text(&key("cmd"))?);
        spec.args = self
            .all(&key("arg"))
            .iter()
            .map(|(_, a)| a.clone())
            .collect();
        spec.dir = self.optional(&key("dir")).map(PathBuf::from);
        for (n, line) in self.all(&key("setoption")) {
            let (name, value) = line
                .strip_prefix("setoption name ")
                .and_then(|rest| rest.split_once(" value "))
                .ok_or_else(|| self.at(*n, Cause::SetOption(line.clone())))?;
            spec.options.push((name.to_owned(), value.to_owned()));
        }
        let name = self.text(&key("name"))?;
        spec.name = Some(name.clone());
        Ok(EngineCase { name, spec })
    }

    fn opening(&self) -> Result<Opening, CaseError> {
        Ok(Opening {
            fen: Some(self.text("opening.fen")?).filter(|f| f != "startpos"),
            moves: self
                .text("opening.moves")?
                .split_ascii_whitespace()
                .map(str::to_owned)
                .collect(),
            origin: self.optional("opening.origin"),
        })
    }
}

/// The failure kind by its slug.
fn failure_kind(slug: &str) -> Result<FailureKind, Cause> {
    FailureKind::from_slug(slug).ok_or_else(|| Cause::Failure(slug.to_owned()))
}

/// Whether the side that failed was White.
fn white_failed(side: &str) -> Result<bool, Cause> {
    match side {
        "white" => Ok(true),
        "black" => Ok(false),
        other => Err(Cause::Side(other.to_owned())),
    }
}

/// Parses the text of a case file; `path` names it in errors.
pub fn parse(text: &str, path: &Path) -> Result<FailureCase, CaseError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let (header, body_start) = Header::read(path, &mut lines)?;
    header.parsed("format", |f| match f {
        FORMAT => Ok(()),
        _ => Err(Cause::Format(f.to_owned())),
    })?;
    let variant: Variant = header.parsed("variant", str::parse::<Variant>)?;
    header.parsed("position", |p| parse_position(p, variant))?;
    header.parsed("go", parse_go)?;
    let transcript = Snapshot {
        entries: match body_start {
            Some(_) => lines
                .map(|(n, l)| transcript_line(l).map_err(|e| header.at(n, e)))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        },
        dropped: match header.get("transcript.dropped") {
            Some(_) => header.number("transcript.dropped")?,
            None => 0,
        },
    };
    Ok(FailureCase {
        game: header.number("game")?,
        kind: header.parsed("failure", failure_kind)?,
        white_failed: header.parsed("side", white_failed)?,
        reason: header.text("reason")?,
        detail: header.optional("detail").unwrap_or_default(),
        started: header.optional("started").unwrap_or_default(),
        variant,
        opening: header.opening()?,
        book: header.optional("opening.book").unwrap_or_default(),
        fen: header.text("fen")?,
        position: header.text("position")?,
        go: header.text("go")?,
        deadline_ms: header.number("deadline-ms")?,
        startup_ms: header.number("startup-ms")?,
        ping_ms: header.number("ping-ms")?,
        engines: [header.engine("white")?, header.engine("black")?],
        info: header.all("info").iter().map(|(_, l)| l.clone()).collect(),
        transcript,
    })
}

/// One transcript line: `+SECONDS.MICROS side mark text`.
fn transcript_line(line: &str) -> Result<Entry, Cause> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let bad = || Cause::Transcript(line.to_owned());
    let (time, rest) = line.split_once(' ').ok_or_else(bad)?;
    let (source, rest) = rest.split_once(' ').ok_or_else(bad)?;
    let (mark, text) = rest.split_once(' ').unwrap_or((rest, ""));
    let (secs, micros) = time
        .strip_prefix('+')
        .and_then(|t| t.split_once('.'))
        .ok_or_else(bad)?;
    let secs: u64 = secs.parse().map_err(|_| bad())?;
    let micros: u64 = match micros.len() {
        6 => micros.parse().map_err(|_| bad())?,
        _ => return Err(bad()),
    };
    if source != side_label(true) && source != side_label(false) {
        return Err(Cause::TranscriptSide(source.to_owned()));
    }
    Ok(Entry {
        at_us: secs
            .checked_mul(1_000_000)
            .and_then(|s| s.checked_add(micros))
            .ok_or_else(bad)?,
        source: source.to_owned(),
        kind: Kind::from_mark(mark).ok_or_else(bad)?,
        text: unescape(text)?,
    })
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
