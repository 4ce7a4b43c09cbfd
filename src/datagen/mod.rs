//! Data generation for the tuner: labelled positions (CSV `fen,result,score`) from self-play of
//! the in-process engine (`harness datagen`) and from PGN games (`harness extract`). The tuner
//! (`crate::tune`) reads them back with `tune::dataset`.

pub mod extract;
pub mod labels;
pub mod selfplay;
