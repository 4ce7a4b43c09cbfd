//! What several rooms show a person: SVG line charts (`plot`), UTC dates for PGN tags and logs
//! (`dates`), and "did you mean" hints for mistyped words (`suggest`). Progress bars are drawn
//! where the work is (docs/architecture.md says where).

pub mod dates;
pub mod plot;
pub mod suggest;

/// A count with its noun in agreement: `1 unreadable line`, `2 unreadable lines`, `0 games`
/// (nouns whose plural adds `s`, or `es` after s, sh, ch and x: `2 crashes`, `2 time losses`).
pub fn plural<N: std::fmt::Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("1 {noun}")
    } else if ["s", "sh", "ch", "x"].iter().any(|end| noun.ends_with(end)) {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_count_agrees_with_its_noun() {
        assert_eq!(super::plural(1, "unreadable line"), "1 unreadable line");
        assert_eq!(super::plural(0, "crash"), "0 crashes");
        assert_eq!(super::plural(2u64, "time loss"), "2 time losses");
        assert_eq!(super::plural(3usize, "illegal move"), "3 illegal moves");
        assert_eq!(super::plural(0u64, "game"), "0 games");
        assert_eq!(super::plural(2, "position"), "2 positions");
    }
}
