//! Suite formats: EPD test suites (bm, am, id, dm, c0, c9) and perft suites; scoring.

pub mod perft;
pub mod perft_referee;
