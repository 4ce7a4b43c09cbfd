//! `harness datagen` from the outside: Ctrl-C (SIGINT) stops it between games with every
//! finished game in the file, exit code 130 and the way to continue; the same command then
//! carries on from the file.

use crate::common;

use common::{temp_dir, text};
use std::process::{Command, Stdio};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");

fn lines(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

#[test]
fn datagen_stops_on_ctrl_c_and_the_same_command_continues() {
    let dir = temp_dir("datagen", "ctrl-c");
    let out = dir.join("data.csv");
    let args = |positions: &str| {
        let o = out.to_str().unwrap().to_owned();
        [
            "datagen",
            "-o",
            &o,
            "--positions",
            positions,
            "--nodes",
            "300",
            "--threads",
            "1",
            "--random-plies",
            "6",
            "--seed",
            "3",
        ]
        .map(str::to_owned)
    };
    let child = Command::new(HARNESS)
        .args(args("1000000"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Ctrl-C once a game is in the file.
    common::wait_for("a first game in the file", || lines(&out) > 0);
    common::interrupt(child.id());
    let done = child.wait_with_output().unwrap();
    let log = text(&done);
    assert_eq!(done.status.code(), Some(130), "{log}");
    assert!(
        log.contains("interrupted") && log.contains("run the same command again"),
        "{log}"
    );
    // Every line whole: a FEN, a result, a score.
    let kept = lines(&out);
    assert!(kept > 0, "{log}");
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(csv.ends_with('\n'), "a torn last line");
    assert!(csv.lines().all(|l| l.split(',').count() == 3), "{csv}");
    assert!(log.contains(&format!("holds {kept} positions")), "{log}");
    // The same command with a reachable count: it goes on from the file, not from zero.
    let target = (kept + 10).to_string();
    let again = Command::new(HARNESS).args(args(&target)).output().unwrap();
    let log2 = text(&again);
    assert_eq!(again.status.code(), Some(0), "{log2}");
    assert!(lines(&out) >= kept + 10, "{log2}");
    assert!(log2.contains("new from"), "{log2}");
    std::fs::remove_dir_all(&dir).ok();
}
