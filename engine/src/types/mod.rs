//! Small typed values: Square, Color, Piece, Bitboard, Move, CastlingRights.
