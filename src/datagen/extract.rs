//! Labelled positions from PGN games (`harness extract`), read with the one PGN reader
//! (`game::pgn::PgnReader`): every position before a quiet move (not in check, the played move
//! neither a capture nor a promotion, no mate score in the move's eval comment), labelled with
//! the game's result; optionally a sample of N per game.
//!
//! Eval comments understood: cutechess/`harness match` style `{+0.35/12 0.5s}` / `{-M5/20}` (the
//! mover's score of the position before the move) and lichess `[%eval 0.35]` / `[%eval #3]`
//! (White's view, after the move: only used to drop mate scores). Without comments the mate filter
//! cannot apply and is skipped.

use crate::game::pgn::{ParsedGame, PgnReader};
use crate::game::Variant;
use crate::tune::dataset::Record;
use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode, Position};
use std::io::Read;

/// A score read from an eval comment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CommentScore {
    /// Centipawns from the mover's view (cutechess style).
    MoverCp(i32),
    /// Centipawns from White's view (lichess style), after the move.
    WhiteCp(i32),
    /// A mate score.
    Mate,
}

/// Reads the score of an eval comment, if it has one.
pub fn parse_comment(text: &str) -> Option<CommentScore> {
    let t = text.trim();
    if let Some(p) = t.find("[%eval ") {
        let v = t[p + 7..].split([']', ' ', ',']).next()?;
        if v.starts_with('#') {
            return Some(CommentScore::Mate);
        }
        let pawns: f64 = v.parse().ok()?;
        return Some(CommentScore::WhiteCp((pawns * 100.0).round() as i32));
    }
    let first = t.split_whitespace().next()?;
    let score = first.split('/').next()?;
    let body = score.trim_start_matches(['+', '-']);
    if body.starts_with('M') || body.starts_with('#') {
        return Some(CommentScore::Mate);
    }
    if !first.contains('/') {
        return None; // `{book}` or free text: only `score/depth` is an eval
    }
    let pawns: f64 = score.parse().ok()?;
    Some(CommentScore::MoverCp((pawns * 100.0).round() as i32))
}

/// One position of a game that may be kept.
#[derive(Clone, Debug)]
struct Candidate {
    fen: String,
    ply: usize,
    score: Option<i32>,
}

/// The game's quiet positions from ply `skip_plies` on, with the scores of their eval comments:
/// a position is quiet when it is not in check and its move is neither a capture, nor a
/// promotion, nor scored as a mate.
fn candidates(game: &ParsedGame, skip_plies: usize) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (ply, m) in game.moves.iter().enumerate().skip(skip_plies) {
        let mut quiet = !m.before.is_check() && !m.mv.is_capture() && !m.mv.is_promotion();
        let mut score = None;
        for c in &m.comments {
            match parse_comment(c) {
                Some(CommentScore::Mate) => quiet = false,
                Some(CommentScore::MoverCp(cp)) => {
                    score = Some(if m.before.turn() == Color::White {
                        cp
                    } else {
                        -cp
                    })
                }
                Some(CommentScore::WhiteCp(cp)) => score = Some(cp),
                None => {}
            }
        }
        if quiet {
            out.push(Candidate {
                fen: Fen::from_position(&m.before, EnPassantMode::Legal).to_string(),
                ply,
                score,
            });
        }
    }
    out
}

/// Options of an extraction.
#[derive(Clone, Debug)]
pub struct Options {
    /// Positions kept per game at most (0 = all that pass the filters).
    pub per_game: usize,
    /// Plies skipped at the start of each game (opening book moves).
    pub skip_plies: usize,
    /// Seed of the per-game sampling.
    pub seed: u64,
}

/// Counts of what an extraction saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games read.
    pub games: usize,
    /// Games skipped: no result, bad FEN tag or an illegal move.
    pub bad_games: usize,
    /// Positions written.
    pub positions: usize,
}

/// Reads every game of a PGN and returns the labelled quiet positions (not yet deduplicated
/// across games; the caller's writer does that).
pub fn from_pgn<R: Read>(
    input: R,
    opt: &Options,
) -> std::io::Result<(Vec<Record>, Summary, Vec<String>)> {
    let mut out = Vec::new();
    let mut sum = Summary::default();
    let mut problems = Vec::new();
    for game in PgnReader::new(input) {
        let game = game?;
        sum.games += 1;
        let outcome = match (&game.error, game.result) {
            (Some(e), _) => Err(e.clone()),
            (None, None) => Err("no result".to_owned()),
            (None, Some(_)) if game.variant != Variant::Standard => {
                Err("Chess960 (the tuner reads standard chess positions)".to_owned())
            }
            (None, Some(outcome)) => Ok(outcome),
        };
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(why) => {
                sum.bad_games += 1;
                problems.push(format!("game {}: {why}", sum.games));
                continue;
            }
        };
        let mut keep = candidates(&game, opt.skip_plies);
        if opt.per_game > 0 && keep.len() > opt.per_game {
            // the harness's seeded shuffle, seeded per game by its number in the file
            let game_seed = opt.seed ^ (sum.games as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            crate::openings::shuffle(&mut keep, game_seed);
            keep.truncate(opt.per_game);
            keep.sort_by_key(|c| c.ply);
        }
        sum.positions += keep.len();
        out.extend(keep.into_iter().map(|c| Record {
            fen: c.fen,
            result: outcome.white_score(),
            score: c.score,
        }));
    }
    Ok((out, sum, problems))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = r#"[Event "t"]
[Result "1-0"]

1. e4 {+0.30/10 0.1s} e5 {-0.25/10} 2. Nf3 {+0.35/9} Nc6 3. Bb5 a6 4. Bxc6 {+0.20/9} dxc6 5. O-O {+M7/20} 1-0

[Event "bad"]
[Result "0-1"]

1. e4 e4 0-1

[Event "unfinished"]
[Result "*"]

1. d4 *

[Event "lichess"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[Result "1/2-1/2"]

1. Kd2 { [%eval 0.5] } Kd7 { [%eval #-3] } 2. e4 1/2-1/2
"#;

    #[test]
    fn comments_are_read() {
        assert_eq!(
            parse_comment("+0.35/12 0.5s"),
            Some(CommentScore::MoverCp(35))
        );
        assert_eq!(parse_comment("-1.20/5"), Some(CommentScore::MoverCp(-120)));
        assert_eq!(parse_comment("+M5/20 1s"), Some(CommentScore::Mate));
        assert_eq!(parse_comment("-M2/3"), Some(CommentScore::Mate));
        assert_eq!(
            parse_comment(" [%eval -0.7] [%clk 0:01:00]"),
            Some(CommentScore::WhiteCp(-70))
        );
        assert_eq!(parse_comment("[%eval #-2]"), Some(CommentScore::Mate));
        assert_eq!(parse_comment("book"), None);
    }

    #[test]
    fn quiet_positions_with_results_and_scores() {
        let opt = Options {
            per_game: 0,
            skip_plies: 0,
            seed: 1,
        };
        let (recs, sum, problems) = from_pgn(PGN.as_bytes(), &opt).unwrap();
        assert_eq!(
            sum,
            Summary {
                games: 4,
                bad_games: 2,
                positions: recs.len()
            }
        );
        assert_eq!(problems.len(), 2);
        // game 1: 10 plies; Bxc6, dxc6 are captures, O-O has a mate score: 6 left
        // game 4: Kd2 (quiet, +0.5), Kd7 (mate comment), e4 (quiet): 2 left
        assert_eq!(recs.len(), 8);
        assert_eq!(
            recs[0].fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!((recs[0].result, recs[0].score), (1.0, Some(30)));
        assert_eq!(recs[1].score, Some(25)); // black's -0.25 is +25 for White
        assert_eq!(recs[4].score, None);
        assert!(recs
            .iter()
            .all(|r| !r.fen.starts_with("r1bqkbnr/1ppp1ppp/p1B5")));
        assert_eq!((recs[6].result, recs[6].score), (0.5, Some(50)));
        assert_eq!(recs[7].fen, "8/3k4/8/8/8/8/3KP3/8 w - - 2 2");
    }

    #[test]
    fn per_game_sampling_and_skip_plies() {
        let opt = Options {
            per_game: 2,
            skip_plies: 2,
            seed: 9,
        };
        let (recs, _, _) = from_pgn(PGN.as_bytes(), &opt).unwrap();
        // game 1 keeps 2 of its 4 quiet positions from ply 2 on; game 4 keeps e4 only
        assert_eq!(recs.len(), 3);
        assert!(recs
            .iter()
            .all(|r| !r.fen.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP")));
    }

    #[test]
    fn chess960_games_are_skipped_with_their_number() {
        let pgn = "[Variant \"Chess960\"]\n\
                   [FEN \"bqnbrk1r/pppppppp/8/8/8/8/PPPPPPPP/BQNBRK1R w HEhe - 0 1\"]\n\
                   [Result \"1-0\"]\n\n1. d4 d5 2. O-O 1-0\n";
        let opt = Options {
            per_game: 0,
            skip_plies: 0,
            seed: 1,
        };
        let (recs, sum, problems) = from_pgn(pgn.as_bytes(), &opt).unwrap();
        assert!(recs.is_empty());
        assert_eq!((sum.games, sum.bad_games), (1, 1));
        assert!(problems[0].starts_with("game 1: Chess960"), "{problems:?}");
    }
}
