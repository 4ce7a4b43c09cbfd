//! The patterns of fastchess's `-pgnout match_line=`: an engine's output line that matches one is
//! kept with the move it searched and written into the move's PGN comment (`line="..."`).
//!
//! fastchess takes a full regular expression; the harness has no regex engine, and the patterns
//! in use (OpenBench's `^info string pgncomment .*`) need only a small part of one: `^` and `$`
//! anchors, `.` for any character and `.*` for any run of characters; everything else is literal.
//! A pattern using more (classes, groups, alternation, `+`, `?`, escapes) is refused by name, never
//! matched wrongly.

use std::fmt;

/// One piece of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// This character.
    Char(char),
    /// Any one character (`.`).
    Any,
    /// Any run of characters, empty included (`.*`).
    Run,
}

/// A compiled `match_line` pattern; searched for anywhere in a line unless anchored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinePattern {
    text: String,
    pieces: Vec<Piece>,
    start: bool,
    end: bool,
}

/// Why a pattern was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// The pattern as given.
    pub pattern: String,
    /// The construct it cannot take.
    pub construct: char,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "match_line `{}`: `{}` is not supported (the harness takes literal text with ^, $, \
             . and .*, e.g. `^info string pgncomment .*`)",
            self.pattern, self.construct
        )
    }
}

impl std::error::Error for PatternError {}

impl LinePattern {
    /// Compiles `pattern`.
    pub fn new(pattern: &str) -> Result<LinePattern, PatternError> {
        let refuse = |construct| PatternError {
            pattern: pattern.to_owned(),
            construct,
        };
        let mut body = pattern;
        let start = body.starts_with('^');
        if start {
            body = &body[1..];
        }
        let end = body.ends_with('$');
        if end {
            body = &body[..body.len() - 1];
        }
        let mut pieces = Vec::new();
        let mut chars = body.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '.' if chars.peek() == Some(&'*') => {
                    chars.next();
                    pieces.push(Piece::Run);
                }
                '.' => pieces.push(Piece::Any),
                '[' | ']' | '(' | ')' | '{' | '}' | '|' | '+' | '?' | '*' | '\\' | '^' | '$' => {
                    return Err(refuse(c))
                }
                c => pieces.push(Piece::Char(c)),
            }
        }
        Ok(LinePattern {
            text: pattern.to_owned(),
            pieces,
            start,
            end,
        })
    }

    /// The pattern as given.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether `line` matches (anywhere, unless anchored), as a regex search would.
    pub fn is_match(&self, line: &str) -> bool {
        let chars: Vec<char> = line.chars().collect();
        let starts: Vec<usize> = if self.start {
            vec![0]
        } else {
            (0..=chars.len()).collect()
        };
        starts
            .into_iter()
            .any(|s| matches_at(&self.pieces, &chars[s..], self.end))
    }
}

/// Whether `pieces` match a prefix of `text` (all of it when `to_end`). Backtracks on `.*`; the
/// lines are short (one line of engine output), so the cost does not matter.
fn matches_at(pieces: &[Piece], text: &[char], to_end: bool) -> bool {
    match pieces.split_first() {
        None => !to_end || text.is_empty(),
        Some((Piece::Run, rest)) => (0..=text.len()).any(|k| matches_at(rest, &text[k..], to_end)),
        Some((piece, rest)) => match text.split_first() {
            Some((c, tail)) if *piece == Piece::Any || *piece == Piece::Char(*c) => {
                matches_at(rest, tail, to_end)
            }
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openbench_pattern_matches_its_lines_only() {
        let p = LinePattern::new("^info string pgncomment .*").unwrap();
        assert!(p.is_match("info string pgncomment eval 35 phase 12"));
        assert!(p.is_match("info string pgncomment "));
        assert!(!p.is_match("info string other"));
        assert!(!p.is_match("xinfo string pgncomment a"));
    }

    #[test]
    fn unanchored_patterns_search_and_anchors_hold() {
        let p = LinePattern::new("pgn.omment").unwrap();
        assert!(p.is_match("info string pgncomment x"));
        assert!(!p.is_match("info string pgn comment"));
        let end = LinePattern::new("depth 1.$").unwrap();
        assert!(end.is_match("info depth 12"));
        assert!(!end.is_match("info depth 12 nodes"));
        assert!(LinePattern::new("").unwrap().is_match("anything"));
    }

    #[test]
    fn regex_constructs_beyond_the_subset_are_refused() {
        for (p, c) in [
            ("a+", '+'),
            ("[ab]", '['),
            ("a|b", '|'),
            ("\\d", '\\'),
            ("x*", '*'),
        ] {
            let e = LinePattern::new(p).unwrap_err();
            assert_eq!(e.construct, c, "{p}");
            assert!(e.to_string().contains("not supported"));
        }
    }
}
