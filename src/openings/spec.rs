//! A book on the command line: the `--openings file=... format=... order=... plies=... start=...`
//! words of a match, an SPRT or an SPSA run, and loading the book they describe.

use super::builtin::{chess960_starts, default_book, DEFAULT_BOOK_PATH};
use super::error::{BookError, SpecError};
use super::formats::{read_epd, read_pgn};
use super::order::{arrange, Order};
use crate::game::{Opening, Variant};
use std::path::PathBuf;

/// The openings of `--openings` words: `startpos` (none: every game from the start position),
/// nothing (the built-in book in the seed's order), or a book spec. Also returns the book's
/// name as the user gave it, for PGN tags and reports.
pub fn openings_from_words(
    words: &[String],
    seed: u64,
    variant: Variant,
) -> Result<(Vec<Opening>, String), BookError> {
    BookSource::from_words(words, seed)?.load(variant)
}

/// Where a match's openings come from, as data: what a run's record stores so that a resumed
/// run uses the same openings in the same order (the file is read again, the seed orders it
/// again).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "source", rename_all = "lowercase")]
pub enum BookSource {
    /// The built-in book (Chess960: the 960 starts), shuffled with `seed`.
    Builtin {
        /// Seed of the order.
        seed: u64,
    },
    /// No openings: every game from the start position (`--openings startpos`).
    Startpos,
    /// A book file.
    File {
        /// The file and how to read it.
        #[serde(flatten)]
        spec: BookSpec,
        /// Seed of a random order.
        seed: u64,
    },
    /// Openings given as positions (a match built in code), stored whole.
    Given {
        /// The openings, in order of use.
        openings: Vec<Opening>,
    },
}

impl BookSource {
    /// The source `--openings` words describe (see [`openings_from_words`]).
    pub fn from_words(words: &[String], seed: u64) -> Result<BookSource, BookError> {
        Ok(match words {
            [] => BookSource::Builtin { seed },
            [w] if w == "startpos" => BookSource::Startpos,
            _ => BookSource::File {
                spec: BookSpec::parse(words)?,
                seed,
            },
        })
    }

    /// The openings in order of use under `variant`'s rules, and the book's name as the user
    /// gave it (for PGN tags and reports; empty without a book).
    pub fn load(&self, variant: Variant) -> Result<(Vec<Opening>, String), BookError> {
        match self {
            BookSource::Startpos => Ok((Vec::new(), String::new())),
            BookSource::Builtin { seed } => match variant {
                Variant::Standard => Ok((default_book(*seed)?, DEFAULT_BOOK_PATH.to_owned())),
                Variant::Chess960 => Ok((chess960_starts(*seed), "chess960 starts".to_owned())),
            },
            BookSource::File { spec, seed } => {
                Ok((spec.load(*seed, variant)?, spec.file.display().to_string()))
            }
            BookSource::Given { openings } => Ok((openings.clone(), String::new())),
        }
    }
}

/// File format of a book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookFormat {
    /// One position per line; fields after the first four are EPD operations (ignored).
    Epd,
    /// Games; the first `plies` moves of each are the opening.
    Pgn,
}

/// Where the openings come from (`--openings file=... format=... order=... plies=... start=...`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    pub fn parse(words: &[String]) -> Result<BookSpec, SpecError> {
        let mut file = None;
        let (mut format, mut order, mut plies, mut start) = (None, Order::Sequential, None, 1);
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue(w.clone()))?;
            let num = || {
                v.parse::<usize>().map_err(|_| SpecError::NotANumber {
                    key: k.to_owned(),
                    value: v.to_owned(),
                })
            };
            match k {
                "file" => file = Some(PathBuf::from(v)),
                "format" => {
                    format = Some(match v {
                        "epd" => BookFormat::Epd,
                        "pgn" => BookFormat::Pgn,
                        _ => return Err(SpecError::UnknownFormat(v.to_owned())),
                    })
                }
                "order" => {
                    order = match v {
                        "random" => Order::Random,
                        "sequential" => Order::Sequential,
                        _ => return Err(SpecError::UnknownOrder(v.to_owned())),
                    }
                }
                "plies" => plies = Some(num()?),
                "start" => start = num()?.max(1),
                _ => return Err(SpecError::UnknownKey(k.to_owned())),
            }
        }
        let file = file.ok_or(SpecError::NoFile)?;
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

    /// Loads (under `variant`'s rules), orders (with `seed`) and rotates the openings so that
    /// `start` comes first.
    pub fn load(&self, seed: u64, variant: Variant) -> Result<Vec<Opening>, BookError> {
        let mut openings = match self.format {
            BookFormat::Epd => read_epd(&self.file, variant)?,
            BookFormat::Pgn => read_pgn(&self.file, self.plies, variant)?,
        };
        if openings.is_empty() {
            return Err(BookError::Empty {
                file: self.file.clone(),
            });
        }
        arrange(&mut openings, self.order, seed, self.start);
        Ok(openings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn pgn_books_take_the_first_plies() {
        let dir = crate::test_dir("book");
        let path = dir.join("b.pgn");
        std::fs::write(
            &path,
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 *\n",
        )
        .unwrap();
        let spec = BookSpec::parse(&words(&format!("file={} plies=3", path.display()))).unwrap();
        assert_eq!(spec.format, BookFormat::Pgn);
        let book = spec.load(0, Variant::Standard).unwrap();
        assert_eq!(book[0].moves, ["e2e4", "e7e5", "g1f3"]);
        assert_eq!(book[1].moves, ["d2d4", "d7d5", "c2c4"]);
        std::fs::write(&path, "1. e4 e5 2. Ke3 *\n").unwrap();
        let book = BookSpec {
            plies: None,
            ..spec.clone()
        }
        .load(0, Variant::Standard)
        .unwrap();
        assert_eq!(
            book[0].moves,
            ["e2e4", "e7e5"],
            "moves up to the illegal one"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn book_errors_name_the_book_and_what_to_type() {
        let err = BookSpec::parse(&words("suite1.epd"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("did you mean `file=suite1.epd`"), "{err}");
        let err = BookSpec::parse(&words("file=x.epd ordr=random"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("did you mean `order=`?"), "{err}");
        assert!(
            err.contains("file=, format=, order=, plies=, start="),
            "{err}"
        );
        let missing = std::env::temp_dir().join("sable-no-such-book.pgn");
        let spec = BookSpec::parse(&words(&format!("file={}", missing.display()))).unwrap();
        let err = spec.load(0, Variant::Standard).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("opening book {} not found", missing.display())),
            "{err}"
        );
    }

    #[test]
    fn openings_words_name_no_book_the_built_in_one_or_a_file() {
        let (none, name) = openings_from_words(&words("startpos"), 1, Variant::Standard).unwrap();
        assert!(none.is_empty() && name.is_empty());
        let (book, name) = openings_from_words(&[], 9, Variant::Standard).unwrap();
        assert_eq!(
            (book, name.as_str()),
            (default_book(9).unwrap(), DEFAULT_BOOK_PATH)
        );
        let (starts, name) = openings_from_words(&[], 9, Variant::Chess960).unwrap();
        assert_eq!(
            (starts, name.as_str()),
            (chess960_starts(9), "chess960 starts")
        );
        let dir = crate::test_dir("openings-words");
        let path = dir.join("two.epd");
        std::fs::write(
            &path,
            "4k3/8/8/8/8/8/4P3/4K3 w - -\n4k3/4p3/8/8/8/8/8/4K3 b - -\n",
        )
        .unwrap();
        let spec = format!("file={} start=2", path.display());
        let (book, name) = openings_from_words(&words(&spec), 9, Variant::Standard).unwrap();
        assert_eq!(name, path.display().to_string());
        let origins: Vec<_> = book.iter().map(|o| o.origin.as_deref().unwrap()).collect();
        assert_eq!(origins, ["line 2", "line 1"], "file order from the second");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn spec_words_take_order_and_start() {
        assert!(BookSpec::parse(&words("file=x.epd order=sideways")).is_err());
        assert!(BookSpec::parse(&words("order=random")).is_err());
        let spec = BookSpec::parse(&words("file=x.epd start=3 order=random")).unwrap();
        assert_eq!((spec.start, spec.order), (3, Order::Random));
        assert_eq!(spec.format, BookFormat::Epd, "by the file's extension");
    }
}
