//! One module per subcommand: its clap arguments and its entry point.

pub mod perft;
pub mod epd;
pub mod suite_gen;
pub mod match_cmd;
pub mod sprt;
pub mod stats;
pub mod book;
pub mod tune;
pub mod datagen;
pub mod extract;
pub mod check;
