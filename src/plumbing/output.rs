//! The one rule for output files: never overwritten silently.
