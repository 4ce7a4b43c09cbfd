//! The Sable test harness as a library: perft suites, tactical EPD suites, matches and SPRT,
//! SPSA and Texel tuning for UCI chess engines. The `harness` binary (src/main.rs) is its
//! command line.
//!
//! The domain modules never import [`cmd`]: each `cmd` module only turns its clap arguments
//! into calls of the domain modules and prints what they return.

pub mod check;
pub mod cmd;
pub mod datagen;
pub mod game;
pub mod report;
pub mod spsa;
pub mod stats;
pub mod suites;
pub mod tournament;
pub mod tune;
pub mod uci;

#[cfg(test)]
mod hostile_input;
