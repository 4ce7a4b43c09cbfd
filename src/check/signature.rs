//! Which bench node count the engine must reproduce. Like Stockfish's CI, a `Bench: N` line in the
//! message of the latest commit that touches the engine overrides the signature recorded in
//! `suites/bench.txt`, so a commit that changes search behaviour carries its own new signature.

use crate::plumbing::revision::git as git_in;
use std::path::Path;

/// The expected bench node count and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Expected node count of `sable bench`.
    pub nodes: u64,
    /// Human-readable source: "suites/bench.txt" or "commit abc1234".
    pub source: String,
}

/// The signature recorded in the repository (embedded at build time).
pub const RECORDED: &str = include_str!("../../suites/bench.txt");

/// Parses the recorded `suites/bench.txt` content: the first number in it.
pub fn parse_recorded(text: &str) -> Option<u64> {
    text.split_whitespace().find_map(|w| w.parse().ok())
}

/// Finds a `Bench: N` line in a commit message (case-insensitive key, last one wins).
pub fn parse_bench_line(message: &str) -> Option<u64> {
    message
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            if !line.get(..6)?.eq_ignore_ascii_case("bench:") {
                return None;
            }
            line[6..].trim().replace([',', '_'], "").parse().ok()
        })
        .next_back()
}

/// The signature to check against: a `Bench:` line from the newest commit touching `engine/`
/// when `repo` is a git checkout that has one, else the recorded file.
pub fn expected(repo: &Path) -> Option<Signature> {
    if let Some((commit, message)) = latest_engine_commit(repo) {
        if let Some(nodes) = parse_bench_line(&message) {
            return Some(Signature {
                nodes,
                source: format!("`Bench:` in commit {commit}"),
            });
        }
    }
    parse_recorded(RECORDED).map(|nodes| Signature {
        nodes,
        source: "suites/bench.txt".into(),
    })
}

fn latest_engine_commit(repo: &Path) -> Option<(String, String)> {
    if !repo.join(".git").exists() {
        return None;
    }
    let out = git_in(repo)
        .args(["log", "-1", "--format=%h%n%B", "--", "engine/"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (hash, message) = text.split_once('\n')?;
    Some((hash.trim().to_string(), message.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_line_is_found_in_a_commit_message() {
        let msg = "Reduce more in LMR\n\nLonger text.\n\nBench: 1234567\n";
        assert_eq!(parse_bench_line(msg), Some(1_234_567));
        assert_eq!(parse_bench_line("bench: 42"), Some(42));
        assert_eq!(parse_bench_line("no signature here\nBenchmark: 12"), None);
        assert_eq!(parse_bench_line("Bench: 1\nBench: 2"), Some(2));
    }

    #[test]
    fn the_newest_engine_commit_with_a_bench_line_wins_over_the_recorded_file() {
        let repo = std::env::temp_dir().join(format!("sable-sig-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&repo);
        std::fs::create_dir_all(repo.join("engine")).unwrap();
        let recorded = parse_recorded(RECORDED).unwrap();
        // Not a git checkout: the recorded file.
        assert_eq!(expected(&repo).unwrap().nodes, recorded);
        let git = |args: &[&str]| {
            let ok = git_in(&repo)
                .args(["-c", "user.name=t", "-c", "user.email=t@t"])
                .args(args)
                .output()
                .is_ok_and(|o| o.status.success());
            assert!(ok, "git {args:?}");
        };
        git(&["init", "-q"]);
        std::fs::write(repo.join("engine/a.rs"), "1").unwrap();
        git(&["add", "."]);
        git(&[
            "commit",
            "-q",
            "-m",
            "search: a change

Bench: 1234567",
        ]);
        std::fs::write(repo.join("README"), "x").unwrap();
        git(&["add", "."]);
        git(&[
            "commit",
            "-q",
            "-m",
            "docs only

Bench: 999",
        ]);
        let sig = expected(&repo).unwrap();
        assert_eq!(sig.nodes, 1_234_567, "the newest commit touching engine/");
        assert!(
            sig.source.starts_with("`Bench:` in commit "),
            "{}",
            sig.source
        );
        std::fs::write(repo.join("engine/a.rs"), "2").unwrap();
        git(&["add", "."]);
        git(&["commit", "-q", "-m", "engine: no bench line"]);
        assert_eq!(expected(&repo).unwrap().nodes, recorded);
        std::fs::remove_dir_all(&repo).ok();
    }

    #[test]
    fn recorded_file_gives_its_number() {
        assert_eq!(parse_recorded("4242\n"), Some(4242));
        assert_eq!(parse_recorded("# comment\n99 nodes"), Some(99));
        assert_eq!(parse_recorded(""), None);
    }
}
