//! Evaluation: tunable weights (`Params`), `evaluate`, and `trace` for the tuner.
