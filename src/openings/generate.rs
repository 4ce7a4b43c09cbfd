//! Generating a book: random legal openings from the start position (or the Chess960 starts),
//! each judged by a short search of a UCI engine and kept when the engine finds it roughly level.
//! `harness book` is its command line; `scripts/gen-openings.sh` made the shipped book with it.

use crate::game::variant::start_fen;
use crate::game::Variant;
use crate::uci::{Engine, EngineSpec, GoParams, Score, StartError, UciError};
use sable::rng::Rng;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// How long the judging engine may take to start and to answer one search: generous, since a
/// depth-limited search has no clock, but bounded so a hung engine ends the run.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(60);

/// Random openings tried per opening asked for before giving up: a window no opening falls in
/// ends with an error instead of running for ever.
const TRIES_PER_OPENING: usize = 100;

/// What book to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generation {
    /// Number of openings to keep.
    pub count: usize,
    /// Random plies played from the start position.
    pub plies: usize,
    /// Keep an opening when the engine's score is within ±this many centipawns.
    pub max_cp: i32,
    /// Search depth of the judging engine.
    pub depth: u32,
    /// Seed of the random moves (and of the DFRC back ranks).
    pub seed: u64,
    /// Standard: from the start position; Chess960: from the 960 starts in order.
    pub variant: Variant,
    /// With Chess960: White's and Black's back ranks drawn independently (double Fischer random).
    pub dfrc: bool,
}

/// A generated book: EPD lines, each with the engine's score as its `c0` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedBook {
    /// The kept openings, in the order they were found.
    pub lines: Vec<String>,
    /// How many random openings were tried to find them.
    pub tries: usize,
}

impl GeneratedBook {
    /// Writes the book to `path`, one EPD line per opening.
    pub fn write(&self, path: &Path) -> Result<(), GenerateError> {
        let err = |what: &str| {
            let context = format!("{what} {}", path.display());
            move |source| GenerateError::Write { context, source }
        };
        let mut f = std::fs::File::create(path).map_err(err("cannot create"))?;
        writeln!(f, "{}", self.lines.join("\n")).map_err(err("cannot write"))
    }
}

/// Why no book came out.
#[derive(Debug)]
pub enum GenerateError {
    /// The judging engine did not start.
    Start(StartError),
    /// The judging engine failed on a position (crashed, hung, broke the protocol).
    Engine {
        /// The position it was judging (FEN).
        position: String,
        /// What went wrong.
        cause: UciError,
    },
    /// Too few random openings fell within the score window.
    TooFewLevel {
        /// Openings kept.
        kept: usize,
        /// Openings tried.
        tries: usize,
    },
    /// The book file could not be written.
    Write {
        /// What was done, and the file.
        context: String,
        /// The system's error.
        source: std::io::Error,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Start(e) => write!(f, "the judging engine: {e}"),
            GenerateError::Engine { position, cause } => {
                write!(f, "the judging engine failed on {position}: {cause}")
            }
            GenerateError::TooFewLevel { kept, tries } => write!(
                f,
                "only {kept} balanced openings after {tries} tries: raise --max-cp or lower \
                 --plies"
            ),
            GenerateError::Write { context, .. } => write!(f, "{context}"),
        }
    }
}

impl std::error::Error for GenerateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // The engine's errors are in the message already.
        match self {
            GenerateError::Write { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The judging engine's spec for `variant`: Chess960 openings need `UCI_Chess960` on.
pub fn judging_spec(judge: &EngineSpec, variant: Variant) -> EngineSpec {
    let mut spec = judge.clone();
    if variant == Variant::Chess960 {
        spec.set_option("UCI_Chess960", "true");
    }
    spec
}

/// Generates the book `generation` describes, judged by the engine `judge`; `on_kept` hears the
/// number of openings kept so far after each one (the command line draws a bar with it).
pub fn generate(
    judge: &EngineSpec,
    generation: &Generation,
    on_kept: &mut dyn FnMut(usize),
) -> Result<GeneratedBook, GenerateError> {
    let spec = judging_spec(judge, generation.variant);
    let mut engine =
        Engine::start(&spec, crate::plumbing::timeouts::STARTUP).map_err(GenerateError::Start)?;
    let book = judge_openings(&mut engine, generation, on_kept);
    engine.quit(Duration::from_millis(500));
    book
}

/// The generation loop over a started engine.
fn judge_openings(
    engine: &mut Engine,
    generation: &Generation,
    on_kept: &mut dyn FnMut(usize),
) -> Result<GeneratedBook, GenerateError> {
    let mut rng = Rng::from_seed(generation.seed);
    let mut seen = HashSet::new();
    let mut lines = Vec::new();
    let mut tries = 0usize;
    let go = GoParams {
        depth: Some(generation.depth),
        ..GoParams::default()
    };
    while lines.len() < generation.count {
        tries += 1;
        if tries > generation.count * TRIES_PER_OPENING {
            return Err(GenerateError::TooFewLevel {
                kept: lines.len(),
                tries: tries - 1,
            });
        }
        let Some(start) = start_position(generation, tries - 1, &mut rng) else {
            continue;
        };
        let Some(pos) = random_opening(start, generation.plies, &mut rng) else {
            continue;
        };
        let epd = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        // The four EPD fields: the same position reached by another move order is one opening.
        let key: String = epd.split(' ').take(4).collect::<Vec<_>>().join(" ");
        if !seen.insert(key.clone()) {
            continue;
        }
        let failed = |cause| GenerateError::Engine {
            position: epd.clone(),
            cause,
        };
        engine.new_game().map_err(failed)?;
        engine
            .set_position(Some(&epd), &[] as &[&str])
            .map_err(failed)?;
        let r = engine.go(&go, SEARCH_TIMEOUT, |_| {}).map_err(failed)?;
        if let Some(Score::Cp(cp)) = r.info.score {
            if cp.abs() <= generation.max_cp {
                lines.push(format!(
                    "{key} c0 \"{cp} cp at depth {}\";",
                    generation.depth
                ));
                on_kept(lines.len());
            }
        }
    }
    Ok(GeneratedBook { lines, tries })
}

/// Where the random plies start: the standard position, the `index`-th of the 960 (FRC), or a
/// random pair of back ranks (DFRC).
fn start_position(generation: &Generation, index: usize, rng: &mut Rng) -> Option<Chess> {
    if generation.variant == Variant::Standard {
        return Some(Chess::default());
    }
    let (white, black) = if generation.dfrc {
        (rng.below(960) as u16, rng.below(960) as u16)
    } else {
        let n = (index % 960) as u16;
        (n, n)
    };
    let fen: Fen = start_fen(white, black).parse().ok()?;
    fen.into_position(CastlingMode::Chess960).ok()
}

/// A random legal opening of `plies` plies from `pos`, or None if the game ended on the way.
fn random_opening(mut pos: Chess, plies: usize, rng: &mut Rng) -> Option<Chess> {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        let mv = *moves.get(rng.below(moves.len()))?;
        pos.play_unchecked(mv);
    }
    (!pos.is_game_over()).then_some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{chess960_starts, read_epd};
    use crate::uci::tests::faulty;

    fn generation(count: usize, plies: usize, max_cp: i32) -> Generation {
        Generation {
            count,
            plies,
            max_cp,
            depth: 1,
            seed: 1,
            variant: Variant::Standard,
            dfrc: false,
        }
    }

    fn fen(pos: &Chess) -> String {
        Fen::from_position(pos, EnPassantMode::Legal).to_string()
    }

    /// The score of a generated line's `c0 "N cp at depth D";` comment.
    fn comment_cp(line: &str) -> i32 {
        let c0 = line.split("c0 \"").nth(1).expect(line);
        c0.split(' ').next().unwrap().parse().expect(line)
    }

    #[test]
    fn a_generated_book_reads_back_as_distinct_openings_of_the_asked_plies() {
        let g = generation(12, 6, 60);
        let mut heard = Vec::new();
        let book = generate(&faulty(&["--seed", "3"]), &g, &mut |n| heard.push(n)).unwrap();
        assert_eq!(book.lines.len(), 12);
        assert!(book.tries >= 12);
        assert_eq!(
            heard,
            (1..=12).collect::<Vec<_>>(),
            "one report per kept opening"
        );
        // The faulty engine scores within ±20 cp: every opening it judged is kept, each with
        // the engine's score and the depth asked for.
        assert!(book.lines.iter().all(|l| l.ends_with(" cp at depth 1\";")));
        assert!(book.lines.iter().all(|l| comment_cp(l).abs() <= 20));
        // The book reader reads the written book back: legal, ongoing positions after an even
        // number of plies (White to move; EPD keeps no move number), no two alike.
        let dir = crate::test_dir("generate");
        let path = dir.join("book.epd");
        book.write(&path).unwrap();
        let openings = read_epd(&path, Variant::Standard).unwrap();
        assert_eq!(openings.len(), 12);
        for o in &openings {
            let f = o.fen.as_deref().unwrap();
            assert_eq!(f.split(' ').nth(1), Some("w"), "{f}");
        }
        let distinct: HashSet<_> = openings.iter().map(|o| o.fen.clone()).collect();
        assert_eq!(distinct.len(), 12);
        // The seed decides the book: the same seed gives it again, another seed another one.
        let again = generate(&faulty(&["--seed", "3"]), &g, &mut |_| {}).unwrap();
        assert_eq!(again, book);
        let other = Generation { seed: 2, ..g };
        let other = generate(&faulty(&["--seed", "3"]), &other, &mut |_| {}).unwrap();
        assert_ne!(other.lines, book.lines);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn only_openings_the_engine_finds_level_are_kept() {
        // The faulty engine's scores are spread over -20..=20 cp: a ±5 window keeps about a
        // quarter of the openings it judges.
        let book = generate(&faulty(&["--seed", "5"]), &generation(8, 3, 5), &mut |_| {}).unwrap();
        assert_eq!(book.lines.len(), 8);
        assert!(
            book.lines.iter().all(|l| l.split(' ').nth(1) == Some("b")),
            "3 plies: Black to move"
        );
        assert!(
            book.lines.iter().all(|l| comment_cp(l).abs() <= 5),
            "{:?}",
            book.lines
        );
        assert!(book.tries > 8, "{} tries kept every opening", book.tries);
    }

    #[test]
    fn an_engine_that_never_finds_a_level_opening_ends_with_a_clear_error() {
        // `--optimum X=1000` with X at 0 resigns (score -1000) in every search.
        let judge = faulty(&["--optimum", "X=1000"]);
        let err = generate(&judge, &generation(2, 2, 60), &mut |_| {}).unwrap_err();
        assert!(
            matches!(
                err,
                GenerateError::TooFewLevel {
                    kept: 0,
                    tries: 200
                }
            ),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "only 0 balanced openings after 200 tries: raise --max-cp or lower --plies"
        );
    }

    #[test]
    fn a_failing_engine_stops_generation_and_names_the_position() {
        let judge = faulty(&["--crash-after", "2"]);
        let err = generate(&judge, &generation(10, 2, 60), &mut |_| {}).unwrap_err();
        match &err {
            GenerateError::Engine { position, cause } => {
                assert!(matches!(cause, UciError::Crashed(_)), "{cause:?}");
                assert_eq!(position.split(' ').nth(5), Some("2"), "{position}");
            }
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().starts_with("the judging engine failed on "));
        let missing = EngineSpec::new("/nonexistent/sable-judge");
        let err = generate(&missing, &generation(1, 2, 60), &mut |_| {}).unwrap_err();
        assert!(matches!(err, GenerateError::Start(_)), "{err:?}");
    }

    #[test]
    fn a_chess960_book_of_960_without_plies_is_every_start_once() {
        let judge = faulty(&["--chess960"]);
        let g = Generation {
            variant: Variant::Chess960,
            ..generation(960, 0, 60)
        };
        let book = generate(&judge, &g, &mut |_| {}).unwrap();
        assert_eq!(book.tries, 960, "the starts in order, none twice");
        let placement = |f: &str| f.split(' ').next().unwrap().to_owned();
        let ours: HashSet<String> = book.lines.iter().map(|l| placement(l)).collect();
        let starts: HashSet<String> = chess960_starts(0)
            .iter()
            .map(|o| placement(o.fen.as_deref().unwrap()))
            .collect();
        assert_eq!(ours, starts);
        let spec = judging_spec(&judge, Variant::Chess960);
        assert!(
            spec.options
                .contains(&("UCI_Chess960".to_owned(), "true".to_owned())),
            "{:?}",
            spec.options
        );
        assert_eq!(judging_spec(&judge, Variant::Standard), judge);
    }

    #[test]
    fn frc_books_walk_the_960_starts_in_order_and_dfrc_books_mix_back_ranks() {
        let mut rng = Rng::from_seed(1);
        let standard = generation(10, 0, 60);
        assert_eq!(
            start_position(&standard, 7, &mut rng),
            Some(Chess::default())
        );
        let frc = Generation {
            variant: Variant::Chess960,
            ..standard.clone()
        };
        // Scharnagl's 518 is the standard array; 0 is BBQNNRKR (both colours alike).
        assert_eq!(
            fen(&start_position(&frc, 518, &mut rng).unwrap()),
            fen(&Chess::default())
        );
        let zero = fen(&start_position(&frc, 960, &mut rng).unwrap());
        assert!(
            zero.starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w"),
            "{zero}"
        );
        let dfrc = Generation { dfrc: true, ..frc };
        let mixed = (0..20)
            .filter_map(|i| start_position(&dfrc, i, &mut rng))
            .filter(|p| {
                let f = fen(p);
                let ranks: Vec<&str> = f.split(['/', ' ']).collect();
                ranks[0].to_ascii_uppercase() != ranks[7]
            })
            .count();
        assert!(
            mixed >= 15,
            "{mixed} of 20 DFRC starts have different back ranks"
        );
    }

    #[test]
    fn random_openings_are_legal_reproducible_and_ongoing() {
        let (mut a, mut b) = (Rng::from_seed(7), Rng::from_seed(7));
        let mut seen = HashSet::new();
        for _ in 0..20 {
            let (pa, pb) = (
                random_opening(Chess::default(), 8, &mut a),
                random_opening(Chess::default(), 8, &mut b),
            );
            assert_eq!(pa.is_some(), pb.is_some());
            if let (Some(pa), Some(pb)) = (pa, pb) {
                assert_eq!(fen(&pa), fen(&pb));
                assert!(!pa.is_game_over());
                assert_eq!(
                    pa.fullmoves().get(),
                    5,
                    "8 plies from the start: move 5, White to move"
                );
                seen.insert(fen(&pa));
            }
        }
        assert!(seen.len() >= 15, "{} distinct openings of 20", seen.len());
    }
}
