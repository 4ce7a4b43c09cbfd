//! The formats a book is written in: EPD (one position per line) and PGN (a game's first
//! `plies` moves), each read into [`Opening`]s that name where in the file they came from.

use super::error::{BookError, EpdLineError, EpdProblem};
use crate::game::pgn::GameCollector;
use crate::game::{Opening, Variant};
use shakmaty::fen::Epd;
use std::path::Path;

/// Reads an EPD book; every line must hold a legal position (comments `#` and blank lines skipped).
pub fn read_epd(path: &Path, variant: Variant) -> Result<Vec<Opening>, BookError> {
    let text = std::fs::read_to_string(path).map_err(|e| BookError::Read {
        file: path.to_owned(),
        cause: e,
    })?;
    parse_epd(&text, variant).map_err(|e| BookError::EpdLine {
        file: path.display().to_string(),
        error: e,
    })
}

/// Parses EPD text under `variant`'s rules (Chess960 books may write castling rights as
/// Shredder-FEN `HAha` or X-FEN `KQkq`); the error carries the 1-based line number.
pub fn parse_epd(text: &str, variant: Variant) -> Result<Vec<Opening>, EpdLineError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |cause| EpdLineError { line: i + 1, cause };
        let fields: Vec<&str> = line.split_ascii_whitespace().take(4).collect();
        if fields.len() < 4 {
            return Err(fail(EpdProblem::TooFewFields(line.to_owned())));
        }
        let epd: Epd = fields
            .join(" ")
            .parse()
            .map_err(|e| fail(EpdProblem::BadPosition(format!("{e}"))))?;
        let pos: shakmaty::Chess = epd
            .into_position(variant.castling_mode())
            .map_err(|e| fail(EpdProblem::IllegalPosition(format!("{e}"))))?;
        use shakmaty::Position;
        if pos.is_game_over() {
            return Err(fail(EpdProblem::GameOver));
        }
        let fen =
            shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string();
        out.push(Opening {
            fen: Some(fen),
            moves: Vec::new(),
            origin: Some(format!("line {}", i + 1)),
        });
    }
    Ok(out)
}

/// Reads a PGN book: each game's FEN tag (if any) and its first `plies` moves.
pub fn read_pgn(
    path: &Path,
    plies: Option<usize>,
    variant: Variant,
) -> Result<Vec<Opening>, BookError> {
    let read_error = |e| BookError::Read {
        file: path.to_owned(),
        cause: e,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut reader = pgn_reader::Reader::new(std::io::BufReader::new(file));
    let mut out = Vec::new();
    let mut index = 0;
    while let Some(game) = reader.read_game(&mut GameCollector).map_err(read_error)? {
        index += 1;
        let mut moves = game.uci_moves();
        if let Some(p) = plies {
            moves.truncate(p);
        }
        if let Some(e) = game.error {
            if moves.is_empty() && game.fen.is_none() {
                return Err(BookError::PgnRead {
                    file: path.to_owned(),
                    game: index,
                    cause: e,
                });
            }
        }
        let opening = Opening {
            fen: game.fen,
            moves,
            origin: Some(format!("game {index}")),
        };
        opening.position(variant).map_err(|e| BookError::PgnGame {
            file: path.to_owned(),
            game: index,
            cause: e,
        })?;
        out.push(opening);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_become_full_fens_and_errors_name_the_line() {
        let text = "# book\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 \"x\";\n\n8/8/8/8/8/8/8/8 w - -\n";
        let err = parse_epd(text, Variant::Standard).unwrap_err();
        assert_eq!(err.line, 4);
        let ok = parse_epd(
            &text.lines().take(2).collect::<Vec<_>>().join("\n"),
            Variant::Standard,
        )
        .unwrap();
        assert_eq!(
            ok[0].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(
            parse_epd("rnbqkbnr w", Variant::Standard)
                .unwrap_err()
                .to_string(),
            "1: expected 4 FEN fields, got `rnbqkbnr w`"
        );
        assert_eq!(
            ok[0].origin.as_deref(),
            Some("line 2"),
            "the file's own line"
        );
    }
}
