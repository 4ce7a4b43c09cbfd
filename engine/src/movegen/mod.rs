//! Legal move generation (all moves, or captures and promotions only), move validation for moves
//! from tables, and perft, over the attack tables of `crate::attacks`.

mod checks;
mod generate;
mod perft;
mod validate;

pub use checks::CheckSquares;
pub use perft::{divide, perft};
