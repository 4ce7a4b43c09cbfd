//! The room for running things: what every long-running command stands on (files written whole,
//! outputs that are never overwritten by accident, one run per results file, Ctrl-C, the names of
//! a run's files). It imports nothing from the other rooms of the harness, so tournament, spsa,
//! bisect, tune, datagen and cmd can all stand on it.

pub mod append;
pub mod atomic;
pub mod hash;
pub mod interrupt;
pub mod lock;
pub mod naming;
pub mod output;
pub mod progress;
pub mod revision;
pub mod stdio;
pub mod timeouts;
