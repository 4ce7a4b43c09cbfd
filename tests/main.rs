//! The harness's integration tests, one binary (each file below is a module of it): one
//! test binary links the harness once with the release profile's fat LTO, where ~30
//! binaries linked it ~30 times (most of a fresh clone's `cargo test --release`).
//! Run one file's tests with its module name as the filter, e.g.
//! `cargo test --release -p sable-harness --test integration ratings_cli::`.

mod common;

mod bisect_cli;
mod broken_setup;
mod chess960_match;
mod crash_resume;
mod datagen_cli;
mod empty_input;
mod engine_words;
mod epd_cli;
mod epd_engines;
mod fastchess_cli;
mod faulty_engine;
mod forensics_cli;
mod hostile_env;
mod label_cli;
mod layers;
mod match_cli;
mod openbench_e2e;
mod outputs_cli;
mod ratings_cli;
mod readme_recipes;
mod resume_record;
mod run_files;
mod runner_scale;
mod sprt_stages;
mod spsa_cli;
mod syzygy_cli;
mod tune_cache;
mod tune_cli;
mod unknown_options;
