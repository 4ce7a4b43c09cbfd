//! One self-play game for `harness datagen`: the engine (in process) plays both sides at fixed
//! nodes or depth from a book or random opening, shakmaty referees (mate, stalemate, insufficient
//! material, fifty moves, threefold), and scores adjudicate clear wins and dead draws. The game's
//! quiet positions come back labelled with its result.

use crate::tune::dataset::Record;
use sable::board::Board;
use sable::rng::Rng;
use sable::search::{Limits, NoReport, Score, Searcher};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Outcome, Position};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// How games are played and adjudicated.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// Search limit per move (nodes or depth).
    pub limits: Limits,
    /// Random legal plies played before the engine takes over (after the book position).
    pub random_plies: usize,
    /// Win adjudication: |score| at least this many centipawns ...
    pub win_score: i32,
    /// ... for this many consecutive plies.
    pub win_plies: usize,
    /// Draw adjudication: |score| at most this many centipawns ...
    pub draw_score: i32,
    /// ... for this many consecutive plies ...
    pub draw_plies: usize,
    /// ... once the game is at least this many plies long.
    pub draw_after: usize,
    /// A game this long is a draw.
    pub max_plies: usize,
}

/// A position the game may keep, before its result is known.
struct Pending {
    fen: String,
    white_score: i32,
}

/// Chooses the opening: a book line (or the start position) plus random legal plies. Returns
/// `None` when the random plies ended the game (the caller draws another opening).
fn opening(book: &[String], random_plies: usize, rng: &mut Rng) -> Option<Chess> {
    let mut pos = if book.is_empty() {
        Chess::default()
    } else {
        let fen: Fen = book[rng.below(book.len())].parse().ok()?;
        fen.into_position(CastlingMode::Standard).ok()?
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
    book: &[String],
    rng: &mut Rng,
    stop: &AtomicBool,
) -> Vec<Record> {
    let pos = loop {
        if let Some(p) = opening(book, opt.random_plies, rng) {
            break p;
        }
    };
    searcher.clear();
    let mut pos = pos;
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let Ok(mut board) = Board::from_fen(&fen) else {
        return Vec::new();
    };
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let mut pending = Vec::new();
    let (mut win_run, mut draw_run, mut last_sign) = (0usize, 0usize, 0i32);
    let mut ply = 0;
    let result = loop {
        if stop.load(Ordering::Relaxed) {
            return Vec::new();
        }
        let h: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        let reps = seen.entry(h.0).or_insert(0);
        *reps += 1;
        if *reps >= 3 || pos.halfmoves() >= 100 || ply >= opt.max_plies {
            break 0.5;
        }
        if let Outcome::Known(k) = pos.outcome() {
            break match k {
                KnownOutcome::Draw => 0.5,
                KnownOutcome::Decisive { winner } => (winner == Color::White) as u8 as f64,
            };
        }
        let r = searcher.search(&mut board, &opt.limits, &mut NoReport);
        let Ok(uci) = UciMove::from_ascii(r.best_move.to_string().as_bytes()) else {
            return Vec::new();
        };
        let Ok(mv) = uci.to_move(&pos) else {
            return Vec::new();
        };
        let cp = match r.score {
            Score::Cp(cp) => Some(cp),
            Score::Mate(_) => None,
        };
        if let Some(cp) = cp {
            if !pos.is_check() && !mv.is_capture() && !mv.is_promotion() {
                let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
                pending.push(Pending {
                    fen,
                    white_score: white_view(cp, pos.turn()),
                });
            }
        }
        // adjudication on the White-view score (a mate score counts as a clear win)
        let ws = match r.score {
            Score::Cp(cp) => white_view(cp, pos.turn()),
            Score::Mate(n) => white_view(if n > 0 { 100_000 } else { -100_000 }, pos.turn()),
        };
        let sign = ws.signum();
        win_run = if ws.abs() >= opt.win_score && sign == last_sign {
            win_run + 1
        } else {
            (ws.abs() >= opt.win_score) as usize
        };
        last_sign = sign;
        draw_run = if ws.abs() <= opt.draw_score {
            draw_run + 1
        } else {
            0
        };
        if win_run >= opt.win_plies {
            break if sign > 0 { 1.0 } else { 0.0 };
        }
        if ply >= opt.draw_after && draw_run >= opt.draw_plies {
            break 0.5;
        }
        board.make(r.best_move);
        pos.play_unchecked(mv);
        ply += 1;
    };
    pending
        .into_iter()
        .map(|p| Record {
            fen: p.fen,
            result,
            score: Some(p.white_score),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick() -> GameOptions {
        GameOptions {
            limits: Limits::nodes(300),
            random_plies: 6,
            win_score: 600,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 8,
            draw_after: 40,
            max_plies: 200,
        }
    }

    #[test]
    fn games_give_quiet_labelled_positions() {
        let mut s = Searcher::new(1);
        let mut rng = Rng::new(4);
        let stop = AtomicBool::new(false);
        let mut total = 0;
        for _ in 0..3 {
            let recs = play_game(&mut s, &quick(), &[], &mut rng, &stop);
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
    fn book_openings_are_used_and_stop_abandons_the_game() {
        let book = vec!["4k3/8/8/8/8/8/3QK3/8 w - - 0 1".to_string()];
        let mut s = Searcher::new(1);
        let stop = AtomicBool::new(false);
        let opt = GameOptions {
            random_plies: 0,
            ..quick()
        };
        let recs = play_game(&mut s, &opt, &book, &mut Rng::new(1), &stop);
        // queen against bare king: White wins (by mate or adjudication)
        assert!(!recs.is_empty());
        assert!(recs.iter().all(|r| r.result == 1.0));
        stop.store(true, Ordering::Relaxed);
        assert!(play_game(&mut s, &opt, &book, &mut Rng::new(1), &stop).is_empty());
    }
}
