//! Zobrist hashing keys, generated at compile time from a fixed seed (splitmix64).

use crate::types::{CastlingRights, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// All keys: 12 x 64 piece-square keys, then side, 16 castling-rights keys, 8 en passant files,
/// then per colour and file a key for a castling rook on a non-standard file (Chess960; drawn
/// last so the standard keys are what they always were).
struct Keys {
    piece_square: [[u64; 64]; 12],
    side: u64,
    castling: [u64; 16],
    en_passant: [u64; 8],
    castling_file: [[u64; 8]; 2],
}

const fn build() -> Keys {
    let mut state = 0x51ab_1e5a_b1e5_ab1e;
    let mut keys = Keys {
        piece_square: [[0; 64]; 12],
        side: 0,
        castling: [0; 16],
        en_passant: [0; 8],
        castling_file: [[0; 8]; 2],
    };
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            let (ns, k) = splitmix(state);
            state = ns;
            keys.piece_square[p][s] = k;
            s += 1;
        }
        p += 1;
    }
    let (ns, k) = splitmix(state);
    state = ns;
    keys.side = k;
    // Castling keys are the xor of one key per right, so that removing one right is one xor.
    let mut rights = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (ns, k) = splitmix(state);
        state = ns;
        rights[i] = k;
        i += 1;
    }
    let mut c = 0;
    while c < 16 {
        let mut bit = 0;
        while bit < 4 {
            if c >> bit & 1 != 0 {
                keys.castling[c] ^= rights[bit];
            }
            bit += 1;
        }
        c += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (ns, k) = splitmix(state);
        state = ns;
        keys.en_passant[f] = k;
        f += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut f = 0;
        while f < 8 {
            let (ns, k) = splitmix(state);
            state = ns;
            keys.castling_file[c][f] = k;
            f += 1;
        }
        c += 1;
    }
    keys
}

static KEYS: Keys = build();

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    KEYS.piece_square[piece.index()][sq.index()]
}

/// Key xored in when Black is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}

/// Key of a set of castling rights.
#[inline(always)]
pub fn castling(rights: CastlingRights) -> u64 {
    KEYS.castling[rights.index()]
}

/// Key xored into a castling right's key when its rook starts on `file` of colour `color`
/// (0 White, 1 Black) and that is not the standard a- or h-file.
#[inline(always)]
pub fn castling_file(color: usize, file: u8) -> u64 {
    KEYS.castling_file[color & 1][file as usize & 7]
}

/// Key of an en passant square's file.
#[inline(always)]
pub fn en_passant(sq: Square) -> u64 {
    KEYS.en_passant[sq.file() as usize]
}
