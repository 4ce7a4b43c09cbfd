//! `harness epd` and `harness suite-gen` against real engines: Stockfish (installed in CI, so these
//! are `#[ignore]`d and run with --include-ignored) and our own `sable` (always run).

use crate::common;
use std::path::{Path, PathBuf};

use common::sable_binary;
use std::process::{Command, Output};

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

/// suite-gen `--player`: a position where the player made Stockfish's best move is dropped and
/// counted; one where it missed a mate (scored with `go searchmoves`) is kept, its move noted.
#[test]
#[ignore = "needs /usr/games/stockfish"]
fn stockfish_suite_gen_keeps_only_the_players_mistakes() {
    let pgn = temp("mistakes.pgn");
    let out = temp("mistakes.epd");
    let game = |fen: &str, moves: &str| {
        format!(
            "[White \"sable\"]\n[Black \"other\"]\n[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n{moves} *\n\n"
        )
    };
    let games = game("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "1. Ra8#")
        + &game("6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1", "1. Kf1 h6");
    std::fs::write(&pgn, games).unwrap();
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
        "--player",
        "sable",
        "--out",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    let epd = std::fs::read_to_string(&out).unwrap();
    assert_eq!(epd.lines().count(), 1, "{epd}\n{t}");
    assert!(
        epd.starts_with("6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - bm Rb8#; dm 1;")
            && epd.contains("c2 \"played Kf1 "),
        "{epd}"
    );
    assert!(t.contains("wrote 1 positions"), "{t}");
    assert!(
        t.contains("1: the player made the oracle's best move"),
        "{t}"
    );
    std::fs::remove_file(pgn).unwrap();
    std::fs::remove_file(out).unwrap();
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
