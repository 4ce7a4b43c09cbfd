//! The engine's integration tests, one binary (each file below is a module of it), linked
//! once with the release profile's fat LTO instead of once per file. Run one file's tests
//! with its module name as the filter, e.g. `cargo test --release -p sable --test
//! integration perft_known::`.

mod common;

mod board_rules;
mod chess960;
mod differential;
mod eval;
mod eval_endgames;
mod eval_params;
mod fen_rules;
mod hostile_input;
mod perft_cli;
mod perft_known;
mod search;
mod smp_stress;
mod syzygy_agree;
mod syzygy_convert;
mod syzygy_input;
mod syzygy_search;
mod threads;
mod uci;
