//! Small typed values: Square, Color, Piece, Bitboard, Move, CastlingRights, MoveList.
//!
//! Each value is a cheap `Copy` newtype or `#[repr(u8)]` enum so that invalid states are hard to
//! build (a `Square` is always 0..64) and conversions cost nothing in the hot paths.

mod bitboard;
mod castling;
mod color;
mod movelist;
mod moves;
mod piece;
mod square;

pub use bitboard::{Bitboard, BitboardIter};
pub use castling::CastlingRights;
pub use color::Color;
pub use movelist::{MoveList, MAX_MOVES};
pub use moves::Move;
pub use piece::{Piece, PieceType};
pub use square::{ParseSquareError, Square};
