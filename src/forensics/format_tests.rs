//! The case file reads back as written, and a bad one gives its file, line and cause.

use super::*;
use crate::uci::direction::Direction;
use crate::uci::flight::{Bounds, Transcript};

fn sample() -> FailureCase {
    let t = Transcript::new(Bounds::default());
    let (w, b) = (t.recorder("white"), t.recorder("black"));
    w.note("started `dev`");
    w.record(
        Direction::Sent,
        "position fen 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
    );
    w.record(Direction::Sent, "go wtime 1000 btime 1000");
    w.record(
        Direction::Received,
        "info string back\\slash and \r carriage",
    );
    w.record(Direction::Received, "bestmove g1h1");
    b.record(Direction::Stderr, "");
    b.record(Direction::Sent, "go wtime 990 btime 1000");
    b.record(Direction::Received, "info depth 1 score cp 5 pv a1a1");
    b.record(Direction::Received, "bestmove a1a1");
    let mut white = EngineSpec::new("/opt/engines/dev engine");
    white.args = vec!["--flag".into(), "two words".into(), String::new()];
    white.dir = Some("/tmp/some dir".into());
    white.options = vec![
        ("Hash".into(), "16".into()),
        ("UCI_Chess960".into(), "true".into()),
        ("SyzygyPath".into(), "/tb/a b:/tb/c".into()),
    ];
    white.name = Some("dev".into());
    let mut black = EngineSpec::new("base");
    black.options = vec![("UCI_Chess960".into(), "true".into())];
    black.name = Some("base".into());
    FailureCase {
        game: 12,
        kind: FailureKind::IllegalMove,
        white_failed: false,
        reason: "Black makes an illegal move a1a1 in ... (after `go`; last info: x)\nsecond line"
            .into(),
        detail: "a1a1".into(),
        started: "2026-01-02T03:04:05.678Z".into(),
        variant: Variant::Chess960,
        opening: Opening {
            fen: Some("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1".into()),
            moves: vec!["g1h1".into()],
            origin: Some("line 7".into()),
        },
        book: "books/dfrc.epd".into(),
        fen: "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1".into(),
        position: "position fen 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1 moves g1h1"
            .into(),
        go: "go wtime 990 btime 1000".into(),
        deadline_ms: 1000,
        startup_ms: 10_000,
        ping_ms: 5000,
        engines: [
            EngineCase {
                name: "dev".into(),
                spec: white,
            },
            EngineCase {
                name: "base".into(),
                spec: black,
            },
        ],
        info: vec!["info depth 1 score cp 5 pv a1a1".into()],
        transcript: t.snapshot(),
    }
}

#[test]
fn a_case_reads_back_as_written() {
    let case = sample();
    let path = Path::new("r.failures/game-000012-illegal-move.txt");
    let text = to_text(&case, path);
    assert_eq!(parse(&text, path).unwrap(), case);
    // What a person reads first.
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("# Sable failure case: game 12, Black (base): Black makes an illegal move"));
    assert_eq!(
        lines.next(),
        Some("# Replay: harness replay r.failures/game-000012-illegal-move.txt")
    );
    assert_eq!(
        lines.next(),
        Some("# white: '/opt/engines/dev engine' --flag 'two words' '' (in /tmp/some dir)")
    );
    for line in [
        "failure: illegal-move",
        "side: black",
        "uci-chess960: true",
        "white.arg: two words",
        "white.setoption: setoption name SyzygyPath value /tb/a b:/tb/c",
        "go: go wtime 990 btime 1000",
        "info: info depth 1 score cp 5 pv a1a1",
        "replay: harness replay r.failures/game-000012-illegal-move.txt",
    ] {
        assert!(
            text.lines().any(|l| l == line || l.starts_with(line)),
            "{line}\n{text}"
        );
    }
    // The transcript's first line: its time is the recorder's clock (a few microseconds on a
    // loaded machine, not always 0), the rest is fixed.
    assert!(
        text.lines()
            .any(|l| l.starts_with("+0.0000") && l.ends_with(" white # started `dev`")),
        "{text}"
    );
    assert!(text.contains(" black < bestmove a1a1\n"), "{text}");
    assert!(text.contains(" white < info string back\\\\slash and \\r carriage\n"));
}

#[test]
fn paths_with_spaces_are_quoted_in_the_replay_command() {
    assert_eq!(
        replay_command(Path::new("my runs/game-000001-crash.txt")),
        "harness replay 'my runs/game-000001-crash.txt'"
    );
    assert_eq!(shell_word("it's"), "'it'\\''s'");
}

/// The sample's text with `edit` applied to it, parsed.
fn parse_edited(edit: impl Fn(&str) -> String) -> Result<FailureCase, CaseError> {
    let path = Path::new("case.txt");
    parse(&edit(&to_text(&sample(), path)), path)
}

fn line_of(text: &str, prefix: &str) -> usize {
    text.lines().position(|l| l.starts_with(prefix)).unwrap() + 1
}

#[test]
fn a_bad_case_names_the_file_line_and_cause() {
    let text = to_text(&sample(), Path::new("case.txt"));
    let cases: [(&str, &str, &str); 7] = [
        ("go: ", "go: go ponder", "unknown limit `ponder`"),
        (
            "position: ",
            "position: position startpos moves e2e5",
            "`e2e5` is illegal",
        ),
        ("failure: ", "failure: melted", "unknown failure `melted`"),
        ("side: ", "side: grey", "expected white or black"),
        (
            "deadline-ms: ",
            "deadline-ms: soon",
            "`deadline-ms` needs a number",
        ),
        (
            "format: ",
            "format: sable-failure-case 9",
            "expected `sable-failure-case 1`",
        ),
        (
            "black.setoption: ",
            "black.setoption: Hash=16",
            "expected `setoption name",
        ),
    ];
    for (prefix, replacement, cause) in cases {
        let n = line_of(&text, prefix);
        let e = parse_edited(|t| {
            t.lines()
                .map(|l| {
                    if l.starts_with(prefix) {
                        replacement
                    } else {
                        l
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with(&format!("case.txt:{n}: ")), "{msg}");
        assert!(msg.contains(cause), "{msg}");
    }
    let e = parse_edited(|t| t.replace("reason: ", "because: ")).unwrap_err();
    assert_eq!(
        e,
        CaseError::Missing {
            path: "case.txt".into(),
            key: "reason".into()
        }
    );
    let e = parse_edited(|t| format!("{t}+0.1 white > go\n")).unwrap_err();
    let last = text.lines().count() + 1;
    assert!(e
        .to_string()
        .starts_with(&format!("case.txt:{last}: expected `+SECONDS")));
    let e = parse_edited(|t| t.replace("detail: a1a1", "detail: a1a1\\")).unwrap_err();
    assert!(e.to_string().contains("a backslash before the end"), "{e}");
    let e = read(Path::new("/nonexistent/case.txt")).unwrap_err();
    assert!(matches!(e, CaseError::Io { .. }), "{e}");
}
