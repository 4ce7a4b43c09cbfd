//! Texel tuning: datasets, coefficient extraction, K fitting, optimiser, weight output.

pub mod adam;
pub mod adopt;
pub mod block;
pub mod cache;
pub mod coefs;
pub mod dataset;
pub mod dict;
pub mod error;
pub mod kernel;
pub mod kfit;
pub mod load;
pub mod model;
pub mod optimise;
pub mod output;
pub mod record;
pub mod run;
pub mod store;
pub mod terms;
pub mod tune_error;

pub use tune_error::TuneError;
