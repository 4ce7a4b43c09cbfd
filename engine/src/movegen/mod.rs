//! Attacks (magic bitboards), legal move generation, captures-only generation, perft.
