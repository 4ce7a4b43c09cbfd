//! Opening books: EPD (one position per line) and PGN (a game's first `plies` moves), in
//! sequential or seeded random order, starting at `start`.

use crate::game::pgn::GameCollector;
use crate::game::Opening;
use shakmaty::fen::Epd;
use shakmaty::CastlingMode;
use std::path::{Path, PathBuf};

/// File format of a book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookFormat {
    /// One position per line; fields after the first four are EPD operations (ignored).
    Epd,
    /// Games; the first `plies` moves of each are the opening.
    Pgn,
}

/// In which order openings are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// File order.
    Sequential,
    /// Shuffled with the match seed.
    Random,
}

/// Where the openings come from (`--openings file=... format=... order=... plies=... start=...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookSpec {
    /// The book file.
    pub file: PathBuf,
    /// Its format (default: from the file extension).
    pub format: BookFormat,
    /// Order of use.
    pub order: Order,
    /// Plies taken from PGN games (default: all).
    pub plies: Option<usize>,
    /// First opening to use, 1-based, after ordering.
    pub start: usize,
}

impl BookSpec {
    /// Parses `file=PATH format=epd|pgn order=random|sequential plies=N start=N`.
    pub fn parse(words: &[String]) -> Result<BookSpec, String> {
        let mut file = None;
        let (mut format, mut order, mut plies, mut start) = (None, Order::Sequential, None, 1);
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("openings: expected key=value, got `{w}`"))?;
            let num = || {
                v.parse::<usize>()
                    .map_err(|_| format!("openings: `{k}` needs a number, got `{v}`"))
            };
            match k {
                "file" => file = Some(PathBuf::from(v)),
                "format" => {
                    format = Some(match v {
                        "epd" => BookFormat::Epd,
                        "pgn" => BookFormat::Pgn,
                        _ => return Err(format!("openings: unknown format `{v}` (epd or pgn)")),
                    })
                }
                "order" => {
                    order = match v {
                        "random" => Order::Random,
                        "sequential" => Order::Sequential,
                        _ => {
                            return Err(format!(
                                "openings: unknown order `{v}` (random or sequential)"
                            ))
                        }
                    }
                }
                "plies" => plies = Some(num()?),
                "start" => start = num()?.max(1),
                _ => return Err(format!("openings: unknown key `{k}`")),
            }
        }
        let file = file.ok_or("openings: `file=` is required")?;
        let format = format.unwrap_or_else(|| {
            let pgn = file
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
            if pgn {
                BookFormat::Pgn
            } else {
                BookFormat::Epd
            }
        });
        Ok(BookSpec {
            file,
            format,
            order,
            plies,
            start,
        })
    }

    /// Loads, orders (with `seed`) and rotates the openings so that `start` comes first.
    pub fn load(&self, seed: u64) -> Result<Vec<Opening>, String> {
        let mut openings = match self.format {
            BookFormat::Epd => read_epd(&self.file)?,
            BookFormat::Pgn => read_pgn(&self.file, self.plies)?,
        };
        if openings.is_empty() {
            return Err(format!("{}: no openings", self.file.display()));
        }
        if self.order == Order::Random {
            shuffle(&mut openings, seed);
        }
        let skip = (self.start - 1) % openings.len();
        openings.rotate_left(skip);
        Ok(openings)
    }
}

/// Reads an EPD book; every line must hold a legal position (comments `#` and blank lines skipped).
pub fn read_epd(path: &Path) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_epd(&text).map_err(|(line, cause)| format!("{}:{line}: {cause}", path.display()))
}

/// Parses EPD text; the error carries the 1-based line number.
pub fn parse_epd(text: &str) -> Result<Vec<Opening>, (usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_ascii_whitespace().take(4).collect();
        if fields.len() < 4 {
            return Err((i + 1, format!("expected 4 FEN fields, got `{line}`")));
        }
        let epd: Epd = fields
            .join(" ")
            .parse()
            .map_err(|e| (i + 1, format!("bad position: {e}")))?;
        let pos: shakmaty::Chess = epd
            .into_position(CastlingMode::Standard)
            .map_err(|e| (i + 1, format!("illegal position: {e}")))?;
        use shakmaty::Position;
        if pos.is_game_over() {
            return Err((
                i + 1,
                "the game is already over in this position".to_owned(),
            ));
        }
        let fen =
            shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string();
        out.push(Opening {
            fen: Some(fen),
            moves: Vec::new(),
        });
    }
    Ok(out)
}

/// Reads a PGN book: each game's FEN tag (if any) and its first `plies` moves.
pub fn read_pgn(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = pgn_reader::Reader::new(std::io::BufReader::new(file));
    let mut out = Vec::new();
    let mut index = 0;
    while let Some(game) = reader
        .read_game(&mut GameCollector)
        .map_err(|e| format!("{}: {e}", path.display()))?
    {
        index += 1;
        let mut moves = game.moves;
        if let Some(p) = plies {
            moves.truncate(p);
        }
        if let Some(e) = game.error {
            if moves.is_empty() && game.fen.is_none() {
                return Err(format!("{}: game {index}: {e}", path.display()));
            }
        }
        let opening = Opening {
            fen: game.fen,
            moves,
        };
        opening
            .position()
            .map_err(|e| format!("{}: game {index}: {e}", path.display()))?;
        out.push(opening);
    }
    Ok(out)
}

/// Fisher-Yates with xorshift64*: reproducible from the seed without another dependency.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut rng = sable::rng::Rng::new(if state == 0 { 1 } else { state });
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn epd_lines_become_full_fens_and_errors_name_the_line() {
        let text = "# book\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 \"x\";\n\n8/8/8/8/8/8/8/8 w - -\n";
        let err = parse_epd(text).unwrap_err();
        assert_eq!(err.0, 4);
        let ok = parse_epd(&text.lines().take(2).collect::<Vec<_>>().join("\n")).unwrap();
        assert_eq!(
            ok[0].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(parse_epd("rnbqkbnr w").unwrap_err().0, 1);
    }

    #[test]
    fn pgn_books_take_the_first_plies() {
        let dir = std::env::temp_dir().join(format!("sable-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.pgn");
        std::fs::write(
            &path,
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 *\n",
        )
        .unwrap();
        let spec = BookSpec::parse(&words(&format!("file={} plies=3", path.display()))).unwrap();
        assert_eq!(spec.format, BookFormat::Pgn);
        let book = spec.load(0).unwrap();
        assert_eq!(book[0].moves, ["e2e4", "e7e5", "g1f3"]);
        assert_eq!(book[1].moves, ["d2d4", "d7d5", "c2c4"]);
        std::fs::write(&path, "1. e4 e5 2. Ke3 *\n").unwrap();
        let book = BookSpec {
            plies: None,
            ..spec.clone()
        }
        .load(0)
        .unwrap();
        assert_eq!(
            book[0].moves,
            ["e2e4", "e7e5"],
            "moves up to the illegal one"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn order_and_start() {
        let mut v: Vec<u32> = (0..50).collect();
        shuffle(&mut v, 42);
        let mut w: Vec<u32> = (0..50).collect();
        shuffle(&mut w, 42);
        assert_eq!(v, w);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert!(BookSpec::parse(&words("file=x.epd order=sideways")).is_err());
        assert!(BookSpec::parse(&words("order=random")).is_err());
        assert_eq!(
            BookSpec::parse(&words("file=x.epd start=3")).unwrap().start,
            3
        );
    }
}
