//! Transposition table: Zobrist-keyed buckets of three entries, depth-preferred replacement with
//! ageing, storing bound, depth, score, static eval and best move.
//!
//! The table is shared by every search thread (Lazy SMP) without locks: each entry is a 16-bit
//! key check in one atomic and everything else packed into one 64-bit atomic, read and written
//! with relaxed ordering. Two threads writing one slot at once can leave one thread's key with
//! the other's data; a probe then returns a plausible entry of another position, which the
//! search already tolerates from key collisions (the move is validated before it is played).

use super::score::{from_tt, is_decisive, to_tt};
use crate::memory::huge_page_vec;
use crate::types::Move;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

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

/// One entry's data, unpacked: everything but the key check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
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

    /// The entry as one word: move, score, eval, depth, generation-and-bound from the low bits.
    #[inline]
    fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.gen_bound as u64) << 56
    }

    #[inline]
    fn unpack(w: u64) -> Entry {
        Entry {
            mv: w as u16,
            score: (w >> 16) as u16 as i16,
            eval: (w >> 32) as u16 as i16,
            depth: (w >> 48) as u8,
            gen_bound: (w >> 56) as u8,
        }
    }
}

/// Three entries in 32 bytes, so a bucket shares one cache line with its neighbour: the three
/// data words, then the three key checks.
#[derive(Default)]
#[repr(C, align(32))]
struct Bucket {
    data: [AtomicU64; 3],
    keys: [AtomicU16; 3],
    _pad: u16,
}

impl Clone for Bucket {
    fn clone(&self) -> Bucket {
        Bucket {
            data: std::array::from_fn(|i| AtomicU64::new(self.data[i].load(Relaxed))),
            keys: std::array::from_fn(|i| AtomicU16::new(self.keys[i].load(Relaxed))),
            _pad: 0,
        }
    }
}

impl Bucket {
    #[inline]
    fn key(&self, i: usize) -> u16 {
        self.keys[i].load(Relaxed)
    }

    #[inline]
    fn entry(&self, i: usize) -> Entry {
        Entry::unpack(self.data[i].load(Relaxed))
    }

    #[inline]
    fn write(&self, i: usize, key16: u16, e: Entry) {
        self.data[i].store(e.pack(), Relaxed);
        self.keys[i].store(key16, Relaxed);
    }
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

impl TtHit {
    /// `static_eval` moved to this entry's score where its bound says the true score lies
    /// beyond it on that side (an exact score always); a decisive score is not used.
    pub fn sharpen(&self, static_eval: i32) -> i32 {
        let tighter = match self.bound {
            Bound::Lower => self.score > static_eval,
            Bound::Upper => self.score < static_eval,
            Bound::Exact => true,
            Bound::None => false,
        };
        if tighter && !is_decisive(self.score) {
            self.score
        } else {
            static_eval
        }
    }
}

/// The table, shared by the search threads through an `Arc`: every method takes `&self`.
pub struct TranspositionTable {
    /// The buckets, after `start` padding buckets that align them to a huge page.
    storage: Vec<Bucket>,
    start: usize,
    generation: AtomicU8,
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
            generation: AtomicU8::new(0),
        }
    }

    fn buckets(&self) -> &[Bucket] {
        &self.storage[self.start..]
    }

    /// Forget everything (`ucinewgame`). Only while no search runs.
    pub fn clear(&self) {
        for b in self.buckets() {
            for i in 0..3 {
                b.write(i, 0, Entry::default());
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// Start a new search: entries from older searches become preferred victims. Only the
    /// main search thread calls it, before the helpers start.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) & 63, Relaxed);
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
        let bucket = self.bucket(key);
        (0..3)
            .filter(|&i| bucket.key(i) == key16)
            .map(|i| bucket.entry(i))
            .find(|e| e.bound() != Bound::None)
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
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let key16 = key as u16;
        let gen = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let slot = match (0..3).find(|&i| bucket.key(i) == key16) {
            Some(i) => i,
            None => {
                let value = |i: usize| {
                    let e = bucket.entry(i);
                    let age = (gen.wrapping_sub(e.generation()) & 63) as i32;
                    if e.bound() == Bound::None {
                        i32::MIN
                    } else {
                        e.depth as i32 - 4 * age
                    }
                };
                (0..3).min_by_key(|&i| value(i)).unwrap_or(0)
            }
        };
        let e = bucket.entry(slot);
        let same = bucket.key(slot) == key16 && e.bound() != Bound::None;
        let stored_depth = (depth + DEPTH_BIAS).clamp(0, 255);
        // Keep a deeper entry of this search unless the new one is exact.
        if same
            && bound != Bound::Exact
            && e.generation() == gen
            && (e.depth as i32) > stored_depth + 3
        {
            return;
        }
        let mv = if mv.is_null() && same { e.mv } else { mv.raw() };
        bucket.write(
            slot,
            key16,
            Entry {
                mv,
                score: to_tt(score, ply) as i16,
                eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: stored_depth as u8,
                gen_bound: (gen << 2) | bound as u8,
            },
        );
    }

    /// Per-mille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets().len().min(334);
        let gen = self.generation.load(Relaxed);
        let used: usize = self.buckets()[..sample]
            .iter()
            .map(|b| {
                (0..3)
                    .map(|i| b.entry(i))
                    .filter(|e| e.bound() != Bound::None && e.generation() == gen)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * 3)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{MATE, MATE_BOUND, MAX_PLY};
    use crate::types::Square;

    #[test]
    fn buckets_start_on_a_huge_page_boundary() {
        let tt = TranspositionTable::new(3);
        assert_eq!(tt.buckets().len(), 3 * 1024 * 1024 / 32);
        assert_eq!(tt.buckets().as_ptr() as usize % crate::memory::HUGE_PAGE, 0);
        assert!(tt
            .buckets()
            .iter()
            .all(|b| (0..3).all(|i| b.entry(i).gen_bound == 0 && b.key(i) == 0)));
        tt.store(42, 0, Move::NULL, 5, 7, 3, Bound::Exact);
        assert_eq!(tt.probe(42, 0).map(|h| h.eval), Some(7));
    }

    #[test]
    fn bucket_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
    }

    #[test]
    fn every_field_packs_and_unpacks_exactly() {
        let gen_bounds = (0..4u8).flat_map(|b| [0u8, 1, 62, 63].map(move |g| g << 2 | b));
        for gen_bound in gen_bounds {
            for mv in [
                0u16,
                1,
                0x8000,
                0xffff,
                Move::new(Square::H7, Square::A1).raw(),
            ] {
                for score in [0i16, 1, -1, i16::MIN, i16::MAX, MATE as i16, -(MATE as i16)] {
                    for eval in [0i16, -1, -32_000, i16::MIN, i16::MAX] {
                        for depth in [0u8, 1, DEPTH_BIAS as u8, 254, 255] {
                            let e = Entry {
                                mv,
                                score,
                                eval,
                                depth,
                                gen_bound,
                            };
                            assert_eq!(Entry::unpack(e.pack()), e);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn extreme_values_survive_the_table() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::A7, Square::H8);
        let depths = [-DEPTH_BIAS, -1, 0, 1, MAX_PLY as i32, 255 - DEPTH_BIAS];
        let bounds = [Bound::Upper, Bound::Lower, Bound::Exact];
        let scores = [
            0,
            -1,
            MATE - 1,
            -(MATE - 1),
            MATE_BOUND,
            -MATE_BOUND,
            31_000,
        ];
        for gen in 0..64u32 {
            for (i, &depth) in depths.iter().enumerate() {
                for (j, &bound) in bounds.iter().enumerate() {
                    for (k, &score) in scores.iter().enumerate() {
                        let key = (gen as u64) << 40 | (i * 100 + j * 10 + k) as u64;
                        let eval = [-32_768, -29_999, 0, 32_767][k % 4];
                        tt.store(key, 5, mv, score, eval, depth, bound);
                        let hit = tt.probe(key, 5).expect("just stored");
                        assert_eq!(
                            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
                            (mv, score, eval, depth, bound)
                        );
                        let e = tt.bucket(key).entry(
                            (0..3)
                                .find(|&s| tt.bucket(key).key(s) == key as u16)
                                .unwrap(),
                        );
                        assert_eq!(e.generation() as u32, gen);
                    }
                }
            }
            tt.new_search();
        }
        // Generation wraps after 63.
        assert_eq!(tt.generation.load(Relaxed), 0);
    }

    #[test]
    fn threads_store_and_probe_at_once() {
        let tt = std::sync::Arc::new(TranspositionTable::new(1));
        let workers: Vec<_> = (0..4u64)
            .map(|t| {
                let tt = std::sync::Arc::clone(&tt);
                std::thread::spawn(move || {
                    for k in 0..50_000u64 {
                        let key = (k % 5000).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        tt.store(key, 0, Move::NULL, (t * 10) as i32, 0, 3, Bound::Exact);
                        if let Some(h) = tt.probe(key, 0) {
                            assert!(h.score % 10 == 0 && h.score <= 30, "{}", h.score);
                        }
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap();
        }
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
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
        let tt = TranspositionTable::new(1);
        // Mate found 10 plies below the root, seen from a node at ply 4: mate in 6 from there.
        tt.store(99, 4, Move::NULL, MATE - 10, 0, 3, Bound::Exact);
        // The same position reached at ply 2 is mate in 8 from the root.
        assert_eq!(tt.probe(99, 2).unwrap().score, MATE - 8);
        tt.store(98, 4, Move::NULL, -(MATE - 10), 0, 3, Bound::Exact);
        assert_eq!(tt.probe(98, 6).unwrap().score, -(MATE - 12));
    }

    #[test]
    fn hashfull_counts_this_search_only_and_clear_empties() {
        let tt = TranspositionTable::new(1);
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
        let tt = TranspositionTable::new(1);
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
