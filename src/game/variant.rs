//! Which chess a match plays: standard, or Chess960 (Fischer random, and its double form where
//! White and Black start from different back ranks). The referee (shakmaty) follows the
//! variant's castling rules; engines are told with `UCI_Chess960`; PGN says `[Variant
//! "Chess960"]`.

use shakmaty::{CastlingMode, Role};
use std::fmt;
use std::str::FromStr;

/// The rules of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Standard chess.
    #[default]
    Standard,
    /// Chess960 / Fischer random chess (and double Fischer random: any start position of the
    /// kind, the two back ranks possibly different).
    Chess960,
}

impl Variant {
    /// How castling is written and refereed.
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }

    /// The PGN `Variant` tag value, if the variant needs one.
    pub fn pgn_tag(self) -> Option<&'static str> {
        match self {
            Variant::Standard => None,
            Variant::Chess960 => Some("Chess960"),
        }
    }
}

/// A variant name this harness does not play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant `{}` (standard or fischerandom)", self.0)
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// fastchess's and cutechess's words: `standard`, `fischerandom`; also `chess960`, `frc`.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.to_ascii_lowercase().as_str() {
            "standard" => Ok(Variant::Standard),
            "fischerandom" | "chess960" | "frc" | "dfrc" => Ok(Variant::Chess960),
            _ => Err(UnknownVariant(s.to_owned())),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "fischerandom",
        })
    }
}

/// The back rank of Chess960 start position `n` (0..960) by Scharnagl's numbering, from the a
/// file to the h file: `n = 518` is the standard `RNBQKBNR`.
pub fn back_rank(n: u16) -> [Role; 8] {
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = usize::from(n % 960);
    // Light-squared bishop on b, d, f or h; dark-squared one on a, c, e or g.
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    n /= 4;
    let mut place = |k: usize, role: Role| {
        let file = (0..8)
            .filter(|&f| rank[f].is_none())
            .nth(k)
            .expect("a free file");
        rank[file] = Some(role);
    };
    place(n % 6, Role::Queen);
    n /= 6;
    // The knights on two of the five remaining files, in this order of the ten pairs.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    place(b, Role::Knight);
    place(a, Role::Knight);
    // Rook, king, rook on the last three, in that order.
    place(0, Role::Rook);
    place(0, Role::King);
    place(0, Role::Rook);
    rank.map(|r| r.expect("every file filled"))
}

/// The FEN of a (double) Chess960 start: White's back rank `white`, Black's `black`, all
/// castling rights in Shredder-FEN (the rooks' files, so that it is never ambiguous).
pub fn start_fen(white: u16, black: u16) -> String {
    let rank_text = |n: u16, upper: bool| -> String {
        back_rank(n)
            .iter()
            .map(|r| {
                let c = r.char();
                if upper {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect()
    };
    let rooks = |n: u16, upper: bool| -> String {
        let files: Vec<char> = back_rank(n)
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == Role::Rook)
            .map(|(f, _)| (b'a' + f as u8) as char)
            .collect();
        // King side (the h-side rook) first, as FEN lists K before Q.
        files
            .iter()
            .rev()
            .map(|c| if upper { c.to_ascii_uppercase() } else { *c })
            .collect()
    };
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{} - 0 1",
        rank_text(black, false),
        rank_text(white, true),
        rooks(white, true),
        rooks(black, false)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{Chess, Position};

    fn text(n: u16) -> String {
        back_rank(n)
            .iter()
            .map(|r| r.char().to_ascii_uppercase())
            .collect()
    }

    #[test]
    fn scharnagl_numbers_give_the_published_start_positions() {
        // From the published table of Chess960 starting positions.
        assert_eq!(text(0), "BBQNNRKR");
        assert_eq!(text(1), "BQNBNRKR");
        assert_eq!(text(518), "RNBQKBNR");
        assert_eq!(text(959), "RKRNNQBB");
        // All 960 are different, each has the king between its rooks and bishops on both
        // colours.
        let all: std::collections::HashSet<String> = (0..960).map(text).collect();
        assert_eq!(all.len(), 960);
        for n in 0..960 {
            let t = text(n);
            let (r1, k, r2) = (
                t.find('R').unwrap(),
                t.find('K').unwrap(),
                t.rfind('R').unwrap(),
            );
            assert!(r1 < k && k < r2, "{t}");
            let b: Vec<usize> = t.match_indices('B').map(|(i, _)| i).collect();
            assert_ne!(b[0] % 2, b[1] % 2, "{t}");
        }
    }

    #[test]
    fn start_fens_are_legal_chess960_positions_with_all_rights() {
        for (w, b) in [(518, 518), (0, 959), (123, 456)] {
            let fen = start_fen(w, b);
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos.legal_moves().len(), 20, "{fen}");
            assert_eq!(pos.castles().castling_rights().count(), 4, "{fen}");
        }
        assert_eq!(
            start_fen(518, 518),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
        assert_eq!("fischerandom".parse::<Variant>(), Ok(Variant::Chess960));
        assert!("crazyhouse".parse::<Variant>().is_err());
    }
}
