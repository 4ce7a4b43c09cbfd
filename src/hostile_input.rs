//! Hostile input for every text reader of the harness: EPD suites, perft suites, opening books
//! (EPD and PGN), PGNs to rate, datasets, results files and their journals, failure case files,
//! and the lines an engine sends.
//! Each reader gets valid text with random edits (characters inserted, deleted or replaced,
//! lines cut, doubled or swapped) and plain garbage. None may panic or hang; an error must name
//! the file and a line that exists. `PROPTEST_CASES` sets the number of cases (256 by default;
//! `.ci/run` runs many more).

use crate::game::Variant;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const EPD: &str = "\
# tactical positions
r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id \"scholar\";
2k5/8/1K6/8/8/8/8/4R3 w - - bm Re8#; id \"rook\"; c0 \"Re8=10, Re7=2\";
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 am Ke7; id \"open\";
";

const PERFT: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;D1 48 ;D2 2039
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - ;D1 14 ;D2 191
";

const BOOK_PGN: &str = "\
[Event \"a\"]
[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]

1... e5 2. Nf3 Nc6 3. Bb5 *

[Event \"b\"]

1. d4 d5 2. c4 e6 3. Nc3 {a comment} Nf6 (3... c6) 1-0
";

const RATED_PGN: &str = "\
[Event \"t\"]
[Round \"1.1\"]
[White \"a\"]
[Black \"b\"]
[Result \"1-0\"]

1. e4 e5 1-0

[Event \"t\"]
[Round \"1.2\"]
[White \"b\"]
[Black \"a\"]
[Result \"1/2-1/2\"]

1. d4 d5 1/2-1/2

[Event \"t\"]
[Round \"2.1\"]
[White \"c\"]
[Black \"a\"]
[Result \"0-1\"]

1. c4 0-1

[Event \"t\"]
[Round \"2.2\"]
[White \"a\"]
[Black \"c\"]
[Result \"1/2-1/2\"]

1. Nf3 *
";

const DATASET: &str = "\
fen,result,score
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1,0.5,20
8/8/8/8/8/5k2/8/4K2R w K - 0 1 [1.0]
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 | 0.0 | -35
";

const JOURNAL: &str = "\
{\"id\":0,\"pair\":0,\"pairing\":0,\"white\":0,\"black\":1,\"opening\":3,\"outcome\":\"Draw\",\"reason\":\"Draw by stalemate\",\"fault\":null,\"plies\":80,\"duration_ms\":1234,\"moves_hash\":7}
{\"id\":1,\"pair\":0,\"pairing\":0,\"white\":1,\"black\":0,\"opening\":3,\"outcome\":\"WhiteWins\",\"reason\":\"White mates\",\"fault\":{\"white\":false,\"kind\":\"TimeLoss\",\"detail\":\"x\"},\"plies\":61,\"duration_ms\":999}
";

const CASE: &str = "\
# Sable failure case: game 3, Black (B): Black makes an illegal move a1a1
format: sable-failure-case 1
game: 3
failure: illegal-move
side: black
engine: B
reason: Black makes an illegal move a1a1 in ... (after `go ...`; last info: none)
detail: a1a1
variant: standard
opening.fen: startpos
opening.moves: e2e4
fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
position: position startpos moves e2e4
go: go wtime 900 btime 1000 winc 10 binc 10
deadline-ms: 1000
startup-ms: 1000
ping-ms: 500
white.name: A
white.cmd: a
black.name: B
black.cmd: b
black.arg: --x
black.setoption: setoption name Hash value 16
info: info depth 1 pv a1a1
transcript.dropped: 0

+0.000100 black > position startpos moves e2e4
+0.000200 black < bestmove a1a1
";

const ENGINE_LINES: &[&str] = &[
    "info depth 12 seldepth 18 multipv 1 score cp 35 nodes 123456 nps 1000000 time 123 pv e2e4 e7e5",
    "info depth 5 score mate -3 upperbound pv a2a3",
    "bestmove e2e4 ponder e7e5",
    "bestmove 0000",
    "info string hello world",
];

/// Valid text with 1 to 8 random edits, or garbage (a fifth of the cases).
fn hostile(valid: &'static str) -> impl Strategy<Value = String> {
    let edits = prop::collection::vec((any::<u16>(), 0u8..6, any::<char>()), 1..8);
    let garbage = prop::collection::vec(
        prop_oneof![
            any::<char>(),
            prop::sample::select(vec!['\n', ' ', ';', '"', '/', '-', '0', '9', 'k', 'K', '{']),
        ],
        0..300,
    )
    .prop_map(|cs| cs.into_iter().collect::<String>());
    prop_oneof![
        4 => edits.prop_map(move |e| edit(valid, &e)),
        1 => garbage,
    ]
}

/// Applies edits: (where, what, character).
fn edit(valid: &str, edits: &[(u16, u8, char)]) -> String {
    let mut chars: Vec<char> = valid.chars().collect();
    for &(at, op, c) in edits {
        let n = chars.len().max(1);
        let i = at as usize % n;
        match op {
            0 => chars.insert(i.min(chars.len()), c),
            1 if !chars.is_empty() => {
                chars.remove(i.min(chars.len() - 1));
            }
            2 if !chars.is_empty() => {
                let last = chars.len() - 1;
                chars[i.min(last)] = c;
            }
            3 => chars.truncate(i),
            4 => {
                // Double a line.
                let text: String = chars.iter().collect();
                let lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let k = i % lines.len();
                    let mut out: Vec<&str> = lines.clone();
                    out.insert(k, lines[k]);
                    chars = out.join("\n").chars().collect();
                }
            }
            _ => {
                // Swap two lines.
                let text: String = chars.iter().collect();
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.len() > 1 {
                    let k = i % (lines.len() - 1);
                    lines.swap(k, k + 1);
                    chars = lines.join("\n").chars().collect();
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Asserts that `err` names `file` and a line between 1 and the text's line count (+1 for a
/// last line without its end).
fn names_file_and_line(err: &str, file: &str, text: &str) {
    let rest = err
        .split_once(&format!("{file}:"))
        .unwrap_or_else(|| panic!("`{err}` does not name {file}:LINE"))
        .1;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let line: usize = digits
        .parse()
        .unwrap_or_else(|_| panic!("`{err}` has no line number"));
    assert!(
        (1..=text.lines().count() + 1).contains(&line),
        "`{err}`: line {line} of {}",
        text.lines().count()
    );
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = crate::test_dir("hostile-input");
    // One file per test thread: the tests run in parallel, the cases of one test in turn.
    let path = dir.join(format!("{name}-{:?}", std::thread::current().id()));
    std::fs::write(&path, text).unwrap();
    path
}

fn file_name(p: &Path) -> String {
    p.display().to_string()
}

proptest! {
    #[test]
    fn epd_suites(text in hostile(EPD)) {
        if let Err(e) = crate::suites::epd::parse_suite("s", "s.epd", &text, false) {
            names_file_and_line(&e.to_string(), "s.epd", &text);
        }
        // With --skip-bad every bad line is skipped and counted, never fatal.
        let _ = crate::suites::epd::parse_suite("s", "s.epd", &text, true);
    }

    #[test]
    fn perft_suites(text in hostile(PERFT)) {
        if let Err(e) = crate::suites::perft::parse_suite(&text, "p.epd") {
            names_file_and_line(&e.to_string(), "p.epd", &text);
        }
    }

    #[test]
    fn epd_books(text in hostile(EPD)) {
        for variant in [Variant::Standard, Variant::Chess960] {
            if let Err(e) = crate::openings::parse_epd(&text, variant) {
                prop_assert!((1..=text.lines().count()).contains(&e.line));
            }
        }
    }

    #[test]
    fn pgn_books(text in hostile(BOOK_PGN)) {
        let path = temp_file("book.pgn", &text);
        // A game the referee cannot follow ends the book's moves there or is an error naming
        // the game; never a panic.
        match crate::openings::read_pgn(&path, Some(6), Variant::Standard) {
            Ok(book) => for o in &book {
                prop_assert!(o.position(Variant::Standard).is_ok());
            },
            Err(e) => prop_assert!(e.to_string().contains(&file_name(&path)), "{e}"),
        }
    }

    #[test]
    fn rated_pgns(text in hostile(RATED_PGN)) {
        // Any games give a list of finite numbers (or an error naming the file), never a panic.
        let path = temp_file("rated.pgn", &text);
        let mut input = crate::stats::ratings::games::PgnGames::default();
        match input.read(&path) {
            Ok(()) => {
                let list = crate::stats::ratings::rate(
                    &input.names,
                    &input.games,
                    crate::stats::ratings::Anchor::Mean,
                    crate::stats::ratings::Model::default(),
                );
                for e in &list.engines {
                    prop_assert!(e.rating.is_finite(), "{list:?}");
                    prop_assert!(e.error.is_none_or(f64::is_finite), "{list:?}");
                }
                for p in list.los.iter().flatten().flatten() {
                    prop_assert!((0.0..=1.0).contains(p), "{list:?}");
                }
            }
            Err(e) => prop_assert!(format!("{e:#}").contains(&file_name(&path)), "{e:#}"),
        }
    }

    #[test]
    fn datasets(text in hostile(DATASET)) {
        let path = Path::new("d.csv");
        if let Err(e) = crate::tune::dataset::read_lines(text.as_bytes(), path, false) {
            if e.line > 0 {
                names_file_and_line(&e.to_string(), "d.csv", &text);
            }
        }
        let _ = crate::tune::dataset::read_lines(text.as_bytes(), path, true);
    }

    #[test]
    fn journals_and_results_files(text in hostile(JOURNAL)) {
        let path = temp_file("r.json.games.jsonl", &text);
        if let Err(e) = crate::tournament::resume::read_journal(&path) {
            names_file_and_line(&e.to_string(), &file_name(&path), &text);
        }
        let path = temp_file("r.json", &text);
        if let Err(e) = crate::tournament::resume::ResultsFile::load(&path) {
            prop_assert!(e.to_string().contains(&file_name(&path)), "{e}");
        }
    }

    #[test]
    fn failure_cases(text in hostile(CASE)) {
        match crate::forensics::format::parse(&text, Path::new("c.txt")) {
            Ok(_) => {}
            Err(e @ crate::forensics::CaseError::Line { .. }) => {
                names_file_and_line(&e.to_string(), "c.txt", &text)
            }
            Err(e) => prop_assert!(e.to_string().starts_with("c.txt: "), "{e}"),
        }
    }

    #[test]
    fn lines_from_an_engine(i in 0..ENGINE_LINES.len(), e in prop::collection::vec((any::<u16>(), 0u8..4, any::<char>()), 0..6)) {
        let line = edit(ENGINE_LINES[i], &e);
        let _ = crate::uci::Info::parse(&line);
        let _ = crate::uci::BestMove::parse(&line);
    }
}

#[test]
fn the_valid_failure_case_reads() {
    // Else the property above would only ever see errors.
    let case = crate::forensics::format::parse(CASE, Path::new("c.txt")).unwrap();
    assert_eq!(case.transcript.entries.len(), 2);
}
