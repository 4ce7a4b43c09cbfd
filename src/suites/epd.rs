//! EPD test-suite parsing: a position and its operations (`bm`, `am`, `id`, `dm`, `c0`, `c9`, ...).
//!
//! Real suites are messy, so the reader accepts CRLF, stray NUL bytes, a missing final newline,
//! halfmove/fullmove counters written before the operations, moves in SAN or UCI notation, a
//! space before a check sign and unquoted ids. Unknown opcodes are kept, never errors. Moves are
//! checked against the position with shakmaty, so a suite that parses has only legal moves.

use super::error::SuiteError;
use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, PositionError};

pub use super::epd_error::{EpdCause, EpdError, LineRef, MoveError, OpError};

/// One operation as written: opcode and its operands (quotes removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The opcode, e.g. `bm` or `c0`.
    pub opcode: String,
    /// The operands, split on whitespace outside quotes.
    pub operands: Vec<String>,
}

/// One test position of a suite, with everything needed to score an engine's answer.
#[derive(Clone, Debug)]
pub struct EpdPosition {
    /// Where it was read from.
    pub at: LineRef,
    /// The `id` operand, or `line N` when the line has none.
    pub id: String,
    /// The position (with the line's move counters when it had them).
    pub position: Chess,
    /// Best moves (`bm`): any of them solves the position.
    pub bm: Vec<Move>,
    /// Avoid moves (`am`): playing any of them fails the position.
    pub am: Vec<Move>,
    /// Direct mate in this many moves (`dm`).
    pub dm: Option<u32>,
    /// STS-style scored alternatives (from `c0 "f5=100, Bf2=46"` or `c9` moves with `c8` points).
    pub points: Vec<(Move, u32)>,
    /// Moves listed in a `c9` operation in UCI notation, where present.
    pub c9_moves: Vec<Move>,
    /// Every operation of the line, including unknown ones (kept, never an error).
    pub operations: Vec<Operation>,
}

impl EpdPosition {
    /// The FEN of the position, as sent to engines.
    pub fn fen(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }

    /// Whether the position needs Chess960 castling (UCI_Chess960 for engines): a king off the
    /// e-file or a castling rook off the a- and h-files.
    pub fn is_chess960(&self) -> bool {
        self.position.castles().mode().is_chess960()
    }

    /// Whether the position says how to score an answer (`bm`, `am`, `dm` or scored alternatives).
    pub fn has_criterion(&self) -> bool {
        !self.bm.is_empty() || !self.am.is_empty() || self.dm.is_some() || !self.points.is_empty()
    }

    /// The STS points a move earns (0 when not listed), or `None` for suites without points.
    pub fn points_for(&self, mv: &Move) -> Option<u32> {
        if self.points.is_empty() {
            return None;
        }
        Some(
            self.points
                .iter()
                .find(|(m, _)| m == mv)
                .map_or(0, |(_, p)| *p),
        )
    }

    /// The most points any move earns here (`None` for suites without points).
    pub fn max_points(&self) -> Option<u32> {
        self.points.iter().map(|(_, p)| *p).max()
    }

    /// The theme of an STS id (`"STS(v1.0) Undermine.001"` gives `Undermine`), else `None`.
    pub fn theme(&self) -> Option<&str> {
        let rest = self.id.strip_prefix("STS")?;
        let rest = rest.split_once(") ").map_or(rest, |(_, r)| r);
        let name = rest.rsplit_once('.').map_or(rest, |(name, _)| name);
        Some(name.trim())
    }

    /// The value of the first operation with this opcode, operands joined by spaces.
    #[cfg(test)]
    pub fn operation(&self, opcode: &str) -> Option<String> {
        self.operations
            .iter()
            .find(|op| op.opcode == opcode)
            .map(|op| op.operands.join(" "))
    }
}

/// A whole suite: its name, its positions and the lines skipped as malformed.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The suite's name (the file stem), used in reports and baselines.
    pub name: String,
    /// The positions, in file order.
    pub positions: Vec<EpdPosition>,
    /// Malformed lines skipped with `skip_bad` (empty otherwise).
    pub skipped: Vec<EpdError>,
}

/// Reads a suite from a file; `skip_bad` skips malformed lines (counted in `Suite::skipped`)
/// instead of failing on the first one.
pub fn read_suite(path: &Path, skip_bad: bool) -> Result<Suite, SuiteError> {
    let bytes =
        std::fs::read(path).map_err(SuiteError::io(format!("cannot read {}", path.display())))?;
    let name = path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let text = String::from_utf8_lossy(&bytes);
    Ok(parse_suite(
        &name,
        &path.display().to_string(),
        &text,
        skip_bad,
    )?)
}

/// Parses the text of a suite named `name` read from `file`.
pub fn parse_suite(name: &str, file: &str, text: &str, skip_bad: bool) -> Result<Suite, EpdError> {
    let mut suite = Suite {
        name: name.to_string(),
        positions: Vec::new(),
        skipped: Vec::new(),
    };
    for (index, raw) in text.split('\n').enumerate() {
        let at = LineRef {
            file: file.to_string(),
            line: index + 1,
        };
        let line: String = raw.chars().filter(|&c| c != '\0').collect();
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line, at).and_then(require_criterion) {
            Ok(pos) => suite.positions.push(pos),
            Err(e) if skip_bad => suite.skipped.push(e),
            Err(e) => return Err(e),
        }
    }
    make_ids_unique(&mut suite.positions);
    Ok(suite)
}

fn require_criterion(pos: EpdPosition) -> Result<EpdPosition, EpdError> {
    if pos.has_criterion() {
        Ok(pos)
    } else {
        Err(EpdError {
            at: pos.at,
            cause: EpdCause::NoCriterion,
        })
    }
}

/// Baselines key rows by (suite, id): a repeated id gets its line number appended.
fn make_ids_unique(positions: &mut [EpdPosition]) {
    let mut seen = std::collections::HashSet::new();
    for pos in positions.iter_mut() {
        if !seen.insert(pos.id.clone()) {
            pos.id = format!("{}@{}", pos.id, pos.at.line);
            seen.insert(pos.id.clone());
        }
    }
}

/// Parses one non-empty EPD line (already stripped of NULs and line ends).
pub fn parse_line(line: &str, at: LineRef) -> Result<EpdPosition, EpdError> {
    let err = |cause: EpdCause| EpdError {
        at: at.clone(),
        cause,
    };
    let (position, rest) = parse_position(line).map_err(&err)?;
    let operations = split_operations(rest).map_err(&err)?;
    let mut pos = EpdPosition {
        at: at.clone(),
        id: format!("line {}", at.line),
        position,
        bm: Vec::new(),
        am: Vec::new(),
        dm: None,
        points: Vec::new(),
        c9_moves: Vec::new(),
        operations: Vec::new(),
    };
    for op in &operations {
        apply_operation(&mut pos, op).map_err(|cause| {
            err(EpdCause::Operation {
                opcode: op.opcode.clone(),
                cause,
            })
        })?;
    }
    if pos.points.is_empty() {
        pos.points = points_from_c8_c9(&pos, &operations);
    }
    pos.operations = operations;
    Ok(pos)
}

/// Splits off and parses the four EPD fields plus optional move counters.
fn parse_position(line: &str) -> Result<(Chess, &str), EpdCause> {
    let mut fields = Vec::with_capacity(6);
    let mut rest = line;
    while fields.len() < 6 {
        let trimmed = rest.trim_start();
        let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        let token = &trimmed[..end];
        // Fields 5 and 6 are optional counters; stop at the first operation.
        let is_counter = is_number(token.trim_end_matches(';'));
        if token.is_empty() || (fields.len() >= 4 && !is_counter) {
            break;
        }
        let token_clean = token.trim_end_matches(';');
        match token_clean.strip_prefix('-') {
            // `- -1 12`: a missing space between the en-passant field and the halfmove clock.
            Some(clock) if fields.len() == 3 && !clock.is_empty() && is_number(clock) => {
                fields.extend(["-", clock]);
            }
            _ => fields.push(token_clean),
        }
        rest = &trimmed[end..];
        if token.ends_with(';') {
            break;
        }
    }
    if fields.len() < 4 {
        return Err(EpdCause::FenFields(fields.len()));
    }
    if fields.len() == 5 {
        return Err(EpdCause::HalfmoveOnly);
    }
    let text = fields.join(" ");
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|cause| EpdCause::BadPosition {
        fen: text.clone(),
        cause,
    })?;
    // Chess960 castling rights (X-FEN or Shredder-FEN) put the position in Chess960 mode.
    let mode = CastlingMode::detect(fen.as_setup());
    let position = fen
        .into_position::<Chess>(mode)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .map_err(|e| EpdCause::Illegal {
            fen: text,
            why: e.to_string(),
        })?;
    Ok((position, rest))
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Splits `op1 a b; op2 "c d"; ...` into operations, honouring quotes.
fn split_operations(text: &str) -> Result<Vec<Operation>, EpdCause> {
    let mut ops = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut in_quotes = false;
    let mut quoted = false;
    let flush = |tokens: &mut Vec<String>, current: &mut String, quoted: &mut bool| {
        if !current.is_empty() || *quoted {
            tokens.push(std::mem::take(current));
        }
        *quoted = false;
    };
    for c in text.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                quoted = true;
            }
            ';' if !in_quotes => {
                flush(&mut tokens, &mut current, &mut quoted);
                push_operation(&mut ops, std::mem::take(&mut tokens));
            }
            c if c.is_whitespace() && !in_quotes => flush(&mut tokens, &mut current, &mut quoted),
            c => current.push(c),
        }
    }
    if in_quotes {
        return Err(EpdCause::Unterminated);
    }
    flush(&mut tokens, &mut current, &mut quoted);
    push_operation(&mut ops, tokens);
    Ok(ops)
}

fn push_operation(ops: &mut Vec<Operation>, mut tokens: Vec<String>) {
    if tokens.is_empty() {
        return;
    }
    let opcode = tokens.remove(0);
    ops.push(Operation {
        opcode,
        operands: tokens,
    });
}

/// Interprets the operations the scorer uses; others are only kept.
fn apply_operation(pos: &mut EpdPosition, op: &Operation) -> Result<(), OpError> {
    match op.opcode.as_str() {
        "bm" => pos.bm = parse_move_list(&pos.position, &op.operands, false)?,
        "am" => pos.am = parse_move_list(&pos.position, &op.operands, true)?,
        "id" => {
            if op.operands.is_empty() {
                return Err(OpError::MissingId);
            }
            pos.id = op.operands.join(" ");
        }
        "dm" => {
            let n = op.operands.first().ok_or(OpError::MissingMate)?;
            let n: u32 = n.parse().map_err(|_| OpError::NotANumber(n.clone()))?;
            if n == 0 {
                return Err(OpError::MateZero);
            }
            pos.dm = Some(n);
        }
        "c0" => pos.points = parse_scored_alternatives(&pos.position, &op.operands)?,
        "c9" => pos.c9_moves = parse_uci_list(&pos.position, &op.operands)?,
        _ => {}
    }
    Ok(())
}

/// Parses `bm`/`am` operands: SAN or UCI moves, tolerating a detached `+`/`#`, commas and
/// `!`/`?` annotations. An ambiguous SAN is an error in `bm`; in `am` every move it names is
/// avoided.
fn parse_move_list(pos: &Chess, operands: &[String], avoid: bool) -> Result<Vec<Move>, MoveError> {
    let mut moves = Vec::new();
    for word in operands.iter().flat_map(|o| o.split(',')) {
        let word = word.trim_end_matches(['!', '?']);
        if word.is_empty() || word == "+" || word == "#" {
            continue;
        }
        let found = matching_moves(pos, word)?;
        if found.len() > 1 && !avoid {
            return Err(MoveError::Ambiguous(word.to_owned()));
        }
        for mv in found {
            if !moves.contains(&mv) {
                moves.push(mv);
            }
        }
    }
    if moves.is_empty() {
        return Err(MoveError::NoMoves);
    }
    Ok(moves)
}

/// Parses one move in SAN (also `0-0`) or, failing that, UCI notation; it must be legal and
/// unambiguous.
pub fn parse_move(pos: &Chess, word: &str) -> Result<Move, MoveError> {
    match matching_moves(pos, word)?.as_slice() {
        [mv] => Ok(*mv),
        _ => Err(MoveError::Ambiguous(word.to_owned())),
    }
}

/// The legal moves a SAN or UCI word names: one, or several when the SAN is ambiguous. A SAN
/// that forgets (or invents) the `x` of a capture is accepted, as some suites write it so.
fn matching_moves(pos: &Chess, word: &str) -> Result<Vec<Move>, MoveError> {
    let normalized = normalize_san(word);
    let is_uci = UciMove::from_ascii(word.as_bytes()).is_ok();
    if let Ok(san) = normalized.parse::<San>() {
        let legal = pos.legal_moves();
        let mut found: Vec<Move> = legal.iter().filter(|m| san.matches(**m)).copied().collect();
        if found.is_empty() {
            if let San::Normal { capture, .. } = san {
                let sloppy = match san {
                    San::Normal {
                        role,
                        file,
                        rank,
                        to,
                        promotion,
                        ..
                    } => San::Normal {
                        role,
                        file,
                        rank,
                        capture: !capture,
                        to,
                        promotion,
                    },
                    other => other,
                };
                found = legal
                    .iter()
                    .filter(|m| sloppy.matches(**m))
                    .copied()
                    .collect();
            }
        }
        if !found.is_empty() {
            return Ok(found);
        }
        if !is_uci {
            return Err(MoveError::IllegalSan(word.to_owned()));
        }
    }
    let uci =
        UciMove::from_ascii(word.as_bytes()).map_err(|_| MoveError::NotAMove(word.to_owned()))?;
    uci.to_move(pos)
        .map(|mv| vec![mv])
        .map_err(|_| MoveError::Illegal(word.to_owned()))
}

/// Rewrites the informal spellings found in real suites into SAN shakmaty reads: `0-0`,
/// long algebraic `Ne1-f3` / `d3-d4` (the dash dropped) and promotions without `=` (`g8Q`).
fn normalize_san(word: &str) -> String {
    let castle = word.replace('0', "O");
    if castle.starts_with("O-O") {
        return castle;
    }
    let mut s = word.replace('-', "");
    let body_len = s.trim_end_matches(['+', '#']).len();
    let bytes = s.as_bytes();
    if body_len >= 3
        && b"QRBN".contains(&bytes[body_len - 1])
        && b"18".contains(&bytes[body_len - 2])
        && bytes[0].is_ascii_lowercase()
    {
        s.insert(body_len - 1, '=');
    }
    s
}

/// Parses STS `c0 "f5=100, Bf2=46, ..."`. A `c0` that is not of that form is a comment: no points.
fn parse_scored_alternatives(
    pos: &Chess,
    operands: &[String],
) -> Result<Vec<(Move, u32)>, MoveError> {
    let text = operands.join(" ");
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    let pairs: Option<Vec<(&str, u32)>> = items
        .iter()
        .map(|item| {
            let (mv, points) = item.rsplit_once('=')?;
            let mv = mv.trim();
            let looks_like_move = (2..=7).contains(&mv.len())
                && mv
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+#=-".contains(&b));
            looks_like_move.then_some((mv, points.trim().parse().ok()?))
        })
        .collect();
    let Some(pairs) = pairs else {
        return Ok(Vec::new());
    };
    pairs
        .into_iter()
        .map(|(word, points)| Ok((parse_move(pos, word)?, points)))
        .collect()
}

/// Parses a `c9` list of UCI moves; a `c9` that is not a move list (e.g. a game result) is kept
/// as a comment.
fn parse_uci_list(pos: &Chess, operands: &[String]) -> Result<Vec<Move>, MoveError> {
    let words: Vec<&str> = operands.iter().flat_map(|o| o.split_whitespace()).collect();
    if words.is_empty()
        || words
            .iter()
            .any(|w| UciMove::from_ascii(w.as_bytes()).is_err())
    {
        return Ok(Vec::new());
    }
    words.iter().map(|w| parse_move(pos, w)).collect()
}

/// STS files also give the points as `c8 "100 46 ..."` aligned with `c9` UCI moves.
fn points_from_c8_c9(pos: &EpdPosition, ops: &[Operation]) -> Vec<(Move, u32)> {
    let Some(c8) = ops.iter().find(|op| op.opcode == "c8") else {
        return Vec::new();
    };
    let points: Option<Vec<u32>> = c8
        .operands
        .iter()
        .flat_map(|o| o.split_whitespace())
        .map(|p| p.parse().ok())
        .collect();
    match points {
        Some(points) if points.len() == pos.c9_moves.len() => {
            pos.c9_moves.iter().copied().zip(points).collect()
        }
        _ => Vec::new(),
    }
}

/// Formats a move in SAN for reports.
pub fn san(pos: &Chess, mv: &Move) -> String {
    SanPlus::from_move(pos.clone(), *mv).to_string()
}

/// Formats a list of moves in SAN, separated by spaces.
pub fn san_list(pos: &Chess, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| san(pos, m))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
#[path = "epd_tests.rs"]
mod tests;
