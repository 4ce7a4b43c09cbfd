//! One position's evaluation as a linear form (what `sable::eval::trace` gives): the leaf that
//! the records, the dictionary learnt over them and the model all read.

/// Largest number of parameters a record can index (the dense arrays of the model).
pub const MAX_PARAMS: usize = 4096;

/// The linear form of one position's evaluation, from White's view (what `sable::eval::trace` gives).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coefs {
    /// Game phase, 0 (pawn endgame) ..= 24 (full middlegame).
    pub phase: i32,
    /// Endgame scale, 0 ..= 128.
    pub scale: i32,
    /// Untunable centipawns added after tapering.
    pub fixed: i32,
    /// Untunable centipawns added to the end-game sum, so tapered and scaled with it: the
    /// complexity term's adjustment at the compiled-in weights (it is not linear in the weights,
    /// so the tuner fixes it, as Ethereal's tuner does).
    pub eg_fixed: i32,
    /// (parameter index, white-minus-black coefficient), sorted by index, zeros omitted.
    pub terms: Vec<(u16, i16)>,
}

/// The tapering constants shared with the engine (`sable::eval::{PHASE_MAX, SCALE_MAX}`).
pub const PHASE_MAX: i32 = 24;
/// Endgame scale denominator.
pub const SCALE_MAX: i32 = 128;

/// Most far terms a record holds (7 bits of byte 2).
pub const MAX_FAR: usize = 127;

/// Longest record, in bytes (its length is one byte of the store's array of lengths).
pub const MAX_LEN: usize = u8::MAX as usize;
