//! A dataset's dictionary: the terms a record's chain may hold, each in one slot of the kernel's
//! table, and macros, pairs of terms that occur together in many positions, stored as one.
//!
//! A slot is either a scaled weight, `coef * w[index]` for one (index, coefficient) frequent in
//! the data, or a pair, the sum of two earlier slots. The evaluation is linear, so a position's
//! sum is unchanged when two of its terms `a` and `b` are replaced by one `m` with
//! `t[m] = t[a] + t[b]`, and the gradient is unchanged when `m`'s share is passed back to `a`
//! and `b`. Pairs are learnt as in Re-Pair (Larsson and Moffat's grammar compression): the most
//! frequent pair of slots becomes a new slot, which may pair again. On the engine's self-play
//! data they leave a position about 25 chain terms of its 43 (docs/results-tune.md), so the
//! kernel does fewer additions and reads fewer bytes; the table costs one multiplication or
//! addition a slot per epoch, and the gradient's unfolding as much.
//!
//! Slots are numbered most frequent first, so the hot ones share cache lines and a position's
//! gaps stay short: its slots up to the first gap past one byte are its record's chain, one
//! byte a term, the rest its far terms, two bytes a term ([`super::record`]). A term without
//! a slot goes to the record's other terms.

pub use super::error::DictError;
use super::terms::{Coefs, MAX_PARAMS};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Most pairs a dictionary learns: the gain per pair falls off (docs/results-tune.md), and every
/// slot is a pair of weights in the kernel's tables, which should stay in the second-level
/// cache.
pub const PAIRS: usize = 8192;
/// Most scaled weights (every (index, coefficient) seen often enough has one).
pub const SCALED: usize = 4096;
/// Most terms one slot stands for (a learnt pair stands for a few dozen at most).
const MAX_EXPANSION: usize = 1024;

// far slots are two bytes
const _: () = assert!(SCALED + PAIRS <= 1 << 16);

/// Positions the dictionary is learnt from (the first ones traced: the first window of
/// [`super::load::WINDOW`]).
pub const SAMPLE: usize = 65_536;
/// Pairs chosen per counting round (pairwise disjoint, so their order inside a round is free).
const PER_ROUND: usize = 128;
/// Most frequent slots whose pairs are counted in a round (a dense count table of this squared).
const CANDIDATES: usize = 1024;

/// What a slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Def {
    /// One weight times a coefficient.
    Scaled {
        /// Weight index.
        index: u16,
        /// Its coefficient.
        coef: i16,
    },
    /// The sum of two earlier slots: terms `a` and `b` of a position are replaced by this one.
    Pair(u32, u32),
}

/// One slot and what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The slot.
    pub m: u32,
    /// What it holds.
    pub def: Def,
}

/// The slots of one dataset, in the order they are defined (a pair after its parts).
#[derive(Clone, Debug, Default)]
pub struct Dict {
    rules: Vec<Rule>,
    /// Pair rule numbers by part slot (for encoding).
    by_part: Vec<Vec<u32>>,
    /// Rule number of each slot.
    rule_of: Vec<u32>,
    /// One past the largest weight index under each slot.
    width_of: Vec<u32>,
    /// The slot of each scaled weight.
    scaled: HashMap<(u16, i16), u32>,
}

impl Dict {
    /// No slots: every term of a record is one of its other terms.
    pub fn none() -> Dict {
        Dict::default()
    }

    /// True when the dictionary has no slots.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The slots, in the order they are defined.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The number of pair slots.
    pub fn pairs(&self) -> usize {
        self.rules
            .iter()
            .filter(|r| matches!(r.def, Def::Pair(..)))
            .count()
    }

    /// Length of the kernel's table.
    pub fn slots(&self) -> usize {
        self.rule_of.len()
    }

    /// One past the largest weight index under `slot`.
    pub fn width_of(&self, slot: usize) -> usize {
        self.width_of.get(slot).map_or(0, |&w| w as usize)
    }

    /// Whether a record may hold `slot`: a slot of this dictionary.
    pub fn check_slot(&self, slot: usize) -> Result<(), DictError> {
        if slot < self.slots() {
            Ok(())
        } else {
            Err(DictError::SlotPast {
                slot,
                slots: self.slots(),
            })
        }
    }

    /// The slot of the scaled weight `(index, coef)`, if the dictionary has one.
    #[inline]
    pub fn scaled(&self, index: u16, coef: i16) -> Option<u32> {
        if self.scaled.is_empty() {
            return None;
        }
        self.scaled.get(&(index, coef)).copied()
    }

    /// The (index, coefficient) terms `slot` stands for, appended to `out`.
    pub fn expand(&self, slot: usize, out: &mut Vec<(u16, i16)>) {
        let mut stack = vec![slot];
        while let Some(s) = stack.pop() {
            let Some(&r) = self.rule_of.get(s) else {
                continue;
            };
            match self.rules.get(r as usize).map(|r| r.def) {
                Some(Def::Pair(a, b)) => stack.extend([b as usize, a as usize]),
                Some(Def::Scaled { index, coef }) => out.push((index, coef)),
                None => {}
            }
        }
    }

    /// Replaces pairs of `slots` (distinct scaled-weight slots) by pair slots, rule by rule
    /// in order; the result is sorted.
    pub fn apply(&self, slots: &mut Vec<u32>) {
        let mut heap: BinaryHeap<Reverse<u32>> = BinaryHeap::new();
        let pair = |r: u32| match self.rules[r as usize].def {
            Def::Pair(a, b) => (a, b, self.rules[r as usize].m),
            Def::Scaled { .. } => unreachable!("by_part lists pairs only"),
        };
        for &x in slots.iter() {
            for &r in self.parts(x) {
                let (a, b, _) = pair(r);
                if a == x && slots.contains(&b) {
                    heap.push(Reverse(r));
                }
            }
        }
        // rules are popped in order; a rule found later (its part made by an earlier rule)
        // comes after that rule
        while let Some(Reverse(r)) = heap.pop() {
            let (a, b, m) = pair(r);
            let (Some(ia), true) = (slots.iter().position(|&s| s == a), slots.contains(&b)) else {
                continue;
            };
            slots.swap_remove(ia);
            let ib = slots.iter().position(|&s| s == b).expect("present");
            slots.swap_remove(ib);
            slots.push(m);
            for &r2 in self.parts(m) {
                let (a2, b2, _) = pair(r2);
                let other = if a2 == m { b2 } else { a2 };
                if slots.contains(&other) {
                    heap.push(Reverse(r2));
                }
            }
        }
        slots.sort_unstable();
    }

    fn parts(&self, slot: u32) -> &[u32] {
        self.by_part.get(slot as usize).map_or(&[], |v| v)
    }

    /// Learns the dictionary of a dataset from `sample` (its first [`SAMPLE`] positions) for a
    /// layout of `params` weights: a scaled weight for every (index, coefficient) seen in at
    /// least one position in 2,048 (and at least 4), then pairs as frequent, round by round.
    pub fn learn(sample: &[Coefs], params: usize) -> Dict {
        let sample = &sample[..sample.len().min(SAMPLE)];
        let min = (sample.len() / 2048).max(4) as u32;
        // during learning slot k is rule k; renumbered by frequency at the end
        let frequent = frequent_terms(sample, params, min);
        let mut defs: Vec<Def> = frequent
            .iter()
            .map(|&((index, coef), _)| Def::Scaled { index, coef })
            .collect();
        let slot: HashMap<(u16, i16), u32> = frequent
            .iter()
            .enumerate()
            .map(|(k, &(t, _))| (t, k as u32))
            .collect();
        let mut pos: Vec<Vec<u32>> = sample
            .iter()
            .map(|c| {
                let mut p: Vec<u32> = c
                    .terms
                    .iter()
                    .filter_map(|t| slot.get(t).copied())
                    .collect();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        let mut counts = vec![0u32; CANDIDATES * CANDIDATES];
        while defs.len() < frequent.len() + PAIRS {
            let chosen = frequent_pairs(&pos, defs.len(), min, &mut counts);
            let room = frequent.len() + PAIRS - defs.len();
            let chosen = &chosen[..chosen.len().min(room)];
            if chosen.is_empty() {
                break;
            }
            apply_round(&mut pos, chosen, defs.len());
            defs.extend(chosen.iter().map(|&(a, b)| Def::Pair(a, b)));
        }
        let rules = renumbered(&defs, &pos);
        Dict::from_rules(rules, params).expect("learnt rules are well formed")
    }

    /// A dictionary of `rules` for a layout of `params` weights; fails when a rule is malformed
    /// (a slot defined twice or past the limit, a pair part not defined before it, a scaled
    /// weight of an index past the layout, of coefficient 0, or twice).
    pub fn from_rules(rules: Vec<Rule>, params: usize) -> Result<Dict, DictError> {
        let mut d = Dict::none();
        let params = params.min(MAX_PARAMS);
        let limit = SCALED + PAIRS;
        // how many terms each slot expands to: a forged file could make it grow like the
        // Fibonacci numbers
        let mut size: Vec<usize> = Vec::new();
        for (k, r) in rules.iter().enumerate() {
            let m = r.m as usize;
            if m >= limit || d.rule_of.get(m).is_some_and(|&x| x != u32::MAX) {
                return Err(DictError::NotFree { rule: k, slot: m });
            }
            if d.rule_of.len() <= m {
                d.rule_of.resize(m + 1, u32::MAX);
                d.width_of.resize(m + 1, 0);
                size.resize(m + 1, 0);
            }
            let width = match r.def {
                Def::Pair(a, b) => d.add_pair(k, m, (a, b), &mut size)?,
                Def::Scaled { index, coef } => {
                    d.add_scaled(k, r.m, (index, coef), params)?;
                    size[m] = 1;
                    index as usize + 1
                }
            };
            d.rule_of[m] = k as u32;
            d.width_of[m] = width as u32;
            d.rules.push(*r);
        }
        if let Some(gap) = d.rule_of.iter().position(|&r| r == u32::MAX) {
            return Err(DictError::Undefined { slot: gap });
        }
        Ok(d)
    }

    /// Rule `k`, slot `m`, the pair of slots `a` and `b` (defined before it, not one slot
    /// twice, not expanding to too many terms): records `m`'s expansion in `size` and the
    /// pair under both parts; returns its width (the parts' widest).
    fn add_pair(
        &mut self,
        k: usize,
        m: usize,
        (a, b): (u32, u32),
        size: &mut [usize],
    ) -> Result<usize, DictError> {
        for part in [a as usize, b as usize] {
            if self.rule_of.get(part).is_none_or(|&x| x == u32::MAX) {
                return Err(DictError::PartUndefined { rule: k, part });
            }
        }
        if a == b {
            return Err(DictError::SameParts { rule: k, slot: a });
        }
        let n = size[a as usize] + size[b as usize];
        if n > MAX_EXPANSION {
            return Err(DictError::Expansion {
                rule: k,
                slot: m,
                terms: n,
            });
        }
        size[m] = n;
        let need = m.max(a as usize).max(b as usize) + 1;
        if self.by_part.len() < need {
            self.by_part.resize(need, Vec::new());
        }
        self.by_part[a as usize].push(k as u32);
        self.by_part[b as usize].push(k as u32);
        Ok(self.width_of(a as usize).max(self.width_of(b as usize)))
    }

    /// Rule `k`, the scaled weight (`index`, `coef`) as `slot`: an index inside the layout of
    /// `params` weights, a coefficient other than 0, a weight not scaled before.
    fn add_scaled(
        &mut self,
        k: usize,
        slot: u32,
        (index, coef): (u16, i16),
        params: usize,
    ) -> Result<(), DictError> {
        if index as usize >= params || coef == 0 {
            return Err(DictError::Scaled {
                rule: k,
                index,
                coef,
                twice: false,
            });
        }
        if self.scaled.insert((index, coef), slot).is_some() {
            return Err(DictError::Scaled {
                rule: k,
                index,
                coef,
                twice: true,
            });
        }
        Ok(())
    }

    /// The dictionary as bytes (for the cache file): the rule count, then three little-endian
    /// u32 a rule: its slot, then its two parts, or for a scaled weight the index with bit 31
    /// set and the coefficient.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + 12 * self.rules.len());
        out.extend((self.rules.len() as u32).to_le_bytes());
        for r in &self.rules {
            let (x, y) = match r.def {
                Def::Pair(a, b) => (a, b),
                Def::Scaled { index, coef } => (index as u32 | 1 << 31, coef as i32 as u32),
            };
            for w in [r.m, x, y] {
                out.extend(w.to_le_bytes());
            }
        }
        out
    }

    /// Reads [`Dict::to_bytes`] for a layout of `params` weights.
    pub fn from_bytes(b: &[u8], params: usize) -> Result<Dict, DictError> {
        let word = |k: usize| -> Result<u32, DictError> {
            b.get(4 * k..4 * k + 4)
                .map(|x| u32::from_le_bytes(x.try_into().expect("4 bytes")))
                .ok_or(DictError::CutShort)
        };
        let n = word(0)? as usize;
        if b.len() as u64 != 4 + 12 * n as u64 {
            return Err(DictError::Size {
                rules: n,
                bytes: b.len(),
            });
        }
        let rules = (0..n)
            .map(|k| {
                let (m, x, y) = (word(1 + 3 * k)?, word(2 + 3 * k)?, word(3 + 3 * k)?);
                let def = if x >> 31 == 1 {
                    let index = u16::try_from(x & !(1 << 31)).map_err(|_| DictError::Word {
                        rule: k,
                        what: "index",
                        word: x,
                    })?;
                    let coef = i16::try_from(y as i32).map_err(|_| DictError::Word {
                        rule: k,
                        what: "coefficient",
                        word: y,
                    })?;
                    Def::Scaled { index, coef }
                } else {
                    Def::Pair(x, y)
                };
                Ok(Rule { m, def })
            })
            .collect::<Result<Vec<_>, DictError>>()?;
        Dict::from_rules(rules, params)
    }

    /// The kernel's table at weights `w`: each scaled weight's product, each pair's sum.
    pub fn table(&self, w: &[[f64; 2]]) -> Vec<[f64; 2]> {
        let mut t = vec![[0.0; 2]; self.slots()];
        for r in &self.rules {
            t[r.m as usize] = match r.def {
                Def::Pair(a, b) => {
                    let (a, b) = (t[a as usize], t[b as usize]);
                    [a[0] + b[0], a[1] + b[1]]
                }
                Def::Scaled { index, coef } => {
                    let x = w[index as usize];
                    [coef as f64 * x[0], coef as f64 * x[1]]
                }
            };
        }
        t
    }

    /// Adds the gradient of every weight to `grad` from the slots' sums `g` (each pair's sum
    /// passed back to its parts, last pair first; each scaled weight's times its
    /// coefficient). `g` is consumed as scratch.
    pub fn unfold(&self, g: &mut [[f64; 2]], grad: &mut [[f64; 2]]) {
        for r in self.rules.iter().rev() {
            let x = g[r.m as usize];
            match r.def {
                Def::Pair(a, b) => {
                    for p in [a as usize, b as usize] {
                        g[p] = [g[p][0] + x[0], g[p][1] + x[1]];
                    }
                }
                Def::Scaled { index, coef } => {
                    let (c, o) = (coef as f64, &mut grad[index as usize]);
                    *o = [o[0] + c * x[0], o[1] + c * x[1]];
                }
            }
        }
    }
}

/// The (index, coefficient) terms of `sample` inside a layout of `params` weights seen in at
/// least `min` positions, most frequent first (ties by term), at most [`SCALED`] of them.
fn frequent_terms(sample: &[Coefs], params: usize, min: u32) -> Vec<((u16, i16), u32)> {
    let mut counted: HashMap<(u16, i16), u32> = HashMap::new();
    for c in sample {
        for &(i, v) in &c.terms {
            if (i as usize) < params && v != 0 {
                *counted.entry((i, v)).or_default() += 1;
            }
        }
    }
    let mut frequent: Vec<((u16, i16), u32)> =
        counted.into_iter().filter(|&(_, n)| n >= min).collect();
    frequent.sort_by_key(|&(t, n)| (Reverse(n), t));
    frequent.truncate(SCALED);
    frequent
}

/// The rules of `defs` (slot k defined by `defs[k]`) renumbered by how often each slot occurs
/// in the rewritten positions `pos`, most frequent first (ties by slot).
fn renumbered(defs: &[Def], pos: &[Vec<u32>]) -> Vec<Rule> {
    let used = occurrences(pos, defs.len());
    let mut order: Vec<usize> = (0..defs.len()).collect();
    order.sort_by_key(|&k| (Reverse(used[k]), k));
    let mut slot_of = vec![0u32; defs.len()];
    for (next, &k) in order.iter().enumerate() {
        slot_of[k] = next as u32;
    }
    defs.iter()
        .enumerate()
        .map(|(k, d)| Rule {
            m: slot_of[k],
            def: match *d {
                Def::Pair(a, b) => Def::Pair(slot_of[a as usize], slot_of[b as usize]),
                scaled => scaled,
            },
        })
        .collect()
}

/// How many positions of `pos` hold each slot below `n`.
fn occurrences(pos: &[Vec<u32>], n: usize) -> Vec<u32> {
    let mut freq = vec![0u32; n];
    for p in pos {
        for &x in p {
            freq[x as usize] += 1;
        }
    }
    freq
}

/// Replaces, in every position of `pos` (sorted slots), each of the round's `chosen` pairs
/// by its new slot, numbered from `first`; the pairs are disjoint, so they apply at once.
fn apply_round(pos: &mut [Vec<u32>], chosen: &[(u32, u32)], first: usize) {
    let mut partner = vec![None; first + chosen.len()];
    for (k, &(a, b)) in chosen.iter().enumerate() {
        partner[a as usize] = Some((b, (first + k) as u32));
    }
    let (mut add, mut del) = (Vec::new(), Vec::new());
    for p in pos {
        add.clear();
        del.clear();
        for &x in p.iter() {
            if let Some((b, m)) = partner[x as usize] {
                if p.binary_search(&b).is_ok() {
                    del.extend([x, b]);
                    add.push(m);
                }
            }
        }
        if !add.is_empty() {
            p.retain(|x| !del.contains(x));
            p.extend(&add);
            p.sort_unstable();
        }
    }
}

/// The most frequent pairs of slots in `pos` (slots below `n`), pairwise disjoint, at most
/// [`PER_ROUND`], each seen in at least `min` positions, as (smaller, larger) slot.
fn frequent_pairs(pos: &[Vec<u32>], n: usize, min: u32, counts: &mut [u32]) -> Vec<(u32, u32)> {
    let freq = occurrences(pos, n);
    let mut cands: Vec<u32> = (0..n as u32).filter(|&x| freq[x as usize] >= min).collect();
    cands.sort_by_key(|&x| (Reverse(freq[x as usize]), x));
    cands.truncate(CANDIDATES);
    let f = cands.len();
    let mut dense = vec![u32::MAX; n];
    for (k, &x) in cands.iter().enumerate() {
        dense[x as usize] = k as u32;
    }
    counts[..f * f].fill(0);
    let mut c: Vec<u32> = Vec::new();
    for p in pos {
        c.clear();
        c.extend(
            p.iter()
                .map(|&x| dense[x as usize])
                .filter(|&k| k != u32::MAX),
        );
        c.sort_unstable();
        for (i, &x) in c.iter().enumerate() {
            let row = &mut counts[x as usize * f..x as usize * f + f];
            for &y in &c[i + 1..] {
                row[y as usize] += 1;
            }
        }
    }
    let mut pairs: Vec<(u32, u32, u32)> = Vec::new();
    for i in 0..f {
        for j in i + 1..f {
            let k = counts[i * f + j];
            if k >= min {
                pairs.push((k, i as u32, j as u32));
            }
        }
    }
    pairs.sort_by_key(|&(k, i, j)| (Reverse(k), i, j));
    let mut used = vec![false; f];
    let mut chosen = Vec::new();
    for &(_, i, j) in &pairs {
        if chosen.len() == PER_ROUND {
            break;
        }
        if !used[i as usize] && !used[j as usize] {
            used[i as usize] = true;
            used[j as usize] = true;
            let (a, b) = (cands[i as usize], cands[j as usize]);
            chosen.push((a.min(b), a.max(b)));
        }
    }
    chosen
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use sable::rng::Rng;

    /// Positions over `params` weights with planted groups of terms that occur together.
    pub(crate) fn planted(n: usize, params: u16, seed: u64) -> Vec<Coefs> {
        let mut rng = Rng::from_seed(seed);
        let groups: Vec<Vec<(u16, i16)>> = (0..6)
            .map(|g| {
                (0..5)
                    .map(|k| (7 * g + k + 1, [1, -1, 2, -3, 5][k as usize]))
                    .collect()
            })
            .collect();
        (0..n)
            .map(|_| {
                let mut terms: Vec<(u16, i16)> = Vec::new();
                for g in &groups {
                    if rng.next_u64().is_multiple_of(2) {
                        terms.extend(g);
                    }
                }
                for _ in 0..8 {
                    let i = 50 + (rng.next_u64() % (params as u64 - 50)) as u16;
                    if !terms.iter().any(|t| t.0 == i) {
                        terms.push((i, (rng.next_u64() % 3) as i16 + 1));
                    }
                }
                terms.sort_unstable();
                Coefs {
                    phase: 12,
                    scale: 128,
                    fixed: 0,
                    eg_fixed: 0,
                    terms,
                }
            })
            .collect()
    }

    /// The slots of `c`'s terms that have one, with the dictionary's pairs applied, and the
    /// terms that have none.
    fn encoded(d: &Dict, c: &Coefs) -> (Vec<u32>, Vec<(u16, i16)>) {
        let (mut slots, mut rest) = (Vec::new(), Vec::new());
        for &(i, v) in &c.terms {
            match d.scaled(i, v) {
                Some(s) => slots.push(s),
                None => rest.push((i, v)),
            }
        }
        d.apply(&mut slots);
        (slots, rest)
    }

    #[test]
    fn learnt_pairs_shorten_positions_and_expand_back_to_them() {
        let train = planted(4000, 300, 1);
        let d = Dict::learn(&train, 300);
        assert!(d.pairs() > 0);
        let (mut before, mut after) = (0, 0);
        for c in planted(2000, 300, 2) {
            let (s, rest) = encoded(&d, &c);
            assert!(s.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
            let mut back = rest.clone();
            for &x in &s {
                d.expand(x as usize, &mut back);
            }
            back.sort_unstable();
            assert_eq!(back, c.terms);
            before += c.terms.len();
            after += s.len() + rest.len();
        }
        // each planted group of five is one slot: 15 + 8 terms become about 3 + 8
        assert!(after * 3 < before * 2, "{after} terms of {before}");
        // a dictionary survives its bytes, and the same sample learns the same dictionary
        let back = Dict::from_bytes(&d.to_bytes(), 300).unwrap();
        assert_eq!(back.rules(), d.rules());
        assert_eq!(Dict::learn(&train, 300).rules(), d.rules());
        // the most used slots come first
        let s = encoded(&d, &train[0]).0;
        assert!(s[0] < 16, "{s:?}");
    }

    #[test]
    fn the_table_and_the_unfolded_gradient_follow_the_expansion() {
        let d = Dict::learn(&planted(3000, 100, 3), 100);
        let w: Vec<[f64; 2]> = (0..100).map(|i| [i as f64, 1.0 - 0.5 * i as f64]).collect();
        let t = d.table(&w);
        let mut g = vec![[0.0; 2]; d.slots()];
        for r in d.rules() {
            let mut terms = Vec::new();
            d.expand(r.m as usize, &mut terms);
            let want: f64 = terms
                .iter()
                .map(|&(i, c)| c as f64 * w[i as usize][0])
                .sum();
            assert_eq!(t[r.m as usize][0], want);
            g[r.m as usize] = [1.0, 2.0];
        }
        let mut grad = vec![[0.0; 2]; 100];
        d.unfold(&mut g, &mut grad);
        // every weight's gradient sums its coefficient under every slot
        for (i, gi) in grad.iter().enumerate() {
            let mut want = 0.0;
            for r in d.rules() {
                let mut terms = Vec::new();
                d.expand(r.m as usize, &mut terms);
                want += terms
                    .iter()
                    .filter(|t| t.0 as usize == i)
                    .map(|t| t.1 as f64)
                    .sum::<f64>();
            }
            assert_eq!(*gi, [want, 2.0 * want], "weight {i}");
        }
    }

    #[test]
    fn malformed_rules_are_refused() {
        let s = |m: u32, index: u16, coef: i16| Rule {
            m,
            def: Def::Scaled { index, coef },
        };
        let ok = vec![
            s(0, 3, 1),
            s(1, 4, -7),
            Rule {
                m: 2,
                def: Def::Pair(0, 1),
            },
        ];
        assert!(Dict::from_rules(ok.clone(), 10).is_ok());
        let bad: Vec<Vec<Rule>> = vec![
            vec![s(0, 10, 1)],
            vec![s(0, 3, 0)],
            vec![s(0, 3, 1), s(1, 3, 1)],
            vec![s(0, 3, 1), s(0, 4, 1)],
            vec![s((SCALED + PAIRS) as u32, 3, 1)],
            vec![Rule {
                m: 2,
                def: Def::Pair(0, 1),
            }],
            vec![
                s(0, 3, 1),
                Rule {
                    m: 2,
                    def: Def::Pair(0, 0),
                },
            ],
        ];
        // a slot left undefined, and pairs of pairs that stand for ever more terms
        let mut fib = vec![s(0, 3, 1), s(1, 4, -7)];
        for m in 2..40u32 {
            fib.push(Rule {
                m,
                def: Def::Pair(m - 2, m - 1),
            });
        }
        let e = Dict::from_rules(fib, 10).unwrap_err().to_string();
        assert!(e.contains("terms"), "{e}");
        let e = Dict::from_rules(vec![s(0, 3, 1), s(2, 4, 1)], 10).unwrap_err();
        assert!(e.to_string().contains("slot 1 is not defined"), "{e}");
        for rules in bad {
            assert!(Dict::from_rules(rules.clone(), 10).is_err(), "{rules:?}");
        }
        let b = Dict::from_rules(ok, 10).unwrap().to_bytes();
        assert!(Dict::from_bytes(&b, 10).is_ok());
        assert!(Dict::from_bytes(&b, 4).is_err());
        assert!(Dict::from_bytes(&b[..b.len() - 1], 10).is_err());
    }
}
