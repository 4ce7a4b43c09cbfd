//! One atomic write for every file the harness replaces.
