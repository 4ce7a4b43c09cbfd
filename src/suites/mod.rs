//! Suite formats: EPD test suites (bm, am, id, dm, c0, c9) and perft suites; scoring.

pub mod epd;
#[allow(dead_code)] // The API `harness check` calls (src/check, the coordinator's).
pub mod epd_embedded;
pub mod epd_gen;
pub mod epd_mate;
pub mod epd_report;
pub mod epd_run;
pub mod epd_score;
pub mod perft;
pub mod perft960;
pub mod perft_referee;

/// The shared reference data (`../shared/data` beside the checkout, as in CI, or `/work/shared/data`).
#[cfg(test)]
pub(crate) fn shared_data() -> std::path::PathBuf {
    let beside = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if beside.is_dir() {
        beside
    } else {
        std::path::PathBuf::from("/work/shared/data")
    }
}
