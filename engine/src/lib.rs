//! Sable: a UCI chess engine built as a library.
//!
//! The engine's rooms follow Stockfish's split: typed values (`types`), attack tables
//! (`attacks`, the leaf both the board and move generation use), the board and its state
//! (`board`), legal move generation and perft (`movegen`), search (`search`), evaluation with
//! tunable weights (`eval`), Syzygy tablebases (`tablebase`), the UCI protocol (`uci`) and the fixed benchmark (`bench`).
//! The harness (the workspace's root package) links this library for perft, tuning and data
//! generation, and talks to the `sable` binary over UCI for everything else.

pub mod attacks;
pub mod bench;
pub mod board;
pub mod eval;
pub mod genfens;
pub mod memory;
pub mod movegen;
pub mod rng;
pub mod search;
pub mod tablebase;
pub mod types;
pub mod uci;
