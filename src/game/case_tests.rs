//! The failure case a game leaves when an engine faults, and none when it does not.

use super::record::Termination;
use super::*;
use crate::uci::flight::Kind;
use crate::uci::tests::faulty;
use std::time::Duration;

/// A player whose engine has `ping` to answer `stop` after a timeout (a hang costs that).
fn player_with_ping(flags: &[&str], ping_ms: u64) -> Player {
    Player::new(
        faulty(flags),
        Duration::from_secs(5),
        Duration::from_millis(ping_ms),
    )
}

fn player(flags: &[&str]) -> Player {
    player_with_ping(flags, 300)
}

fn settings(tc: &str) -> GameSettings {
    let limits = Limits {
        tc: Some(tc.parse().unwrap()),
        ..Limits::default()
    };
    GameSettings::new(limits, limits, Adjudication::default())
}

fn play(w: &mut Player, b: &mut Player, tc: &str) -> GameRecord {
    play_game(w, b, &Opening::default(), &settings(tc)).expect("both engines start")
}

#[test]
fn an_illegal_move_is_reported_with_position_go_line_and_last_info() {
    let (mut w, mut b) = (player(&["--seed", "2"]), player(&["--illegal-at-ply", "5"]));
    let g = play(&mut w, &mut b, "10+0.1");
    assert_eq!(g.termination, Termination::RulesInfraction, "{}", g.reason);
    let case = g.case.as_deref().expect("a case");
    assert_eq!(case.kind, FailureKind::IllegalMove);
    assert!(!case.white_failed);
    // Five moves were played: the position line has them, the FEN is after them.
    let played: Vec<&str> = g.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(
        case.position,
        format!("position startpos moves {}", played.join(" "))
    );
    let pos = crate::forensics::lines::parse_position(&case.position, Variant::Standard).unwrap();
    let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string();
    assert_eq!(case.fen, fen);
    assert!(case.go.starts_with("go wtime "), "{}", case.go);
    let info = "info depth 3 seldepth 4 score cp 12 nodes 99 pv a1a1";
    assert_eq!(case.info.last().map(String::as_str), Some(info));
    let reason = format!(
        "Black makes an illegal move a1a1 in {fen} (after `{}`; last info: {info})",
        case.go
    );
    assert_eq!(g.reason, reason);
    assert_eq!(case.reason, reason);
    // The PGN comment says the same.
    let pgn = pgn::write_game(&g, &pgn::PgnHeader::default());
    assert!(
        pgn.replace('\n', " ").contains(&format!("{{{reason}}}")),
        "{pgn}"
    );
    // Both engines' traffic is in the transcript, ending with the illegal answer.
    let t = &case.transcript;
    assert!(t
        .entries
        .iter()
        .any(|e| e.source == "white" && e.kind == Kind::Sent));
    assert_eq!(
        t.last("black", Kind::Received, "bestmove", 1),
        ["bestmove a1a1"]
    );
    let last = t.entries.last().unwrap();
    assert_eq!(
        (last.source.as_str(), last.kind, last.text.as_str()),
        ("black", Kind::Note, "illegal-move: a1a1")
    );
    assert_eq!(case.engines[1].spec, b.spec);
    // Black's clock at its third move, after two of a few milliseconds each: 10 s plus three
    // increments (this move's is added before it), less what the moves took.
    assert!(
        (10_100..=10_300).contains(&case.deadline_ms),
        "{}",
        case.deadline_ms
    );
}

#[test]
fn crash_hang_and_time_loss_leave_their_case_and_normal_games_none() {
    let (mut w, mut b) = (player(&["--seed", "3"]), player(&["--seed", "4"]));
    let mut s = settings("10+0.1");
    s.adjudication.maxmoves = Some(20);
    let g = play_game(&mut w, &mut b, &Opening::default(), &s).unwrap();
    assert_eq!(
        (g.fault.as_ref(), g.case.as_ref()),
        (None, None),
        "{}",
        g.reason
    );

    let (mut w, mut b) = (player(&["--crash-at-ply", "2"]), player(&[]));
    let g = play(&mut w, &mut b, "10+0.1");
    let case = g.case.as_deref().expect("a crash case");
    assert_eq!((case.kind, case.white_failed), (FailureKind::Crash, true));
    assert!(case.detail.contains("exit status: 3"), "{}", case.detail);
    // The dying engine's last stderr line made it into the transcript.
    assert_eq!(
        case.transcript.last("white", Kind::Stderr, "", 1),
        ["faulty-engine: crashing on purpose at ply 2"]
    );

    let (mut w, mut b) = (player(&[]), player(&["--hang-at-ply", "3"]));
    let g = play(&mut w, &mut b, "0.4+0");
    let case = g.case.as_deref().expect("a hang case");
    assert_eq!(case.kind, FailureKind::Hang);
    assert_eq!(g.fault.as_ref().unwrap().kind, FaultKind::TimeLoss);
    assert!(case.detail.contains("(hung)"), "{}", case.detail);

    // Awake after 600 ms, long after its 400 ms, but in time to answer `stop`: not hung.
    let slow = ["--slow-at-ply", "3", "--slow-ms", "600"];
    let (mut w, mut b) = (player(&[]), player_with_ping(&slow, 3000));
    let g = play(&mut w, &mut b, "0.4+0");
    let case = g.case.as_deref().expect("a time-loss case");
    assert_eq!(case.kind, FailureKind::TimeLoss, "{}", case.detail);
    assert!(case.deadline_ms <= 400, "{}", case.deadline_ms);
}
