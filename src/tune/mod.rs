//! Texel tuning: datasets, coefficient extraction, K fitting, optimiser, weight output.

// The CLI (src/cmd/tune.rs) uses these once the engine's eval::trace lands; until then only tests do.
#![allow(dead_code)]

pub mod adam;
pub mod dataset;
pub mod kfit;
pub mod labels;
pub mod model;
pub mod optimise;
pub mod pgn;
pub mod rng;
pub mod store;
