//! Syzygy tables from the command line: `harness tb probe` on good and bad input, and matches
//! adjudicated by the tables (`--tb`), checked in their PGN and report. The tests that need the
//! real tables read ../shared/data/syzygy and are ignored (`.ci/run` runs them).

use crate::common;

use common::{shared_data, temp_dir, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .output()
        .unwrap()
}

/// A folder with one file that has a table's name and size but is no table.
fn fake_tables(dir: &Path) -> PathBuf {
    let tb = dir.join("tb");
    std::fs::create_dir_all(&tb).unwrap();
    std::fs::write(tb.join("KQvK.rtbw"), vec![7u8; 16 + 64 * 2]).unwrap();
    tb
}

#[test]
fn bad_fens_and_epd_lines_are_reported_by_argument_or_file_and_line() {
    let dir = temp_dir("tb", "bad-input");
    let tb = fake_tables(&dir);
    let epd = dir.join("in.epd");
    std::fs::write(
        &epd,
        "# positions\n8/8/8/8/8/k7/8/1K5Q w - - 0 1\n\n8/8/8/8/8/k7/8/1K5X w - -\n8/8 w\n",
    )
    .unwrap();
    let out = harness(&[
        "tb",
        "probe",
        "--tb",
        tb.to_str().unwrap(),
        "not a fen at all",
        "--epd",
        epd.to_str().unwrap(),
    ]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(all.contains("argument 1: bad FEN `not a fen at`"), "{all}");
    let file = epd.display().to_string();
    assert!(all.contains(&format!("{file}:4: bad FEN")), "{all}");
    assert!(all.contains(&format!("{file}:5: `8/8 w`")), "{all}");
    assert!(
        all.contains("2 bad position(s)") || all.contains("3 bad position(s)"),
        "{all}"
    );
    // The good line is still probed, and its table (no table at all) gives no answer.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("[Source \"{file}:2\"]")),
        "{stdout}"
    );
    assert!(
        stdout.contains("[Error \"the WDL table for KQvK is unusable"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn missing_empty_or_no_folder_and_no_position_are_errors() {
    let dir = temp_dir("tb", "folders");
    let fen = "8/8/8/8/8/k7/8/1K5Q w - - 0 1";
    let missing = dir.join("missing");
    let out = harness(&["tb", "probe", "--tb", missing.to_str().unwrap(), fen]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains(&format!("tablebase folder {}", missing.display())));
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = harness(&["tb", "probe", "--path", empty.to_str().unwrap(), fen]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("no Syzygy tables for chess"),
        "{}",
        text(&out)
    );
    let out = harness(&["tb", "probe", fen]);
    assert_eq!(out.status.code(), Some(2), "--tb is required");
    assert!(text(&out).contains("--tb"));
    let tb = fake_tables(&dir);
    let out = harness(&["tb", "probe", "--tb", tb.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("no position"), "{}", text(&out));
    // --tb for a match is checked before any engine starts.
    let out = harness(&[
        "match",
        "--engine",
        "cmd=/bin/true",
        "--engine",
        "cmd=/bin/true",
        "--tb",
        missing.to_str().unwrap(),
        "--results",
        dir.join("m.json").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("tablebase folder"), "{}", text(&out));
    std::fs::remove_dir_all(&dir).ok();
}

/// The shared tables' folder, or `None` (skip).
fn syzygy() -> Option<String> {
    Some(shared_data()?.join("syzygy").display().to_string())
}

/// The value of tag `name` in a probe's output.
fn tag<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    let start = format!("[{name} \"");
    out.lines()
        .filter_map(|l| l.strip_prefix(&start)?.strip_suffix("\"]"))
        .collect()
}

#[test]
#[ignore = "reads ../shared/data/syzygy (skips when it is absent)"]
fn probe_prints_wdl_dtz_result_and_moves() {
    let Some(tb) = syzygy() else { return };
    let out = harness(&[
        "tb",
        "probe",
        "--tb",
        &tb,
        "8/8/8/8/8/k7/8/1K5Q w - - 0 1",
        "k7/8/8/P7/8/8/8/2K5 b - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(
        out.status.code(),
        Some(1),
        "one position is not in the tables"
    );
    assert_eq!(tag(&stdout, "WDL"), ["Win", "Draw"]);
    assert_eq!(tag(&stdout, "Result"), ["1-0", "1/2-1/2"]);
    assert_eq!(tag(&stdout, "Material"), ["KQvK", "KPvK"]);
    assert_eq!(tag(&stdout, "Error").len(), 1);
    assert!(tag(&stdout, "Error")[0].starts_with("castling rights"));
    // The queen wins with every move but none loses or draws; the corner king draws with both.
    assert_eq!(tag(&stdout, "DrawingMoves")[0], "");
    assert_eq!(tag(&stdout, "WinningMoves")[0].split(' ').count(), 22);
    let mut drawing: Vec<&str> = tag(&stdout, "DrawingMoves")[1].split(' ').collect();
    drawing.sort_unstable();
    assert_eq!(drawing, ["Ka7", "Kb7", "Kb8"]);
    assert!(tag(&stdout, "BestMove").len() == 2);
}

/// A node-limited match of sable against itself with `extra` options over `book`; its PGN.
fn play(dir: &Path, book: &Path, name: &str, extra: &[&str]) -> (Output, String) {
    let exe = env!("CARGO_BIN_EXE_harness");
    let pgn = dir.join(format!("{name}.pgn"));
    let results = dir.join(format!("{name}.json"));
    let mut args = vec![
        "match".to_owned(),
        "--engine".into(),
        format!("cmd={exe}"),
        "args=engine".into(),
        "name=a".into(),
        "--engine".into(),
        format!("cmd={exe}"),
        "args=engine".into(),
        "name=b".into(),
        "--each".into(),
        "tc=inf".into(),
        "nodes=3000".into(),
        "--openings".into(),
        format!("file={}", book.display()),
        "order=sequential".into(),
        "--rounds".into(),
        "3".into(),
        "--pgnout".into(),
        pgn.display().to_string(),
        "--results".into(),
        results.display().to_string(),
        "--quiet".into(),
        "--ratinginterval".into(),
        "0".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = Command::new(exe).args(&args).output().unwrap();
    let pgn = std::fs::read_to_string(&pgn).unwrap_or_default();
    (out, pgn)
}

#[test]
#[ignore = "reads ../shared/data/syzygy (skips when it is absent)"]
fn a_match_with_tb_ends_games_with_the_tables_result() {
    let Some(tb) = syzygy() else { return };
    let dir = temp_dir("tb", "match");
    // A queen up for White, a drawn rook pawn, a queen up for Black: decided after one move.
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "8/8/8/4k3/8/8/3QK3/8 w - -\nk7/8/8/P7/8/8/8/2K5 w - -\n8/8/8/4k3/8/3q4/8/K7 w - -\n",
    )
    .unwrap();
    let (out, pgn) = play(&dir, &book, "both", &["--tb", &tb]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("Syzygy adjudications: 6 of 6 games (2 1-0, 2 0-1, 2 1/2-1/2)"),
        "{report}"
    );
    let games: Vec<&str> = pgn.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 6);
    for (i, g) in games.iter().enumerate() {
        let (result, comment) = match i / 2 {
            0 => ("1-0", "{Syzygy: White wins (Black to move: WDL -2, DTZ "),
            1 => (
                "1/2-1/2",
                "{Syzygy: draw (Black to move: WDL 0, DTZ 0, halfmove clock ",
            ),
            _ => ("0-1", "{Syzygy: Black wins (Black to move: WDL +2, DTZ "),
        };
        assert!(g.contains("[Termination \"adjudication\"]"), "{g}");
        assert!(g.contains("[PlyCount \"1\"]"), "{g}");
        assert!(g.contains(&format!("[Result \"{result}\"]")), "{g}");
        assert!(g.contains(comment), "{g}");
        let flat = g.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.ends_with(&format!(")}} {result}")), "{g}");
    }
    // Only wins and losses: the drawn games are played out, and end by the rules.
    let (out, pgn) = play(
        &dir,
        &book,
        "winloss",
        &["--tb", &tb, "--tb-adjudicate", "win-loss"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("Syzygy adjudications: 4 of 6 games (2 1-0, 2 0-1, 0 1/2-1/2)"),
        "{report}"
    );
    let drawn: Vec<&str> = pgn.split("[Event ").skip(1).skip(2).take(2).collect();
    for g in drawn {
        assert!(g.contains("[Termination \"normal\"]"), "{g}");
        assert!(g.contains("[Result \"1/2-1/2\"]"), "{g}");
    }
    // Without --tb no game is adjudicated and the report has no Syzygy line.
    let (out, _) = play(&dir, &book, "none", &[]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Syzygy"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[ignore = "reads ../shared/data/syzygy (skips when it is absent)"]
fn label_takes_the_tables_exact_result_for_positions_in_them() {
    let Some(tb) = syzygy() else { return };
    let dir = temp_dir("tb", "label");
    let input = dir.join("in.csv");
    // In the tables: a queen up (result given wrongly as a draw), the same with 95 halfmoves
    // gone (a draw by the 50-move rule), a drawn rook pawn, Black a queen up. Not in them:
    // the start position (castling) and five pieces.
    let lines = [
        "8/8/8/8/8/k7/8/1K5Q w - - 0 1,0.5,",
        "8/8/8/8/8/k7/8/1K5Q w - - 95 80,1.0,",
        "k7/8/8/P7/8/8/8/2K5 b - - 0 1,1.0,",
        "8/8/8/8/8/2k5/8/K1q5 w - - 3 1,0.5,",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,0.5,",
        "8/8/8/4k3/8/2n5/3QK1P1/8 w - - 0 1,0.0,",
    ];
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let out = dir.join("out.csv");
    let exe = env!("CARGO_BIN_EXE_harness");
    let o = harness(&[
        "label",
        input.to_str().unwrap(),
        "--engine",
        &format!("{exe} engine"),
        "--nodes",
        "300",
        "--concurrency",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--tb",
        &tb,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("6 positions labelled (4 from the tables"),
        "{}",
        text(&o)
    );
    let rows: Vec<Vec<String>> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| l.rsplitn(3, ',').map(str::to_owned).collect())
        .collect();
    let labels: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[1].as_str(), r[0].as_str()))
        .collect();
    assert_eq!(
        &labels[..4],
        [
            ("1.0", "3000"),
            ("0.5", "0"),
            ("0.5", "0"),
            ("0.0", "-3000")
        ]
    );
    // The others keep their game result and get the engine's score.
    assert_eq!((labels[4].0, labels[5].0), ("0.5", "0.0"));
    assert!(
        labels[4].1.parse::<i32>().unwrap().abs() < 200,
        "{labels:?}"
    );
    assert!(labels[5].1.parse::<i32>().unwrap() > 300, "{labels:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_command_that_plays_or_labels_has_the_tb_options() {
    for (cmd, options) in [
        (
            "match",
            &["--tb ", "--tb-pieces", "--tb-adjudicate", "--tb-ignore-50"][..],
        ),
        (
            "sprt",
            &["--tb ", "--tb-pieces", "--tb-adjudicate", "--tb-ignore-50"],
        ),
        (
            "spsa",
            &["--tb ", "--tb-pieces", "--tb-adjudicate", "--tb-ignore-50"],
        ),
        (
            "datagen",
            &["--tb ", "--tb-pieces", "--tb-adjudicate", "--tb-ignore-50"],
        ),
        ("label", &["--tb ", "--tb-pieces", "--tb-ignore-50"]),
    ] {
        let help = text(&harness(&[cmd, "--help"]));
        for o in options {
            assert!(help.contains(o), "{cmd} --help lacks {o}");
        }
    }
    // --tb-pieces needs --tb.
    let out = harness(&["datagen", "-o", "/nonexistent/x.csv", "--tb-pieces", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("--tb"), "{}", text(&out));
}
