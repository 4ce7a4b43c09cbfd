//! The `sable` binary over UCI: handshake, answers while searching, bad input, time limits.

use sable::board::Board;
use std::time::{Duration, Instant};

use crate::common;

use common::process::UciProcess as Engine;

/// A started engine that has answered `isready` (attack tables built), so nothing timed later
/// pays for the start.
fn started() -> Engine {
    let mut e = Engine::start();
    e.send("isready");
    e.until("readyok", LONG);
    e
}

const LONG: Duration = Duration::from_secs(10);

fn bestmove(lines: &[String]) -> String {
    lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .map(|s| s.split_whitespace().next().unwrap_or("").to_string())
        .expect("bestmove line")
}

#[test]
fn handshake_lists_the_real_settings_only() {
    let mut e = started();
    e.send("uci");
    let lines = e.until("uciok", LONG);
    assert!(lines.iter().any(|l| l.starts_with("id name Sable")));
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|rest| rest.split(" type ").next().unwrap_or(rest))
        .collect();
    let settings = [
        "Hash",
        "Threads",
        "Move Overhead",
        "EvalFile",
        "Clear Hash",
        "UCI_Chess960",
        "SyzygyPath",
        "SyzygyProbeDepth",
        "Syzygy50MoveRule",
        "SyzygyProbeLimit",
    ];
    if cfg!(feature = "tune") {
        // The tuning build adds the SPSA parameters after the settings.
        assert_eq!(names[..settings.len()], settings, "{lines:?}");
    } else {
        // No search-feature switches: a change to the search is measured as its own binary.
        assert_eq!(names, settings, "{lines:?}");
    }
    e.send("isready");
    e.until("readyok", LONG);
}

#[test]
fn stop_and_isready_answer_at_once_during_infinite_search() {
    let mut e = started();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("isready");
    let mut lines = e.until("readyok", LONG);
    assert!(t.elapsed() < Duration::from_millis(50), "{:?}", t.elapsed());
    let t = Instant::now();
    e.send("stop");
    lines.extend(e.until("bestmove", LONG));
    assert!(t.elapsed() < Duration::from_millis(50), "{:?}", t.elapsed());
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    let mv = bestmove(&lines);
    assert!(mv.len() >= 4 && mv != "0000", "{mv}");
}

#[test]
fn movetime_is_respected() {
    let mut e = started();
    e.send("position startpos");
    let t = Instant::now();
    e.send("go movetime 200");
    let lines = e.until("bestmove", LONG);
    let el = t.elapsed();
    // The engine's own clock must stay inside movetime; the wall clock also counts the
    // scheduling of a loaded machine, so it gets a looser bound.
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let time: u64 = last
        .split(" time ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(time <= 200, "{last}");
    assert!(
        el >= Duration::from_millis(150) && el < Duration::from_millis(400),
        "{el:?}"
    );
}

#[test]
fn tiny_clock_does_not_flag() {
    let mut e = started();
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let t = Instant::now();
    e.send("go wtime 50 btime 50 winc 10 binc 10");
    let lines = e.until("bestmove", LONG);
    // The engine's own clock decides whether it would flag; the wall-clock bound only catches a
    // hang, since a busy machine can delay this test's reader by tens of milliseconds.
    let searched_ms: Vec<u64> = lines
        .iter()
        .filter_map(|l| {
            let mut words = l.split_whitespace().skip_while(|w| *w != "time");
            words.next()?;
            words.next()?.parse().ok()
        })
        .collect();
    assert!(!searched_ms.is_empty(), "no info time reported: {lines:?}");
    assert!(
        searched_ms.iter().all(|&ms| ms < 50),
        "searched past the 50 ms clock: {searched_ms:?}"
    );
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "hung: {:?}",
        t.elapsed()
    );
}

#[test]
fn garbage_and_illegal_input_keep_the_engine_alive() {
    let mut e = started();
    for bad in [
        "hello world",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e4 e2e4",
        "position",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "setoption name EvalFile value /nonexistent/file.json",
        "go depth banana nodes 3000",
    ] {
        e.send(bad);
    }
    // Each line was answered with an info string, and the last `position` was refused, so the
    // `go` has no position to search.
    let lines = e.until("bestmove", LONG);
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count()
            >= 8,
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines), "0000");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove", LONG);
    assert!(lines.iter().any(|l| l.contains("score cp")));
}

#[test]
fn mate_is_reported_in_moves_and_no_move_gives_0000() {
    let mut e = started();
    e.send("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1");
    e.send("go depth 6");
    let lines = e.until("bestmove", LONG);
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.contains("score mate 2"), "{last_info}");
    // Checkmated side to move.
    e.send("position fen k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    e.send("go depth 3");
    let lines = e.until("bestmove", LONG);
    assert_eq!(bestmove(&lines), "0000");
}

#[test]
fn go_perft_counts() {
    let mut e = started();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until("Nodes searched", LONG);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 21);
}

#[test]
fn eval_splits_the_score_by_group() {
    let mut e = started();
    // White is a rook up: material carries it, and the total is the side to move's view.
    e.send("position fen 4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
    e.send("eval");
    let lines = e.until("info string evaluation", LONG);
    let value = |name: &str, col: usize| -> i32 {
        let l = lines
            .iter()
            .find(|l| l.split_whitespace().nth(2) == Some(name))
            .unwrap_or_else(|| panic!("no {name} line in {lines:?}"));
        l.split_whitespace().nth(col).unwrap().parse().unwrap()
    };
    assert!(value("material", 3) > 300, "{lines:?}");
    let total = value("total", 5);
    let stm: i32 = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(3)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(stm, -total, "Black to move sees minus White's total");
    // The engine still answers afterwards.
    e.send("isready");
    e.until("readyok", LONG);
}

#[test]
fn quit_exits() {
    let mut e = started();
    e.send("go infinite");
    e.send("quit");
    let t = Instant::now();
    loop {
        if let Ok(Some(_)) = e.child.try_wait() {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "still running after quit"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
#[ignore = "timing-sensitive: needs a machine that is not overloaded (run with --include-ignored)"]
fn never_flags_at_one_second_plus_ten_ms() {
    // Sable plays both sides of a 1+0.01 game over UCI; the test keeps the clocks.
    let mut e = started();
    let inc = Duration::from_millis(10);
    let mut clocks = [Duration::from_millis(1000); 2];
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..80 {
        let side = ply % 2;
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let t = Instant::now();
        e.send(&format!(
            "go wtime {} btime {} winc 10 binc 10",
            clocks[0].as_millis(),
            clocks[1].as_millis()
        ));
        let lines = e.until("bestmove", LONG);
        let used = t.elapsed();
        assert!(
            used < clocks[side],
            "flagged at ply {ply}: used {used:?} of {:?}",
            clocks[side]
        );
        clocks[side] = clocks[side] - used + inc;
        let mv = bestmove(&lines);
        if mv == "0000" {
            break;
        }
        moves.push(mv);
    }
}

/// With UCI_Chess960 on, castling is read and written as the king taking its own rook, the
/// FEN display uses Shredder-FEN, and a search after a 960 castling returns a legal move.
#[test]
fn chess960_castling_notation_with_the_option_on_and_off() {
    let mut e = started();
    e.send("uci");
    let lines = e.until("uciok", LONG);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"),
        "{lines:?}"
    );
    // King e1, rooks b1 and g1 (Black mirrored): queen-side castling is e1b1 in 960 notation.
    let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen} moves e1b1 e8b8"));
    e.send("d");
    let shown = e.until("info string fen", LONG);
    assert_eq!(
        shown.last().unwrap(),
        "info string fen 2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 w - - 2 2"
    );
    e.send("go depth 5");
    let lines = e.until("bestmove", LONG);
    let best = bestmove(&lines);
    let board =
        sable::board::Board::from_fen("2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 w - - 2 2").unwrap();
    assert!(board.parse_uci_move_as(&best, true).is_some(), "{best}");

    // Before castling, the rights print in Shredder-FEN with the option on ...
    e.send(&format!("position fen {fen}"));
    e.send("d");
    let shown = e.until("info string fen", LONG);
    assert!(shown.last().unwrap().contains(" w GBgb - "), "{shown:?}");
    // ... and perft lists the castling as king takes rook.
    e.send("go perft 1");
    let lines = e.until("Nodes searched", LONG);
    assert!(lines.iter().any(|l| l == "e1b1: 1"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("e1c1")), "{lines:?}");

    // With the option off, the king's destination is castling and the FEN is X-FEN.
    e.send("setoption name UCI_Chess960 value false");
    e.send(&format!("position fen {fen} moves e1c1"));
    e.send("d");
    let shown = e.until("info string fen", LONG);
    assert!(
        shown.last().unwrap().contains("/2KR2R1 b kq - 1 1"),
        "{shown:?}"
    );

    // A standard game with the option on: e1h1 castles, e1g1 is refused.
    e.send("setoption name UCI_Chess960 value true");
    let standard = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {standard} moves e1h1"));
    e.send("d");
    let shown = e.until("info string fen", LONG);
    assert!(
        shown.last().unwrap().contains("/R4RK1 b ha - 1 1"),
        "{shown:?}"
    );
    e.send(&format!("position fen {standard} moves e1g1"));
    let lines = e.until("info string illegal move 'e1g1'", LONG);
    assert!(!lines.is_empty());
}

/// Lines up to `bestmove` for `go depth 2` on the position set by `position`.
fn answer(e: &mut Engine, position: &str) -> Vec<String> {
    e.send(position);
    e.send("go depth 2");
    e.until("bestmove", LONG)
}

#[test]
fn a_refused_position_is_answered_with_0000_and_the_reason_never_a_move() {
    let mut e = started();
    // Each refused `position` comes after an accepted one, whose move must not be given again.
    for (position, reason) in [
        (
            "position fen 4k3/8/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "white has 17 pieces",
        ),
        (
            "position fen 4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
            "white has 9 pawns",
        ),
        (
            "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/QQQ1K3 w - - 0 1",
            "but only 0 of its pawns are missing",
        ),
        (
            "position fen 4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
            "pawns cannot stand on the first or last rank",
        ),
        (
            "position fen 4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
            "must have exactly one king",
        ),
        (
            "position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
            "the side not to move is in check",
        ),
        (
            "position fen k7/8/5n2/3p4/4K3/8/8/8 w - - 0 1",
            "no last move could give this check",
        ),
        (
            "position startpos moves e2e4 e7e5 e4e5",
            "illegal move 'e4e5'",
        ),
        ("position fen", "'position fen' without a FEN"),
    ] {
        let before = answer(&mut e, "position startpos moves e2e4");
        assert_ne!(bestmove(&before), "0000", "{before:?}");
        e.send(position);
        let refusal = e.until("info string", LONG);
        let reason = reason.to_lowercase();
        let said = refusal.last().unwrap().to_lowercase();
        assert!(said.contains(&reason), "{position}: {said}");
        assert!(said.contains("position refused"), "{said}");
        e.send("go depth 2");
        let lines = e.until("bestmove", LONG);
        assert_eq!(bestmove(&lines), "0000", "{position}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string no position to search")
                    && l.to_lowercase().contains(&reason)),
            "{position}: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
        // `d` says so too rather than showing the previous position.
        e.send("d");
        let shown = e.until("info string", LONG);
        assert!(shown.last().unwrap().contains("no position"), "{shown:?}");
    }
    // An accepted position ends the refusal.
    let after = answer(&mut e, "position startpos");
    assert_ne!(bestmove(&after), "0000", "{after:?}");
}

#[test]
fn go_on_an_accepted_position_always_answers_also_after_stop() {
    let mut e = started();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // All 8 pawns promoted, both sides: the most pieces a move list and SEE ever meet.
        "qqqqqqqk/6qq/8/8/8/8/6QQ/QQQQQQQK w - - 0 1",
        "7k/8/8/8/8/8/QQ6/QQQQQQQK b - - 0 1",
        // Checkmated and stalemated: nothing to play, still an answer.
        "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
        "k7/8/1QK5/8/8/8/8/8 b - - 0 1",
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(50));
        e.send("stop");
        let lines = e.until("bestmove", LONG);
        assert!(!bestmove(&lines).is_empty(), "{fen}: {lines:?}");
        // `stop` at once, before the search has started properly.
        e.send("go depth 30");
        e.send("stop");
        e.until("bestmove", LONG);
        e.send("go nodes 20000");
        let lines = e.until("bestmove", LONG);
        let legal = Board::from_fen(fen).unwrap().legal_moves();
        let mv = bestmove(&lines);
        if legal.is_empty() {
            assert_eq!(mv, "0000", "{fen}");
        } else {
            assert!(
                legal.iter().any(|m| m.to_string() == mv),
                "{fen}: {mv} is not legal"
            );
        }
    }
}
