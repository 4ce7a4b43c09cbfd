//! Ray geometry on an empty or occupied board, walked square by square: the queen directions,
//! the rays they trace, and the slow reference slider attacks. The attack tables of `attacks`
//! and the magic tables of `magics` are built from these (and tested against them), so this is
//! the leaf both depend on.

use crate::types::{Bitboard, Square};

/// The eight queen directions as (file, rank) steps.
pub(super) const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// Squares reached from `sq` stepping by `dir` on an empty board (excluding `sq`).
pub(super) const fn ray(sq: usize, dir: (i8, i8)) -> u64 {
    let mut bb = 0u64;
    let (mut f, mut r) = ((sq % 8) as i8 + dir.0, (sq / 8) as i8 + dir.1);
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        bb |= 1u64 << (r * 8 + f);
        f += dir.0;
        r += dir.1;
    }
    bb
}

/// Slider attacks computed by walking the rays (slow; used to build and test the magic tables).
pub(super) fn slider_slow(sq: Square, occupied: Bitboard, diagonal: bool) -> Bitboard {
    let dirs = if diagonal {
        &DIRECTIONS[4..]
    } else {
        &DIRECTIONS[..4]
    };
    let mut bb = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let s = (r * 8 + f) as u64;
            bb |= 1 << s;
            if occupied.0 >> s & 1 != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    Bitboard(bb)
}
