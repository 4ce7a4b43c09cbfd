//! One self-play game for `harness datagen`: the engine (in process) plays both sides at fixed
//! nodes or depth from a book or random opening; the game's quiet positions come back labelled
//! with its result.
//!
//! This is a second game loop beside the match's (`game::play`), on purpose: that one drives
//! engine processes over UCI with clocks and fault handling, while data generation searches with
//! the engine library in process: no engine processes, no protocol round trip per move, no
//! clocks, one searcher per worker thread, for the millions of short fixed-node searches a data
//! set takes. What a game loop decides is shared: the end of the game by the rules
//! (`game::rules`), score adjudication (`game::adjudication`, the match's resign and draw rules)
//! and the result (`game::Outcome`).

use crate::game::adjudication::{Adjudication, Adjudicator, DrawRule, ResignRule, Verdict};
use crate::game::rules::History;
use crate::game::Outcome;
use crate::tablebase::SyzygyRule;
use crate::tune::dataset::Record;
use crate::uci::Score;
use sable::board::Board;
use sable::rng::Rng;
use sable::search::{Limits, NoReport, Searcher};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, EnPassantMode, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// How games are played and adjudicated. The adjudication options count plies from the
/// position where the engine takes over; [`GameOptions::adjudication`] turns them into the
/// match's rules.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// Search limit per move (nodes or depth).
    pub limits: Limits,
    /// Random legal plies played before the engine takes over (after the book position).
    pub random_plies: usize,
    /// Win adjudication: |score| at least this many centipawns ...
    pub win_score: i32,
    /// ... for this many consecutive plies (both sides agreeing; odd counts round up to whole
    /// moves of each side).
    pub win_plies: usize,
    /// Draw adjudication: |score| at most this many centipawns ...
    pub draw_score: i32,
    /// ... for this many consecutive plies (odd counts round up) ...
    pub draw_plies: usize,
    /// ... once the game is at least this many plies long.
    pub draw_after: usize,
    /// A game this long is a draw.
    pub max_plies: usize,
    /// Syzygy tables (`--tb`): a game whose position is in them ends with their result, and a
    /// kept position in them is labelled with its exact result instead of the game's.
    pub syzygy: Option<SyzygyRule>,
}

impl GameOptions {
    /// The match's adjudication rules for these options, with full moves counted from the
    /// position where the engine takes over (move 1).
    ///
    /// - Win: the two-sided resign rule, `win_plies / 2` moves of each side (the loser at or
    ///   below -win_score, the winner at or above it): `win_plies` plies in a row that agree.
    /// - Draw: the draw rule counts quiet moves from move `(draw_after - draw_plies) / 2 + 1`,
    ///   so a game quiet for `draw_plies` plies is drawn from ply `draw_after` on.
    /// - Length: `max_plies / 2` full moves.
    pub fn adjudication(&self) -> Adjudication {
        let moves = |plies: usize| u32::try_from(plies.div_ceil(2)).unwrap_or(u32::MAX);
        Adjudication {
            resign: Some(ResignRule {
                movecount: moves(self.win_plies),
                score: self.win_score,
                twosided: true,
            }),
            draw: Some(DrawRule {
                movenumber: u32::try_from(self.draw_after.saturating_sub(self.draw_plies) / 2 + 1)
                    .unwrap_or(u32::MAX),
                movecount: moves(self.draw_plies),
                score: self.draw_score,
            }),
            maxmoves: Some(u32::try_from(self.max_plies / 2).unwrap_or(u32::MAX)),
            syzygy: self.syzygy,
        }
    }
}

/// The positions a game played but did not keep, by why (the README's rule: only quiet
/// positions with a centipawn score are labels worth fitting).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    /// The side to move was in check.
    pub in_check: usize,
    /// The engine's best move was a capture or a promotion (not quiet).
    pub tactical: usize,
    /// The engine's score was a mate score, not centipawns.
    pub mate: usize,
}

impl Skipped {
    /// Adds another game's counts.
    pub fn add(&mut self, other: Skipped) {
        self.in_check += other.in_check;
        self.tactical += other.tactical;
        self.mate += other.mate;
    }
}

/// A position the game may keep, before its result is known.
struct Pending {
    fen: String,
    white_score: i32,
    /// Its exact result from the tables (White's points), when they answer.
    exact: Option<f64>,
}

/// White's points in `pos` by the tables, when `--tb` is on and they answer.
fn exact_label(rule: Option<&SyzygyRule>, pos: &Chess) -> Option<f64> {
    let exact = rule?.exact(pos).ok()?;
    Some(match exact.outcome {
        shakmaty::KnownOutcome::Decisive { winner } => Outcome::win_for(winner).white_score(),
        shakmaty::KnownOutcome::Draw => 0.5,
    })
}

/// Chooses the opening: a book position (or the start position) plus random legal plies.
/// Returns `None` when the random plies ended the game (the caller draws another opening).
fn opening(book: &[Chess], random_plies: usize, rng: &mut Rng) -> Option<Chess> {
    let mut pos = if book.is_empty() {
        Chess::default()
    } else {
        book[rng.below(book.len())].clone()
    };
    for _ in 0..random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    (!pos.is_game_over()).then_some(pos)
}

fn white_view(score: i32, turn: Color) -> i32 {
    if turn == Color::White {
        score
    } else {
        -score
    }
}

/// Plays one game; returns its labelled quiet positions (empty if `stop` was raised meanwhile).
pub fn play_game(
    searcher: &mut Searcher,
    opt: &GameOptions,
    book: &[Chess],
    rng: &mut Rng,
    stop: &AtomicBool,
) -> Vec<Record> {
    play_game_counted(searcher, opt, book, rng, stop, &mut Skipped::default())
}

/// [`play_game`], adding the positions it did not keep to `skipped`.
pub fn play_game_counted(
    searcher: &mut Searcher,
    opt: &GameOptions,
    book: &[Chess],
    rng: &mut Rng,
    stop: &AtomicBool,
    skipped: &mut Skipped,
) -> Vec<Record> {
    let mut pos = loop {
        if let Some(p) = opening(book, opt.random_plies, rng) {
            break p;
        }
    };
    searcher.clear();
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let Ok(mut board) = Board::from_fen(&fen) else {
        return Vec::new();
    };
    let first_move = pos.fullmoves().get();
    let mut history = History::new(&pos);
    let mut adjudicator = Adjudicator::new(opt.adjudication());
    let mut pending = Vec::new();
    let outcome = loop {
        if stop.load(Ordering::Relaxed) {
            return Vec::new();
        }
        if let Some(end) = history.ending(&pos) {
            break end.outcome;
        }
        let r = searcher.search(&mut board, &opt.limits, &mut NoReport);
        let Ok(uci) = UciMove::from_ascii(r.best_move.to_string().as_bytes()) else {
            return Vec::new();
        };
        let Ok(mv) = uci.to_move(&pos) else {
            return Vec::new();
        };
        if let Some(p) = keep(&pos, &mv, r.score, opt, skipped) {
            pending.push(p);
        }
        let (mover, fullmove) = (pos.turn(), pos.fullmoves().get() - first_move + 1);
        board.make(r.best_move);
        pos.play_unchecked(mv);
        history.push(&pos);
        if let Some(tb) = adjudicator.tablebase(&pos, &history) {
            break tb.outcome;
        }
        match adjudicator.after_move(mover, fullmove, Some(Score::from(r.score))) {
            None => {}
            Some(Verdict::Draw | Verdict::MaxMoves) => break Outcome::Draw,
            Some(Verdict::Resign(loser)) => break Outcome::win_for(!loser),
        }
    };
    let result = outcome.white_score();
    pending.into_iter().map(|p| p.record(result)).collect()
}

impl Pending {
    /// The record of a kept position once the game's `result` is known (the tables' exact
    /// result where they had one).
    fn record(self, result: f64) -> Record {
        Record {
            fen: self.fen,
            result: self.exact.unwrap_or(result),
            score: Some(self.white_score),
        }
    }
}

/// The position before `mv` as a training position with the search's `score`, unless it is
/// one the tuner should not learn from (in check, a capture or promotion played, a mate
/// score), which is counted in `skipped` instead.
fn keep(
    pos: &Chess,
    mv: &shakmaty::Move,
    score: sable::search::Score,
    opt: &GameOptions,
    skipped: &mut Skipped,
) -> Option<Pending> {
    match score {
        _ if pos.is_check() => skipped.in_check += 1,
        _ if mv.is_capture() || mv.is_promotion() => skipped.tactical += 1,
        sable::search::Score::Cp(cp) => {
            let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
            return Some(Pending {
                fen,
                white_score: white_view(cp, pos.turn()),
                exact: exact_label(opt.syzygy.as_ref(), pos),
            });
        }
        _ => skipped.mate += 1,
    }
    None
}

#[cfg(test)]
impl GameOptions {
    /// Short games for the tests of this room: 300 nodes a move, early adjudication.
    pub(crate) fn quick() -> GameOptions {
        GameOptions {
            limits: Limits::nodes(300),
            random_plies: 6,
            win_score: 600,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 8,
            draw_after: 40,
            max_plies: 200,
            syzygy: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;

    #[test]
    fn games_give_quiet_labelled_positions() {
        let mut s = Searcher::new(1);
        let mut rng = Rng::new(4);
        let stop = AtomicBool::new(false);
        let mut total = 0;
        for _ in 0..3 {
            let recs = play_game(&mut s, &GameOptions::quick(), &[], &mut rng, &stop);
            total += recs.len();
            let first = recs.first().map(|r| r.result);
            for r in &recs {
                // one result per game, every position legal, not in check, with a score
                assert_eq!(Some(r.result), first);
                assert!([0.0, 0.5, 1.0].contains(&r.result));
                let pos: Chess = r
                    .fen
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(CastlingMode::Standard)
                    .unwrap();
                assert!(!pos.is_check(), "{}", r.fen);
                assert!(r.score.is_some_and(|s| s.abs() < 20_000));
            }
        }
        assert!(total > 10, "{total}");
    }

    #[test]
    fn every_position_played_is_kept_or_counted_with_its_reason() {
        // One move to play from a fixed opening: White in check must answer it (in check),
        // then a rook takes a rook (a capture), and a mate follows soon (mate scores).
        let book: Vec<Chess> = vec!["r3k3/8/8/8/8/8/8/R3K2q w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()];
        let opt = GameOptions {
            random_plies: 0,
            ..GameOptions::quick()
        };
        let (mut s, mut rng) = (Searcher::new(1), Rng::new(1));
        let mut skipped = Skipped::default();
        let stop = AtomicBool::new(false);
        let kept = play_game_counted(&mut s, &opt, &book, &mut rng, &stop, &mut skipped);
        assert!(skipped.in_check >= 1, "{skipped:?}");
        // Every kept position is quiet, so the counts are the only trace of the others.
        for r in &kept {
            let pos: Chess = r
                .fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            assert!(!pos.is_check(), "{}", r.fen);
        }
        let mut total = Skipped::default();
        total.add(skipped);
        total.add(skipped);
        assert_eq!(total.in_check, 2 * skipped.in_check);
        assert_eq!(
            total.tactical + total.mate,
            2 * (skipped.tactical + skipped.mate)
        );
    }

    #[test]
    fn book_openings_are_used_and_stop_abandons_the_game() {
        let book: Vec<Chess> = vec!["4k3/8/8/8/8/8/3QK3/8 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()];
        let mut s = Searcher::new(1);
        let stop = AtomicBool::new(false);
        let opt = GameOptions {
            random_plies: 0,
            ..GameOptions::quick()
        };
        let recs = play_game(&mut s, &opt, &book, &mut Rng::new(1), &stop);
        // queen against bare king: White wins (by mate or adjudication)
        assert!(!recs.is_empty());
        assert!(recs.iter().all(|r| r.result == 1.0));
        stop.store(true, Ordering::Relaxed);
        assert!(play_game(&mut s, &opt, &book, &mut Rng::new(1), &stop).is_empty());
    }

    #[test]
    fn adjudication_counts_plies_from_the_engines_first_move() {
        let opt = GameOptions {
            win_score: 1000,
            win_plies: 6,
            draw_score: 10,
            draw_plies: 12,
            draw_after: 60,
            max_plies: 400,
            ..GameOptions::quick()
        };
        let mover = |ply: u32| {
            if ply.is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            }
        };
        // The first ply that ends a game whose every score (White's view) is `white_cp`.
        let first_verdict = |white_cp: i32| {
            let mut a = Adjudicator::new(opt.adjudication());
            (0..1000u32).find_map(|ply| {
                let cp = white_view(white_cp, mover(ply));
                a.after_move(mover(ply), 1 + ply / 2, Some(Score::Cp(cp)))
                    .map(|v| (ply, v))
            })
        };
        // Six plies in a row that agree: the sixth (index 5) ends the game.
        assert_eq!(
            first_verdict(1200),
            Some((5, Verdict::Resign(Color::Black)))
        );
        assert_eq!(
            first_verdict(-1000),
            Some((5, Verdict::Resign(Color::White)))
        );
        // Quiet from the start: drawn on the 60th ply, not before.
        assert_eq!(first_verdict(10), Some((59, Verdict::Draw)));
        // Neither: the 400th ply ends it.
        assert_eq!(first_verdict(500), Some((399, Verdict::MaxMoves)));
        // The engine's scores reach the adjudicator as an engine's `info score` would: the
        // value equals the engine's own `info score` text read back by the UCI parser.
        use sable::search::Score as EngineScore;
        for s in [
            EngineScore::Cp(-40),
            EngineScore::Cp(0),
            EngineScore::Mate(1),
            EngineScore::Mate(3),
            EngineScore::Mate(4),
            EngineScore::Mate(-2),
            EngineScore::Mate(-5),
        ] {
            let text = crate::uci::Info::parse(&format!("info score {}", s.to_uci())).unwrap();
            assert_eq!(Some(Score::from(s)), text.score, "{s:?}");
        }
        assert_eq!(Score::from(EngineScore::Mate(3)), Score::Mate(2));
        assert_eq!(Score::from(EngineScore::Mate(-2)), Score::Mate(-1));
    }

    #[test]
    #[ignore = "reads ../shared/data/syzygy (skips when it is absent)"]
    fn with_tables_a_game_ends_on_entering_them_and_labels_are_exact() {
        let Some(data) = crate::suites::shared_data() else {
            return;
        };
        let folder = data.join("syzygy");
        let tables = crate::tablebase::Tablebases::open_shared(folder.to_str().unwrap()).unwrap();
        let rule = |ignore_50| {
            crate::tablebase::SyzygyRule::new(
                tables,
                None,
                crate::tablebase::TbResults::Both,
                ignore_50,
            )
            .unwrap()
        };
        let position = |fen: &str| crate::tablebase::parse_position(fen).unwrap();
        // A queen up with 95 halfmoves gone: the tables say draw (the 50-move rule), or a win
        // when it is ignored; the game itself is never played out.
        let late = position("8/8/8/8/8/k7/8/1K5Q w - - 95 80");
        assert_eq!(exact_label(Some(&rule(false)), &late), Some(0.5));
        assert_eq!(exact_label(Some(&rule(true)), &late), Some(1.0));
        assert_eq!(exact_label(None, &late), None);
        // The queen against a knight: games are looked up after each move (a book position in
        // the tables is played from), and the first move takes the knight.
        let book = vec![position("8/8/8/4k3/8/2n5/3QK3/8 w - - 0 1")];
        let opt = GameOptions {
            random_plies: 0,
            syzygy: Some(rule(false)),
            ..GameOptions::quick()
        };
        let mut s = Searcher::new(1);
        let stop = AtomicBool::new(false);
        let recs = play_game(&mut s, &opt, &book, &mut Rng::new(1), &stop);
        // The queen takes the knight (a capture: not kept) and the tables end the game at once,
        // so nothing is kept; without them the game goes on, keeping the queen's quiet moves
        // until the engine sees the mate.
        assert!(recs.is_empty(), "{recs:?}");
        let opt = GameOptions {
            syzygy: None,
            ..opt
        };
        let recs = play_game(&mut s, &opt, &book, &mut Rng::new(1), &stop);
        assert!(
            !recs.is_empty() && recs.iter().all(|r| r.result == 1.0),
            "{recs:?}"
        );
    }
}
