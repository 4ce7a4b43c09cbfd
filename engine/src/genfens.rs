//! `genfens`: opening positions for OpenBench's datagen and book workloads.
//!
//! OpenBench runs `./engine "genfens N seed S book <None|PATH> [extra ...]" "quit"` and reads
//! every stdout line `info string genfens <FEN>`. We answer with N distinct positions: random
//! legal plies from the start position (8 or 9, so either side may be to move) or from a random
//! line of the EPD book (2 or 3 plies more), kept only when a short search scores them within
//! [`MAX_SCORE_CP`] of equality. The same command line gives the same positions.

use crate::board::Board;
use crate::rng::Rng;
use crate::search::{Limits, NoReport, Score, Searcher};
use std::collections::HashSet;
use std::fmt;

/// Largest absolute score (centipawns, side to move) a kept position may have.
pub const MAX_SCORE_CP: i32 = 150;
/// Nodes of the filtering search.
pub const FILTER_NODES: u64 = 3000;
/// Attempts per requested position before giving up (a book of lost positions, say).
const ATTEMPTS_PER_POSITION: usize = 200;

/// A parsed `genfens` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Positions wanted.
    pub count: usize,
    /// Seed of the random plies.
    pub seed: u64,
    /// The EPD book to start from, or `None` for the start position.
    pub book: Option<String>,
}

/// Why a request cannot be served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenfensError {
    /// The command line is malformed.
    Usage(String),
    /// The book cannot be read, or a line of it is not a position.
    Book(String),
    /// Too few acceptable positions could be found.
    Exhausted {
        /// Positions found.
        found: usize,
        /// Positions wanted.
        wanted: usize,
    },
}

impl fmt::Display for GenfensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenfensError::Usage(why) => write!(
                f,
                "{why} (expected `genfens N seed S book <None|PATH> [extra ...]`)"
            ),
            GenfensError::Book(why) => write!(f, "{why}"),
            GenfensError::Exhausted { found, wanted } => write!(
                f,
                "found only {found} of {wanted} distinct balanced positions"
            ),
        }
    }
}

impl Request {
    /// Parses `genfens N seed S book B [extra ...]`; the extra words (OpenBench passes its own
    /// through) are accepted and ignored.
    pub fn parse(line: &str) -> Result<Request, GenfensError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let usage = |why: &str| GenfensError::Usage(why.to_owned());
        if words.first() != Some(&"genfens") {
            return Err(usage("not a genfens command"));
        }
        let count = words
            .get(1)
            .and_then(|w| w.parse::<usize>().ok())
            .ok_or_else(|| usage("N must be a number"))?;
        let mut seed = None;
        let mut book = None;
        let mut i = 2;
        while i < words.len() {
            match (words[i], words.get(i + 1)) {
                ("seed", Some(s)) => {
                    seed = Some(
                        s.parse::<u64>()
                            .map_err(|_| usage("seed must be a number"))?,
                    );
                    i += 2;
                }
                ("book", Some(b)) => {
                    book = (!b.eq_ignore_ascii_case("none")).then(|| b.to_string());
                    i += 2;
                }
                _ => i += 1, // extra arguments
            }
        }
        Ok(Request {
            count,
            seed: seed.ok_or_else(|| usage("seed is missing"))?,
            book,
        })
    }
}

/// The positions of `req`, in order. Errors name the book and line when the book is bad.
pub fn generate(req: &Request) -> Result<Vec<String>, GenfensError> {
    let starts = match &req.book {
        None => vec![Board::startpos()],
        Some(path) => read_book(path)?,
    };
    let (min_plies, spread) = if req.book.is_some() { (2, 2) } else { (8, 2) };
    let mut rng = Rng::from_seed(req.seed);
    let mut searcher = Searcher::new(8);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(req.count);
    let mut attempts = 0;
    while out.len() < req.count {
        attempts += 1;
        if attempts > ATTEMPTS_PER_POSITION * req.count.max(1) {
            return Err(GenfensError::Exhausted {
                found: out.len(),
                wanted: req.count,
            });
        }
        let mut board = starts[rng.below(starts.len())].clone();
        let plies = min_plies + rng.below(spread);
        if !random_walk(&mut board, plies, &mut rng) || !seen.insert(board.key()) {
            continue;
        }
        searcher.clear();
        let result = searcher.search(
            &mut board.clone(),
            &Limits::nodes(FILTER_NODES),
            &mut NoReport,
        );
        if matches!(result.score, Score::Cp(cp) if cp.abs() <= MAX_SCORE_CP) {
            out.push(board.to_fen());
        }
    }
    Ok(out)
}

/// Plays `plies` random legal moves; false if the game ends on the way or at the end.
fn random_walk(board: &mut Board, plies: usize, rng: &mut Rng) -> bool {
    for _ in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            return false;
        }
        board.make(moves[rng.below(moves.len())]);
    }
    !board.legal_moves().is_empty()
}

/// The positions of an EPD book (the first four fields of each line; `#` comments and blank
/// lines skipped).
fn read_book(path: &str) -> Result<Vec<Board>, GenfensError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| GenfensError::Book(format!("{path}: {e}")))?;
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = format!("{} 0 1", fields.join(" "));
        let board = Board::from_fen(&fen)
            .map_err(|e| GenfensError::Book(format!("{path}:{}: {e}", i + 1)))?;
        boards.push(board);
    }
    if boards.is_empty() {
        return Err(GenfensError::Book(format!("{path}: no positions")));
    }
    Ok(boards)
}

/// Runs `sable "genfens ..." ["quit"]`: prints `info string genfens <FEN>` lines; 0 on success,
/// 1 with `info string genfens error: ...` otherwise.
pub fn main(line: &str) -> i32 {
    match Request::parse(line).and_then(|r| generate(&r)) {
        Ok(fens) => {
            for fen in fens {
                println!("info string genfens {fen}");
            }
            0
        }
        Err(e) => {
            println!("info string genfens error: {e}");
            eprintln!("genfens: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse_with_extra_words_and_reject_nonsense() {
        let r = Request::parse("genfens 10 seed 42 book None extra1 extra2=3").unwrap();
        assert_eq!(
            r,
            Request {
                count: 10,
                seed: 42,
                book: None
            }
        );
        let r = Request::parse("genfens 3 seed 1 book Books/DFRC.epd").unwrap();
        assert_eq!(r.book.as_deref(), Some("Books/DFRC.epd"));
        assert!(Request::parse("genfens x seed 1 book None").is_err());
        assert!(Request::parse("genfens 5 book None").is_err());
        assert!(Request::parse("genfens 5 seed -1 book None").is_err());
    }

    #[test]
    fn positions_are_distinct_legal_balanced_and_reproducible() {
        let req = Request::parse("genfens 12 seed 7 book None").unwrap();
        let a = generate(&req).unwrap();
        assert_eq!(a, generate(&req).unwrap(), "the seed decides");
        assert_eq!(a.len(), 12);
        let distinct: HashSet<&String> = a.iter().collect();
        assert_eq!(distinct.len(), 12);
        for fen in &a {
            let board = Board::from_fen(fen).unwrap();
            assert!(!board.legal_moves().is_empty(), "{fen}");
            assert_eq!(fen.split(' ').count(), 6, "{fen}");
            let fullmove: u32 = fen.split(' ').nth(5).unwrap().parse().unwrap();
            assert!(
                (5..=5).contains(&fullmove),
                "8 or 9 plies from the start: {fen}"
            );
        }
        let other = generate(&Request { seed: 8, ..req }).unwrap();
        assert_ne!(a, other);
    }

    #[test]
    fn a_book_is_the_starting_point_and_its_errors_name_the_line() {
        let dir = std::env::temp_dir().join(format!("sable-genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("b.epd");
        std::fs::write(
            &book,
            "# two openings\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 \"e4\";\nrnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n",
        )
        .unwrap();
        let line = format!("genfens 4 seed 3 book {}", book.display());
        let fens = generate(&Request::parse(&line).unwrap()).unwrap();
        assert_eq!(fens.len(), 4);
        for fen in &fens {
            // Two or three plies after 1. e4 or 1. d4: move 2 or 3.
            let fullmove: u32 = fen.split(' ').nth(5).unwrap().parse().unwrap();
            assert!((2..=3).contains(&fullmove), "{fen}");
        }
        std::fs::write(
            &book,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nnot a fen\n",
        )
        .unwrap();
        let err = generate(&Request::parse(&line).unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("b.epd:2:"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
