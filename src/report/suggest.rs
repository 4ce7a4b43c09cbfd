//! "Did you mean": the valid word nearest to a mistyped one, for error messages that say what
//! to type instead of only what was wrong.

/// The word of `valid` nearest to `word` (ignoring case) by edit distance, if it is near enough
/// to be a typo: one edit for words of up to four letters, two for longer ones.
pub fn nearest<'a>(word: &str, valid: &[&'a str]) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    let limit = if word.chars().count() <= 4 { 1 } else { 2 };
    valid
        .iter()
        .map(|v| (distance(&word, &v.to_ascii_lowercase()), *v))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, v)| v)
}

/// Levenshtein distance (insertions, deletions and substitutions of one character each).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_levenshtein() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("round", "rounds"), 1);
        assert_eq!(distance("same", "same"), 0);
    }

    #[test]
    fn typos_find_their_word_and_strangers_find_none() {
        let keys = ["cmd", "name", "nodes", "depth", "timemargin"];
        assert_eq!(nearest("node", &keys), Some("nodes"));
        assert_eq!(nearest("Depht", &keys), Some("depth"));
        assert_eq!(nearest("time_margin", &keys), Some("timemargin"));
        assert_eq!(nearest("hash", &keys), None);
        assert_eq!(nearest("xyz", &keys), None);
    }
}
