//! Transposition table: Zobrist-keyed buckets of three entries, depth-preferred replacement with
//! ageing, storing bound, depth, score, static eval and best move.

use super::score::{from_tt, to_tt};
use crate::memory::huge_page_vec;
use crate::types::Move;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No entry (an empty slot).
    None = 0,
    /// The true score is at most this (fail-low: no move raised alpha).
    Upper = 1,
    /// The true score is at least this (fail-high: a beta cut-off).
    Lower = 2,
    /// The exact score (a PV node).
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u8) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// One stored entry, 10 bytes.
#[derive(Clone, Copy, Default)]
struct Entry {
    key16: u16,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Generation in the high six bits, bound in the low two.
    gen_bound: u8,
}

impl Entry {
    fn generation(&self) -> u8 {
        self.gen_bound >> 2
    }
    fn bound(&self) -> Bound {
        Bound::from_bits(self.gen_bound)
    }
}

/// Three entries in 32 bytes, so a bucket shares one cache line with its neighbour.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Bucket {
    entries: [Entry; 3],
    _pad: u16,
}

/// A probe hit, with the score already converted back to "plies from this node".
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// Best (or refutation) move, `Move::NULL` if none.
    pub mv: Move,
    /// Score relative to the probing node's ply.
    pub score: i32,
    /// Static evaluation stored with the entry.
    pub eval: i32,
    /// Search depth of the stored score.
    pub depth: i32,
    /// Bound type of the stored score.
    pub bound: Bound,
}

/// The table. Single-threaded (the engine runs one search thread).
pub struct TranspositionTable {
    /// The buckets, after `start` padding buckets that align them to a huge page.
    storage: Vec<Bucket>,
    start: usize,
    generation: u8,
}

/// Depths are stored biased so that qsearch entries (depth 0 and below) fit in a u8.
const DEPTH_BIAS: i32 = 8;

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let mut storage = huge_page_vec(n, Bucket::default());
        let start = storage.len();
        storage.resize(start + n, Bucket::default());
        TranspositionTable {
            storage,
            start,
            generation: 0,
        }
    }

    fn buckets(&self) -> &[Bucket] {
        &self.storage[self.start..]
    }

    fn buckets_mut(&mut self) -> &mut [Bucket] {
        &mut self.storage[self.start..]
    }

    /// Forget everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.buckets_mut()
            .iter_mut()
            .for_each(|b| *b = Bucket::default());
        self.generation = 0;
    }

    /// Start a new search: entries from older searches become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-high maps the key's high bits uniformly onto the bucket count.
        ((key as u128 * self.buckets().len() as u128) >> 64) as usize
    }

    /// The bucket `key` maps to.
    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets()[self.index(key)]
    }

    /// Ask the CPU to start loading `key`'s bucket, so that the probe a little later finds it
    /// in cache instead of waiting on main memory (the probe is the search's largest stall).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is a hint that never faults and changes no memory; SSE, which
            // it needs, is part of every x86-64 CPU.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored. `ply` converts mate scores back to this node.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let key16 = key as u16;
        self.bucket(key)
            .entries
            .iter()
            .find(|e| e.key16 == key16 && e.bound() != Bound::None)
            .map(|e| TtHit {
                mv: Move::from_raw(e.mv),
                score: from_tt(e.score as i32, ply),
                eval: e.eval as i32,
                depth: e.depth as i32 - DEPTH_BIAS,
                bound: e.bound(),
            })
    }

    /// Store a result. Replaces the same position's entry (keeping its move when we have none),
    /// otherwise the shallowest, oldest entry of the bucket.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let key16 = key as u16;
        let gen = self.generation;
        let idx = self.index(key);
        let bucket = &mut self.buckets_mut()[idx];
        let slot = match bucket.entries.iter().position(|e| e.key16 == key16) {
            Some(i) => i,
            None => {
                let value = |e: &Entry| {
                    let age = (gen.wrapping_sub(e.generation()) & 63) as i32;
                    if e.bound() == Bound::None {
                        i32::MIN
                    } else {
                        e.depth as i32 - 4 * age
                    }
                };
                (0..3)
                    .min_by_key(|&i| value(&bucket.entries[i]))
                    .unwrap_or(0)
            }
        };
        let e = &mut bucket.entries[slot];
        let same = e.key16 == key16 && e.bound() != Bound::None;
        let stored_depth = (depth + DEPTH_BIAS).clamp(0, 255);
        // Keep a deeper entry of this search unless the new one is exact.
        if same
            && bound != Bound::Exact
            && e.generation() == gen
            && (e.depth as i32) > stored_depth + 3
        {
            return;
        }
        let mv = if mv.is_null() && same {
            Move::from_raw(e.mv)
        } else {
            mv
        };
        *e = Entry {
            key16,
            mv: mv.raw(),
            score: to_tt(score, ply) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: stored_depth as u8,
            gen_bound: (gen << 2) | bound as u8,
        };
    }

    /// Per-mille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets().len().min(334);
        let used: usize = self.buckets()[..sample]
            .iter()
            .map(|b| {
                b.entries
                    .iter()
                    .filter(|e| e.bound() != Bound::None && e.generation() == self.generation)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * 3)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;
    use crate::types::Square;

    #[test]
    fn buckets_start_on_a_huge_page_boundary() {
        let mut tt = TranspositionTable::new(3);
        assert_eq!(tt.buckets().len(), 3 * 1024 * 1024 / 32);
        assert_eq!(tt.buckets().as_ptr() as usize % crate::memory::HUGE_PAGE, 0);
        assert!(tt
            .buckets()
            .iter()
            .all(|b| b.entries.iter().all(|e| e.gen_bound == 0)));
        tt.store(42, 0, Move::NULL, 5, 7, 3, Bound::Exact);
        assert_eq!(tt.probe(42, 0).map(|h| h.eval), Some(7));
    }

    #[test]
    fn bucket_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
    }

    #[test]
    fn store_then_probe_round_trips() {
        let mut tt = TranspositionTable::new(1);
        let mv = Move::new(Square::E2, Square::E4);
        tt.store(0xdead_beef_1234_5678, 3, mv, 42, -7, 5, Bound::Lower);
        let hit = tt.probe(0xdead_beef_1234_5678, 3).expect("stored");
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (mv, 42, -7, 5, Bound::Lower)
        );
        assert!(tt.probe(0x1111_2222_3333_4444, 3).is_none());
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1);
        // Mate found 10 plies below the root, seen from a node at ply 4: mate in 6 from there.
        tt.store(99, 4, Move::NULL, MATE - 10, 0, 3, Bound::Exact);
        // The same position reached at ply 2 is mate in 8 from the root.
        assert_eq!(tt.probe(99, 2).unwrap().score, MATE - 8);
        tt.store(98, 4, Move::NULL, -(MATE - 10), 0, 3, Bound::Exact);
        assert_eq!(tt.probe(98, 6).unwrap().score, -(MATE - 12));
    }

    #[test]
    fn hashfull_counts_this_search_only_and_clear_empties() {
        let mut tt = TranspositionTable::new(1);
        for k in 0..100_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.store(key, 0, Move::NULL, 0, 0, 1, Bound::Exact);
        }
        assert!(tt.hashfull() > 500, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert!(tt.probe(0, 0).is_none());
    }

    #[test]
    fn deeper_entries_survive_shallow_ones() {
        let mut tt = TranspositionTable::new(1);
        // Four different keys mapping to one bucket: the deep one must survive.
        let n = tt.buckets().len() as u128;
        let base = 12345u64;
        let idx = tt.index(base);
        let mut keys = vec![base];
        let mut k = base;
        while keys.len() < 4 {
            k = k.wrapping_add((1 << 16) + 1);
            if ((k as u128 * n) >> 64) as usize == idx {
                keys.push(k);
            }
            if keys.len() < 4 && k > base + (1 << 40) {
                break;
            }
        }
        tt.store(keys[0], 0, Move::NULL, 1, 0, 20, Bound::Exact);
        for &k in &keys[1..] {
            tt.store(k, 0, Move::NULL, 2, 0, 1, Bound::Exact);
        }
        assert_eq!(tt.probe(keys[0], 0).map(|h| h.depth), Some(20));
    }
}
