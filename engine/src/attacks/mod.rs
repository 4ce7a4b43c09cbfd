//! Attack sets: precomputed knight, king and pawn tables (built at compile time), magic-bitboard
//! slider lookups (tables built once at first use), and the between/line tables used for pins
//! and check evasions.
//!
//! A leaf under everything that asks "what does this piece attack": `board` (checkers, pins,
//! castling paths), `movegen`, `eval` and the search's SEE. It knows only `types` (and `rng`,
//! for the fallback magic search), never the board, so no module above it is imported back.

mod magics;
mod rays;

pub use magics::init;
use rays::{ray, DIRECTIONS};

use crate::types::{Bitboard, Color, PieceType, Square};

const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// BETWEEN[a][b]: squares strictly between a and b when they share a line; LINE[a][b]: the whole
/// board-edge-to-edge line through both (empty when not aligned).
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let dir = DIRECTIONS[d];
            let forward = ray(a, dir);
            let backward = ray(a, (-dir.0, -dir.1));
            let full = forward | backward | 1u64 << a;
            // Walk the ray, accumulating the squares passed so far.
            let mut passed = 0u64;
            let (mut f, mut r) = ((a % 8) as i8 + dir.0, (a / 8) as i8 + dir.1);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = passed;
                line[a][b] = full;
                passed |= 1u64 << b;
                f += dir.0;
                r += dir.1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares attacked by a pawn of `color` standing on `sq`.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares attacked by any of the `pawns` of `color` (a set-wise shift, no table).
#[inline(always)]
pub fn pawns(color: Color, pawns: Bitboard) -> Bitboard {
    let west = pawns.0 & !Bitboard::FILE_A.0;
    let east = pawns.0 & !Bitboard::FILE_H.0;
    Bitboard(match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    })
}

/// Squares a bishop on `sq` attacks given the `occupied` squares (blockers included).
#[inline(always)]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    magics::bishop_attacks(sq, occupied)
}

/// Squares a rook on `sq` attacks given the `occupied` squares (blockers included).
#[inline(always)]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    magics::rook_attacks(sq, occupied)
}

/// Squares a queen on `sq` attacks given the `occupied` squares.
#[inline(always)]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop(sq, occupied) | rook(sq, occupied)
}

/// Squares attacked by a piece of `kind` (and `color`, for pawns) on `sq`.
#[inline]
pub fn piece(kind: PieceType, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceType::Pawn => pawn(color, sq),
        PieceType::Knight => knight(sq),
        PieceType::Bishop => bishop(sq, occupied),
        PieceType::Rook => rook(sq, occupied),
        PieceType::Queen => queen(sq, occupied),
        PieceType::King => king(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The full line (edge to edge) through `a` and `b` if aligned; empty otherwise.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}
