//! Parsing of the engine's `info` and `bestmove` lines into typed values.

use std::fmt;

/// A search score as the engine reports it, from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// The engine library's score as a UCI engine would report it (`info score`): mates in full
/// moves, rounded as the engine's own `Score::to_uci` rounds them, so that an in-process search
/// (`datagen`) reaches the adjudicator with the same value a UCI game would.
impl From<sable::search::Score> for Score {
    fn from(s: sable::search::Score) -> Score {
        use sable::search::Score as Engine;
        match s {
            Engine::Cp(cp) => Score::Cp(cp),
            Engine::Mate(plies) if plies > 0 => Score::Mate((plies + 1) / 2),
            Engine::Mate(plies) => Score::Mate(-((-plies + 1) / 2)),
        }
    }
}

impl fmt::Display for Score {
    /// PGN-comment style: `+0.35`, `-1.20`, `+M3`, `-M2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let a = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Mate(m) => write!(f, "{}M{}", if m < 0 { '-' } else { '+' }, m.unsigned_abs()),
        }
    }
}

/// Why an `info` or `bestmove` line does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InfoError {
    /// Not an `info` line.
    NotInfo(String),
    /// Not a `bestmove` line.
    NotBestMove(String),
    /// A known key without its value.
    NoValue(String),
    /// A known key whose value is no number.
    Malformed { key: String, value: String },
    /// `score` followed by something other than `cp` or `mate` (None: nothing).
    ScoreKind(Option<String>),
    /// `bestmove` without a move.
    NoMove,
}

impl fmt::Display for InfoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InfoError::NotInfo(line) => write!(f, "not an info line: {line}"),
            InfoError::NotBestMove(line) => write!(f, "not a bestmove line: {line}"),
            InfoError::NoValue(key) => write!(f, "`{key}` without a value"),
            InfoError::Malformed { key, value } => {
                write!(f, "`{key}` has a malformed value `{value}`")
            }
            InfoError::ScoreKind(kind) => write!(f, "unknown score kind {kind:?}"),
            InfoError::NoMove => write!(f, "`bestmove` without a move"),
        }
    }
}

impl std::error::Error for InfoError {}

/// The fields of one `info` line that the harness uses; absent fields are `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    /// Nominal search depth.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Score of the principal variation (bounds are flagged in `bound`).
    pub score: Option<Score>,
    /// `Some("lowerbound")`/`Some("upperbound")` when the score is only a bound.
    pub bound: Option<&'static str>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Milliseconds searched.
    pub time_ms: Option<u64>,
    /// Which line of a multi-PV search this is (1 = best).
    pub multipv: Option<u32>,
    /// The principal variation in UCI move notation.
    pub pv: Vec<String>,
}

impl Info {
    /// Parses the words after `info`. Unknown keys are skipped; a malformed number for a known key
    /// is an error (the caller decides whether that matters). `info string ...` gives an empty Info.
    pub fn parse(line: &str) -> Result<Info, InfoError> {
        let mut info = Info::default();
        let mut words = line.split_ascii_whitespace();
        if words.next() != Some("info") {
            return Err(InfoError::NotInfo(line.to_owned()));
        }
        while let Some(key) = words.next() {
            match key {
                "depth" => info.depth = Some(number(key, words.next())?),
                "seldepth" => info.seldepth = Some(number(key, words.next())?),
                "nodes" => info.nodes = Some(number(key, words.next())?),
                "nps" => info.nps = Some(number(key, words.next())?),
                "time" => info.time_ms = Some(number(key, words.next())?),
                "multipv" => info.multipv = Some(number(key, words.next())?),
                "score" => {
                    let kind = words.next();
                    let value: i32 = number("score", words.next())?;
                    info.score = Some(match kind {
                        Some("cp") => Score::Cp(value),
                        Some("mate") => Score::Mate(value),
                        other => return Err(InfoError::ScoreKind(other.map(str::to_owned))),
                    });
                }
                "lowerbound" => info.bound = Some("lowerbound"),
                "upperbound" => info.bound = Some("upperbound"),
                "pv" => {
                    info.pv = words.by_ref().map(str::to_owned).collect();
                }
                // The rest of the line is free text.
                "string" => break,
                _ => {}
            }
        }
        Ok(info)
    }

    /// Copies into `self` every field that `newer` has, so the result describes the latest
    /// state of the search (engines often send partial lines, e.g. only `nodes` and `nps`).
    pub fn merge(&mut self, newer: &Info) {
        if newer.multipv.unwrap_or(1) != 1 {
            return; // Only the best line describes the engine's choice.
        }
        macro_rules! take {
            ($($f:ident),*) => { $( if newer.$f.is_some() { self.$f = newer.$f; } )* };
        }
        take!(depth, seldepth, nodes, nps, time_ms);
        if newer.score.is_some() {
            self.score = newer.score;
            self.bound = newer.bound;
        }
        if !newer.pv.is_empty() {
            self.pv = newer.pv.clone();
        }
    }
}

fn number<T: std::str::FromStr>(key: &str, word: Option<&str>) -> Result<T, InfoError> {
    let w = word.ok_or_else(|| InfoError::NoValue(key.to_owned()))?;
    w.parse().map_err(|_| InfoError::Malformed {
        key: key.to_owned(),
        value: w.to_owned(),
    })
}

/// The engine's answer to `go`: `bestmove <move> [ponder <move>]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestMove {
    /// The chosen move in UCI notation as sent; `None` for `(none)`/`0000` (no legal move).
    pub mv: Option<String>,
    /// The expected reply, if the engine gave one.
    pub ponder: Option<String>,
}

impl BestMove {
    /// Parses a full `bestmove ...` line.
    pub fn parse(line: &str) -> Result<BestMove, InfoError> {
        let mut words = line.split_ascii_whitespace();
        if words.next() != Some("bestmove") {
            return Err(InfoError::NotBestMove(line.to_owned()));
        }
        let mv = match words.next() {
            None => return Err(InfoError::NoMove),
            Some("(none)") | Some("0000") => None,
            Some(m) => Some(m.to_owned()),
        };
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(p)) => Some(p.to_owned()),
            _ => None,
        };
        Ok(BestMove { mv, ponder })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_full_info_line() {
        let i = Info::parse(
            "info depth 12 seldepth 18 multipv 1 score cp -35 upperbound nodes 123456 nps 987654 \
             hashfull 3 tbhits 0 time 125 pv e2e4 e7e5 g1f3",
        )
        .unwrap();
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.seldepth, Some(18));
        assert_eq!(i.score, Some(Score::Cp(-35)));
        assert_eq!(i.bound, Some("upperbound"));
        assert_eq!(i.nodes, Some(123456));
        assert_eq!(i.nps, Some(987654));
        assert_eq!(i.time_ms, Some(125));
        assert_eq!(i.pv, ["e2e4", "e7e5", "g1f3"]);
    }

    #[test]
    fn mate_scores_and_strings() {
        let i = Info::parse("info depth 5 score mate -3 pv a1a2").unwrap();
        assert_eq!(i.score, Some(Score::Mate(-3)));
        assert_eq!(i.score.unwrap().to_string(), "-M3");
        assert_eq!(Score::Cp(-5).to_string(), "-0.05");
        assert_eq!(Score::Cp(123).to_string(), "+1.23");
        let s = Info::parse("info string depth banana").unwrap();
        assert_eq!(s, Info::default());
    }

    #[test]
    fn malformed_numbers_are_errors() {
        assert!(Info::parse("info depth x").is_err());
        assert!(Info::parse("info score cp").is_err());
        assert!(Info::parse("info score bogus 3").is_err());
        assert!(Info::parse("bestmove e2e4").is_err());
    }

    #[test]
    fn merge_keeps_latest_fields_of_the_best_line() {
        let mut acc = Info::parse("info depth 3 score cp 10 pv e2e4").unwrap();
        acc.merge(&Info::parse("info nodes 500 nps 1000").unwrap());
        acc.merge(&Info::parse("info multipv 2 depth 9 score cp -99 pv d2d4").unwrap());
        assert_eq!(acc.depth, Some(3));
        assert_eq!(acc.score, Some(Score::Cp(10)));
        assert_eq!(acc.nodes, Some(500));
        assert_eq!(acc.pv, ["e2e4"]);
    }

    #[test]
    fn bestmove_lines() {
        let b = BestMove::parse("bestmove e7e8q ponder d1d8").unwrap();
        assert_eq!(b.mv.as_deref(), Some("e7e8q"));
        assert_eq!(b.ponder.as_deref(), Some("d1d8"));
        assert_eq!(BestMove::parse("bestmove (none)").unwrap().mv, None);
        assert!(BestMove::parse("bestmove").is_err());
    }
}
