//! Failure cases end to end: `harness match` against the faulty engine leaves one case file per
//! failed game (crash, hang, illegal move, time loss) with the header a developer needs, and
//! `harness replay` on it reproduces the failure (its exit code says so); normal games leave
//! none; a run with many failures keeps its bound and says so.

use crate::common;

use common::{temp_dir, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

/// Runs the harness in `dir` with `words`; `ARGS:a,b` becomes the one word `args=a b`.
fn harness(dir: &Path, words: &str) -> Output {
    let args: Vec<String> = words
        .split_whitespace()
        .map(|w| match w.strip_prefix("ARGS:") {
            Some(a) => format!("args={}", a.replace(',', " ")),
            None => w.replace("FAULTY", FAULTY),
        })
        .collect();
    Command::new(HARNESS)
        .args(&args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The case files of the run whose results file is `dir/r.json`, by name.
fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir.join("r.failures")) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// The `key: value` lines of a case file's header, in order.
fn header(path: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once(": ").unwrap_or((l.trim_end_matches(':'), ""));
            (k.to_owned(), v.to_owned())
        })
        .collect()
}

fn values<'a>(h: &'a [(String, String)], key: &str) -> Vec<&'a str> {
    h.iter()
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .collect()
}

fn value<'a>(h: &'a [(String, String)], key: &str) -> &'a str {
    match values(h, key)[..] {
        [v] => v,
        ref other => panic!("`{key}`: {other:?}"),
    }
}

/// Plays one game, A (White) against B (Black, with `b_args`), and returns the one case file
/// it left and the run's output.
fn one_failed_game(name: &str, b_args: &str, extra: &str) -> (PathBuf, PathBuf, String) {
    let dir = temp_dir("forensics", name);
    let out = harness(
        &dir,
        &format!(
            "match --engine cmd=FAULTY name=A --engine cmd=FAULTY name=B ARGS:{b_args} \
             option.Hash=16 option.Threads=1 --games 1 --results r.json --quiet {extra}"
        ),
    );
    let t = text(&out);
    let files = cases(&dir);
    assert_eq!(files.len(), 1, "{files:?}\n{t}");
    (dir, files[0].clone(), t)
}

/// Replays `file` from `dir` (as the run printed it: relative to where it ran).
fn replay(dir: &Path, file: &Path, options: &str) -> Output {
    let rel = file.strip_prefix(dir).unwrap();
    harness(dir, &format!("replay {} {options}", rel.display()))
}

/// The header every case has, whatever the failure: both engines as started, the position and
/// the lines sent, the replay command.
fn check_header(file: &Path, slug: &str) -> Vec<(String, String)> {
    let h = header(file);
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(name, format!("game-000001-{slug}.txt"));
    assert_eq!(value(&h, "format"), "sable-failure-case 1");
    assert_eq!(value(&h, "failure"), slug);
    assert_eq!((value(&h, "side"), value(&h, "engine")), ("black", "B"));
    assert_eq!(value(&h, "white.cmd"), FAULTY);
    assert_eq!(value(&h, "black.cmd"), FAULTY);
    assert_eq!(
        values(&h, "black.setoption"),
        [
            "setoption name Hash value 16",
            "setoption name Threads value 1"
        ]
    );
    assert!(value(&h, "position").starts_with("position "));
    assert!(value(&h, "go").starts_with("go wtime "));
    assert!(
        value(&h, "fen").split(' ').nth(1) == Some("b"),
        "Black to move"
    );
    assert_eq!(value(&h, "variant"), "standard");
    assert_eq!(
        value(&h, "replay"),
        format!("harness replay r.failures/{name}")
    );
    let text = std::fs::read_to_string(file).unwrap();
    let body = text.split("\n\n").nth(1).unwrap();
    assert!(
        body.lines()
            .any(|l| l.contains(" black > ") && l.ends_with(value(&h, "go"))),
        "the go line is in the transcript:\n{text}"
    );
    assert!(body.lines().any(|l| l.contains(" white < bestmove ")));
    h
}

fn assert_reproduced(dir: &Path, file: &Path, slug: &str) {
    let out = replay(dir, file, "");
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains(&format!("Reproduced ({slug}) on try 1 of 1")),
        "{t}"
    );
}

#[test]
fn an_illegal_move_leaves_a_case_that_replays() {
    let dir = temp_dir("forensics", "book");
    std::fs::write(
        dir.join("book.epd"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n",
    )
    .unwrap();
    // Black moves at plies 0, 2 and 4 after the book position: its third move is illegal.
    let (dir, file, out) = one_failed_game(
        "illegal",
        "--illegal-at-ply,4",
        &format!(
            "--each tc=5+0.05 --openings file={} --pgnout g.pgn",
            dir.join("book.epd").display()
        ),
    );
    let h = check_header(&file, "illegal-move");
    assert_eq!(values(&h, "black.arg"), ["--illegal-at-ply", "4"]);
    // The book's EPD line as the runner reads it: a FEN with the move counters of a start.
    assert_eq!(
        value(&h, "opening.fen"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(value(&h, "opening.origin"), "line 1");
    assert!(value(&h, "opening.book").ends_with("book.epd"));
    let info = "info depth 3 seldepth 4 score cp 12 nodes 99 pv a1a1";
    assert_eq!(values(&h, "info").last(), Some(&info));
    // The report, the PGN and the case say the move, the position, the go line and the info.
    let reason = format!(
        "Black makes an illegal move a1a1 in {} (after `{}`; last info: {info})",
        value(&h, "fen"),
        value(&h, "go")
    );
    assert_eq!(value(&h, "reason"), reason);
    assert!(out.contains(&reason), "{out}");
    let pgn = std::fs::read_to_string(file.parent().unwrap().join("../g.pgn")).unwrap();
    assert!(pgn.replace('\n', " ").contains(&reason), "{pgn}");
    assert!(
        out.contains("Failure cases: 1 written to r.failures"),
        "{out}"
    );
    assert_reproduced(&dir, &file, "illegal-move");
}

#[test]
fn a_crash_leaves_a_case_with_its_last_words_that_replays() {
    let (dir, file, _) = one_failed_game("crash", "--crash-at-ply,5", "--each tc=5+0.05");
    let h = check_header(&file, "crash");
    assert!(value(&h, "detail").contains("exit status: 3"));
    assert_eq!(
        values(&h, "info").last(),
        Some(&"info depth 1 score cp 0 nodes 1 string about to crash")
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains(" black ! faulty-engine: crashing on purpose at ply 5\n"),
        "{text}"
    );
    assert_reproduced(&dir, &file, "crash");
}

#[test]
fn a_hang_leaves_a_case_that_replays() {
    let (dir, file, _) = one_failed_game("hang", "--hang-at-ply,5", "--each tc=1+0 --ping-ms 300");
    let h = check_header(&file, "hang");
    assert_eq!(value(&h, "ping-ms"), "300");
    let deadline: u64 = value(&h, "deadline-ms").parse().unwrap();
    assert!(deadline <= 1000, "{deadline}");
    assert_reproduced(&dir, &file, "hang");
}

#[test]
fn a_loss_on_time_leaves_a_case_that_replays() {
    // Awake after 1.5 s of its second's clock: late, but it answers `stop`.
    let (dir, file, _) = one_failed_game("time", "--slow-at-ply,5,--slow-ms,1500", "--each tc=1+0");
    let h = check_header(&file, "time-loss");
    assert!(value(&h, "detail").starts_with("no move within"));
    assert_reproduced(&dir, &file, "time-loss");
}

#[test]
fn replay_says_when_a_failure_needs_more_tries_or_is_gone_and_refuses_bad_files() {
    // The engine crashes at its third search since it started: a replay needs three tries on
    // one process, and never fails with a fresh process each try.
    let (dir, file, _) = one_failed_game("tries", "--crash-after,2", "--each tc=5+0.05");
    check_header(&file, "crash");
    let once = replay(&dir, &file, "");
    assert_eq!(once.status.code(), Some(1), "{}", text(&once));
    assert!(text(&once).contains("Not reproduced in 1 try"));
    let three = replay(&dir, &file, "--repeat 3");
    let t = text(&three);
    assert_eq!(three.status.code(), Some(0), "{t}");
    assert!(t.contains("try 2/3: bestmove "), "{t}");
    assert!(t.contains("Reproduced (crash) on try 3 of 3"), "{t}");
    let fresh = replay(&dir, &file, "--repeat 3 --fresh");
    assert_eq!(fresh.status.code(), Some(1), "{}", text(&fresh));

    // A case whose engine no longer misbehaves: not reproduced.
    let original = std::fs::read_to_string(&file).unwrap();
    let mended: String = original
        .lines()
        .filter(|l| !l.starts_with("black.arg: "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&file, mended).unwrap();
    let out = replay(&dir, &file, "--repeat 4");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("Not reproduced in 4 tries"));

    // A broken file: exit 2, with its file, line and cause.
    let n = original
        .lines()
        .position(|l| l.starts_with("go: "))
        .unwrap()
        + 1;
    std::fs::write(
        &file,
        original.replace("\ngo: go wtime", "\ngo: go wtime x"),
    )
    .unwrap();
    let out = replay(&dir, &file, "");
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains(&format!(
            "game-000001-crash.txt:{n}: `go`: `wtime` needs a number"
        )),
        "{t}"
    );
    let out = harness(&dir, "replay no-such-case.txt");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("no-such-case.txt: "), "{}", text(&out));
}

#[test]
fn normal_games_leave_no_case() {
    let dir = temp_dir("forensics", "normal");
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=A --engine cmd=FAULTY name=B ARGS:--seed,9 \
         --each tc=5+0.05 --maxmoves 20 --rounds 2 --results r.json --quiet",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("Finished 4 of 4 games"), "{t}");
    assert!(!dir.join("r.failures").exists(), "{t}");
    assert!(!t.contains("Failure cases"), "{t}");
}

#[test]
fn many_failures_keep_their_bound_and_say_so() {
    let dir = temp_dir("forensics", "many");
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=A --engine cmd=FAULTY name=B ARGS:--illegal-after,0 \
         --each tc=5+0.05 --rounds 3 --concurrency 2 --results r.json --quiet \
         --max-consecutive-faults 0 --max-fault-share 100 --max-failure-files 2",
    );
    let t = text(&out);
    assert!(
        t.contains("B: 0 crashes, 0 time losses, 6 illegal moves"),
        "{t}"
    );
    assert_eq!(cases(&dir).len(), 2, "{t}");
    assert!(t.contains("Failure cases: 2 written to r.failures"), "{t}");
    assert!(
        t.contains("4 more failures not recorded (--max-failure-files 2)"),
        "{t}"
    );
    assert!(
        t.contains("further failures are counted, not written"),
        "{t}"
    );
    for file in cases(&dir) {
        assert_eq!(value(&header(&file), "failure"), "illegal-move");
    }
}

#[test]
fn a_chess960_case_keeps_its_rules_and_replays_by_them() {
    let dir = temp_dir("forensics", "960");
    let out = harness(
        &dir,
        "match --variant fischerandom --engine cmd=FAULTY name=A ARGS:--chess960 \
         --engine cmd=FAULTY name=B ARGS:--chess960,--illegal-at-ply,3 \
         --each tc=5+0.05 --games 1 --results r.json --quiet",
    );
    let files = cases(&dir);
    assert_eq!(files.len(), 1, "{}", text(&out));
    let h = header(&files[0]);
    assert_eq!(value(&h, "variant"), "fischerandom");
    assert_eq!(value(&h, "uci-chess960"), "true");
    assert!(values(&h, "black.setoption").contains(&"setoption name UCI_Chess960 value true"));
    assert!(
        value(&h, "opening.origin").starts_with("position "),
        "the 960 start's number"
    );
    assert_reproduced(&dir, &files[0], "illegal-move");
}
