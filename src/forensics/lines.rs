//! The `position` and `go` lines of a failure case, read back: the position a replay judges the
//! engine's move in, and the search limits it sends again.

use crate::game::Variant;
use crate::uci::GoParams;
use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::{Chess, Position};

/// Why a recorded `position` or `go` line does not read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    /// Not a `position` line.
    NotPosition(String),
    /// The setup is neither `startpos` nor `fen ...`.
    Setup(String),
    /// The FEN does not parse.
    Fen { fen: String, cause: ParseFenError },
    /// The FEN's position is illegal: shakmaty's verdict as text (its error holds the whole
    /// position and cannot be compared), which begins `illegal position: `.
    Illegal(String),
    /// Move `number` (from 1) of the `moves` list is illegal where it is played.
    Move { number: usize, uci: String },
    /// Not a `go` line.
    NotGo(String),
    /// A `go` word that is no limit the runner writes.
    Limit(String),
    /// A limit without its value.
    NoValue(String),
    /// A limit whose value is no number.
    Number { key: String, value: String },
    /// A `go` line not in the form the runner writes (`form`).
    Form { line: String, form: String },
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::NotPosition(line) => {
                write!(f, "expected `position startpos|fen ...`, got `{line}`")
            }
            LineError::Setup(setup) => write!(f, "expected startpos or fen, got `{setup}`"),
            LineError::Fen { fen, cause } => write!(f, "bad FEN `{fen}`: {cause}"),
            LineError::Illegal(why) => write!(f, "{why}"),
            LineError::Move { number, uci } => write!(f, "move {number} `{uci}` is illegal"),
            LineError::NotGo(line) => write!(f, "expected a `go` line, got `{line}`"),
            LineError::Limit(key) => write!(f, "`go`: unknown limit `{key}`"),
            LineError::NoValue(key) => write!(f, "`go`: `{key}` needs a value"),
            LineError::Number { key, value } => {
                write!(f, "`go`: `{key}` needs a number, got `{value}`")
            }
            LineError::Form { line, form } => {
                write!(f, "`{line}` is not in the runner's form (`{form}`)")
            }
        }
    }
}

impl std::error::Error for LineError {}

/// The position a `position startpos|fen FEN [moves M...]` line sets up, under `variant`'s
/// castling rules.
pub fn parse_position(line: &str, variant: Variant) -> Result<Chess, LineError> {
    let rest = line
        .strip_prefix("position ")
        .ok_or_else(|| LineError::NotPosition(line.to_owned()))?
        .trim();
    let (setup, moves) = match rest.split_once(" moves") {
        Some((s, m)) => (s.trim(), m),
        None => (rest, ""),
    };
    let mut pos: Chess = if setup == "startpos" {
        Chess::default()
    } else {
        let fen = setup
            .strip_prefix("fen ")
            .ok_or_else(|| LineError::Setup(setup.to_owned()))?
            .trim();
        let parsed: Fen = fen.parse().map_err(|cause| LineError::Fen {
            fen: fen.to_owned(),
            cause,
        })?;
        parsed
            .into_position(variant.castling_mode())
            .map_err(|e| LineError::Illegal(e.to_string()))?
    };
    for (i, m) in moves.split_ascii_whitespace().enumerate() {
        let mv = crate::game::judge::legal_move(&pos, m).ok_or_else(|| LineError::Move {
            number: i + 1,
            uci: m.to_owned(),
        })?;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}

/// The limits of a `go` line as the runner writes them (`GoParams::to_command`); any other form
/// is refused, so that a replay sends exactly the recorded line.
pub fn parse_go(line: &str) -> Result<GoParams, LineError> {
    let mut words = line.split_ascii_whitespace();
    if words.next() != Some("go") {
        return Err(LineError::NotGo(line.to_owned()));
    }
    let mut g = GoParams::default();
    while let Some(key) = words.next() {
        if key == "infinite" {
            g.infinite = true;
            continue;
        }
        const LIMITS: [&str; 8] = [
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "movetime",
            "nodes",
            "depth",
        ];
        if !LIMITS.contains(&key) {
            return Err(LineError::Limit(key.to_owned()));
        }
        let value = words
            .next()
            .ok_or_else(|| LineError::NoValue(key.to_owned()))?;
        let bad = || LineError::Number {
            key: key.to_owned(),
            value: value.to_owned(),
        };
        let num = || value.parse::<u64>().map_err(|_| bad());
        let small = || value.parse::<u32>().map_err(|_| bad());
        match key {
            "wtime" => g.wtime = Some(num()?),
            "btime" => g.btime = Some(num()?),
            "winc" => g.winc = Some(num()?),
            "binc" => g.binc = Some(num()?),
            "movestogo" => g.movestogo = Some(small()?),
            "movetime" => g.movetime = Some(num()?),
            "nodes" => g.nodes = Some(num()?),
            _ => g.depth = Some(small()?),
        }
    }
    if g.to_command() != line {
        return Err(LineError::Form {
            line: line.to_owned(),
            form: g.to_command(),
        });
    }
    Ok(g)
}

/// Whether the search had a clock (or a fixed move time) that a late move oversteps, as the
/// runner's clock judges; node- and depth-limited searches only have a deadline.
pub fn clocked(g: &GoParams) -> bool {
    g.wtime.is_some() || g.btime.is_some() || g.movetime.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::EnPassantMode;

    fn fen(p: &Chess) -> String {
        Fen::from_position(p, EnPassantMode::Legal).to_string()
    }

    #[test]
    fn positions_follow_their_moves_in_either_variant() {
        let p =
            parse_position("position startpos moves e2e4 e7e5 g1f3", Variant::Standard).unwrap();
        assert_eq!(
            fen(&p),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
        let p = parse_position(
            "position fen 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1 moves g1h1",
            Variant::Chess960,
        )
        .unwrap();
        // X-FEN: the outermost rooks keep the letters k and q.
        assert_eq!(fen(&p), "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1");
        for bad in [
            "position startpos moves e2e5",
            "position sideways",
            "position fen not/a/fen w - - 0 1",
            "go depth 3",
        ] {
            assert!(parse_position(bad, Variant::Standard).is_err(), "{bad}");
        }
        let e = parse_position("position startpos moves e2e4 e2e4", Variant::Standard);
        assert_eq!(e.unwrap_err().to_string(), "move 2 `e2e4` is illegal");
    }

    #[test]
    fn go_lines_read_back_only_in_the_runners_form() {
        let line = "go wtime 9000 btime 8500 winc 100 binc 100 movestogo 12 nodes 5000";
        let g = parse_go(line).unwrap();
        assert_eq!(g.to_command(), line);
        assert_eq!(
            (g.btime, g.movestogo, g.nodes),
            (Some(8500), Some(12), Some(5000))
        );
        assert!(clocked(&g));
        let g = parse_go("go depth 9").unwrap();
        assert_eq!(g.depth, Some(9));
        assert!(!clocked(&g));
        assert!(clocked(&parse_go("go movetime 100").unwrap()));
        for bad in [
            "go btime 5 wtime 6",
            "go wtime",
            "go wtime x",
            "go ponder",
            "stop",
            "go  depth 3",
        ] {
            assert!(parse_go(bad).is_err(), "{bad}");
        }
    }
}
