//! An exhaustive mate search on shakmaty, independent of any engine: it verifies the `dm` of
//! generated mate positions (used for mates in 1 and 2, where it is fast).

use shakmaty::{Chess, Move, Position};

/// Whether the side to move can force mate within `n` moves (full-width, no pruning).
pub fn has_mate_within(pos: &Chess, n: u32) -> bool {
    n > 0 && pos.legal_moves().iter().any(|m| forces_mate(pos, m, n))
}

/// The shortest forced mate up to `max` moves, if there is one.
pub fn shortest_mate(pos: &Chess, max: u32) -> Option<u32> {
    (1..=max).find(|&n| has_mate_within(pos, n))
}

/// The moves that force mate within `n` moves.
pub fn mating_moves(pos: &Chess, n: u32) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .filter(|m| forces_mate(pos, m, n))
        .copied()
        .collect()
}

/// Whether playing `m` mates at once or leaves every reply facing mate within `n - 1`.
fn forces_mate(pos: &Chess, m: &Move, n: u32) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    let replies = after.legal_moves();
    if replies.is_empty() {
        return after.is_check();
    }
    n > 1
        && replies.iter().all(|r| {
            let mut next = after.clone();
            next.play_unchecked(*r);
            has_mate_within(&next, n - 1)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::epd::san_list;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().unwrap();
        fen.into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn back_rank_mate_in_one() {
        let p = pos("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
        assert_eq!(shortest_mate(&p, 3), Some(1));
        assert_eq!(san_list(&p, &mating_moves(&p, 1)), "Ra8#");
    }

    #[test]
    fn mate_in_two_needs_two_and_stalemate_is_no_mate() {
        // Two rooks against a bare king: Rb7 then Ra8#, no mate in one.
        let p = pos("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
        assert!(!has_mate_within(&p, 1));
        assert_eq!(shortest_mate(&p, 2), Some(2));
        // Stalemate position: no moves and no check, so no mate in any number.
        let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert!(p.legal_moves().is_empty());
        assert_eq!(shortest_mate(&p, 2), None);
        // A king and knight can never mate.
        let p = pos("7k/8/8/8/8/8/8/1N4K1 w - - 0 1");
        assert_eq!(shortest_mate(&p, 2), None);
    }
}
