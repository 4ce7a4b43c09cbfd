//! `harness epd` and `harness suite-gen` against real engines: Stockfish (installed in CI, so these
//! are `#[ignore]`d and run with --include-ignored) and our own `sable` (always run).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const STOCKFISH: &str = "/usr/games/stockfish";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Rows of a CSV written by `harness epd --csv`: (id, solved, dm from `expected`).
fn rows(path: &Path) -> Vec<(String, bool, String)> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[1].to_string(), &rec[2] == "1", rec[6].to_string())
        })
        .collect()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("epd-engines-{name}-{}", std::process::id()))
}

/// Stockfish confirms every shipped mate (the `dm` criterion: mate in N or faster).
#[test]
#[ignore = "needs /usr/games/stockfish"]
fn stockfish_confirms_every_shipped_mate() {
    let csv = temp("mates.csv");
    let o = harness(&[
        "epd",
        "suites/mates.epd",
        "--engine",
        STOCKFISH,
        "--depth",
        "20",
        "--concurrency",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let rows = rows(&csv);
    assert!(rows.len() >= 100);
    let failed: Vec<_> = rows.iter().filter(|r| !r.1).collect();
    assert!(failed.is_empty(), "{failed:?}");
    std::fs::remove_file(csv).unwrap();
}

/// suite-gen with Stockfish keeps the one-move mate of a tiny PGN and writes it as `dm 1`.
#[test]
#[ignore = "needs /usr/games/stockfish"]
fn stockfish_suite_gen_finds_the_back_rank_mate() {
    let pgn = temp("g.pgn");
    let out = temp("g.epd");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\"]\n\
         [SetUp \"1\"]\n\n1. Kf1 h6 2. Ra8+ Kh7 *\n",
    )
    .unwrap();
    let o = harness(&[
        "suite-gen",
        "--pgn",
        pgn.to_str().unwrap(),
        "--oracle",
        STOCKFISH,
        "--depth",
        "8",
        "--skip-plies",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let epd = std::fs::read_to_string(&out).unwrap();
    let first = epd.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; dm 1;"),
        "{epd}"
    );
    std::fs::remove_file(pgn).unwrap();
    std::fs::remove_file(out).unwrap();
}

/// The `sable` binary of this checkout, built now in release.
///
/// It belongs to the engine crate, so cargo gives this package no `CARGO_BIN_EXE_sable`, and a
/// `target/release/sable` found lying around may be stale (built before the last edit, or by
/// another checkout sharing the target dir). So we ask cargo (`$CARGO`, the one running these
/// tests) to build it: a no-op when it is up to date, as after `cargo test --release`, which
/// builds it with the workspace. Cargo's JSON messages name the executable it produced, so the
/// path is right whatever the target dir (`CARGO_TARGET_DIR`, `--target-dir`, a config file).
fn sable_binary() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let out = Command::new(cargo)
        .args(["build", "--release", "-p", "sable", "--bin", "sable"])
        .arg("--message-format=json-render-diagnostics")
        .current_dir(root())
        .stderr(Stdio::inherit())
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "cargo build --release -p sable failed"
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "sable")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .expect("cargo named no sable executable")
}

/// Our engine solves every mate in 1 and 2 of `suites/mates.epd` at a modest node limit.
#[test]
fn sable_solves_every_shipped_mate_in_one_and_two() {
    let sable = sable_binary();
    let csv = temp("sable-mates.csv");
    let o = harness(&[
        "epd",
        "suites/mates.epd",
        "--engine",
        sable.to_str().unwrap(),
        "--nodes",
        "200000",
        "--concurrency",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let short: Vec<_> = rows(&csv)
        .into_iter()
        .filter(|r| r.2.ends_with("dm 1") || r.2.ends_with("dm 2"))
        .collect();
    assert!(short.len() >= 40, "{short:?}");
    let failed: Vec<_> = short.iter().filter(|r| !r.1).collect();
    assert!(failed.is_empty(), "sable missed {failed:?}");
    std::fs::remove_file(csv).unwrap();
}
