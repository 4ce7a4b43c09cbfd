//! PGN out (every game, with per-move engine data as comments) and PGN in: the one PGN reader
//! ([`PgnReader`], through pgn-reader), which yields typed games for PGN opening books, tuning
//! extraction (`harness extract`), suite generation (`harness suite-gen`) and the check that what
//! we write reads back.

pub use super::pgn_text::PgnStyle;
use super::pgn_text::{start_of, wrap};
use super::record::{GameRecord, Outcome, Termination};
use super::variant::Variant;
use crate::report::dates::pgn_time;
use pgn_reader::{RawComment, RawTag, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::path::Path;

/// Context of a game that is not in its record: event name, round, date.
#[derive(Debug, Clone, Default)]
pub struct PgnHeader {
    /// `Event` tag.
    pub event: String,
    /// `Round` tag (e.g. "12.2": pair 12, game 2).
    pub round: String,
    /// `Date` tag in PGN form `YYYY.MM.DD`.
    pub date: String,
    /// `Opening` tag: where the opening came from (book file and line), may be empty.
    pub opening: String,
    /// The form of the move comments and of the `Termination` tag.
    pub style: PgnStyle,
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game as PGN text, ending with a blank line.
pub fn write_game(game: &GameRecord, header: &PgnHeader) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", &header.event);
    tag("Site", "?");
    tag("Date", &header.date);
    tag("Round", &header.round);
    tag("White", &game.white);
    tag("Black", &game.black);
    tag("Result", game.outcome.pgn());
    if let Some(variant) = game.variant.pgn_tag() {
        tag("Variant", variant);
    }
    if let Some(fen) = &game.start_fen {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    if !header.opening.is_empty() {
        tag("Opening", &header.opening);
    }
    if game.time_control == game.black_time_control {
        tag("TimeControl", &game.time_control);
    } else {
        tag("WhiteTimeControl", &game.time_control);
        tag("BlackTimeControl", &game.black_time_control);
    }
    let termination = match (header.style.fastchess, game.termination) {
        // fastchess's word, which OpenBench's client looks for (`illegal`).
        (true, Termination::RulesInfraction) => "illegal move",
        (_, t) => t.pgn(),
    };
    tag("Termination", termination);
    tag("PlyCount", &game.moves.len().to_string());
    let end = game.start_time + std::time::Duration::from_millis(game.duration_ms);
    tag("GameStartTime", &pgn_time(game.start_time));
    tag("GameEndTime", &pgn_time(end));
    tag(
        "GameDuration",
        &format!("{:.3}s", game.duration_ms as f64 / 1000.0),
    );
    out.push('\n');
    match header.style.fastchess {
        true => out.push_str(&super::pgn_fastchess::movetext(game, header.style)),
        false => out.push_str(&movetext(game)),
    }
    out.push_str("\n\n");
    out
}

/// Movetext with move numbers, `{book}` or `{+0.35/12 0.123s}` comments, the reason and result.
fn movetext(game: &GameRecord) -> String {
    let (mut white_to_move, mut number) = start_of(game.start_fen.as_deref());
    let mut text = String::new();
    let mut first = true;
    for m in &game.moves {
        if white_to_move {
            let _ = write!(text, "{number}. ");
        } else if first {
            let _ = write!(text, "{number}... ");
        }
        first = false;
        text.push_str(&m.san);
        if m.book {
            text.push_str(" {book} ");
        } else {
            let score = m.score.map_or_else(|| "?".to_owned(), |s| s.to_string());
            let depth = m.depth.map_or_else(|| "?".to_owned(), |d| d.to_string());
            let _ = write!(text, " {{{score}/{depth} {:.3}s", m.time_ms as f64 / 1000.0);
            if let Some(n) = m.nodes {
                let _ = write!(text, " n={n}");
            }
            text.push_str("} ");
        }
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    let _ = write!(
        text,
        "{{{}}} {}",
        game.reason.replace('}', ")"),
        game.outcome.pgn()
    );
    wrap(&text, 80)
}

/// A move read from PGN: the position it was played in, the move, and the comments after it.
#[derive(Debug, Clone)]
pub struct PgnMove {
    /// The position before the move.
    pub before: Chess,
    /// The move, legal in `before`.
    pub mv: Move,
    /// The comments that follow the move, trimmed, in order (engine evals, the end reason).
    pub comments: Vec<String>,
}

/// A game read from PGN: its tags, its moves replayed with shakmaty (each with the position
/// before it and its comments) and its result.
#[derive(Debug, Clone, Default)]
pub struct ParsedGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The `FEN` tag, if any.
    pub fen: Option<String>,
    /// The rules from the `Variant` tag (`Chess960` or standard); moves are replayed by them.
    pub variant: Variant,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// Main-line moves, up to the first illegal one.
    pub moves: Vec<PgnMove>,
    /// The result: the movetext's termination marker, else the `Result` tag; `None` when both
    /// are `*` or missing.
    pub result: Option<Outcome>,
    /// Why the game could not be replayed fully (bad FEN, illegal SAN), if so.
    pub error: Option<String>,
}

impl ParsedGame {
    /// The value of the first tag called `name` (exact spelling), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The moves in UCI notation, in the variant's castling notation.
    pub fn uci_moves(&self) -> Vec<String> {
        let mode = self.variant.castling_mode();
        self.moves
            .iter()
            .map(|m| UciMove::from_move(m.mv, mode).to_string())
            .collect()
    }
}

/// The state of one game while pgn-reader walks it.
pub struct Walk {
    game: ParsedGame,
    pos: Chess,
}

/// The pgn-reader visitor that builds [`ParsedGame`]s: the one place where PGN movetext is
/// replayed (books, tuning extraction, suite generation all read games through it).
#[derive(Debug, Default)]
pub struct GameCollector;

impl Visitor for GameCollector {
    type Tags = ParsedGame;
    type Movetext = Walk;
    type Output = ParsedGame;

    fn begin_tags(&mut self) -> ControlFlow<ParsedGame, ParsedGame> {
        ControlFlow::Continue(ParsedGame::default())
    }

    fn tag(
        &mut self,
        tags: &mut ParsedGame,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<ParsedGame> {
        let name = String::from_utf8_lossy(name).into_owned();
        let value = value.decode_utf8_lossy().into_owned();
        if name.eq_ignore_ascii_case("FEN") {
            tags.fen = Some(value.clone());
        }
        if name.eq_ignore_ascii_case("Variant") {
            let v = value.to_ascii_lowercase();
            if v.contains("960") || v.contains("fischer") {
                tags.variant = Variant::Chess960;
            }
        }
        if name == "Result" {
            tags.result = Outcome::from_pgn(&value);
        }
        tags.tags.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, mut game: ParsedGame) -> ControlFlow<ParsedGame, Walk> {
        let pos = match &game.fen {
            None => Chess::default(),
            Some(f) => match f.parse::<Fen>().map_err(|e| e.to_string()).and_then(|fen| {
                fen.into_position(game.variant.castling_mode())
                    .map_err(|e| e.to_string())
            }) {
                Ok(p) => p,
                Err(e) => {
                    game.error = Some(format!("bad FEN tag `{f}`: {e}"));
                    Chess::default()
                }
            },
        };
        ControlFlow::Continue(Walk { game, pos })
    }

    fn san(&mut self, walk: &mut Walk, san_plus: SanPlus) -> ControlFlow<ParsedGame> {
        if walk.game.error.is_some() {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&walk.pos) {
            Ok(mv) => {
                walk.game.moves.push(PgnMove {
                    before: walk.pos.clone(),
                    mv,
                    comments: Vec::new(),
                });
                walk.pos.play_unchecked(mv);
            }
            Err(e) => {
                let n = walk.game.moves.len() + 1;
                walk.game.error = Some(format!("ply {n}: '{san_plus}' is not legal ({e})"));
            }
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, walk: &mut Walk, comment: RawComment<'_>) -> ControlFlow<ParsedGame> {
        if walk.game.error.is_some() {
            return ControlFlow::Continue(());
        }
        let text = String::from_utf8_lossy(comment.as_bytes())
            .trim()
            .to_owned();
        match walk.game.moves.last_mut() {
            Some(m) => m.comments.push(text),
            None => walk.game.comments.push(text),
        }
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        walk: &mut Walk,
        outcome: pgn_reader::Outcome,
    ) -> ControlFlow<ParsedGame> {
        // A `*` marker leaves the Result tag's verdict.
        if let Some(o) = Outcome::from_pgn(&outcome.to_string()) {
            walk.game.result = Some(o);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, walk: Walk) -> ParsedGame {
        walk.game
    }
}

/// The games of a PGN, one at a time (only the game being read is in memory).
pub struct PgnReader<R: Read> {
    reader: pgn_reader::Reader<R>,
}

impl<R: Read> PgnReader<R> {
    /// Games from `input`.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader {
            reader: pgn_reader::Reader::new(input),
        }
    }
}

impl PgnReader<BufReader<File>> {
    /// Games from the file at `path`; the error names it.
    pub fn open(path: &Path) -> Result<PgnReader<BufReader<File>>, PgnOpenError> {
        let file = File::open(path).map_err(|source| PgnOpenError {
            path: path.to_owned(),
            source,
        })?;
        Ok(PgnReader::new(BufReader::new(file)))
    }
}

/// A PGN file that cannot be opened: its path, and the system's error as the source.
#[derive(Debug)]
pub struct PgnOpenError {
    /// The file.
    pub path: std::path::PathBuf,
    /// The system's error.
    pub source: std::io::Error,
}

impl std::fmt::Display for PgnOpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read {}", self.path.display())
    }
}

impl std::error::Error for PgnOpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = std::io::Result<ParsedGame>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader.read_game(&mut GameCollector).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::super::record::{MoveRecord, Outcome, Termination};
    use super::*;
    use crate::uci::Score;

    fn mv(uci: &str, san: &str, book: bool, score: Option<Score>) -> MoveRecord {
        MoveRecord {
            uci: uci.into(),
            san: san.into(),
            score,
            depth: Some(7),
            seldepth: Some(11),
            nodes: Some(1234),
            time_ms: 125,
            book,
            lines: Vec::new(),
        }
    }

    fn record(fen: Option<&str>, moves: Vec<MoveRecord>) -> GameRecord {
        GameRecord {
            white: "Engine \"A\"".into(),
            black: "B".into(),
            start_fen: fen.map(str::to_owned),
            moves,
            outcome: Outcome::BlackWins,
            reason: "White loses on time".into(),
            termination: Termination::TimeForfeit,
            fault: None,
            fault_output: Vec::new(),
            case: None,
            time_control: "10+0.1".into(),
            black_time_control: "10+0.1".into(),
            // 2000-02-29 12:34:56 UTC
            start_time: std::time::UNIX_EPOCH + std::time::Duration::from_secs(951_827_696),
            duration_ms: 1500,
            variant: Variant::Standard,
        }
    }

    fn read_back(text: &str) -> ParsedGame {
        let mut games = PgnReader::new(text.as_bytes());
        let game = games.next().expect("one game").unwrap();
        assert!(games.next().is_none(), "one game only");
        game
    }

    #[test]
    fn written_pgn_reads_back_with_pgn_reader() {
        let moves = vec![
            mv("e2e4", "e4", true, None),
            mv("e7e5", "e5", false, Some(Score::Cp(-12))),
            mv("g1f3", "Nf3", false, Some(Score::Mate(3))),
        ];
        let text = write_game(
            &record(None, moves),
            &PgnHeader {
                round: "1.2".into(),
                ..PgnHeader::default()
            },
        );
        assert!(text.contains("[White \"Engine \\\"A\\\"\"]"), "{text}");
        // fastchess's time tags: start, start + GameDuration.
        assert!(
            text.contains("[GameStartTime \"2000-02-29T12:34:56 +0000\"]"),
            "{text}"
        );
        assert!(
            text.contains("[GameEndTime \"2000-02-29T12:34:57 +0000\"]"),
            "{text}"
        );
        assert!(text.contains("[TimeControl \"10+0.1\"]"), "{text}");
        let mut odds = record(None, vec![]);
        odds.black_time_control = "5+0.05".into();
        let odds = write_game(&odds, &PgnHeader::default());
        assert!(odds.contains("[WhiteTimeControl \"10+0.1\"]\n[BlackTimeControl \"5+0.05\"]"));
        assert!(!odds.contains("[TimeControl "));
        assert!(
            text.contains("1. e4 {book} e5 {-0.12/7 0.125s n=1234} 2. Nf3 {+M3/7 0.125s n=1234}"),
            "{text}"
        );
        let g = read_back(&text);
        assert_eq!(g.uci_moves(), ["e2e4", "e7e5", "g1f3"]);
        assert_eq!(g.result, Some(Outcome::BlackWins));
        // Each move keeps its own comments; the end reason follows the last move.
        assert_eq!(g.moves[0].comments, ["book"]);
        assert_eq!(g.moves[1].comments, ["-0.12/7 0.125s n=1234"]);
        assert_eq!(
            g.moves[2].comments,
            ["+M3/7 0.125s n=1234", "White loses on time"]
        );
        assert_eq!(g.moves[1].before.turn(), shakmaty::Color::Black);
        assert_eq!(g.tag("Round"), Some("1.2"));
        assert!(g
            .tags
            .contains(&("Termination".into(), "time forfeit".into())));
        assert!(g.tags.contains(&("White".into(), "Engine \"A\"".into())));
        assert_eq!(g.error, None);
    }

    #[test]
    fn games_from_a_fen_with_black_to_move_number_correctly() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let moves = vec![
            mv("e7e5", "e5", false, None),
            mv("g1f3", "Nf3", false, None),
        ];
        let text = write_game(&record(Some(fen), moves), &PgnHeader::default());
        assert!(
            text.contains("1... e5 {?/7 0.125s n=1234} 2. Nf3"),
            "{text}"
        );
        let g = read_back(&text);
        assert_eq!(g.fen.as_deref(), Some(fen));
        assert_eq!(g.uci_moves(), ["e7e5", "g1f3"]);
    }

    #[test]
    fn illegal_san_and_bad_fen_are_reported_not_panics() {
        let g = read_back("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n");
        assert_eq!(g.uci_moves(), ["e2e4", "e7e5"]);
        assert!(g.error.unwrap().contains("ply 3: 'Ke3' is not legal"));
        let g = read_back("[FEN \"not a fen\"]\n\n1. e4 *\n");
        assert!(g.error.unwrap().contains("bad FEN"));
    }

    #[test]
    fn result_comes_from_the_marker_else_the_tag_and_games_come_one_by_one() {
        let text = "[Result \"1-0\"]\n\n{opening} 1. e4 { [%eval 0.3] } *\n\n\
                    [Result \"*\"]\n\n1. d4 1/2-1/2\n\n\
                    [Result \"*\"]\n\n1. c4 *\n\n\
                    [Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let games: Vec<ParsedGame> = PgnReader::new(text.as_bytes())
            .collect::<std::io::Result<_>>()
            .unwrap();
        let results: Vec<_> = games.iter().map(|g| g.result).collect();
        assert_eq!(
            results,
            [
                Some(Outcome::WhiteWins),
                Some(Outcome::Draw),
                None,
                Some(Outcome::BlackWins)
            ]
        );
        assert_eq!(games[0].comments, ["opening"]);
        assert_eq!(games[0].moves[0].comments, ["[%eval 0.3]"]);
        let last = games[3].moves.last().unwrap();
        assert!(last.before.turn() == shakmaty::Color::Black && last.mv.to().to_string() == "h4");
        assert_eq!(Outcome::Draw.white_score(), 0.5);
    }

    #[test]
    fn chess960_games_replay_by_the_variant_tag() {
        // Shredder-FEN castling rights; O-O takes the king from f1 to g1 and the h-rook to f1.
        let fen = "bqnbrk1r/pppppppp/8/8/8/8/PPPPPPPP/BQNBRK1R w HEhe - 0 1";
        let text = format!("[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n\n1. O-O *\n");
        let g = read_back(&text);
        assert_eq!(g.error, None);
        assert_eq!(g.variant, Variant::Chess960);
        assert_eq!(g.uci_moves(), ["f1h1"]);
        let standard = read_back(&format!("[FEN \"{fen}\"]\n\n1. O-O *\n"));
        assert!(standard.error.is_some());
    }
}
