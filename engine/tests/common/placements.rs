//! Random legal placements of given materials, as FENs, for the Syzygy tests.

use super::Rng;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// `per` random legal positions of each material (`KQvKR`: White has the first side), the side
/// to move alternating, halfmove clock 0. Legal means shakmaty accepts the position (the side
/// not to move is not in check, no pawn on a back rank, ...).
pub fn random_fens(materials: &[&str], per: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for m in materials {
        let (white, black) = m.split_once('v').expect("material like KQvKR");
        let pieces: Vec<char> = white
            .chars()
            .chain(black.chars().map(|c| c.to_ascii_lowercase()))
            .collect();
        let mut found = 0;
        while found < per {
            let mut squares: [Option<char>; 64] = [None; 64];
            for &c in &pieces {
                let mut sq = rng.below(64);
                while squares[sq].is_some()
                    || (c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq))
                {
                    sq = rng.below(64);
                }
                squares[sq] = Some(c);
            }
            let side = if found % 2 == 0 { "w" } else { "b" };
            let fen = format!("{} {side} - - 0 1", placement(&squares));
            let legal = fen
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
                .is_some();
            if legal {
                out.push(fen);
                found += 1;
            }
        }
    }
    out
}

/// The placement field of a FEN for pieces by square (a1 = 0).
pub fn placement(squares: &[Option<char>; 64]) -> String {
    let rows: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut gap = 0;
            for file in 0..8 {
                match squares[rank * 8 + file] {
                    Some(c) => {
                        if gap > 0 {
                            row.push_str(&gap.to_string());
                            gap = 0;
                        }
                        row.push(c);
                    }
                    None => gap += 1,
                }
            }
            if gap > 0 {
                row.push_str(&gap.to_string());
            }
            row
        })
        .collect();
    rows.join("/")
}
