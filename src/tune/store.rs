//! Compact, sparse storage of each position's evaluation coefficients.
//!
//! A position is one variable-length record in a byte stream shared by all positions:
//!
//! ```text
//! byte 0     phase (bits 0-4) | result code (bits 5-6: 0.0, 0.5, 1.0, or 3 = u16 follows) | fixed? (bit 7)
//! byte 1     scale (0..=128)
//! bytes 2-3  byte lengths of the two term groups: unit, general
//! [u16]      result * 32768, when the result is not 0, 1/2 or 1 (a `--lambda` blend)
//! [i16]      fixed centipawns, when not 0
//! unit       the terms with coefficient +1 or -1, one byte each: the gap from the previous
//!            unit term (the first from 0) in "signed slots", slot 2i for +1 on weight i and
//!            2i + 1 for -1, so one ascending list and one loop serve both signs
//! general    every other term: gap byte, then its coefficient as an i8 (two bytes a term)
//! ```
//!
//! The kernel keeps each weight pair twice, as itself in slot 2i and negated in slot 2i + 1
//! ([`super::model`]), so a unit term is one addition, with neither a multiplication nor a
//! sign test. A unit term whose gap would not fit a byte goes to the general group instead, so
//! the hot loop has no escape to test. In the general group a gap longer than 255 is bridged
//! by terms of coefficient 0 (gap 255 each), which add nothing, so that loop has no test
//! either. Coefficients beyond the i8 range are split
//! into several general terms of the same index (gap 0): the evaluation is linear, so the dot
//! product is unchanged. On the engine's self-play data about four in five terms are ±1, so a
//! term costs one byte, and the kernel adds or subtracts its weight without a multiplication.
//!
//! Every [`BLOCK`]-th position's byte offset is kept, so a range of positions is found without
//! decoding everything before it. The bytes are either owned (while building) or a slice of a
//! memory-mapped cache file ([`super::cache`]), which the operating system pages in and out as
//! the epochs stream through it.

use std::ops::Range;
use std::sync::Arc;

/// The tapering constants shared with the engine (`sable::eval::{PHASE_MAX, SCALE_MAX}`).
pub const PHASE_MAX: i32 = 24;
/// Endgame scale denominator.
pub const SCALE_MAX: i32 = 128;

/// Largest number of parameters the store can index (the dense arrays of the model).
pub const MAX_PARAMS: usize = 4096;

/// Positions between two kept byte offsets.
pub const BLOCK: usize = 64;

/// The longest gap of one byte; longer gaps in the general group are bridged by zero terms.
const MAX_GAP: usize = 255;

/// Results other than 0, 1/2 and 1 are stored as `round(result * RESULT_ONE)`: exact for the
/// three game results, within 1.5e-5 for blended targets.
const RESULT_ONE: f64 = 32768.0;

/// The linear form of one position's evaluation, from White's view (what `sable::eval::trace` gives).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coefs {
    /// Game phase, 0 (pawn endgame) ..= 24 (full middlegame).
    pub phase: i32,
    /// Endgame scale, 0 ..= 128.
    pub scale: i32,
    /// Untunable centipawns added after tapering.
    pub fixed: i32,
    /// (parameter index, white-minus-black coefficient), sorted by index, zeros omitted.
    pub terms: Vec<(u16, i16)>,
}

/// One position as stored: its header and the three groups of encoded terms.
#[derive(Clone, Copy, Debug)]
pub struct Rec<'a> {
    /// Game result (or training target) from White's view.
    pub result: f64,
    /// Game phase 0..=24.
    pub phase: u8,
    /// Endgame scale 0..=128.
    pub scale: u8,
    /// Untunable centipawns (added after tapering).
    pub fixed: i16,
    /// Gap bytes of the ±1 terms, in signed slots (2i for +1 on weight i, 2i + 1 for -1).
    pub unit: &'a [u8],
    /// Gap and coefficient bytes of the other terms.
    pub general: &'a [u8],
    /// The whole record, header included.
    pub bytes: &'a [u8],
}

impl Rec<'_> {
    /// Weight of the middlegame sum in the white eval: phase / 24.
    #[inline]
    pub fn rho_mg(&self) -> f64 {
        // multiply by a constant reciprocal: a division per position costs measurable time
        self.phase as f64 * (1.0 / PHASE_MAX as f64)
    }

    /// Weight of the endgame sum: (24 - phase) * scale / 128 / 24.
    #[inline]
    pub fn rho_eg(&self) -> f64 {
        ((PHASE_MAX - self.phase as i32) * self.scale as i32) as f64
            * (1.0 / (SCALE_MAX as f64 * PHASE_MAX as f64))
    }

    /// The coefficients, merged back per index and sorted (as the engine's trace has them).
    pub fn coefs(&self) -> Coefs {
        let mut terms: Vec<(u16, i16)> = Vec::new();
        for_each_unit(self.unit, |i, c| terms.push((i as u16, c as i16)));
        for_each_general(self.general, |i, c| {
            if c != 0 {
                terms.push((i as u16, c as i16));
            }
        });
        terms.sort_by_key(|t| t.0);
        let mut merged: Vec<(u16, i16)> = Vec::with_capacity(terms.len());
        for (i, c) in terms {
            match merged.last_mut() {
                Some(last) if last.0 == i => last.1 += c,
                _ => merged.push((i, c)),
            }
        }
        Coefs {
            phase: self.phase as i32,
            scale: self.scale as i32,
            fixed: self.fixed as i32,
            terms: merged,
        }
    }
}

/// Calls `f` with every (index, coefficient ±1) of a unit group.
#[inline(always)]
pub fn for_each_unit(gaps: &[u8], mut f: impl FnMut(usize, i8)) {
    let mut slot = 0usize;
    for &b in gaps {
        slot += b as usize;
        f(slot >> 1, 1 - 2 * (slot & 1) as i8);
    }
}

/// Calls `f` with every (index, coefficient) of a general group, the zero terms that bridge
/// long gaps included.
#[inline(always)]
pub fn for_each_general(bytes: &[u8], mut f: impl FnMut(usize, i8)) {
    let mut i = 0usize;
    for t in bytes.chunks_exact(2) {
        i += t[0] as usize;
        f(i, t[1] as i8);
    }
}

/// Appends the term (`idx`, `coef`) to a general group, `*cur` being the previous term's index.
fn put_general(out: &mut Vec<u8>, cur: &mut usize, idx: usize, coef: i8) {
    let mut gap = idx - *cur;
    while gap > MAX_GAP {
        out.extend([MAX_GAP as u8, 0]);
        gap -= MAX_GAP;
    }
    out.extend([gap as u8, coef as u8]);
    *cur = idx;
}

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
    /// Byte offset of every [`BLOCK`]-th position.
    blocks: Vec<u64>,
    /// Number of positions.
    len: usize,
    /// One past the largest parameter index stored (the part of a dense gradient in use).
    width: usize,
}

impl Store {
    /// An empty store.
    pub fn new() -> Store {
        Store::default()
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

    /// Bytes used by the stored data (records and block offsets).
    pub fn bytes(&self) -> usize {
        self.data.as_slice().len() + self.blocks.len() * std::mem::size_of::<u64>()
    }

    /// Adds a position; fails (without storing) when phase, scale, fixed or an index is out of
    /// range, or a group would exceed 255 bytes.
    pub fn push(&mut self, c: &Coefs, result: f64) -> Result<(), String> {
        if !(0..=PHASE_MAX).contains(&c.phase) {
            return Err(format!("phase {} outside 0..={PHASE_MAX}", c.phase));
        }
        if !(0..=SCALE_MAX).contains(&c.scale) {
            return Err(format!("scale {} outside 0..={SCALE_MAX}", c.scale));
        }
        if !(0.0..=1.0).contains(&result) {
            return Err(format!("result {result} outside [0, 1]"));
        }
        let fixed = i16::try_from(c.fixed).map_err(|_| format!("fixed {} too large", c.fixed))?;
        if let Some(&(i, _)) = c.terms.iter().find(|t| t.0 as usize >= MAX_PARAMS) {
            return Err(format!(
                "parameter index {i} beyond the store's limit {MAX_PARAMS}"
            ));
        }
        let mut sorted = c.terms.clone();
        sorted.sort_by_key(|t| t.0);
        let (mut unit, mut general) = (Vec::new(), Vec::new());
        let (mut cu, mut cg) = (0, 0);
        for &(i, v) in &sorted {
            let i = i as usize;
            let slot = 2 * i + usize::from(v == -1);
            match v {
                0 => {}
                1 | -1 if slot >= cu && slot - cu <= u8::MAX as usize => {
                    unit.push((slot - cu) as u8);
                    cu = slot;
                }
                _ => {
                    // split coefficients beyond i8 into parts of at most 127 in magnitude
                    let mut v = v;
                    while v != 0 {
                        let part = v.clamp(-127, 127);
                        put_general(&mut general, &mut cg, i, part as i8);
                        v -= part;
                    }
                }
            }
        }
        for (g, name) in [(&unit, "±1"), (&general, "other")] {
            if g.len() > u8::MAX as usize {
                return Err(format!(
                    "{} bytes of {name} terms exceed the record's limit of 255",
                    g.len()
                ));
            }
        }
        // the three game results need no bytes of their own
        let code: u8 = [0.0, 0.5, 1.0]
            .iter()
            .position(|&r| r == result)
            .map_or(3, |k| k as u8);
        let len = self.len;
        let width = sorted
            .iter()
            .filter(|t| t.1 != 0)
            .map(|t| t.0 as usize + 1)
            .max()
            .unwrap_or(0);
        let data = self.data.owned();
        if len.is_multiple_of(BLOCK) {
            self.blocks.push(data.len() as u64);
        }
        data.push(c.phase as u8 | code << 5 | u8::from(fixed != 0) << 7);
        data.push(c.scale as u8);
        data.extend([unit.len() as u8, general.len() as u8]);
        if code == 3 {
            data.extend(((result * RESULT_ONE).round() as u16).to_le_bytes());
        }
        if fixed != 0 {
            data.extend(fixed.to_le_bytes());
        }
        data.extend(unit);
        data.extend(general);
        self.len += 1;
        self.width = self.width.max(width);
        Ok(())
    }

    /// The records of positions `range`, in order.
    pub fn records(&self, range: Range<usize>) -> Records<'_> {
        assert!(range.end <= self.len, "positions {range:?} of {}", self.len);
        let data = self.data.as_slice();
        if range.start >= range.end {
            return Records {
                data,
                at: 0,
                left: 0,
            };
        }
        let first = range.start / BLOCK * BLOCK;
        let mut it = Records {
            data,
            at: self.blocks[first / BLOCK] as usize,
            left: range.end - first,
        };
        for _ in first..range.start {
            it.next();
        }
        it
    }

    /// The record of position `p`.
    pub fn rec(&self, p: usize) -> Rec<'_> {
        self.records(p..p + 1).next().expect("p < len")
    }

    /// The stored coefficients of position `p`, merged back per index.
    pub fn coefs(&self, p: usize) -> Coefs {
        self.rec(p).coefs()
    }

    /// The results (training targets) of every position, in order.
    pub fn results(&self) -> Vec<f64> {
        self.records(0..self.len).map(|r| r.result).collect()
    }

    /// The byte offset of every position (for reordering).
    fn offsets(&self) -> Vec<usize> {
        let base = self.data.as_slice().as_ptr() as usize;
        self.records(0..self.len)
            .map(|r| r.bytes.as_ptr() as usize - base)
            .collect()
    }

    /// Keeps positions `..from` and returns positions `from..` as a new store.
    pub fn split_off(&mut self, from: usize) -> Store {
        let from = from.min(self.len);
        let mut tail = Store::new();
        for r in self.records(from..self.len) {
            tail.push(&r.coefs(), r.result)
                .expect("stored records are in range");
        }
        let base = self.data.as_slice().as_ptr() as usize;
        let cut = self
            .records(from..self.len)
            .next()
            .map_or(self.data.as_slice().len(), |r| {
                r.bytes.as_ptr() as usize - base
            });
        self.data.owned().truncate(cut);
        self.blocks.truncate(from.div_ceil(BLOCK));
        self.len = from;
        tail
    }

    /// The same positions, each window of `window` consecutive ones sorted by their groups'
    /// lengths (unit, then general).
    ///
    /// The kernel's loops run once per term, so a length that differs from the previous
    /// position's costs a mispredicted loop exit; sorted, the branch predictor sees long runs of
    /// equal lengths (measured with the earlier layout: 17.8 M positions/s sorted against 14.3 M
    /// in file order). A batch's gradient does not depend on the order inside it.
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
        let data = self.data.as_slice();
        let at = |p: usize| {
            let mut it = Records {
                data,
                at: offsets[p],
                left: 1,
            };
            it.next().expect("a record at every offset")
        };
        for w in order.chunks_mut(window.max(1)) {
            w.sort_by_key(|&p| {
                let r = at(p);
                (r.unit.len(), r.general.len())
            });
        }
        let mut out = Store::new();
        for p in order {
            let r = at(p);
            out.push_rec(r);
        }
        out
    }

    /// Appends a record as stored (its bytes are copied, not decoded and encoded again).
    fn push_rec(&mut self, r: Rec<'_>) {
        let len_before = self.len;
        let data = self.data.owned();
        if len_before.is_multiple_of(BLOCK) {
            self.blocks.push(data.len() as u64);
        }
        data.extend_from_slice(r.bytes);
        self.len += 1;
        self.width = self.width.max(rec_width(r));
    }

    /// Appends every position of `other` as stored.
    pub fn extend(&mut self, other: &Store) {
        for r in other.records(0..other.len) {
            self.push_rec(r);
        }
    }

    /// A store over `data` (a cache file's record stream) holding `len` positions; every record
    /// is decoded once and checked (header ranges, group bounds, indices below `limit`), so the
    /// kernel may trust the bytes. Fails with the position number and cause.
    pub fn from_bytes(data: Bytes, len: usize, limit: usize) -> Result<Store, String> {
        let limit = limit.min(MAX_PARAMS);
        let mut blocks = Vec::with_capacity(len.div_ceil(BLOCK));
        let bytes = data.as_slice();
        let mut at = 0usize;
        let mut width = 0usize;
        for p in 0..len {
            if p % BLOCK == 0 {
                blocks.push(at as u64);
            }
            let r = decode(bytes, at).map_err(|e| format!("position {p}: {e}"))?;
            at += r.bytes.len();
            if r.general.len() % 2 != 0 {
                return Err(format!("position {p}: a term lacks its coefficient"));
            }
            let mut bad = None;
            let mut see = |i: usize| {
                if i >= limit {
                    bad = Some(i);
                }
                width = width.max(i + 1);
            };
            for_each_unit(r.unit, |i, _| see(i));
            for_each_general(r.general, |i, _| see(i));
            if let Some(i) = bad {
                return Err(format!(
                    "position {p}: parameter index {i} beyond the layout's {limit}"
                ));
            }
        }
        if at != bytes.len() {
            return Err(format!(
                "{} bytes after the last of {len} positions",
                bytes.len() - at
            ));
        }
        Ok(Store {
            data,
            blocks,
            len,
            width,
        })
    }
}

/// One past the largest index of a record.
fn rec_width(r: Rec<'_>) -> usize {
    let mut width = 0;
    for_each_unit(r.unit, |i, _| width = width.max(i + 1));
    for_each_general(r.general, |i, _| width = width.max(i + 1));
    width
}

/// Decodes the record at byte `at`, checking that it lies inside `data` and its header is in range.
fn decode(data: &[u8], at: usize) -> Result<Rec<'_>, String> {
    let h = data
        .get(at..at + 4)
        .ok_or_else(|| format!("record header at byte {at} past the end"))?;
    let phase = h[0] & 31;
    let code = (h[0] >> 5) & 3;
    let has_fixed = h[0] >> 7 == 1;
    if phase as i32 > PHASE_MAX || h[1] as i32 > SCALE_MAX {
        return Err(format!("phase {phase} or scale {} out of range", h[1]));
    }
    let mut k = at + 4;
    let take2 = |k: &mut usize| -> Result<[u8; 2], String> {
        let b = data
            .get(*k..*k + 2)
            .ok_or_else(|| format!("record at byte {at} past the end"))?;
        *k += 2;
        Ok([b[0], b[1]])
    };
    let result = match code {
        0 => 0.0,
        1 => 0.5,
        2 => 1.0,
        _ => {
            let q = u16::from_le_bytes(take2(&mut k)?);
            if q as f64 > RESULT_ONE {
                return Err(format!("result {q}/32768 above 1"));
            }
            q as f64 / RESULT_ONE
        }
    };
    let fixed = if has_fixed {
        i16::from_le_bytes(take2(&mut k)?)
    } else {
        0
    };
    let (nu, ng) = (h[2] as usize, h[3] as usize);
    let body = data
        .get(k..k + nu + ng)
        .ok_or_else(|| format!("record at byte {at} past the end"))?;
    Ok(Rec {
        result,
        phase,
        scale: h[1],
        fixed,
        unit: &body[..nu],
        general: &body[nu..],
        bytes: &data[at..k + nu + ng],
    })
}

/// Iterator over consecutive records.
pub struct Records<'a> {
    data: &'a [u8],
    at: usize,
    left: usize,
}

impl<'a> Iterator for Records<'a> {
    type Item = Rec<'a>;

    #[inline]
    fn next(&mut self) -> Option<Rec<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        // the bytes were checked when the store was built or opened ([`Store::from_bytes`])
        let r = decode(self.data, self.at).expect("a checked record");
        self.at += r.bytes.len();
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
            terms: vec![(0, 1), (5, -300), (9, 127), (10, -1), (600, 1), (1200, 2)],
        };
        let b = Coefs {
            phase: 3,
            scale: 64,
            fixed: 0,
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
        // -300 = -127 -127 -46: three general terms of two bytes; 127: two bytes; the +1 at
        // 600 is slot 1200, 1179 past the last unit term (the -1 at 10, slot 21), too far for a
        // unit gap, so a general term 591 past index 9: two zero terms bridge 510 of it, then
        // the term (6 bytes); the 2 at 1200: the same
        assert_eq!(s.rec(0).general.len(), 6 + 2 + 6 + 6);
        assert_eq!(s.rec(0).unit, &[0, 21]);
        // +1 at 255 and at 510: slots 510 (too far from 0: general) and 1020 (general too)
        assert_eq!(s.rec(1).unit, &[] as &[u8]);
        let again = Store::from_bytes(Bytes::Owned(s.data().to_vec()), 3, 4096).unwrap();
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
            terms: vec![(3, 1), (700, -1), (8, 5)],
        };
        s.push(&c, 1.0).unwrap();
        let d = s.data().to_vec();
        assert!(Store::from_bytes(Bytes::Owned(d.clone()), 1, 701).is_ok());
        let e = Store::from_bytes(Bytes::Owned(d.clone()), 1, 700).unwrap_err();
        assert!(e.contains("index 700"), "{e}");
        let e = Store::from_bytes(Bytes::Owned(d[..d.len() - 1].to_vec()), 1, 701).unwrap_err();
        assert!(e.contains("past the end"), "{e}");
        let e = Store::from_bytes(Bytes::Owned(d.clone()), 2, 701).unwrap_err();
        assert!(e.contains("position 1"), "{e}");
        let mut bad = d.clone();
        bad[0] = 25; // phase 25
        assert!(Store::from_bytes(Bytes::Owned(bad), 1, 701).is_err());
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
                terms: vec![],
            },
            Coefs {
                phase: 2,
                scale: 1,
                fixed: 0,
                terms: vec![(4095, 1), (4096, 1)],
            },
            Coefs {
                phase: 2,
                scale: 1,
                fixed: 0,
                terms: (0..300).map(|i| (i, 1)).collect(),
            },
        ];
        for c in &bad {
            assert!(s.push(c, 1.0).is_err(), "{c:?}");
        }
        assert!(s.push(&Coefs::default(), 1.5).is_err());
        assert!(s.is_empty());
    }
}
