//! Score constants, mate-distance arithmetic and the public `Score` type.

/// Deepest ply the search reaches (arrays are sized by it).
pub const MAX_PLY: usize = 128;
/// Score of being mated at the root; mated at ply p scores `-(MATE - p)`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score: the initial window.
pub const INFINITY: i32 = MATE + 1;
/// A draw (repetition, fifty moves, insufficient material, stalemate).
pub const DRAW: i32 = 0;

/// A score as reported to the outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many plies: positive, we mate; negative, we are mated.
    Mate(i32),
}

impl Score {
    /// Convert an internal score (mates counted in plies from the root).
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate(MATE - s)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s))
        } else {
            Score::Cp(s)
        }
    }

    /// The UCI text: `cp N` or `mate N` with N in full moves (negative when we are mated).
    pub fn to_uci(self) -> String {
        match self {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(plies) if plies > 0 => format!("mate {}", (plies + 1) / 2),
            Score::Mate(plies) => format!("mate {}", -((-plies + 1) / 2)),
        }
    }
}

/// Score to store in the TT: mates become relative to the storing node.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Score read from the TT: mates become relative to the root again.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_in_full_moves_with_sign() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 1).to_uci(), "mate 1");
        assert_eq!(Score::from_internal(MATE - 3).to_uci(), "mate 2");
        assert_eq!(Score::from_internal(MATE - 5).to_uci(), "mate 3");
        // Mated at ply 2 (we move, they mate): mated in 1 full move.
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-2));
        assert_eq!(Score::from_internal(-(MATE - 2)).to_uci(), "mate -1");
        assert_eq!(Score::from_internal(-(MATE - 4)).to_uci(), "mate -2");
        // Mated right now (no move, ply 0).
        assert_eq!(Score::from_internal(-MATE).to_uci(), "mate 0");
        assert_eq!(Score::from_internal(35).to_uci(), "cp 35");
    }

    #[test]
    fn faster_mate_scores_higher_slower_loss_scores_higher() {
        const { assert!(MATE - 1 > MATE - 3) };
        const { assert!(-(MATE - 4) > -(MATE - 2)) };
    }

    #[test]
    fn tt_conversion_round_trips() {
        for s in [0, 100, -250, MATE - 7, -(MATE - 9)] {
            assert_eq!(from_tt(to_tt(s, 5), 5), s);
        }
    }
}
