//! The `sable perft DEPTH [FEN]` command line.

use std::process::Command;

fn sable(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sable"))
        .args(args)
        .output()
        .expect("run sable");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_prints_divide_and_total() {
    let (code, out, _) = sable(&["perft", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("e2e4: 600"), "{out}");
    let is_move_line = |l: &&str| {
        l.split_once(": ").is_some_and(|(m, n)| {
            m.len() == 4 && m.bytes().all(|b| b.is_ascii_alphanumeric()) && n.parse::<u64>().is_ok()
        })
    };
    assert_eq!(out.lines().filter(is_move_line).count(), 20);
    assert!(out.contains("Nodes searched: 8902"), "{out}");
    // The FEN may come as separate arguments or as one.
    let (code, out, _) = sable(&[
        "perft",
        "2",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8",
        "w",
        "-",
        "-",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("Nodes searched: 191"), "{out}");
}

#[test]
fn perft_rejects_bad_arguments_without_panicking() {
    for args in [
        &["perft"][..],
        &["perft", "x"],
        &["perft", "0"],
        &["perft", "2", "not a fen"],
    ] {
        let (code, _, err) = sable(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(
            !err.contains("panicked") && !err.is_empty(),
            "{args:?}: {err}"
        );
    }
}
