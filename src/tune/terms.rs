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
    /// (parameter index, white-minus-black coefficient), sorted by index, zeros omitted.
    pub terms: Vec<(u16, i16)>,
}
