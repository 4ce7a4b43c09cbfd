//! The project's own suites, compiled into the binary so `harness check` works from any
//! directory: `suites/mates.epd` and `suites/tactics.epd`, with their committed baselines.

use super::epd::{parse_suite, Suite};
use super::epd_report::{parse_csv, CsvRow};

/// A suite shipped inside the binary.
#[derive(Clone, Copy, Debug)]
pub struct EmbeddedSuite {
    /// The suite's name (its file stem), as used in reports and baselines.
    pub name: &'static str,
    /// The path of the file in the repository.
    pub path: &'static str,
    /// The EPD text.
    pub text: &'static str,
}

/// The shipped suites.
pub const EMBEDDED: &[EmbeddedSuite] = &[
    EmbeddedSuite {
        name: "mates",
        path: "suites/mates.epd",
        text: include_str!("../../suites/mates.epd"),
    },
    EmbeddedSuite {
        name: "tactics",
        path: "suites/tactics.epd",
        text: include_str!("../../suites/tactics.epd"),
    },
];

/// Parses a shipped suite by name (`mates` or `tactics`).
pub fn embedded_suite(name: &str) -> anyhow::Result<Suite> {
    let e = EMBEDDED
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| anyhow::anyhow!("no embedded suite named '{name}'"))?;
    Ok(parse_suite(e.name, e.path, e.text, false)?)
}

/// A committed baseline CSV (`suites/baselines/*.csv`) compiled in, by file stem.
pub const BASELINES: &[(&str, &str)] = &[];

/// Parses a compiled-in baseline by file stem, e.g. `sable-tactics`.
pub fn embedded_baseline(name: &str) -> anyhow::Result<Vec<CsvRow>> {
    let (_, text) = BASELINES
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| anyhow::anyhow!("no embedded baseline named '{name}'"))?;
    parse_csv(name, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::epd_mate::{has_mate_within, shortest_mate};

    #[test]
    fn shipped_suites_parse_and_ids_are_unique() {
        for e in EMBEDDED {
            let suite = embedded_suite(e.name).unwrap();
            assert!(suite.positions.len() >= 100, "{}: {}", e.name, suite.positions.len());
            let ids: std::collections::HashSet<_> = suite.positions.iter().map(|p| &p.id).collect();
            assert_eq!(ids.len(), suite.positions.len());
            assert!(suite.positions.iter().all(|p| !p.bm.is_empty()));
        }
        assert!(embedded_suite("nope").is_err());
    }

    /// Our own exhaustive search confirms every shipped mate in 1 and 2, and that none is shorter.
    #[test]
    fn shipped_mates_in_one_and_two_are_exact() {
        let suite = embedded_suite("mates").unwrap();
        let mut checked = 0;
        for p in &suite.positions {
            let n = p.dm.expect("every mates position has dm");
            assert!((1..=4).contains(&n), "{}", p.id);
            if n <= 2 {
                assert_eq!(shortest_mate(&p.position, 2), Some(n), "{}", p.id);
                checked += 1;
            } else {
                assert!(!has_mate_within(&p.position, 1), "{}", p.id);
            }
        }
        assert!(checked >= 40, "{checked}");
    }
}
