//! The attack map of one side, built once per evaluation by the piece terms and read by the
//! threat, king-danger and outpost terms (and by the danger index).

use crate::types::PieceType;

/// The squares one side attacks, by piece kind, plus its attack units on the enemy king.
#[derive(Clone, Copy, Debug)]
pub(super) struct Attacks {
    /// Squares attacked by each kind (`PieceType::index` order).
    pub by: [u64; 6],
    /// Squares attacked by any piece.
    pub all: u64,
    /// Squares attacked at least twice (the king and pawns counted as one each).
    pub two: u64,
    /// Sum of `threats::ATTACK_UNITS` over the pieces that hit the enemy king zone.
    pub units: i32,
    /// Sum of `danger::ATTACKER_WEIGHT` over the same pieces.
    pub attacker_weight: i32,
    /// Attacks on the squares next to the enemy king, one per piece and square.
    pub adjacent_hits: i32,
}

impl Attacks {
    /// The maps of the pawns and the king; `add` the other pieces.
    #[inline(always)]
    pub fn new(pawns: u64, king: u64) -> Attacks {
        let mut by = [0; 6];
        by[PieceType::Pawn.index()] = pawns;
        by[PieceType::King.index()] = king;
        Attacks {
            by,
            all: pawns | king,
            two: pawns & king,
            units: 0,
            attacker_weight: 0,
            adjacent_hits: 0,
        }
    }

    /// Adds the attacks of one piece of kind `k`.
    #[inline(always)]
    pub fn add(&mut self, k: PieceType, att: u64) {
        self.by[k.index()] |= att;
        self.two |= self.all & att;
        self.all |= att;
    }

    #[inline(always)]
    pub fn of(&self, k: PieceType) -> u64 {
        self.by[k.index()]
    }
}
