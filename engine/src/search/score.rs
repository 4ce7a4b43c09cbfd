//! Score constants, mate-distance arithmetic and the public `Score` type.

/// Deepest ply the search reaches (arrays are sized by it).
pub const MAX_PLY: usize = 128;
/// Score of being mated at the root; mated at ply p scores `-(MATE - p)`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A tablebase win at the root; won at ply p scores `TB_WIN - p`. Tablebase scores lie in a
/// band just below the mate scores (Stockfish's `VALUE_TB`), so a real mate still beats a
/// tablebase win and every mate-score rule (ply adjustment in the TT, no pruning on decisive
/// bounds, full aspiration windows) treats both alike.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this (in absolute value) are tablebase wins or losses, or mates: decisive.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// The centipawns `info score` shows for a tablebase win at the root (Stockfish's 20000), less
/// one per ply to the position the tables decided.
pub const TB_CP: i32 = 20_000;
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
    /// Convert an internal score (mates counted in plies from the root). A tablebase win
    /// shows as `TB_CP` centipawns less the plies to the position the tables decided (a loss
    /// as the negative), as Stockfish shows it.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate(MATE - s)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s))
        } else if s >= TB_BOUND {
            Score::Cp(TB_CP - (TB_WIN - s))
        } else if s <= -TB_BOUND {
            Score::Cp(-TB_CP + (TB_WIN + s))
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

/// Whether a score is a mate or tablebase score (a win or loss, not an evaluation).
#[inline(always)]
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_BOUND
}

/// Score to store in the TT: mate and tablebase scores become relative to the storing node.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Score read from the TT: mate and tablebase scores become relative to the root again.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score - ply as i32
    } else if score <= -TB_BOUND {
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
        for s in [
            0,
            100,
            -250,
            MATE - 7,
            -(MATE - 9),
            TB_WIN - 3,
            -(TB_WIN - 60),
        ] {
            assert_eq!(from_tt(to_tt(s, 5), 5), s);
        }
    }

    #[test]
    fn tablebase_band_lies_between_evaluations_and_mates() {
        // The deepest tablebase win still beats any evaluation; the slowest mate beats the
        // fastest tablebase win.
        const { assert!(TB_WIN - MAX_PLY as i32 == TB_BOUND) };
        const { assert!(TB_WIN < MATE - MAX_PLY as i32) };
        assert!(is_decisive(TB_BOUND) && is_decisive(-TB_BOUND));
        assert!(!is_decisive(TB_BOUND - 1) && !is_decisive(0));
        assert!(is_decisive(MATE - 1) && is_decisive(-(MATE - 1)));
        // Stored at ply 4 from a win found at ply 10, read back at ply 2: the win is 6 plies
        // from the stored node, so 8 from the root of the reading search.
        assert_eq!(from_tt(to_tt(TB_WIN - 10, 4), 2), TB_WIN - 8);
        assert_eq!(from_tt(to_tt(-(TB_WIN - 10), 4), 6), -(TB_WIN - 12));
        // Shown as Stockfish does: 20000 centipawns less the plies to the decided position.
        assert_eq!(Score::from_internal(TB_WIN).to_uci(), "cp 20000");
        assert_eq!(Score::from_internal(TB_WIN - 7).to_uci(), "cp 19993");
        assert_eq!(Score::from_internal(-(TB_WIN - 7)).to_uci(), "cp -19993");
        assert_eq!(Score::from_internal(TB_BOUND).to_uci(), "cp 19872");
        assert_eq!(
            Score::from_internal(TB_BOUND - 1).to_uci(),
            format!("cp {}", TB_BOUND - 1)
        );
        // Mates are still mates.
        assert_eq!(
            Score::from_internal(MATE_BOUND),
            Score::Mate(MAX_PLY as i32)
        );
    }
}
