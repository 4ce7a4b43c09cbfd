//! The pieces of PGN movetext that both move-comment forms share: which form ([`PgnStyle`]),
//! where a game's numbering starts, and the wrapping of lines. A leaf under the harness's PGN
//! writer (`pgn`) and fastchess's (`pgn_fastchess`).

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// How moves are commented: the harness's own form (`{+0.35/12 0.123s n=4567}`, the reason in a
/// comment of its own), or fastchess's (`-pgnout`), which OpenBench's client and server read:
/// `{+0.35/12 0.123s, n=4567, sd=18, line="info string ..."}` with the nodes and selective
/// depth only when asked for, the reason in the last move's comment, and fastchess's
/// `Termination` words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PgnStyle {
    /// fastchess's form.
    pub fastchess: bool,
    /// fastchess's form: `n=` (nodes) in every engine move's comment (`-pgnout nodes=true`).
    pub nodes: bool,
    /// fastchess's form: `sd=` (selective depth) in every engine move's comment.
    pub seldepth: bool,
}

/// Side to move and full move number of a starting FEN (standard start when None or unreadable).
pub(super) fn start_of(fen: Option<&str>) -> (bool, u32) {
    // Chess960 too: a start position's side to move and move number do not depend on the rules.
    let pos: Option<Chess> = fen.and_then(|f| f.parse::<Fen>().ok()).and_then(|f| {
        f.clone()
            .into_position(CastlingMode::Standard)
            .ok()
            .or_else(|| f.into_position(CastlingMode::Chess960).ok())
    });
    match pos {
        Some(p) => (p.turn().is_white(), p.fullmoves().get()),
        None => (true, 1),
    }
}

/// Breaks text into lines of at most `width` characters at spaces outside `{comments}` (so that
/// comments read back as written; a long comment may exceed the width).
pub(super) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / width);
    let mut line_len = 0;
    let mut words: Vec<&str> = Vec::new();
    let (mut start, mut depth) = (0, 0i32);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ' ' if depth <= 0 => {
                words.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    words.push(&text[start..]);
    for word in words.into_iter().filter(|w| !w.is_empty()) {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}
