//! Texel tuning: datasets, coefficient extraction, K fitting, optimiser, weight output.
