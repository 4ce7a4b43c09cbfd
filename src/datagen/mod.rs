//! Data generation for the tuner: labelled positions (CSV `fen,result,score`) from self-play of
//! the in-process engine ([`run`], one game at a time by [`selfplay`]; `harness datagen`) and
//! from PGN games (`harness extract`). The tuner (`crate::tune`) reads them back with
//! `tune::dataset`.

pub mod error;
pub mod extract;
pub mod labels;
pub mod run;
pub mod selfplay;

pub use error::DatagenError;
