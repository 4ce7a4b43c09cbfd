//! Openings: where games start. Books and their formats (EPD, PGN), the `--openings` words that
//! name one, the built-in books, the order openings are played in (the harness's one seeded
//! shuffle, also used by datagen and the tuner), and the generation of new books judged by an
//! engine. Matches, SPSA, datagen and tuning all take their openings from here.
//!
//! ```text
//! let (openings, name) = openings_from_words(&["file=book.epd".into(), "order=random".into()], seed, Variant::Standard)?;
//! let book = generate(&engine_spec, &Generation { count: 100, plies: 8, max_cp: 60, depth: 8, .. }, &mut |_| {})?;
//! ```

mod builtin;
mod error;
mod formats;
mod generate;
mod order;
mod spec;

pub use builtin::{chess960_starts, default_book, DEFAULT_BOOK, DEFAULT_BOOK_PATH};
pub use error::BookError;
pub use error::{EpdLineError, EpdProblem, SpecError};
pub use formats::{parse_epd, read_epd, read_pgn};
pub use generate::{generate, judging_spec, GenerateError, GeneratedBook, Generation};
pub use order::{arrange, for_round, shuffle, Order};
pub use spec::{openings_from_words, BookFormat, BookSource, BookSpec};
