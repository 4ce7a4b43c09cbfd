//! The room for running things: what every long-running command stands on (files written whole,
//! outputs that are never overwritten by accident). It imports nothing from the other rooms of the
//! harness, so tournament, spsa, bisect, tune, datagen and cmd can all stand on it.

pub mod atomic;
pub mod output;
