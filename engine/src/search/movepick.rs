//! Staged move picker: TT move, good captures and promotions (MVV-LVA, SEE >= 0), killers, the counter move, quiets by history, then losing captures and
//! under-promotions. Moves come from the legal generators, so every move returned is legal;
//! stages generate lazily so a TT-move cut-off costs no generation at all.

use super::history::{piece_to, History, NO_CONTEXT};
use super::see::{captured_kind, see, value};
use crate::board::Board;
use crate::types::{Bitboard, Move, MoveList, PieceType, MAX_MOVES};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Picks the moves of one node in order. Lives on the stack; allocates nothing.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    list: MoveList,
    scores: [i32; 256],
    idx: usize,
    bad: MoveList,
    bad_idx: usize,
    /// The continuation keys of the previous two moves, for the quiets' continuation history.
    contexts: [u16; 2],
    /// The squares the opponent attacks, for the quiets' butterfly history.
    threats: Bitboard,
}

/// Bits of a pick key that hold the move's index (`MAX_MOVES` is 256).
const INDEX_BITS: u32 = 8;

/// Scores within ±2^22 leave room for the index in an i32 key. Real ones stay far inside
/// (histories are bounded by a few times 16,384, MVV-LVA by about 14,000); the clamp only
/// guarantees it.
#[inline(always)]
fn clamp_score(score: i32) -> i32 {
    const LIMIT: i32 = 1 << (31 - INDEX_BITS - 1);
    score.clamp(-LIMIT, LIMIT - 1)
}

/// True for moves that change material: captures and promotions.
#[inline]
pub fn is_tactical(board: &Board, mv: Move) -> bool {
    mv.is_promotion() || captured_kind(board, mv).is_some()
}

/// MVV-LVA score of a capture or promotion: the victim first, the cheaper attacker first.
#[inline]
pub fn mvv_lva(board: &Board, mv: Move) -> i32 {
    let victim = captured_kind(board, mv).map_or(0, value);
    let attacker = board
        .piece_on(mv.from())
        .map_or(0, |p| p.kind().index() as i32);
    let promo = mv
        .promotion()
        .map_or(0, |p| value(p) - value(PieceType::Pawn));
    (victim + promo) * 8 - attacker
}

impl MovePicker {
    /// A picker for a node whose TT suggested `tt_move` (validated here) and with these killers.
    pub fn new(board: &Board, tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        let tt_ok = !tt_move.is_null() && board.is_pseudo_legal(tt_move) && board.is_legal(tt_move);
        MovePicker {
            stage: if tt_ok {
                Stage::TtMove
            } else {
                Stage::GenCaptures
            },
            tt_move: if tt_ok { tt_move } else { Move::NULL },
            killers,
            counter,
            list: MoveList::new(),
            scores: [0; 256],
            idx: 0,
            bad: MoveList::new(),
            bad_idx: 0,
            contexts: [NO_CONTEXT; 2],
            threats: Bitboard::EMPTY,
        }
    }

    /// Order quiet moves by their continuation history after these previous moves too (see
    /// [`History::continuation`]); without it, by the butterfly history alone.
    pub fn with_continuation(mut self, contexts: [u16; 2]) -> MovePicker {
        self.contexts = contexts;
        self
    }

    /// Read the quiets' butterfly history where the opponent attacks `threats` (see
    /// [`History::get`]); without it, as if nothing were attacked.
    pub fn with_threats(mut self, threats: Bitboard) -> MovePicker {
        self.threats = threats;
        self
    }

    /// Pick the highest-scored remaining move of `list` (selection sort: most nodes cut early);
    /// among equal scores, the first.
    fn pick_best(&mut self) -> Option<Move> {
        let n = self.list.len();
        if self.idx >= n {
            return None;
        }
        // One key per move, the score above the index reversed, so the plain maximum is the
        // first best move: a branch-free scan the compiler vectorises, where the compare-and-
        // branch loop mispredicted on every new best.
        let key = |i: usize| (self.scores[i] << INDEX_BITS) | (MAX_MOVES - 1 - i) as i32;
        let top = (self.idx..n).map(key).max().unwrap_or(0);
        let best = MAX_MOVES - 1 - (top & (MAX_MOVES as i32 - 1)) as usize;
        self.list.swap(self.idx, best);
        self.scores.swap(self.idx, best);
        let mv = self.list[self.idx];
        self.idx += 1;
        Some(mv)
    }

    /// True when the move just returned came from the good captures, whose static exchange the
    /// picker has already found to be >= 0 (so the search need not compute it again).
    pub fn last_had_good_see(&self) -> bool {
        self.stage == Stage::GoodCaptures
    }

    fn is_killer_ok(&self, board: &Board, k: Move) -> bool {
        !k.is_null()
            && k != self.tt_move
            && board.is_pseudo_legal(k)
            && !is_tactical(board, k)
            && board.is_legal(k)
    }

    /// The next move, or `None` when all are done.
    pub fn next(&mut self, board: &Board, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    return Some(self.tt_move);
                }
                Stage::GenCaptures => {
                    board.legal_captures_into(&mut self.list);
                    for i in 0..self.list.len() {
                        let mv = self.list[i];
                        self.scores[i] = clamp_score(mvv_lva(board, mv));
                    }
                    self.idx = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(mv) if mv == self.tt_move => {}
                    Some(mv) => {
                        let under = mv.promotion().is_some_and(|p| p != PieceType::Queen);
                        if under || see(board, mv) < 0 {
                            self.bad.push(mv);
                        } else {
                            return Some(mv);
                        }
                    }
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    if self.is_killer_ok(board, self.killers[0]) {
                        return Some(self.killers[0]);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    let k = self.killers[1];
                    if k != self.killers[0] && self.is_killer_ok(board, k) {
                        return Some(k);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let c = self.counter;
                    if !self.killers.contains(&c) && self.is_killer_ok(board, c) {
                        return Some(c);
                    }
                }
                Stage::GenQuiets => {
                    board.legal_quiets_into(&mut self.list);
                    let us = board.side_to_move();
                    // Drop the moves already tried, in place and in order.
                    let mut kept = 0;
                    for i in 0..self.list.len() {
                        let mv = self.list[i];
                        if mv == self.tt_move
                            || mv == self.killers[0]
                            || mv == self.killers[1]
                            || mv == self.counter
                        {
                            continue;
                        }
                        self.scores[kept] = clamp_score(
                            history.get(us, self.threats, mv)
                                + history.continuation(self.contexts, piece_to(board, mv)),
                        );
                        self.list.as_mut_slice()[kept] = mv;
                        kept += 1;
                    }
                    self.list.truncate(kept);
                    self.idx = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.pick_best() {
                    Some(mv) => return Some(mv),
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => {
                    if self.bad_idx < self.bad.len() {
                        self.bad_idx += 1;
                        return Some(self.bad[self.bad_idx - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(fen: &str, tt: &str, killers: [&str; 2]) -> Vec<String> {
        let board = Board::from_fen(fen).unwrap();
        let parse = |s: &str| board.parse_uci_move(s).unwrap_or(Move::NULL);
        let mut mp = MovePicker::new(
            &board,
            parse(tt),
            [parse(killers[0]), parse(killers[1])],
            parse("b1c3"),
        );
        let h = History::default();
        std::iter::from_fn(|| mp.next(&board, &h))
            .map(|m| m.to_string())
            .collect()
    }

    #[test]
    fn every_legal_move_exactly_once() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/2P5/8/8/8/8/4k1K1/8 w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let mut got = order(fen, "e2a6", ["a2a3", "g2g4"]);
            let mut want: Vec<String> = board.legal_moves().iter().map(|m| m.to_string()).collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{fen}");
        }
    }

    #[test]
    fn tt_move_then_winning_capture_then_killer_and_losing_capture_last() {
        // White: Qd1xd7 loses the queen to the king? no: d7 pawn defended by the king (bad);
        // Nc3xb5 wins a knight (good).
        let fen = "4k3/3p4/8/1n6/8/2N5/8/3QK3 w - - 0 1";
        let moves = order(fen, "e1f2", ["d1a4", "a1a1"]);
        assert_eq!(moves[0], "e1f2");
        assert_eq!(moves[1], "c3b5");
        assert_eq!(moves[2], "d1a4");
        assert_eq!(moves.last().unwrap(), "d1d7");
    }

    /// The reference the picker must match: selection sort that swaps the first of the best
    /// remaining scores forward (ties resolved as the bench signature expects).
    fn selection_order(mut moves: Vec<Move>, mut scores: Vec<i32>) -> Vec<Move> {
        for i in 0..moves.len() {
            let mut best = i;
            for j in i + 1..moves.len() {
                if scores[j] > scores[best] {
                    best = j;
                }
            }
            moves.swap(i, best);
            scores.swap(i, best);
        }
        moves
    }

    #[test]
    fn quiets_come_by_history_the_first_of_equals_first() {
        let board =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap();
        let mut h = History::default();
        let quiets: Vec<Move> = board
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| !is_tactical(&board, m))
            .collect();
        // Few distinct values, so most scores tie, some negative; read where Black attacks.
        let us = board.side_to_move();
        let threats = board.attacks_by(!us);
        for (i, &m) in quiets.iter().enumerate() {
            h.update(us, threats, m, [0, 0, 300, -200, 300][i % 5]);
        }
        let scores = quiets.iter().map(|&m| h.get(us, threats, m)).collect();
        let want = selection_order(quiets.clone(), scores);
        let mut mp =
            MovePicker::new(&board, Move::NULL, [Move::NULL; 2], Move::NULL).with_threats(threats);
        let got: Vec<Move> = std::iter::from_fn(|| mp.next(&board, &h))
            .filter(|&m| !is_tactical(&board, m))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn illegal_tt_move_and_killers_are_ignored() {
        use crate::types::Square;
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let bogus = [
            Move::new(Square::A1, Square::A8),
            Move::new(Square::E1, Square::E8),
            Move::new(Square::E1, Square::E2),
            Move::new(Square::E1, Square::D1),
            Move::new(Square::H1, Square::H2),
        ];
        let mut mp = MovePicker::new(&board, bogus[0], [bogus[1], bogus[2]], bogus[4]);
        let h = History::default();
        let got: Vec<Move> = std::iter::from_fn(|| mp.next(&board, &h)).collect();
        assert_eq!(got.len(), 5);
        assert_eq!(got[0], bogus[2], "the legal killer comes first");
        // A legal counter move comes right after the killers.
        let mut mp = MovePicker::new(&board, bogus[0], [bogus[1], bogus[2]], bogus[3]);
        let got: Vec<Move> = std::iter::from_fn(|| mp.next(&board, &h)).collect();
        assert_eq!(got.len(), 5);
        assert_eq!(&got[..2], &[bogus[2], bogus[3]]);
    }
}
