//! `harness label`: scores from a real UCI engine (our own, through `harness engine`; Stockfish
//! when installed), from White's view, in input order, resumable after an interruption.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const STOCKFISH: &str = "/usr/games/stockfish";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("label-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .output()
        .unwrap()
}

/// The sable engine inside the harness binary, as an engine command line.
fn sable() -> String {
    format!("{} engine", env!("CARGO_BIN_EXE_harness"))
}

/// White up a queen with Black to move, Black up a queen with White to move, and quiet
/// positions from the shipped sample.
fn input(dir: &Path) -> PathBuf {
    let sample =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.csv")).unwrap();
    let mut text = String::from("4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1,1.0,\n");
    text.push_str("4k3/3q4/8/8/8/8/8/4K3 w - - 0 1,0.0,\n");
    for line in sample.lines().filter(|l| !l.starts_with('#')).take(10) {
        text.push_str(line);
        text.push('\n');
    }
    let path = dir.join("in.csv");
    std::fs::write(&path, text).unwrap();
    path
}

fn rows(path: &Path) -> Vec<(String, String, Option<i32>)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut cols = l.rsplitn(3, ',');
            let score = cols.next().unwrap().parse().ok();
            let result = cols.next().unwrap().to_string();
            (cols.next().unwrap().to_string(), result, score)
        })
        .collect()
}

fn label(input: &Path, out: &Path, engine: &str) -> Output {
    harness(&[
        "label",
        input.to_str().unwrap(),
        "--engine",
        engine,
        "--nodes",
        "400",
        "--concurrency",
        "2",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn scores_are_from_whites_view_in_input_order_and_a_rerun_resumes() {
    let dir = temp_dir("sable");
    let input = input(&dir);
    let out = dir.join("out.csv");
    let o = label(&input, &out, &sable());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = rows(&out);
    let given = rows(&input);
    assert_eq!(got.len(), 12);
    for (g, i) in got.iter().zip(&given) {
        assert_eq!((&g.0, &g.1), (&i.0, &i.1), "FEN and result kept, in order");
        assert!(g.2.is_some(), "every position scored: {g:?}");
    }
    assert!(
        got[0].2.unwrap() > 500,
        "White up a queen, Black to move: {:?}",
        got[0]
    );
    assert!(
        got[1].2.unwrap() < -500,
        "Black up a queen, White to move: {:?}",
        got[1]
    );

    // Interrupted after five positions and half a line: the rerun completes the same file.
    let text = std::fs::read_to_string(&out).unwrap();
    let five: usize = text.lines().take(5).map(|l| l.len() + 1).sum();
    std::fs::write(&out, format!("{}{}", &text[..five], &text[five..five + 20])).unwrap();
    let o = label(&input, &out, &sable());
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("5 positions already labelled"));
    let again = rows(&out);
    assert_eq!(again.len(), 12);
    assert_eq!(&again[..5], &got[..5]);
}

#[test]
fn an_engine_that_cannot_start_is_a_clear_error() {
    let dir = temp_dir("missing");
    let input = input(&dir);
    let out = dir.join("out.csv");
    let o = label(&input, &out, "/nonexistent/engine");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("/nonexistent/engine"), "{err}");
    assert!(!out.exists(), "nothing written");
}

#[test]
#[ignore = "needs /usr/games/stockfish"]
fn stockfish_scores_material_and_mates_from_whites_view() {
    let dir = temp_dir("stockfish");
    let input = dir.join("in.csv");
    std::fs::write(
        &input,
        "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1,1.0,\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1,1.0,\n\
         r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1,0.0,\n",
    )
    .unwrap();
    let out = dir.join("out.csv");
    let o = label(&input, &out, STOCKFISH);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = rows(&out);
    assert!(got[0].2.unwrap() > 500, "{:?}", got[0]);
    assert_eq!(got[1].2, Some(3000), "White mates in one");
    assert_eq!(got[2].2, Some(-3000), "Black mates in one");
}
