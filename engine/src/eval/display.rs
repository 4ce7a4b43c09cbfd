//! `Params::display_tables`: the weights laid out for people.

use super::params::{Labels, Params, BLOCKS};
use std::fmt::Write as _;

impl Params {
    /// Every weight as text: piece-square tables as 8x8 boards (rank 8 at the top, each cell
    /// `mg/eg`), other blocks as `name  mg  eg` lines.
    pub fn display_tables(&self) -> String {
        let mut out = String::new();
        for b in BLOCKS {
            match b.labels {
                Labels::Squares => {
                    let _ = writeln!(out, "{} (mg/eg, rank 8 at the top)", b.name);
                    for rank in (0..8).rev() {
                        let _ = write!(out, "  {} ", rank + 1);
                        for file in 0..8 {
                            let s = self.get(b.start + rank * 8 + file);
                            let _ = write!(out, "{:>10}", format!("{}/{}", s.mg(), s.eg()));
                        }
                        out.push('\n');
                    }
                    out.push_str("    ");
                    for file in "abcdefgh".chars() {
                        let _ = write!(out, "{file:>10}");
                    }
                    out.push('\n');
                }
                _ => {
                    let _ = writeln!(out, "{}", b.name);
                    for i in b.start..b.start + b.len {
                        let s = self.get(i);
                        let _ =
                            writeln!(out, "  {:<36}{:>6}{:>6}", Params::name(i), s.mg(), s.eg());
                    }
                }
            }
        }
        out
    }
}
