//! Magic bitboards for rook and bishop attacks.
//!
//! The magic multipliers are found once, at first use, by a fixed-seed random search (a few
//! milliseconds), then every lookup is a mask, a multiply, a shift and one table read.

use super::attacks::slider_slow;
use crate::types::{Bitboard, Square};
use std::sync::OnceLock;

/// One square's magic: relevant-occupancy mask, multiplier, shift and offset into the shared table.
#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

struct Tables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: Vec<u64>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

#[inline(always)]
fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

#[inline(always)]
fn lookup(t: &Tables, m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // The index is below 2^(64-shift) by construction, so it stays inside this square's slice.
    Bitboard(t.attacks[m.offset as usize + idx])
}

/// Rook attacks from `sq` with blockers `occupied`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = tables();
    lookup(t, &t.rook[sq.index()], occupied)
}

/// Bishop attacks from `sq` with blockers `occupied`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = tables();
    lookup(t, &t.bishop[sq.index()], occupied)
}

/// Forces the tables to be built now (so timing of the first search or perft excludes it).
pub fn init() {
    tables();
}

/// xorshift64*: small, fast, and deterministic for a fixed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Few bits set: good magic candidates.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// The squares whose occupancy matters for a slider on `sq`: the rays without their last square.
fn relevant_mask(sq: Square, diagonal: bool) -> u64 {
    let edges = ((Bitboard::RANK_1 | Bitboard::RANK_8) - Bitboard::rank(sq.rank()))
        | ((Bitboard::FILE_A | Bitboard::FILE_H) - Bitboard::file(sq.file()));
    (slider_slow(sq, Bitboard::EMPTY, diagonal) - edges).0
}

fn find_magic(sq: Square, diagonal: bool, rng: &mut Rng, attacks: &mut Vec<u64>) -> Magic {
    let mask = relevant_mask(sq, diagonal);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    // Enumerate all subsets of the mask (carry-rippler) with their true attack sets.
    let mut occs = Vec::with_capacity(size);
    let mut refs = Vec::with_capacity(size);
    let mut sub = 0u64;
    loop {
        occs.push(sub);
        refs.push(slider_slow(sq, Bitboard(sub), diagonal).0);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let shift = 64 - bits;
    let mut table = vec![0u64; size];
    let mut epoch = vec![0u32; size];
    let mut tries = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        tries += 1;
        let mut ok = true;
        for (occ, att) in occs.iter().zip(&refs) {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[idx] != tries {
                epoch[idx] = tries;
                table[idx] = *att;
            } else if table[idx] != *att {
                ok = false;
                break;
            }
        }
        if ok {
            let offset = attacks.len() as u32;
            attacks.extend_from_slice(&table);
            return Magic {
                mask,
                magic,
                shift,
                offset,
            };
        }
    }
}

fn build() -> Tables {
    let mut rng = Rng(0x5ab1_e000_c0ff_ee11);
    let mut attacks = Vec::with_capacity(102_400 + 5_248);
    let mut rook = [Magic::default(); 64];
    let mut bishop = [Magic::default(); 64];
    for sq in Square::ALL {
        rook[sq.index()] = find_magic(sq, false, &mut rng, &mut attacks);
    }
    for sq in Square::ALL {
        bishop[sq.index()] = find_magic(sq, true, &mut rng, &mut attacks);
    }
    Tables {
        rook,
        bishop,
        attacks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_ray_walks_on_random_occupancies() {
        let mut rng = Rng(12345);
        for _ in 0..20_000 {
            let occ = Bitboard(rng.next() & rng.next());
            let sq = Square::from_index((rng.next() % 64) as usize);
            assert_eq!(rook_attacks(sq, occ), slider_slow(sq, occ, false));
            assert_eq!(bishop_attacks(sq, occ), slider_slow(sq, occ, true));
        }
    }
}
