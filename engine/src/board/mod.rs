//! The board: bitboards per piece and colour, mailbox, state, FEN, make/unmake, Zobrist keys.
