//! UCI protocol loop.
