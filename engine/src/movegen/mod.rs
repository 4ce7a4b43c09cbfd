//! Attacks (magic bitboards), legal move generation (all moves, or captures and promotions
//! only), move validation for moves from tables, and perft.

pub mod attacks;
mod checks;
mod generate;
mod magics;
mod perft;
mod rays;
mod validate;

pub use checks::CheckSquares;
pub use magics::init;
pub use perft::{divide, perft};
