//! What `harness tb probe` says of a position, in the manner of the `fathom` prober: PGN-like
//! tags with the material, WDL, DTZ, the exact result, the tables' best move and every legal
//! move sorted by what it leads to.

use super::error::TbError;
use super::rule::{dtz_text, SyzygyRule, TbResults};
use super::tables::{MoveProbe, Tablebases};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, KnownOutcome};
use shakmaty_syzygy::AmbiguousWdl;
use std::fmt;
use std::path::Path;

/// The positions of an EPD or FEN file for `tb probe`, one a line (`#` comments and blank lines
/// skipped), each as `(source, text)`: where it came from (`FILE:LINE`, counting from 1) and the
/// trimmed line, to read with [`parse_position`]. The error names the file it cannot read.
pub fn epd_file_positions(path: &Path) -> Result<Vec<(String, String)>, TbError> {
    let text = std::fs::read_to_string(path).map_err(|cause| TbError::PositionFile {
        file: path.to_owned(),
        cause,
    })?;
    Ok(text
        .lines()
        .enumerate()
        .map(|(i, line)| (i, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(i, line)| (format!("{}:{}", path.display(), i + 1), line.to_string()))
        .collect())
}

/// A position from a line of text: a FEN (six fields), or an EPD line (four fields, then
/// operations, with clocks `0 1`). Castling rights may be written as in standard chess or in
/// Shredder-FEN (Chess960). The error says what is wrong.
pub fn parse_position(text: &str) -> Result<Chess, PositionTextError> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if fields.len() < 4 {
        return Err(PositionTextError::Fields(text.trim().to_owned()));
    }
    let clocks = fields.len() >= 6 && fields[4..6].iter().all(|f| f.parse::<u32>().is_ok());
    let used = if clocks { &fields[..6] } else { &fields[..4] };
    let text = used.join(" ");
    let fen: Fen = text.parse().map_err(|cause| PositionTextError::Fen {
        fen: text.clone(),
        cause,
    })?;
    match fen.clone().into_position(CastlingMode::Standard) {
        Ok(pos) => Ok(pos),
        Err(_) => {
            fen.into_position(CastlingMode::Chess960)
                .map_err(|e| PositionTextError::Illegal {
                    fen: text,
                    why: e.to_string(),
                })
        }
    }
}

/// Why a line of text gives no position to probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionTextError {
    /// Fewer than the 4 FEN fields.
    Fields(String),
    /// The FEN does not parse.
    Fen {
        fen: String,
        cause: shakmaty::fen::ParseFenError,
    },
    /// The position is illegal in standard chess and in Chess960: shakmaty's verdict as text
    /// (its error holds the whole position and cannot be compared).
    Illegal { fen: String, why: String },
}

impl std::fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionTextError::Fields(text) => write!(
                f,
                "`{text}`: a FEN needs at least 4 fields (board, side, castling, en passant)"
            ),
            PositionTextError::Fen { fen, cause } => write!(f, "bad FEN `{fen}`: {cause}"),
            PositionTextError::Illegal { fen, why } => {
                write!(f, "illegal position `{fen}`: {why}")
            }
        }
    }
}

impl std::error::Error for PositionTextError {}

/// The tables' answer for one position, ready to print as tags.
#[derive(Debug, Clone)]
pub struct PositionReport {
    tags: Vec<(&'static str, String)>,
    /// Whether the tables answered (WDL at least).
    pub answered: bool,
}

impl fmt::Display for PositionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", value.replace('"', "'"))?;
        }
        Ok(())
    }
}

impl PositionReport {
    /// Probes `pos` (from `source`, e.g. `book.epd:12`, if any); with `moves`, every legal move
    /// too.
    pub fn new(
        tables: &'static Tablebases,
        pos: &Chess,
        source: Option<&str>,
        moves: bool,
    ) -> PositionReport {
        let mut tags = Vec::new();
        if let Some(source) = source {
            tags.push(("Source", source.to_owned()));
        }
        let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
        tags.push(("FEN", fen));
        let probe = match tables.probe(pos) {
            Ok(p) => p,
            Err(e) => {
                tags.push(("Error", e.to_string()));
                return PositionReport {
                    tags,
                    answered: false,
                };
            }
        };
        tags.push(("Material", probe.material.clone()));
        tags.push(("WDL", format!("{:?}", probe.wdl)));
        tags.push(("DTZ", dtz_text(&probe.dtz)));
        if let Err(e) = &probe.dtz {
            tags.push(("DTZError", e.to_string()));
        }
        if probe.halfmoves > 0 {
            tags.push(("HalfmoveClock", probe.halfmoves.to_string()));
        }
        // Every probe-able position is within this rule; it only turns WDL into a result.
        let rule = SyzygyRule {
            tables,
            max_pieces: tables.max_pieces(),
            results: TbResults::Both,
            ignore_50: false,
        };
        let result = match rule.exact(pos) {
            Ok(e) => match e.outcome {
                KnownOutcome::Decisive { winner } if winner.is_white() => "1-0",
                KnownOutcome::Decisive { .. } => "0-1",
                KnownOutcome::Draw => "1/2-1/2",
            },
            Err(_) => "*",
        };
        tags.push(("Result", result.to_owned()));
        if moves {
            add_moves(&mut tags, tables, pos);
        }
        PositionReport {
            tags,
            answered: true,
        }
    }
}

/// `BestMove` and the legal moves by value (`WinningMoves`, `DrawingMoves`, `LosingMoves`, and
/// the 50-move rule's cursed and blessed ones, when there are any).
fn add_moves(tags: &mut Vec<(&'static str, String)>, tables: &Tablebases, pos: &Chess) {
    let san = |m| SanPlus::from_move(pos.clone(), m).to_string();
    match tables.best_move(pos) {
        Ok(Some((m, _))) => tags.push(("BestMove", san(m))),
        Ok(None) => {}
        Err(e) => tags.push(("BestMoveError", e.to_string())),
    }
    let moves = match tables.probe_moves(pos) {
        Ok(m) => m,
        Err(e) => {
            tags.push(("MovesError", e.to_string()));
            return;
        }
    };
    // Fathom's three lists, and the 50-move rule's cursed and blessed ones when not empty.
    for (name, always) in [
        ("WinningMoves", true),
        ("CursedWinningMoves", false),
        ("DrawingMoves", true),
        ("BlessedLosingMoves", false),
        ("LosingMoves", true),
        ("UnclearMoves", false),
    ] {
        let text: Vec<String> = moves
            .iter()
            .filter(|m: &&MoveProbe| class(m.wdl) == name)
            .map(|m| san(m.mv))
            .collect();
        if always || !text.is_empty() {
            tags.push((name, text.join(" ")));
        }
    }
}

/// The list a move with value `wdl` (for the side playing it) belongs to.
fn class(wdl: Option<AmbiguousWdl>) -> &'static str {
    match wdl {
        Some(AmbiguousWdl::Win) => "WinningMoves",
        Some(AmbiguousWdl::CursedWin) => "CursedWinningMoves",
        Some(AmbiguousWdl::Draw) => "DrawingMoves",
        Some(AmbiguousWdl::BlessedLoss) => "BlessedLosingMoves",
        Some(AmbiguousWdl::Loss) => "LosingMoves",
        None | Some(AmbiguousWdl::MaybeWin | AmbiguousWdl::MaybeLoss) => "UnclearMoves",
    }
}
