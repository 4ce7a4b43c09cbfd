//! TEMPORARY material-only evaluation until the `eval` branch lands (then deleted).

use crate::board::Board;
use crate::types::{Color, PieceType};

/// Stand-in for `eval::Params`.
#[derive(Clone, Debug, Default)]
pub struct Params {
    _private: (),
}

impl Params {
    /// Stand-in loader.
    pub fn load(_p: &std::path::Path) -> Result<Params, String> {
        Err("evaluation weights are not supported yet".into())
    }
}

/// Material plus a small centralisation term, from the side to move's view.
pub fn evaluate(board: &Board, _p: &Params) -> i32 {
    let v = [100, 320, 330, 500, 900, 0];
    let mut s = 0;
    for c in Color::ALL {
        let sign = if c == board.side_to_move() { 1 } else { -1 };
        for k in PieceType::ALL {
            s += sign * v[k.index()] * board.pieces(c, k).count() as i32;
        }
        // Mop-up-ish: keep the king central, push the enemy's to the edge.
        let ksq = board.king_square(c);
        let centre = |x: u8| (2 * x as i32 - 7).abs();
        s -= sign * 5 * (centre(ksq.file()) + centre(ksq.rank()));
    }
    s
}
