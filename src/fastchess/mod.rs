//! The harness as a drop-in for fastchess: started as `fastchess` or `fastchess-ob` (the name
//! OpenBench's client runs), or as `harness fastchess`, it reads fastchess's single-dash command
//! line ([`args`]), turns it into the words of `harness sprt` ([`translate`], so the match is
//! built, played and resumed by the tournament's own code), and keeps fastchess's output
//! contract on stdout ([`output`]). What differs from fastchess is listed in docs/openbench.md.

pub mod args;
pub mod output;
pub mod translate;
mod values;
pub mod words;

/// Whether a program started under this name (argv[0]) is meant as fastchess.
pub fn is_fastchess_name(argv0: &str) -> bool {
    let name = std::path::Path::new(argv0)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = name.strip_suffix(".exe").unwrap_or(&name);
    name == "fastchess" || name == "fastchess-ob"
}

#[cfg(test)]
mod tests {
    #[test]
    fn fastchess_names_are_recognised_by_file_name() {
        for n in [
            "fastchess",
            "./fastchess-ob",
            "/x/y/fastchess-ob",
            "fastchess-ob.exe",
        ] {
            assert!(super::is_fastchess_name(n), "{n}");
        }
        for n in ["harness", "fastchess-ob2", "/fastchess/harness", ""] {
            assert!(!super::is_fastchess_name(n), "{n}");
        }
    }
}
