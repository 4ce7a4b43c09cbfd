//! Magic bitboards for rook and bishop attacks.
//!
//! The magic multipliers were found by a fixed-seed random search (`find_magic`, printed by the
//! ignored `print_magics` test) and are stored below; the attack table is filled once at first
//! use (about a millisecond). Every lookup is a mask, a multiply, a shift and one table read.

use super::rays::slider_slow;
use crate::rng::Rng;
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

/// Rook magics found by `find_magic` with the seed in `build` (see the `print_magics` test).
#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x0c80008020534000, 0x4040001000402000, 0x0880200008801000, 0xa080048010000800,
    0x8300100a25000800, 0x1880020001240080, 0x0c80008001000200, 0x2080003841000080,
    0x0011800021804005, 0x0a80404010002000, 0x0000801000200085, 0x00010010000d0020,
    0x0005000801001004, 0x9006001002000408, 0x0080800200010080, 0x0202000110840042,
    0x0040008000802058, 0xc400404010002000, 0x800c410011002004, 0x0148090020100100,
    0x8010050008010010, 0x0404008080020004, 0x0090040010480182, 0x0041020000408401,
    0x2080004040002000, 0x4000200a40100040, 0x2000441100200100, 0x0800100100200900,
    0x00d4040080800800, 0x0012040080800200, 0x0000900400010258, 0x1001040200008869,
    0x6080002000404000, 0x0101442002c01000, 0x2122220046001480, 0x240022000a004010,
    0x0004040080800800, 0x8000401008010420, 0x2018020104001008, 0x2202004402002081,
    0x2000400080008024, 0x0101400301830024, 0x2002008040120028, 0x0041000810010024,
    0xa400040008008080, 0x0c00040002008080, 0x88000811060c00b0, 0x0404045900820004,
    0x0000204080010100, 0x0010002000400240, 0x8408184020010100, 0x2010080080100080,
    0x000c810800040080, 0x1024800200040080, 0x0040090230080c00, 0x806080050020c280,
    0x120010c680a10202, 0x08c0010880201441, 0x0132104280082202, 0x3010100008050021,
    0x1801000204080011, 0x002a000408b00122, 0xc00080901825020c, 0x0000010044002082,
];

/// Bishop magics, found the same way.
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0x1420024409040018, 0x00021808008c9000, 0x4010808609401000, 0x070808410c400048,
    0x84111040c8080000, 0x0000822120002883, 0x0104049410280086, 0x0402802390142001,
    0x0500081010008120, 0x2400281801040022, 0x1000080820448050, 0x0400680481006080,
    0x3200440420610000, 0x040810900421000c, 0x0000020202024080, 0x0011082082082040,
    0x0604208810a40840, 0x0110140809052422, 0x0004024084001040, 0x0008000420449000,
    0x8482004412020400, 0x100a005100808440, 0x2a34030129011000, 0x2101030480a82100,
    0x0020086044881848, 0x4110100008011100, 0x206a020001180604, 0x0001080009004100,
    0x0800840002020200, 0x0000820001080a10, 0x0180892040880804, 0x901705000200450a,
    0x0210880800200280, 0x100410a208080208, 0x0402090100b01040, 0x0fc1042008240100,
    0x0124040400001010, 0x0824049080080801, 0x001002304022010a, 0x40020e0049420042,
    0x0008015008021022, 0x0644049a10000800, 0x0020082804100802, 0x0000004022021020,
    0x0000401008820102, 0x0002021001000208, 0x0002088a04001198, 0x8006880700200108,
    0x80c9008290410804, 0x0008404404202005, 0x8001204208041014, 0x00880a4042020013,
    0x0200204004884018, 0x0100442048024021, 0x103020822422400a, 0x0850011204084c00,
    0x0a0580440a014000, 0x011b008404020206, 0x8109080204822101, 0xa600100000420200,
    0x3001683010020220, 0x004300600c108682, 0x1080040850010201, 0x9058913822004200,
];

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

/// Random numbers with few bits set: good magic candidates.
trait Sparse {
    fn sparse(&mut self) -> u64;
}

impl Sparse for Rng {
    /// Few bits set: good magic candidates.
    fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }
}

/// The squares whose occupancy matters for a slider on `sq`: the rays without their last square.
fn relevant_mask(sq: Square, diagonal: bool) -> u64 {
    let edges = ((Bitboard::RANK_1 | Bitboard::RANK_8) - Bitboard::rank(sq.rank()))
        | ((Bitboard::FILE_A | Bitboard::FILE_H) - Bitboard::file(sq.file()));
    (slider_slow(sq, Bitboard::EMPTY, diagonal) - edges).0
}

/// All occupancies of the relevant squares with their true attack sets.
fn occupancies(sq: Square, mask: u64, diagonal: bool) -> (Vec<u64>, Vec<u64>) {
    let size = 1usize << mask.count_ones();
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
    (occs, refs)
}

/// Fills the table for a known magic; `None` if it does not work for this square.
fn try_magic(sq: Square, diagonal: bool, magic: u64, attacks: &mut Vec<u64>) -> Option<Magic> {
    let mask = relevant_mask(sq, diagonal);
    let shift = 64 - mask.count_ones();
    let (occs, refs) = occupancies(sq, mask, diagonal);
    let mut table = vec![None; occs.len()];
    for (occ, att) in occs.iter().zip(&refs) {
        let idx = (occ.wrapping_mul(magic) >> shift) as usize;
        match table[idx] {
            None => table[idx] = Some(*att),
            Some(a) if a == *att => {}
            Some(_) => return None,
        }
    }
    let offset = attacks.len() as u32;
    attacks.extend(table.iter().map(|a| a.unwrap_or(0)));
    Some(Magic {
        mask,
        magic,
        shift,
        offset,
    })
}

/// Searches a magic for `sq` with sparse random candidates.
fn find_magic(sq: Square, diagonal: bool, rng: &mut Rng, attacks: &mut Vec<u64>) -> Magic {
    let mask = relevant_mask(sq, diagonal);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    let (occs, refs) = occupancies(sq, mask, diagonal);
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
    let mut rng = Rng::new(0x5ab1_e000_c0ff_ee11);
    let mut attacks = Vec::with_capacity(102_400 + 5_248);
    let mut rook = [Magic::default(); 64];
    let mut bishop = [Magic::default(); 64];
    // The stored magics always work; the search is only a fallback should they be edited.
    for sq in Square::ALL {
        rook[sq.index()] = try_magic(sq, false, ROOK_MAGICS[sq.index()], &mut attacks)
            .unwrap_or_else(|| find_magic(sq, false, &mut rng, &mut attacks));
    }
    for sq in Square::ALL {
        bishop[sq.index()] = try_magic(sq, true, BISHOP_MAGICS[sq.index()], &mut attacks)
            .unwrap_or_else(|| find_magic(sq, true, &mut rng, &mut attacks));
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
    fn stored_magics_are_valid_and_the_search_finds_working_ones() {
        let mut attacks = Vec::new();
        for sq in Square::ALL {
            assert!(try_magic(sq, false, ROOK_MAGICS[sq.index()], &mut attacks).is_some());
            assert!(try_magic(sq, true, BISHOP_MAGICS[sq.index()], &mut attacks).is_some());
        }
        assert_eq!(attacks.len(), 102_400 + 5_248);
        let mut rng = Rng::new(3);
        let m = find_magic(Square::D4, true, &mut rng, &mut Vec::new());
        assert!(try_magic(Square::D4, true, m.magic, &mut Vec::new()).is_some());
    }

    #[test]
    fn magic_lookups_match_ray_walks_on_random_occupancies() {
        let mut rng = Rng::new(12345);
        for _ in 0..20_000 {
            let occ = Bitboard(rng.next_u64() & rng.next_u64());
            let sq = Square::from_index((rng.next_u64() % 64) as usize);
            assert_eq!(rook_attacks(sq, occ), slider_slow(sq, occ, false));
            assert_eq!(bishop_attacks(sq, occ), slider_slow(sq, occ, true));
        }
    }
}
