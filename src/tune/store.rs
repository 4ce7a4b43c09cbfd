//! All positions' records ([`super::record`]) in one byte stream, owned or memory-mapped, and
//! their lengths, one byte each, in another.
//!
//! Every [`BLOCK`]-th position's byte offset is kept, so a range of positions is found without
//! adding up every length before it. The bytes are either owned (while building) or a slice of a
//! memory-mapped cache file ([`super::cache`]), which the operating system pages in and out as
//! the epochs stream through it.

use super::dict::Dict;
use super::error::{RecordError, StoreError};
use super::record::{
    self, decode, for_each_far, for_each_general, for_each_slot, Coefs, Rec, MAX_PARAMS,
};
use std::ops::Range;
use std::sync::Arc;

/// Positions between two kept byte offsets.
pub const BLOCK: usize = 64;

/// The stored bytes: owned while building, or part of a memory-mapped cache file.
#[derive(Clone, Debug)]
pub enum Bytes {
    /// In memory.
    Owned(Vec<u8>),
    /// A byte range of a mapped file.
    Mapped(Arc<memmap2::Mmap>, Range<usize>),
}

impl Default for Bytes {
    fn default() -> Bytes {
        Bytes::Owned(Vec::new())
    }
}

impl Bytes {
    /// The bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m, r) => &m[r.clone()],
        }
    }

    fn owned(&mut self) -> &mut Vec<u8> {
        if let Bytes::Mapped(..) = self {
            *self = Bytes::Owned(self.as_slice().to_vec());
        }
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(..) => unreachable!("made owned above"),
        }
    }
}

/// All positions' coefficients, compact.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// The records, one after the other.
    data: Bytes,
    /// The length of each record.
    lens: Bytes,
    /// Byte offset of every [`BLOCK`]-th position.
    blocks: Vec<u64>,
    /// Number of positions.
    len: usize,
    /// One past the largest parameter index stored (the part of a dense gradient in use).
    width: usize,
    /// The macros the records' chains may hold ([`super::dict`]).
    dict: Arc<Dict>,
}

impl Store {
    /// An empty store.
    pub fn new() -> Store {
        Store::default()
    }

    /// An empty store whose records will be encoded with `dict`'s macros.
    pub fn with_dict(dict: Arc<Dict>) -> Store {
        Store {
            dict,
            ..Store::default()
        }
    }

    /// The dictionary of the records' macros.
    pub fn dict(&self) -> &Arc<Dict> {
        &self.dict
    }

    /// Slots of the kernel's table ([`Dict::slots`]).
    pub fn slots(&self) -> usize {
        self.dict.slots()
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no position is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// One past the largest parameter index stored.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The record stream (for the cache file).
    pub fn data(&self) -> &[u8] {
        self.data.as_slice()
    }

    /// The records' lengths (for the cache file).
    pub fn lens(&self) -> &[u8] {
        self.lens.as_slice()
    }

    /// Bytes used by the stored data (records, their lengths and block offsets).
    pub fn bytes(&self) -> usize {
        self.data.as_slice().len()
            + self.lens.as_slice().len()
            + self.blocks.len() * std::mem::size_of::<u64>()
    }

    /// Adds a position; fails (without storing) when phase, scale, fixed or an index is out of
    /// range, or a group would not fit its record ([`record::encode`]).
    pub fn push(&mut self, c: &Coefs, result: f64) -> Result<(), RecordError> {
        let len = self.len;
        let data = self.data.owned();
        let at = data.len();
        let width = record::encode(c, result, &self.dict, data)?;
        let size = data.len() - at;
        self.lens.owned().push(size as u8);
        if len.is_multiple_of(BLOCK) {
            self.blocks.push(at as u64);
        }
        self.len += 1;
        self.width = self.width.max(width);
        Ok(())
    }

    /// The records of positions `range`, in order.
    pub fn records(&self, range: Range<usize>) -> Records<'_> {
        assert!(range.end <= self.len, "positions {range:?} of {}", self.len);
        let (data, lens) = (self.data.as_slice(), self.lens.as_slice());
        if range.start >= range.end {
            return Records {
                data,
                lens: &[],
                at: 0,
            };
        }
        let first = range.start / BLOCK * BLOCK;
        let skip: usize = lens[first..range.start].iter().map(|&l| l as usize).sum();
        Records {
            data,
            lens: &lens[range],
            at: self.blocks[first / BLOCK] as usize + skip,
        }
    }

    /// The record of position `p`.
    pub fn rec(&self, p: usize) -> Rec<'_> {
        self.records(p..p + 1).next().expect("p < len")
    }

    /// The stored coefficients of position `p`, merged back per index.
    pub fn coefs(&self, p: usize) -> Coefs {
        self.rec(p).coefs(&self.dict)
    }

    /// The results (training targets) of every position, in order.
    pub fn results(&self) -> Vec<f64> {
        self.records(0..self.len).map(|r| r.result).collect()
    }

    /// The byte offset of every position (for reordering): the running sum of the lengths.
    fn offsets(&self) -> Vec<usize> {
        let mut at = 0;
        self.lens
            .as_slice()
            .iter()
            .map(|&len| {
                at += len as usize;
                at - len as usize
            })
            .collect()
    }

    /// Keeps positions `..from` and returns positions `from..` as a new store.
    pub fn split_off(&mut self, from: usize) -> Store {
        let from = from.min(self.len);
        let mut tail = Store::with_dict(Arc::clone(&self.dict));
        for r in self.records(from..self.len) {
            tail.push_rec(r);
        }
        let base = self.data.as_slice().as_ptr() as usize;
        let cut = self
            .records(from..self.len)
            .next()
            .map_or(self.data.as_slice().len(), |r| {
                r.bytes.as_ptr() as usize - base
            });
        self.data.owned().truncate(cut);
        self.lens.owned().truncate(from);
        self.blocks.truncate(from.div_ceil(BLOCK));
        self.len = from;
        tail
    }

    /// The same positions, each window of `window` consecutive ones sorted by the lengths of
    /// their groups ([`Rec::lengths`]): neighbours then run the kernel's loops the same number
    /// of times, so the branch predictor foresees the loops' exits. A batch's gradient does
    /// not depend on the order inside it.
    pub fn grouped(&self, window: usize) -> Store {
        self.reordered((0..self.len).collect(), window)
    }

    /// The same positions in the seed's random order, then grouped as in [`Store::grouped`].
    pub fn shuffled(&self, seed: u64, window: usize) -> Store {
        let mut order: Vec<usize> = (0..self.len).collect();
        crate::openings::shuffle(&mut order, seed);
        self.reordered(order, window)
    }

    fn reordered(&self, mut order: Vec<usize>, window: usize) -> Store {
        let offsets = self.offsets();
        let (data, lens) = (self.data.as_slice(), self.lens.as_slice());
        let at = |p: usize| {
            let mut it = Records {
                data,
                lens: &lens[p..p + 1],
                at: offsets[p],
            };
            it.next().expect("a record at every offset")
        };
        for w in order.chunks_mut(window.max(1)) {
            w.sort_by_key(|&p| at(p).lengths());
        }
        let mut out = Store::with_dict(Arc::clone(&self.dict));
        for p in order {
            let r = at(p);
            out.push_rec(r);
        }
        out
    }

    /// Appends a record of a store with the same dictionary as stored (its bytes are copied,
    /// not decoded and encoded again).
    fn push_rec(&mut self, r: Rec<'_>) {
        let len_before = self.len;
        let data = self.data.owned();
        if len_before.is_multiple_of(BLOCK) {
            self.blocks.push(data.len() as u64);
        }
        data.extend_from_slice(r.bytes);
        self.lens.owned().push(r.bytes.len() as u8);
        self.len += 1;
        self.width = self.width.max(r.width(&self.dict));
    }

    /// Appends every position of `other`, a store with the same dictionary, as stored.
    pub fn extend(&mut self, other: &Store) {
        assert!(
            Arc::ptr_eq(&self.dict, &other.dict),
            "records are copied only between stores of one dictionary"
        );
        for r in other.records(0..other.len) {
            self.push_rec(r);
        }
    }

    /// Appends every position of `other` decoded and encoded again with this store's
    /// dictionary; returns why each position that would not fit its record was left out.
    pub fn encode_all(&mut self, other: &Store) -> Vec<RecordError> {
        other
            .records(0..other.len)
            .filter_map(|r| self.push(&r.coefs(&other.dict), r.result).err())
            .collect()
    }

    /// A store over `data` (a cache file's record stream) holding `len` positions; every record
    /// is decoded once and checked (header ranges, group bounds, indices below `limit`), so the
    /// kernel may trust the bytes. Fails with the position number and cause.
    pub fn from_bytes(
        data: Bytes,
        lens: Bytes,
        limit: usize,
        dict: Arc<Dict>,
    ) -> Result<Store, StoreError> {
        let limit = limit.min(MAX_PARAMS);
        let len = lens.as_slice().len();
        let mut blocks = Vec::with_capacity(len.div_ceil(BLOCK));
        let bytes = data.as_slice();
        let mut at = 0usize;
        let mut width = 0usize;
        for (p, &size) in lens.as_slice().iter().enumerate() {
            if p % BLOCK == 0 {
                blocks.push(at as u64);
            }
            let r = decode(bytes, at, size as usize)
                .map_err(|cause| StoreError::Record { position: p, cause })?;
            at += r.bytes.len();
            let mut bad = None;
            let mut see = |s: usize| {
                if let Err(cause) = dict.check_slot(s) {
                    bad = Some(StoreError::Slot { position: p, cause });
                }
                width = width.max(dict.width_of(s));
            };
            for_each_slot(r.unit, &mut see);
            for_each_far(r.far, &mut see);
            for_each_general(r.general, |i, _| {
                if i >= limit {
                    bad = Some(StoreError::Index {
                        position: p,
                        index: i,
                        limit,
                    });
                }
                width = width.max(i + 1);
            });
            if let Some(e) = bad {
                return Err(e);
            }
        }
        if at != bytes.len() {
            return Err(StoreError::Trailing {
                bytes: bytes.len() - at,
                positions: len,
            });
        }
        Ok(Store {
            data,
            lens,
            blocks,
            len,
            width,
            dict,
        })
    }
}

/// Iterator over consecutive records.
pub struct Records<'a> {
    data: &'a [u8],
    /// The lengths of the records still to come.
    lens: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Records<'a> {
    type Item = Rec<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Rec<'a>> {
        let (&len, rest) = self.lens.split_first()?;
        self.lens = rest;
        // the bytes were checked when the store was built or opened ([`Store::from_bytes`])
        let r = record::decode_trusted(self.data, self.at, len as usize);
        self.at += len as usize;
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_large_coefficients_gaps_and_blended_results() {
        let mut s = Store::new();
        let a = Coefs {
            phase: 24,
            scale: 128,
            fixed: -7,
            eg_fixed: 31,
            terms: vec![(0, 1), (5, -300), (9, 127), (10, -1), (600, 1), (1200, 2)],
        };
        let b = Coefs {
            phase: 3,
            scale: 64,
            fixed: 0,
            eg_fixed: -600,
            terms: vec![(2, 2), (255, 1), (510, 1)],
        };
        s.push(&a, 1.0).unwrap();
        s.push(&b, 0.3).unwrap();
        s.push(&Coefs::default(), 0.5).unwrap();
        assert_eq!(s.coefs(0), a);
        assert_eq!(s.coefs(1), b);
        assert_eq!(s.coefs(2), Coefs::default());
        assert_eq!(s.rec(0).result, 1.0);
        assert!((s.rec(1).result - 0.3).abs() < 2e-5);
        assert_eq!(s.width(), 1201);
        // without a dictionary every term is another term: gap byte and i8 coefficient;
        // -300 = -127 -127 -46 (gaps 0), the gaps past 255 bridged by zero terms
        assert!(s.rec(0).unit.is_empty());
        assert_eq!(
            s.rec(0).general,
            &[
                0, 1, 5, 129, 0, 129, 0, 210, 4, 127, 1, 255, 255, 0, 255, 0, 80, 1, 255, 0, 255,
                0, 90, 2
            ]
        );
        assert_eq!(s.rec(1).general, &[2, 2, 253, 1, 255, 1]);
        let again =
            Store::from_bytes(owned(s.data()), owned(s.lens()), 4096, Arc::default()).unwrap();
        assert_eq!(again.coefs(1), b);
        let tail = s.split_off(1);
        assert_eq!((s.len(), tail.len()), (1, 2));
        assert_eq!(tail.coefs(0), b);
        assert_eq!(s.coefs(0), a);
    }

    #[test]
    fn ranges_start_anywhere_across_blocks() {
        let mut s = Store::new();
        for p in 0..300u16 {
            let c = Coefs {
                phase: (p % 25) as i32,
                scale: 128,
                fixed: p as i32 % 3,
                eg_fixed: p as i32 % 7 - 3,
                terms: vec![(p, 1), (p + 1, -(p as i16 % 5)), (p * 3, 1)],
            };
            s.push(&c, (p % 3) as f64 / 2.0).unwrap();
        }
        for start in [0, 1, 63, 64, 65, 128, 200, 299, 300] {
            let got: Vec<u8> = s.records(start..300).map(|r| r.phase).collect();
            let want: Vec<u8> = (start..300).map(|p| (p % 25) as u8).collect();
            assert_eq!(got, want, "from {start}");
        }
        let g = s.grouped(100);
        assert_eq!(g.len(), 300);
        let mut a: Vec<String> = (0..300).map(|p| format!("{:?}", s.coefs(p))).collect();
        let mut b: Vec<String> = (0..300).map(|p| format!("{:?}", g.coefs(p))).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        let mut e = s.clone();
        e.extend(&g);
        assert_eq!(e.len(), 600);
        assert_eq!(e.coefs(457), g.coefs(157));
    }

    #[test]
    fn damaged_bytes_are_refused_not_trusted() {
        let mut s = Store::new();
        let c = Coefs {
            phase: 10,
            scale: 100,
            fixed: 0,
            eg_fixed: 12,
            terms: vec![(3, 1), (700, -1), (8, 5)],
        };
        s.push(&c, 1.0).unwrap();
        let (d, l) = (s.data().to_vec(), s.lens().to_vec());
        let open = |d: &[u8], l: &[u8], limit| {
            Store::from_bytes(owned(d), owned(l), limit, Arc::default())
        };
        assert!(open(&d, &l, 701).is_ok());
        let e = open(&d, &l, 700).unwrap_err().to_string();
        assert!(e.contains("index 700"), "{e}");
        let e = open(&d[..d.len() - 1], &l, 701).unwrap_err().to_string();
        assert!(e.contains("past the end"), "{e}");
        // a length that ends inside a term, and one more position than the bytes hold
        let e = open(&d, &[l[0] - 1], 701).unwrap_err().to_string();
        assert!(e.contains("inside a term"), "{e}");
        let e = open(&d, &[l[0], 3], 701).unwrap_err().to_string();
        assert!(e.contains("position 1"), "{e}");
        let mut bad = d.clone();
        bad[0] = 25; // phase 25
        assert!(open(&bad, &l, 701).is_err());
    }

    fn owned(b: &[u8]) -> Bytes {
        Bytes::Owned(b.to_vec())
    }

    #[test]
    fn out_of_range_headers_are_rejected() {
        let mut s = Store::new();
        let bad = [
            Coefs {
                phase: 25,
                scale: 128,
                ..Coefs::default()
            },
            Coefs {
                phase: 2,
                scale: 129,
                ..Coefs::default()
            },
            Coefs {
                phase: 2,
                scale: 1,
                fixed: 40000,
                ..Coefs::default()
            },
            Coefs {
                phase: 2,
                scale: 1,
                eg_fixed: -40000,
                ..Coefs::default()
            },
            Coefs {
                phase: 2,
                scale: 1,
                terms: vec![(4095, 1), (4096, 1)],
                ..Coefs::default()
            },
            Coefs {
                phase: 2,
                scale: 1,
                terms: (0..300).map(|i| (i, 1)).collect(),
                ..Coefs::default()
            },
        ];
        for c in &bad {
            assert!(s.push(c, 1.0).is_err(), "{c:?}");
        }
        assert!(s.push(&Coefs::default(), 1.5).is_err());
        assert!(s.is_empty());
    }
}
