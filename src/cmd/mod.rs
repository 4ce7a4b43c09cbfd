//! One module per subcommand: its clap arguments and its entry point.

pub mod bisect;
pub mod book;
pub mod check;
pub mod datagen;
pub mod epd;
pub mod extract;
pub mod fastchess;
pub mod label;
pub mod legacy_resume;
pub mod match_cmd;
pub mod perft;
pub mod ratings;
pub mod replay;
pub mod sprt;
pub mod sprt_args;
pub mod sprt_stages;
pub mod spsa;
pub mod stats;
pub mod suite_gen;
pub mod tb;
pub mod tune;
