//! What several rooms show a person: SVG line charts (`plot`), UTC dates for PGN tags and logs
//! (`dates`), and "did you mean" hints for mistyped words (`suggest`). Progress bars are drawn
//! where the work is (docs/architecture.md says where).

pub mod dates;
pub mod plot;
pub mod suggest;

/// A count with its noun in agreement: `1 unreadable line`, `2 unreadable lines`, `0 games`
/// (nouns whose plural adds an `s`).
pub fn plural<N: std::fmt::Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_count_agrees_with_its_noun() {
        assert_eq!(super::plural(1, "unreadable line"), "1 unreadable line");
        assert_eq!(super::plural(0u64, "game"), "0 games");
        assert_eq!(super::plural(2, "position"), "2 positions");
    }
}
