//! `Params`: every evaluation weight in one flat array of packed (mg, eg) pairs.
//!
//! The layout is a list of named blocks (material, one piece-square table per piece, mobility per
//! piece, passed pawns, pawn structure, king safety, pieces, tempo). Each weight has a stable name
//! such as `material.knight`, `pst.knight.e4` or `passed.rank5`; the file format, the tuner's
//! `--freeze` groups and the trace indices all derive from this one list.

use super::defaults::DEFAULT_WEIGHTS;
use super::S;

/// Index of `material.pawn`; material runs pawn..queen.
pub const MATERIAL: usize = 0;
/// Index of `pst.pawn.a1`; one 64-square table per piece kind (pawn..king), white's view, a1 = 0.
pub const PST: usize = MATERIAL + 5;
/// Index of `mobility.knight.0` (0..=8 reachable squares).
pub const MOB_KNIGHT: usize = PST + 6 * 64;
/// Index of `mobility.bishop.0` (0..=13).
pub const MOB_BISHOP: usize = MOB_KNIGHT + 9;
/// Index of `mobility.rook.0` (0..=14).
pub const MOB_ROOK: usize = MOB_BISHOP + 14;
/// Index of `mobility.queen.0` (0..=27).
pub const MOB_QUEEN: usize = MOB_ROOK + 15;
/// Index of `passed.rank2`; passed pawns by relative rank 2..7.
pub const PASSED: usize = MOB_QUEEN + 28;
/// Per square of Chebyshev distance from our king to a passed pawn's stop square.
pub const PASSED_OWN_KING: usize = PASSED + 6;
/// Per square of Chebyshev distance from the enemy king to a passed pawn's stop square.
pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 1;
/// A pawn with no friendly pawn on an adjacent file.
pub const ISOLATED: usize = PASSED_ENEMY_KING + 1;
/// A pawn with a friendly pawn ahead of it on the same file.
pub const DOUBLED: usize = ISOLATED + 1;
/// A pawn defended by a friendly pawn.
pub const SUPPORTED: usize = DOUBLED + 1;
/// A pawn with a friendly pawn beside it on the same rank.
pub const PHALANX: usize = SUPPORTED + 1;
/// A friendly pawn one rank in front of the king, on the king's file or next to it.
pub const SHIELD_NEAR: usize = PHALANX + 1;
/// A friendly pawn two ranks in front of the king, on the king's file or next to it.
pub const SHIELD_FAR: usize = SHIELD_NEAR + 1;
/// A file at or next to the king with no friendly pawn.
pub const KING_OPEN_FILE: usize = SHIELD_FAR + 1;
/// Per attacked king-zone square, by attacker kind knight..queen (4 weights).
pub const KING_ATTACK: usize = KING_OPEN_FILE + 1;
/// Two or more bishops.
pub const BISHOP_PAIR: usize = KING_ATTACK + 4;
/// A rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// A rook on a file without friendly pawns but with enemy pawns.
pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
/// Bonus for the side to move.
pub const TEMPO: usize = ROOK_HALF_OPEN + 1;
/// Threats on enemy pieces (9 weights, labelled in `BLOCKS`).
pub const THREAT: usize = TEMPO + 1;
/// Squares from which a piece of ours could check the enemy king safely, by kind knight..queen.
pub const SAFE_CHECK: usize = THREAT + 9;
/// King danger by attack units on the enemy king, 0..=23 and more (one weight per count: the
/// tuner shapes the curve; the rare counts above 23 share the last weight).
pub const KING_DANGER: usize = SAFE_CHECK + 4;
/// Number of king danger buckets.
pub const KING_DANGER_LEN: usize = 24;
/// A passed pawn whose stop square is occupied, by relative rank 2..7.
pub const PASSED_BLOCKED: usize = KING_DANGER + KING_DANGER_LEN;
/// A passed pawn whose stop square is empty and not attacked by the enemy, by rank 2..7.
pub const PASSED_FREE: usize = PASSED_BLOCKED + 6;
/// A knight or bishop on an outpost: ranks 4..6, defended by a pawn, out of enemy pawns' reach.
pub const OUTPOST: usize = PASSED_FREE + 6;
/// A pawn that no friendly pawn can defend and whose stop square an enemy pawn attacks.
pub const BACKWARD: usize = OUTPOST + 2;
/// Our nearest pawn ahead of the king on each of the three files around it (centred off the
/// edge), by the file's distance from the edge (0..4) times 7 plus the pawn's distance in
/// ranks from the king (1..=6; 0 = no pawn).
pub const SHELTER: usize = BACKWARD + 1;
/// The enemy's nearest pawn ahead of our king on those files, indexed like [`SHELTER`]; the
/// second half when our own pawn blocks it (it stands right in front of ours).
pub const STORM: usize = SHELTER + 28;
/// Passed pawn: own king's (6, by rank), then the enemy king's (6) distance to the stop square.
pub const PASSED_KING: usize = STORM + 56;
/// Rook and queen on the seventh rank (with the enemy king on the eighth or pawns on the seventh).
pub const SEVENTH: usize = PASSED_KING + 12;
/// Per bishop: own pawns on its colour, and those of them blocked by an enemy pawn.
pub const BISHOP_PAWNS: usize = SEVENTH + 2;
/// Knight or bishop right behind a pawn (either colour).
pub const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 2;
/// The king's distance to its nearest own pawn.
pub const KING_PAWN_DISTANCE: usize = MINOR_BEHIND_PAWN + 1;
/// An enemy piece (not a pawn) that we attack and nothing of theirs defends.
pub const HANGING: usize = KING_PAWN_DISTANCE + 1;
/// A square next to the enemy king that we attack and only their king or queen defends.
pub const WEAK_ZONE: usize = HANGING + 1;
/// Space: safe central squares in our half, times our piece count, over 4.
pub const SPACE: usize = WEAK_ZONE + 1;
/// A rook behind a passed pawn on its file: ours, then the enemy's.
pub const ROOK_BEHIND_PASSER: usize = SPACE + 1;
/// The king on a flank (four files around it) without a pawn of either colour.
pub const PAWNLESS_FLANK: usize = ROOK_BEHIND_PASSER + 2;
/// The danger index of the attack on the enemy king (`danger::index`): its square over 262144
/// and the index over 512 as coefficients, both zero up to `danger::THRESHOLD`.
pub const ATTACK_DANGER: usize = PAWNLESS_FLANK + 1;
/// Squares we attack where the enemy has more attackers and we have no pawn (Ethereal 12's
/// restricted squares): with a piece on them, then empty.
pub const RESTRICTED: usize = ATTACK_DANGER + 2;
/// Central squares (c3-f6) the enemy does not attack and we attack or hold, while enough pieces
/// are on the board for the centre to matter.
pub const CENTRE_CONTROL: usize = RESTRICTED + 2;
/// Our piece (not a pawn or the king) attacked once and defended once: overloaded.
pub const OVERLOADED: usize = CENTRE_CONTROL + 1;
/// A bishop on a long diagonal (off the centre) that sees both of its centre squares through
/// the pawns.
pub const LONG_DIAGONAL: usize = OVERLOADED + 1;
/// A knight four or more squares from both kings, by that distance 4..=7.
pub const SIBERIA: usize = LONG_DIAGONAL + 1;
/// A passed pawn whose path to promotion holds no enemy piece and no enemy attack.
pub const SAFE_PATH: usize = SIBERIA + 4;
/// A pawn that can become passed by advancing and trading (Ethereal 12's candidate passer), by
/// relative rank 2..7: first when its supporters are fewer than its attackers, then when not.
pub const CANDIDATE: usize = SAFE_PATH + 1;
/// Number of weights.
pub const LEN: usize = CANDIDATE + 12;

/// How the weights of a block are labelled after the block name.
#[derive(Clone, Copy, Debug)]
pub enum Labels {
    /// One weight, named by the block alone (e.g. `tempo`).
    Single,
    /// Explicit labels, one per weight.
    List(&'static [&'static str]),
    /// 64 weights labelled by square (`a1`..`h8`).
    Squares,
    /// Weights labelled by their number 0, 1, 2, ...
    Numbers,
    /// A table in row-major order, each weight labelled `<row>.<column>`.
    Grid(&'static [&'static str], &'static [&'static str]),
}

/// A named run of consecutive weights.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    /// Dotted name prefix, e.g. `pst.knight`; its first component is the group.
    pub name: &'static str,
    /// Index of the first weight.
    pub start: usize,
    /// Number of weights.
    pub len: usize,
    /// How each weight is labelled.
    pub labels: Labels,
}

const PIECES: &[&str] = &["pawn", "knight", "bishop", "rook", "queen"];
const RANKS: &[&str] = &["rank2", "rank3", "rank4", "rank5", "rank6", "rank7"];

/// Every block, in index order, covering `0..LEN` without gaps.
pub const BLOCKS: &[Block] = &[
    Block {
        name: "material",
        start: MATERIAL,
        len: 5,
        labels: Labels::List(PIECES),
    },
    Block {
        name: "pst.pawn",
        start: PST,
        len: 64,
        labels: Labels::Squares,
    },
    Block {
        name: "pst.knight",
        start: PST + 64,
        len: 64,
        labels: Labels::Squares,
    },
    Block {
        name: "pst.bishop",
        start: PST + 128,
        len: 64,
        labels: Labels::Squares,
    },
    Block {
        name: "pst.rook",
        start: PST + 192,
        len: 64,
        labels: Labels::Squares,
    },
    Block {
        name: "pst.queen",
        start: PST + 256,
        len: 64,
        labels: Labels::Squares,
    },
    Block {
        name: "pst.king",
        start: PST + 320,
        len: 64,
        labels: Labels::Squares,
    },
    Block {
        name: "mobility.knight",
        start: MOB_KNIGHT,
        len: 9,
        labels: Labels::Numbers,
    },
    Block {
        name: "mobility.bishop",
        start: MOB_BISHOP,
        len: 14,
        labels: Labels::Numbers,
    },
    Block {
        name: "mobility.rook",
        start: MOB_ROOK,
        len: 15,
        labels: Labels::Numbers,
    },
    Block {
        name: "mobility.queen",
        start: MOB_QUEEN,
        len: 28,
        labels: Labels::Numbers,
    },
    Block {
        name: "passed",
        start: PASSED,
        len: 8,
        labels: Labels::List(&[
            "rank2",
            "rank3",
            "rank4",
            "rank5",
            "rank6",
            "rank7",
            "own_king_distance",
            "enemy_king_distance",
        ]),
    },
    Block {
        name: "pawns",
        start: ISOLATED,
        len: 4,
        labels: Labels::List(&["isolated", "doubled", "supported", "phalanx"]),
    },
    Block {
        name: "king",
        start: SHIELD_NEAR,
        len: 7,
        labels: Labels::List(&[
            "shield_near",
            "shield_far",
            "open_file",
            "attack.knight",
            "attack.bishop",
            "attack.rook",
            "attack.queen",
        ]),
    },
    Block {
        name: "pieces",
        start: BISHOP_PAIR,
        len: 3,
        labels: Labels::List(&["bishop_pair", "rook_open_file", "rook_half_open_file"]),
    },
    Block {
        name: "tempo",
        start: TEMPO,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "threat",
        start: THREAT,
        len: 9,
        labels: Labels::List(&[
            "weak_pawn",
            "minor_by_pawn",
            "minor_by_minor",
            "minor_by_major",
            "rook_by_lesser",
            "minor_by_king",
            "rook_by_king",
            "queen",
            "pawn_push",
        ]),
    },
    Block {
        name: "king.safe_check",
        start: SAFE_CHECK,
        len: 4,
        labels: Labels::List(&["knight", "bishop", "rook", "queen"]),
    },
    Block {
        name: "king.danger",
        start: KING_DANGER,
        len: KING_DANGER_LEN,
        labels: Labels::Numbers,
    },
    Block {
        name: "passed.blocked",
        start: PASSED_BLOCKED,
        len: 6,
        labels: Labels::List(RANKS),
    },
    Block {
        name: "passed.free",
        start: PASSED_FREE,
        len: 6,
        labels: Labels::List(RANKS),
    },
    Block {
        name: "pieces.outpost",
        start: OUTPOST,
        len: 2,
        labels: Labels::List(&["knight", "bishop"]),
    },
    Block {
        name: "pawns.backward",
        start: BACKWARD,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "king.shelter",
        start: SHELTER,
        len: 28,
        labels: Labels::Grid(EDGES, GAPS),
    },
    Block {
        name: "king.storm",
        start: STORM,
        len: 56,
        labels: Labels::Grid(STORM_ROWS, GAPS),
    },
    Block {
        name: "passed.king",
        start: PASSED_KING,
        len: 12,
        labels: Labels::Grid(&["own", "enemy"], RANKS),
    },
    Block {
        name: "pieces.seventh",
        start: SEVENTH,
        len: 2,
        labels: Labels::List(&["rook", "queen"]),
    },
    Block {
        name: "pieces.bishop_pawns",
        start: BISHOP_PAWNS,
        len: 2,
        labels: Labels::List(&["same_colour", "rammed"]),
    },
    Block {
        name: "pieces.minor_behind_pawn",
        start: MINOR_BEHIND_PAWN,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "king.pawn_distance",
        start: KING_PAWN_DISTANCE,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "threat.hanging",
        start: HANGING,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "king.weak_zone",
        start: WEAK_ZONE,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "pieces.space",
        start: SPACE,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "passed.rook_behind",
        start: ROOK_BEHIND_PASSER,
        len: 2,
        labels: Labels::List(&["own", "enemy"]),
    },
    Block {
        name: "king.pawnless_flank",
        start: PAWNLESS_FLANK,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "king.attack_danger",
        start: ATTACK_DANGER,
        len: 2,
        labels: Labels::List(&["quadratic", "linear"]),
    },
    Block {
        name: "pieces.restricted",
        start: RESTRICTED,
        len: 2,
        labels: Labels::List(&["piece", "empty"]),
    },
    Block {
        name: "pieces.centre",
        start: CENTRE_CONTROL,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "threat.overloaded",
        start: OVERLOADED,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "pieces.long_diagonal",
        start: LONG_DIAGONAL,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "pieces.siberia",
        start: SIBERIA,
        len: 4,
        labels: Labels::List(&["dist4", "dist5", "dist6", "dist7"]),
    },
    Block {
        name: "passed.safe_path",
        start: SAFE_PATH,
        len: 1,
        labels: Labels::Single,
    },
    Block {
        name: "pawns.candidate",
        start: CANDIDATE,
        len: 12,
        labels: Labels::Grid(&["outnumbered", "supported"], RANKS),
    },
];

/// Rows of the shelter table: the file's distance from the board's edge.
const EDGES: &[&str] = &["edge0", "edge1", "edge2", "edge3"];
/// Rows of the storm table: the shelter's rows, then the same for a blocked enemy pawn.
const STORM_ROWS: &[&str] = &[
    "edge0",
    "edge1",
    "edge2",
    "edge3",
    "blocked.edge0",
    "blocked.edge1",
    "blocked.edge2",
    "blocked.edge3",
];
/// Columns of the shelter and storm tables: the pawn's distance in ranks from the king.
const GAPS: &[&str] = &["none", "rank1", "rank2", "rank3", "rank4", "rank5", "rank6"];

/// The block holding weight `i`.
fn block_of(i: usize) -> &'static Block {
    BLOCKS
        .iter()
        .find(|b| i >= b.start && i < b.start + b.len)
        .unwrap_or_else(|| panic!("parameter index {i} out of range 0..{LEN}"))
}

/// Algebraic name of square index 0..64 (a1 = 0).
pub fn square_name(sq: usize) -> String {
    let file = (b'a' + (sq % 8) as u8) as char;
    format!("{}{}", file, sq / 8 + 1)
}

/// Every evaluation weight, as packed (mg, eg) pairs; `Default` gives the compiled-in defaults.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Params {
    pub(super) w: [S; LEN],
}

impl Default for Params {
    fn default() -> Params {
        // `defaults.rs` spells its length out (it imports nothing of the layout): a file
        // generated for another layout fails to compile here.
        Params { w: DEFAULT_WEIGHTS }
    }
}

impl Params {
    /// Number of weights.
    pub const fn len() -> usize {
        LEN
    }

    /// A flat copy of the weights; index `i` is the index used by `Trace` and `name(i)`.
    pub fn weights(&self) -> Vec<S> {
        self.w.to_vec()
    }

    /// The flat weights as a slice (no copy).
    pub fn as_slice(&self) -> &[S] {
        &self.w
    }

    /// Builds params from a flat weight list; panics unless `w.len() == Params::len()`
    /// (a length mismatch is a programming error, not bad input).
    pub fn from_weights(w: &[S]) -> Params {
        assert_eq!(w.len(), LEN, "Params::from_weights needs {LEN} weights");
        let mut p = Params { w: [S::ZERO; LEN] };
        p.w.copy_from_slice(w);
        p
    }

    /// The weight at index `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> S {
        self.w[i]
    }

    /// Sets the weight at index `i`.
    pub fn set(&mut self, i: usize, s: S) {
        self.w[i] = s;
    }

    /// The stable name of weight `i`, e.g. `material.knight`, `pst.knight.e4`, `passed.rank5`.
    pub fn name(i: usize) -> String {
        let b = block_of(i);
        let j = i - b.start;
        match b.labels {
            Labels::Single => b.name.to_string(),
            Labels::List(l) => format!("{}.{}", b.name, l[j]),
            Labels::Squares => format!("{}.{}", b.name, square_name(j)),
            Labels::Numbers => format!("{}.{}", b.name, j),
            Labels::Grid(rows, cols) => {
                format!(
                    "{}.{}.{}",
                    b.name,
                    rows[j / cols.len()],
                    cols[j % cols.len()]
                )
            }
        }
    }

    /// The group of weight `i`: its name before the first '.' (e.g. `pst`, `king`, `tempo`).
    pub fn group(i: usize) -> &'static str {
        let name = block_of(i).name;
        name.split('.').next().unwrap_or(name)
    }

    /// The block of weight `i`: its name without the label (e.g. `pst.knight`, `king.danger`).
    pub fn block(i: usize) -> &'static str {
        block_of(i).name
    }

    /// The index of the weight with this name, if any.
    pub fn index_of(name: &str) -> Option<usize> {
        (0..LEN).find(|&i| Params::name(i) == name)
    }

    /// Classic material only (100/300/300/500/900 in both phases), every other weight zero:
    /// a neutral starting point for tuning from scratch.
    pub fn material_only() -> Params {
        let mut p = Params { w: [S::ZERO; LEN] };
        for (k, v) in [100, 300, 300, 500, 900].into_iter().enumerate() {
            p.w[MATERIAL + k] = S::new(v, v);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn blocks_cover_all_indices_in_order() {
        let mut next = 0;
        for b in BLOCKS {
            assert_eq!(b.start, next, "block {} starts at the wrong index", b.name);
            match b.labels {
                Labels::List(l) => assert_eq!(l.len(), b.len, "{}: label count", b.name),
                Labels::Grid(r, c) => assert_eq!(r.len() * c.len(), b.len, "{}: grid", b.name),
                _ => {}
            }
            next += b.len;
        }
        assert_eq!(next, LEN);
    }

    #[test]
    fn names_are_unique_and_indexable() {
        let names: Vec<String> = (0..LEN).map(Params::name).collect();
        let set: HashSet<&String> = names.iter().collect();
        assert_eq!(set.len(), LEN, "duplicate parameter names");
        assert_eq!(Params::name(MATERIAL + 1), "material.knight");
        assert_eq!(Params::name(PST + 64 + 28), "pst.knight.e4");
        assert_eq!(Params::name(PASSED + 3), "passed.rank5");
        assert_eq!(Params::name(TEMPO), "tempo");
        assert_eq!(Params::name(KING_ATTACK + 3), "king.attack.queen");
        assert_eq!(Params::group(KING_ATTACK + 3), "king");
        assert_eq!(Params::group(PST + 5), "pst");
        assert_eq!(Params::index_of("mobility.rook.7"), Some(MOB_ROOK + 7));
        const { assert!(LEN > 450, "expected several hundred weights") };
    }

    #[test]
    fn weights_round_trip() {
        let d = Params::default();
        assert_eq!(Params::from_weights(&d.weights()), d);
        let mut w = d.weights();
        w[7] = S::new(-3, 11);
        let p = Params::from_weights(&w);
        assert_eq!(p.get(7), S::new(-3, 11));
        assert_eq!(p.weights(), w);
        let m = Params::material_only();
        assert_eq!(m.get(MATERIAL + 4), S::new(900, 900));
        assert_eq!(m.get(TEMPO), S::ZERO);
    }
}
