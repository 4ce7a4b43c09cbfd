//! The end of a game by the rules of chess: checkmate, stalemate, insufficient material,
//! threefold repetition and the fifty-move rule. The one referee of both game loops: the UCI
//! match's (`game::play`) and the in-process self-play of `harness datagen`.

use super::record::{side_name, Outcome};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position};

/// A game ended by the rules, with the reason the PGN gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesEnding {
    /// The result.
    pub outcome: Outcome,
    /// Why, e.g. `White mates`, `Draw by 3-fold repetition`.
    pub reason: String,
}

/// The positions of a game since its last irreversible move, for the repetition rule.
#[derive(Debug, Clone)]
pub struct History(Vec<Zobrist64>);

fn hash(pos: &Chess) -> Zobrist64 {
    pos.zobrist_hash(EnPassantMode::Legal)
}

impl History {
    /// The history of a game that starts at `pos`.
    pub fn new(pos: &Chess) -> History {
        History(vec![hash(pos)])
    }

    /// Adds the position reached by a move; an irreversible move (halfmove clock reset) starts a
    /// new history, since no earlier position can recur.
    pub fn push(&mut self, pos: &Chess) {
        if pos.halfmoves() == 0 {
            self.0.clear();
        }
        self.0.push(hash(pos));
    }

    /// The end of the game in `pos` (the last position pushed) by the rules, if reached.
    pub fn ending(&self, pos: &Chess) -> Option<RulesEnding> {
        let end = |outcome, reason: &str| {
            Some(RulesEnding {
                outcome,
                reason: reason.to_owned(),
            })
        };
        if pos.is_checkmate() {
            let winner = !pos.turn();
            return end(
                Outcome::win_for(winner),
                &format!("{} mates", side_name(winner)),
            );
        }
        if pos.is_stalemate() {
            return end(Outcome::Draw, "Draw by stalemate");
        }
        if pos.is_insufficient_material() {
            return end(Outcome::Draw, "Draw by insufficient material");
        }
        let current = self.0.last().copied();
        if current.is_some_and(|h| self.0.iter().filter(|&&x| x == h).count() >= 3) {
            return end(Outcome::Draw, "Draw by 3-fold repetition");
        }
        if pos.halfmoves() >= 100 {
            return end(Outcome::Draw, "Draw by fifty moves rule");
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn play(pos: &mut Chess, history: &mut History, moves: &str) {
        for m in moves.split_whitespace() {
            let mv = m.parse::<UciMove>().unwrap().to_move(pos).unwrap();
            pos.play_unchecked(mv);
            history.push(pos);
        }
    }

    #[test]
    fn mate_stalemate_material_and_fifty_moves() {
        let ending = |fen: &str| History::new(&position(fen)).ending(&position(fen));
        let mated = ending("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert_eq!(mated.unwrap().outcome, Outcome::BlackWins);
        let stalemate = ending("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            (stalemate.outcome, stalemate.reason.as_str()),
            (Outcome::Draw, "Draw by stalemate")
        );
        let bare = ending("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").unwrap();
        assert_eq!(bare.reason, "Draw by insufficient material");
        let fifty = ending("8/8/4k3/8/8/3RK3/8/8 w - - 100 80").unwrap();
        assert_eq!(fifty.reason, "Draw by fifty moves rule");
        assert_eq!(ending("8/8/4k3/8/8/3RK3/8/8 w - - 99 80"), None);
        // Mate on the hundredth halfmove is still mate.
        let late = ending("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80").unwrap();
        assert_eq!(late.outcome, Outcome::WhiteWins);
    }

    #[test]
    fn threefold_repetition_counts_from_the_last_irreversible_move() {
        let mut pos = Chess::default();
        let mut history = History::new(&pos);
        play(&mut pos, &mut history, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        assert_eq!(
            history.ending(&pos),
            None,
            "the start position twice so far"
        );
        play(&mut pos, &mut history, "f6g8");
        let end = history.ending(&pos).unwrap();
        assert_eq!(
            (end.outcome, end.reason.as_str()),
            (Outcome::Draw, "Draw by 3-fold repetition")
        );
        // A pawn move starts over.
        play(&mut pos, &mut history, "e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(history.ending(&pos), None);
    }
}
