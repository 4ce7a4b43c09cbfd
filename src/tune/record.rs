//! The byte layout of one position's record: how a position's coefficients are encoded, and
//! decoded again. A record's length (at most 255 bytes) is kept apart, in the store's array of
//! lengths ([`super::store`]): the kernel finds each record from the lengths alone, without
//! waiting on the previous record's header (decoding the headers one after another from the
//! bytes took a fifth of an epoch), and the number of other terms is what the length leaves.
//!
//! ```text
//! byte 0     phase (bits 0-4) | result code (bits 5-6: 0.0, 0.5, 1.0, or 3 = u16 follows) | fixed? (bit 7)
//! byte 1     byte length of the small-term chain (0..=255)
//! byte 2     number of far terms (bits 0-6) | scale byte follows (bit 7: the scale is not 128)
//! [u8]       scale (0..=127), when bit 7 of byte 2 is set
//! [u16]      result * 32768, when the result is not 0, 1/2 or 1 (a `--lambda` blend)
//! [i16]      fixed centipawns, when not 0
//! i16        fixed end-game centipawns (the complexity term's adjustment), always: it is 0
//!            only when the end-game sum is, so a flag would save nothing
//! chain      the terms that have a slot in the store's dictionary ([`super::dict`]), one
//!            byte each: the gap from the previous term's slot, in ascending order of slot,
//!            as long as each gap fits a byte
//! far        the slots past a gap of more than 255, two bytes each (little endian)
//! others     every other term: gap byte from the previous such term's index, then its
//!            coefficient as an i8 (a gap past 255 is bridged by terms of coefficient 0)
//! ```
//!
//! The kernel's table holds each slot's value (a weight times its coefficient, or the sum of
//! a pair of slots), so a chain term is one addition, with neither a multiplication nor a
//! sign test, and no loop over terms tests a byte (an escape byte cost a fifth of the speed
//! in the first version of these records). On the engine's self-play data nearly every term
//! is in the chain, and pairs of terms that often occur together are one slot (measured on
//! `data/sample.csv`: 43.2 terms a position become 25 chain terms). Coefficients beyond the
//! i8 range are split into several terms of the same index (gap 0): the evaluation is
//! linear, so the dot product is unchanged. Most positions have the full endgame scale (97 %
//! of the sample), so the scale costs a byte only when it is not 128.

use super::dict::Dict;
pub use super::error::RecordError;
pub use super::terms::{Coefs, MAX_FAR, MAX_LEN, MAX_PARAMS, PHASE_MAX, SCALE_MAX};

/// Results other than 0, 1/2 and 1 are stored as `round(result * RESULT_ONE)`: exact for the
/// three game results, within 1.5e-5 for blended targets.
const RESULT_ONE: f64 = 32768.0;

/// One position as stored: its header and its three groups of encoded terms.
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
    /// Untunable end-game centipawns (added to the end-game sum, tapered and scaled with it).
    pub eg_fixed: i16,
    /// The chain: gap bytes between the dictionary slots of the terms.
    pub unit: &'a [u8],
    /// The far slots, two bytes each.
    pub far: &'a [u8],
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

    /// The coefficients, merged back per index and sorted (as the engine's trace has them);
    /// macro slots are expanded by `dict`, the dictionary the record was encoded with.
    pub fn coefs(&self, dict: &Dict) -> Coefs {
        let mut terms: Vec<(u16, i16)> = Vec::new();
        for_each_slot(self.unit, |s| dict.expand(s, &mut terms));
        for_each_far(self.far, |s| dict.expand(s, &mut terms));
        for_each_general(self.general, |i, c| {
            if c != 0 {
                terms.push((i as u16, c as i16));
            }
        });
        Coefs {
            phase: self.phase as i32,
            scale: self.scale as i32,
            fixed: self.fixed as i32,
            eg_fixed: self.eg_fixed as i32,
            terms: merged(terms),
        }
    }

    /// The lengths of the three groups (chain, far, other terms), the order
    /// [`super::store::Store::grouped`] sorts by: neighbours with the same lengths run the
    /// kernel's loops the same number of times, so the branch predictor foresees their exits
    /// (sorted by the total alone, an epoch took 1.4 times as long).
    #[inline]
    pub fn lengths(&self) -> (usize, usize, usize) {
        (self.unit.len(), self.far.len(), self.general.len())
    }

    /// One past the largest index of the record (0 without terms).
    pub fn width(&self, dict: &Dict) -> usize {
        let mut width = 0;
        // bridging terms count: the kernel reads their (zero) slots
        for_each_slot(self.unit, |s| width = width.max(dict.width_of(s)));
        for_each_far(self.far, |s| width = width.max(dict.width_of(s)));
        for_each_general(self.general, |i, _| width = width.max(i + 1));
        width
    }
}

/// Terms sorted by index, the coefficients of one index summed (saturating at the i16 range,
/// which only a forged cache could reach), zeros dropped.
fn merged(mut terms: Vec<(u16, i16)>) -> Vec<(u16, i16)> {
    terms.sort_by_key(|t| t.0);
    let mut out: Vec<(u16, i16)> = Vec::with_capacity(terms.len());
    for (i, c) in terms {
        match out.last_mut() {
            Some(last) if last.0 == i => last.1 = last.1.saturating_add(c),
            _ => out.push((i, c)),
        }
    }
    out.retain(|t| t.1 != 0);
    out
}

/// Calls `f` with every slot of a chain.
#[inline(always)]
pub fn for_each_slot(chain: &[u8], mut f: impl FnMut(usize)) {
    let mut slot = 0usize;
    for &b in chain {
        slot += b as usize;
        f(slot);
    }
}

/// Calls `f` with every far slot.
#[inline(always)]
pub fn for_each_far(far: &[u8], mut f: impl FnMut(usize)) {
    for b in far.chunks_exact(2) {
        f(u16::from_le_bytes([b[0], b[1]]) as usize);
    }
}

/// Calls `f` with every (index, coefficient) of the other terms, the zero terms that bridge
/// long gaps included.
#[inline(always)]
pub fn for_each_general(bytes: &[u8], mut f: impl FnMut(usize, i8)) {
    let mut i = 0usize;
    for t in bytes.chunks_exact(2) {
        i += t[0] as usize;
        f(i, t[1] as i8);
    }
}

/// Appends the record of `c` with `result` to `out`; returns one past its largest index. Fails
/// (appending nothing) when phase, scale, fixed, result or an index is out of range, or a
/// group would not fit its length field.
pub fn encode(
    c: &Coefs,
    result: f64,
    dict: &Dict,
    out: &mut Vec<u8>,
) -> Result<usize, RecordError> {
    let (fixed, eg_fixed) = check_header(c, result)?;
    let terms = merged(c.terms.clone());
    let (mut slots, others) = split_terms(&terms, dict);
    dict.apply(&mut slots);
    let (chain, far) = chain_and_far(&slots);
    if far.len() / 2 > MAX_FAR {
        return Err(RecordError::FarTerms(far.len() / 2));
    }
    if chain.len() > u8::MAX as usize {
        return Err(RecordError::SmallTerms(chain.len()));
    }
    // the three game results need no bytes of their own
    let code: u8 = [0.0, 0.5, 1.0]
        .iter()
        .position(|&r| r == result)
        .map_or(3, |k| k as u8);
    let scaled = c.scale != SCALE_MAX;
    let start = out.len();
    out.push(c.phase as u8 | code << 5 | u8::from(fixed != 0) << 7);
    out.push(chain.len() as u8);
    out.push((far.len() / 2) as u8 | u8::from(scaled) << 7);
    if scaled {
        out.push(c.scale as u8);
    }
    if code == 3 {
        out.extend(((result * RESULT_ONE).round() as u16).to_le_bytes());
    }
    if fixed != 0 {
        out.extend(fixed.to_le_bytes());
    }
    out.extend(eg_fixed.to_le_bytes());
    out.extend(chain);
    out.extend(far);
    out.extend(others);
    if out.len() - start > MAX_LEN {
        let len = out.len() - start;
        out.truncate(start);
        return Err(RecordError::TooLong(len));
    }
    Ok(terms.last().map_or(0, |t| t.0 as usize + 1))
}

/// The fixed and fixed end-game parts of `c` as a record holds them, once phase, scale, result,
/// both fixed parts and every index are in range.
fn check_header(c: &Coefs, result: f64) -> Result<(i16, i16), RecordError> {
    if !(0..=PHASE_MAX).contains(&c.phase) {
        return Err(RecordError::Phase(c.phase));
    }
    if !(0..=SCALE_MAX).contains(&c.scale) {
        return Err(RecordError::Scale(c.scale));
    }
    if !(0.0..=1.0).contains(&result) {
        return Err(RecordError::Result(result));
    }
    let fixed = i16::try_from(c.fixed).map_err(|_| RecordError::Fixed(c.fixed))?;
    let eg_fixed = i16::try_from(c.eg_fixed).map_err(|_| RecordError::EgFixed(c.eg_fixed))?;
    if let Some(&(i, _)) = c.terms.iter().find(|t| t.0 as usize >= MAX_PARAMS) {
        return Err(RecordError::Index(i));
    }
    Ok((fixed, eg_fixed))
}

/// The merged terms as the dictionary's scaled slots, and the bytes of the other terms: pairs
/// of (gap from the previous other index, coefficient), a coefficient beyond `i8` split into
/// parts of at most 127 and a gap beyond a byte into steps of 255 with coefficient 0.
fn split_terms(terms: &[(u16, i16)], dict: &Dict) -> (Vec<u32>, Vec<u8>) {
    let (mut slots, mut others) = (Vec::new(), Vec::new());
    let mut cur_other = 0usize;
    for &(i, v) in terms {
        let i = i as usize;
        if let Some(s) = dict.scaled(i as u16, v) {
            slots.push(s);
        } else {
            // split coefficients beyond i8 into parts of at most 127 in magnitude
            let mut v = v;
            while v != 0 {
                let part = v.clamp(-127, 127);
                let mut gap = i - cur_other;
                while gap > u8::MAX as usize {
                    others.extend([u8::MAX, 0]);
                    gap -= u8::MAX as usize;
                }
                others.extend([gap as u8, part as i8 as u8]);
                cur_other = i;
                v -= part;
            }
        }
    }
    (slots, others)
}

/// The slots as a chain of one-byte gaps, and after the first gap beyond a byte every further
/// slot as two bytes (the far slots).
fn chain_and_far(slots: &[u32]) -> (Vec<u8>, Vec<u8>) {
    let (mut chain, mut far) = (Vec::new(), Vec::new());
    let mut cur = 0usize;
    for &slot in slots {
        let slot = slot as usize;
        if slot - cur > u8::MAX as usize || !far.is_empty() {
            far.extend((slot as u16).to_le_bytes());
        } else {
            chain.push((slot - cur) as u8);
            cur = slot;
        }
    }
    (chain, far)
}

/// Decodes the record of `len` bytes at byte `at` of bytes already checked by [`decode`] (a
/// store's): the kernel's path, without the range checks and error values that kept the
/// checked decoder from being inlined.
#[inline(always)]
pub fn decode_trusted(data: &[u8], at: usize, len: usize) -> Rec<'_> {
    let h = &data[at..at + 3];
    let (nu, nf) = (h[1] as usize, 2 * (h[2] & 127) as usize);
    let mut k = at + 3;
    let mut scale = SCALE_MAX as u8;
    if h[2] >> 7 == 1 {
        scale = data[k];
        k += 1;
    }
    let code = (h[0] >> 5) & 3;
    let mut result = [0.0, 0.5, 1.0, 0.0][code as usize];
    if code == 3 {
        result = u16::from_le_bytes([data[k], data[k + 1]]) as f64 / RESULT_ONE;
        k += 2;
    }
    let mut fixed = 0;
    if h[0] >> 7 == 1 {
        fixed = i16::from_le_bytes([data[k], data[k + 1]]);
        k += 2;
    }
    let eg_fixed = i16::from_le_bytes([data[k], data[k + 1]]);
    k += 2;
    let end = at + len;
    Rec {
        result,
        phase: h[0] & 31,
        scale,
        fixed,
        eg_fixed,
        unit: &data[k..k + nu],
        far: &data[k + nu..k + nu + nf],
        general: &data[k + nu + nf..end],
        bytes: &data[at..end],
    }
}

/// Decodes the record of `len` bytes at byte `at`, checking that it lies inside `data`, its
/// header is in range and its groups fill exactly its length (its terms are not checked:
/// [`super::store::Store::from_bytes`] does that).
pub fn decode(data: &[u8], at: usize, len: usize) -> Result<Rec<'_>, RecordError> {
    let rec = data
        .get(at..at + len)
        .ok_or(RecordError::PastEnd { len, at })?;
    let h = rec
        .get(..3)
        .ok_or(RecordError::Short { len, says: false })?;
    let phase = h[0] & 31;
    if phase as i32 > PHASE_MAX {
        return Err(RecordError::PhaseByte(phase));
    }
    let code = (h[0] >> 5) & 3;
    let (nu, nf) = (h[1] as usize, 2 * (h[2] & 127) as usize);
    // three header bytes and the fixed end-game part, then the optional fields
    let head =
        5 + usize::from(h[2] >> 7 == 1) + 2 * usize::from(code == 3) + 2 * (h[0] >> 7) as usize;
    let rest = len
        .checked_sub(head + nu + nf)
        .ok_or(RecordError::Short { len, says: true })?;
    if rest % 2 != 0 {
        return Err(RecordError::InsideTerm(len));
    }
    let r = decode_trusted(data, at, len);
    if r.scale as i32 > SCALE_MAX || (h[2] >> 7 == 1 && r.scale as i32 == SCALE_MAX) {
        return Err(RecordError::ScaleByte(r.scale));
    }
    if r.result > 1.0 {
        return Err(RecordError::ResultAbove(r.result));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tune::dict::{Def, Rule};

    fn one(c: &Coefs, result: f64) -> Vec<u8> {
        let mut out = Vec::new();
        encode(c, result, &Dict::none(), &mut out).unwrap();
        out
    }

    #[test]
    fn terms_with_a_slot_take_one_or_two_bytes() {
        let scaled = |m, index, coef| Rule {
            m,
            def: Def::Scaled { index, coef },
        };
        // slots 0 to 1001, numbered without gaps; four of them are the position's terms
        let rules = (0..=1001u32)
            .map(|k| match k {
                0 => scaled(0, 0, 1),
                8 => scaled(8, 1, -2),
                12 => scaled(12, 2, 2),
                1001 => scaled(1001, 200, -1),
                _ => scaled(k, 300 + (k % 300) as u16, 3 + (k / 300) as i16),
            })
            .collect();
        let dict = Dict::from_rules(rules, 640).unwrap();
        let c = Coefs {
            phase: 24,
            scale: 128,
            fixed: 0,
            eg_fixed: -47,
            terms: vec![(0, 1), (1, -2), (2, 2), (200, -1), (201, 5)],
        };
        let mut b = Vec::new();
        encode(&c, 1.0, &dict, &mut b).unwrap();
        let r = decode(&b, 0, b.len()).unwrap();
        // slots 0, 8, 12 in the chain (gaps 0, 8, 4), 1001 far (past a gap of 255);
        // (201, 5) has no slot
        assert_eq!(r.unit, &[0, 8, 4]);
        assert_eq!(r.far, &1001u16.to_le_bytes());
        assert_eq!(r.general, &[201, 5]);
        // three header bytes (no scale byte at 128, no result bytes for a win, no fixed part)
        // and the fixed end-game part
        assert_eq!(b.len(), 3 + 2 + 3 + 2 + 2);
        assert_eq!(r.coefs(&dict), c);
        assert_eq!(r.width(&dict), 202);
        // without a dictionary every term is another term
        let plain = one(&c, 1.0);
        let r = decode(&plain, 0, plain.len()).unwrap();
        assert!(r.unit.is_empty());
        assert_eq!(r.coefs(&Dict::none()), c);
    }

    #[test]
    fn duplicate_indices_are_merged_before_encoding() {
        let c = Coefs {
            phase: 3,
            scale: 64,
            fixed: 9,
            eg_fixed: 57,
            terms: vec![(7, 1), (7, 1), (9, 1), (9, -1), (12, -300)],
        };
        let b = one(&c, 0.25);
        let r = decode(&b, 0, b.len()).unwrap();
        assert_eq!(r.coefs(&Dict::none()).terms, vec![(7, 2), (12, -300)]);
        assert_eq!((r.scale, r.fixed, r.eg_fixed, r.phase), (64, 9, 57, 3));
        assert!((r.result - 0.25).abs() < 2e-5);
        assert!(decode(&b[..b.len() - 1], 0, b.len()).is_err());
        assert!(decode(&b, 0, b.len() - 1).is_err());
    }
}
