//! Parsing of UCI command lines into typed commands. Pure functions, no engine state: the
//! protocol loop turns each line into a [`Command`] and then acts on it.

use crate::search::Limits;
use std::fmt;
use std::time::Duration;

/// A parsed `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The search limits.
    pub limits: Limits,
    /// `go perft N`: count leaf nodes instead of searching.
    pub perft: Option<u32>,
    /// `go ponder`: search until `ponderhit` or `stop` (handled like `infinite`).
    pub ponder: bool,
    /// Tokens that were not understood (reported as `info string`, then ignored).
    pub warnings: Vec<String>,
}

/// One UCI command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`: forget the previous game.
    UciNewGame,
    /// `position startpos|fen F [moves M...]`; `fen: None` means the start position.
    Position {
        /// The FEN, or `None` for `startpos`.
        fen: Option<String>,
        /// Moves in UCI notation, applied in order.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`: the pondered move was played; keep searching as a normal search.
    PonderHit,
    /// `quit`.
    Quit,
    /// `setoption name N [value V]`.
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value, if given (may contain spaces).
        value: Option<String>,
    },
    /// `debug on|off` (accepted, no effect).
    Debug,
    /// `d`: print the current position (a common non-standard debugging aid).
    Display,
    /// `eval`: print the static evaluation of the current position by term group
    /// (non-standard, like Stockfish's).
    Eval,
    /// An empty line.
    Empty,
}

/// Why a line is not a command (the protocol loop sends it back as an `info string`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is no command this engine knows.
    Unknown(String),
    /// `position startpos` followed by these words instead of `moves ...`.
    AfterStartpos(String),
    /// `position fen` without the FEN.
    MissingFen,
    /// `position` without `startpos` or `fen`.
    MissingSetup,
    /// `setoption` not followed by `name <name>`.
    SetOptionSyntax,
    /// `setoption name` with nothing before `value`.
    MissingOptionName,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(word) => write!(f, "unknown command '{word}'"),
            CommandError::AfterStartpos(words) => {
                write!(f, "unexpected '{words}' after 'position startpos'")
            }
            CommandError::MissingFen => write!(f, "'position fen' without a FEN"),
            CommandError::MissingSetup => write!(f, "'position' needs 'startpos' or 'fen <FEN>'"),
            CommandError::SetOptionSyntax => {
                write!(f, "expected 'setoption name <name> [value <value>]'")
            }
            CommandError::MissingOptionName => write!(f, "setoption without an option name"),
        }
    }
}

impl std::error::Error for CommandError {}

impl CommandError {
    /// A `position` line that is not well formed: the engine refuses it as it refuses a bad FEN.
    pub fn is_position(&self) -> bool {
        matches!(
            self,
            CommandError::AfterStartpos(_) | CommandError::MissingFen | CommandError::MissingSetup
        )
    }
}

/// Parse one line. `Err` says what is wrong, for an `info string`.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Ok(Command::Empty);
    };
    match head {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "position" => parse_position(rest),
        "go" => Ok(Command::Go(parse_go(rest))),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "setoption" => parse_setoption(rest),
        "debug" => Ok(Command::Debug),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        other => Err(CommandError::Unknown(other.to_string())),
    }
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &rest[rest.len()..]),
    };
    let moves = moves.iter().map(|s| s.to_string()).collect();
    match setup.split_first() {
        Some((&"startpos", [])) => Ok(Command::Position { fen: None, moves }),
        Some((&"startpos", extra)) => Err(CommandError::AfterStartpos(extra.join(" "))),
        Some((&"fen", fields)) if !fields.is_empty() => Ok(Command::Position {
            fen: Some(fields.join(" ")),
            moves,
        }),
        Some((&"fen", _)) => Err(CommandError::MissingFen),
        _ => Err(CommandError::MissingSetup),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") || rest.len() < 2 {
        return Err(CommandError::SetOptionSyntax);
    }
    let rest = &rest[1..];
    let value_at = rest.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    if name.is_empty() {
        return Err(CommandError::MissingOptionName);
    }
    Ok(Command::SetOption { name, value })
}

/// Parse the tokens after `go`. Unknown or malformed tokens become warnings; the rest is used.
pub fn parse_go(rest: &[&str]) -> Go {
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let arg = rest.get(i + 1).copied();
        let mut took_arg = true;
        match key {
            "infinite" => {
                go.limits.infinite = true;
                took_arg = false;
            }
            "ponder" => {
                go.ponder = true;
                took_arg = false;
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => match arg.and_then(parse_ms) {
                Some(d) => match key {
                    "wtime" => go.limits.time[0] = Some(d),
                    "btime" => go.limits.time[1] = Some(d),
                    "winc" => go.limits.inc[0] = d,
                    "binc" => go.limits.inc[1] = d,
                    _ => go.limits.movetime = Some(d),
                },
                None => go.warnings.push(bad_value(key, arg)),
            },
            "movestogo" | "depth" | "mate" | "perft" => {
                match arg.and_then(|a| a.parse::<u32>().ok()) {
                    Some(n) => match key {
                        "movestogo" => go.limits.movestogo = Some(n.max(1)),
                        "depth" => go.limits.depth = Some(n.clamp(1, 127) as i32),
                        "mate" => go.limits.mate = Some(n),
                        _ => go.perft = Some(n),
                    },
                    None => go.warnings.push(bad_value(key, arg)),
                }
            }
            "nodes" => match arg.and_then(|a| a.parse::<u64>().ok()) {
                Some(n) => go.limits.nodes = Some(n),
                None => go.warnings.push(bad_value(key, arg)),
            },
            "searchmoves" => {
                go.warnings
                    .push("'searchmoves' is not supported; searching all moves".to_string());
                // Skip the move list: everything up to the next keyword.
                while i + 1 < rest.len() && !is_go_keyword(rest[i + 1]) {
                    i += 1;
                }
                took_arg = false;
            }
            other => {
                go.warnings
                    .push(format!("ignoring unknown 'go' token '{other}'"));
                took_arg = false;
            }
        }
        // A malformed value is consumed only when it is not itself a keyword.
        if took_arg && arg.is_some_and(|a| !is_go_keyword(a)) {
            i += 1;
        }
        i += 1;
    }
    go
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "infinite"
            | "ponder"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movetime"
            | "movestogo"
            | "depth"
            | "mate"
            | "perft"
            | "nodes"
            | "searchmoves"
    )
}

/// Milliseconds; negative clock values (some GUIs send them when flagging) count as zero.
fn parse_ms(s: &str) -> Option<Duration> {
    let v: i64 = s.parse().ok()?;
    Some(Duration::from_millis(v.max(0) as u64))
}

fn bad_value(key: &str, arg: Option<&str>) -> String {
    match arg {
        Some(a) => format!("ignoring 'go {key}': '{a}' is not a valid number"),
        None => format!("ignoring 'go {key}': missing value"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn go_with_clock() {
        let Ok(Command::Go(go)) = parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5")
        else {
            panic!()
        };
        assert_eq!(go.limits.time, [Some(ms(1000)), Some(ms(2000))]);
        assert_eq!(go.limits.inc, [ms(10), ms(20)]);
        assert_eq!(go.limits.movestogo, Some(5));
        assert!(go.warnings.is_empty());
    }

    #[test]
    fn go_fixed_limits_and_perft() {
        let go = parse_go(&[
            "depth", "7", "nodes", "5000", "movetime", "250", "mate", "3",
        ]);
        assert_eq!(go.limits.depth, Some(7));
        assert_eq!(go.limits.nodes, Some(5000));
        assert_eq!(go.limits.movetime, Some(ms(250)));
        assert_eq!(go.limits.mate, Some(3));
        assert_eq!(parse_go(&["perft", "4"]).perft, Some(4));
        assert!(parse_go(&["infinite"]).limits.infinite);
        assert_eq!(parse_go(&["wtime", "-50"]).limits.time[0], Some(ms(0)));
    }

    #[test]
    fn go_garbage_is_reported_not_fatal() {
        let go = parse_go(&["depth", "banana", "nodes", "100", "frobnicate"]);
        assert_eq!(go.limits.depth, None);
        assert_eq!(go.limits.nodes, Some(100));
        assert_eq!(go.warnings.len(), 2, "{:?}", go.warnings);
        // A missing value does not swallow the next keyword.
        let go = parse_go(&["depth", "nodes", "10"]);
        assert_eq!(go.limits.nodes, Some(10));
        assert_eq!(go.warnings.len(), 1);
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Ok(Command::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![]
            })
        );
        assert_eq!(parse("position"), Err(CommandError::MissingSetup));
        assert_eq!(parse("position fen"), Err(CommandError::MissingFen));
        assert_eq!(parse("position sideways"), Err(CommandError::MissingSetup));
        assert_eq!(
            parse("position startpos e2e4"),
            Err(CommandError::AfterStartpos("e2e4".into()))
        );
        assert_eq!(
            parse("position startpos e2e4").unwrap_err().to_string(),
            "unexpected 'e2e4' after 'position startpos'"
        );
    }

    #[test]
    fn setoption_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption value 3"),
            Err(CommandError::SetOptionSyntax)
        );
        assert_eq!(
            parse("setoption name value 3"),
            Err(CommandError::MissingOptionName)
        );
    }

    #[test]
    fn unknown_and_empty() {
        assert_eq!(
            parse("xyzzy 1 2 3"),
            Err(CommandError::Unknown("xyzzy".into()))
        );
        assert_eq!(
            parse("xyzzy").unwrap_err().to_string(),
            "unknown command 'xyzzy'"
        );
        assert_eq!(parse("   "), Ok(Command::Empty));
    }
}
