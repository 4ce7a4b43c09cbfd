//! Games between faulty engines: every failure ends the game with the right loser and reason.

use super::record::Termination;
use super::*;
use crate::uci::tests::faulty;
use std::time::Duration;

fn player(flags: &[&str]) -> Player {
    Player::new(
        faulty(flags),
        Duration::from_secs(5),
        Duration::from_secs(2),
    )
}

fn settings(tc: &str) -> GameSettings {
    let limits = Limits {
        tc: Some(tc.parse().unwrap()),
        margin_ms: 100,
        ..Limits::default()
    };
    GameSettings::new(limits, limits, Adjudication::default())
}

fn play(w: &mut Player, b: &mut Player) -> GameRecord {
    play_game(w, b, &Opening::default(), &settings("10+0.1")).expect("both engines start")
}

#[test]
fn random_movers_play_a_game_to_a_rules_ending() {
    let (mut w, mut b) = (player(&["--seed", "7"]), player(&["--seed", "8"]));
    let g = play(&mut w, &mut b);
    assert_eq!(g.fault, None, "{}", g.reason);
    assert_eq!(g.termination, Termination::Normal, "{}", g.reason);
    assert!(g.moves.len() > 10);
    // The same engines play on in a second game (no restart needed).
    let g2 = play(&mut b, &mut w);
    assert_eq!(g2.fault, None);
    assert_eq!((w.starts(), b.starts()), (1, 1));
}

#[test]
fn book_moves_that_mate_end_the_game_at_once() {
    let (mut w, mut b) = (player(&[]), player(&[]));
    let opening = Opening {
        fen: None,
        moves: ["f2f3", "e7e5", "g2g4", "d8h4"].map(String::from).to_vec(),
        origin: None,
    };
    let g = play_game(&mut w, &mut b, &opening, &settings("10+0.1")).unwrap();
    assert_eq!(
        (g.outcome, g.reason.as_str()),
        (Outcome::BlackWins, "Black mates")
    );
    assert!(g.moves.iter().all(|m| m.book));
    assert_eq!(g.moves[3].san, "Qh4#");
}

fn assert_fault(g: &GameRecord, white_faulted: bool, kind: FaultKind) {
    let f = g
        .fault
        .as_ref()
        .unwrap_or_else(|| panic!("no fault: {}", g.reason));
    assert_eq!((f.white, f.kind), (white_faulted, kind), "{}", g.reason);
    let expected = if white_faulted {
        Outcome::BlackWins
    } else {
        Outcome::WhiteWins
    };
    assert_eq!(g.outcome, expected, "{}", g.reason);
}

#[test]
fn crash_loses_and_the_engine_is_restarted_next_game() {
    let (mut w, mut b) = (player(&[]), player(&["--crash-after", "3"]));
    let g = play(&mut w, &mut b);
    assert_fault(&g, false, FaultKind::Crash);
    assert_eq!(g.reason, "Black disconnects");
    assert_eq!(g.moves.len(), 7, "three black moves before the crash");
    let g = play(&mut b, &mut w);
    assert_fault(&g, true, FaultKind::Crash);
    assert_eq!(b.starts(), 2);
}

#[test]
fn hang_loses_on_time() {
    let (mut w, mut b) = (player(&["--hang-after", "2"]), player(&[]));
    let g = play_game(&mut w, &mut b, &Opening::default(), &settings("0.3+0")).unwrap();
    assert_fault(&g, true, FaultKind::TimeLoss);
    assert_eq!(g.reason, "White loses on time");
    assert_eq!(g.termination, Termination::TimeForfeit);
}

#[test]
fn slow_moves_flag_on_the_runners_clock() {
    let (mut w, mut b) = (player(&[]), player(&["--move-ms", "150"]));
    let limits = Limits {
        tc: Some("0.5+0".parse().unwrap()),
        ..Limits::default()
    };
    let s = GameSettings::new(limits, limits, Adjudication::default());
    let g = play_game(&mut w, &mut b, &Opening::default(), &s).unwrap();
    assert_fault(&g, false, FaultKind::TimeLoss);
    // 150 ms per move from 500 ms: Black's fourth move runs out (White has played four).
    assert_eq!(g.moves.len(), 7);
}

#[test]
fn illegal_and_malformed_moves_lose() {
    let (mut w, mut b) = (player(&["--illegal-after", "1"]), player(&[]));
    let g = play(&mut w, &mut b);
    assert_fault(&g, true, FaultKind::IllegalMove);
    assert_eq!(g.fault.unwrap().detail, "a1a1");
    let (mut w, mut b) = (player(&[]), player(&["--garbage-after", "0"]));
    let g = play(&mut w, &mut b);
    assert_fault(&g, false, FaultKind::IllegalMove);
    let (mut w, mut b) = (player(&[]), player(&["--null-after", "0"]));
    assert_fault(&play(&mut w, &mut b), false, FaultKind::IllegalMove);
}

#[test]
fn a_failed_start_is_no_game_and_names_the_engine_and_its_output() {
    let start = |p: &mut Player, q: &mut Player| match play_game(
        p,
        q,
        &Opening::default(),
        &settings("10+0.1"),
    ) {
        Err(NotPlayed::Start(e)) => e,
        other => panic!("{other:?}"),
    };
    let mut slow = Player::new(
        faulty(&["--slow-start", "3000"]),
        Duration::from_millis(200),
        Duration::from_secs(1),
    );
    let mut ok = player(&[]);
    let e = start(&mut ok, &mut slow);
    assert_eq!(e.error, crate::uci::UciError::Timeout("uciok".into()));
    assert!(e.command.ends_with("--slow-start 3000"), "{}", e.command);
    let mut missing = Player::new(
        crate::uci::EngineSpec::new("/nonexistent"),
        Duration::from_secs(1),
        Duration::from_secs(1),
    );
    let e = start(&mut missing, &mut ok);
    assert!(matches!(e.error, crate::uci::UciError::Spawn { .. }));
    assert_eq!(e.engine, "nonexistent");
    // An engine that exits before `uciok`: its stderr is in the error.
    let mut dies = player(&["--exit-before-uciok", "7"]);
    let e = start(&mut ok, &mut dies);
    assert_eq!(
        e.error,
        crate::uci::UciError::Crashed("exit status: 7".into())
    );
    let text = e.to_string();
    assert!(
        text.contains("stderr: faulty-engine: cannot load its network"),
        "{text}"
    );
    assert!(text.contains("stdout: id name Faulty"), "{text}");
}

#[test]
fn an_abandoned_game_is_not_played() {
    let (mut w, mut b) = (player(&[]), player(&[]));
    let mut s = settings("10+0.1");
    s.abandon = || true;
    let r = play_game(&mut w, &mut b, &Opening::default(), &s);
    assert_eq!(r.unwrap_err(), NotPlayed::Abandoned);
}

#[test]
fn a_crash_keeps_the_engines_last_lines() {
    let (mut w, mut b) = (player(&[]), player(&["--crash-after", "0"]));
    let g = play(&mut w, &mut b);
    assert_fault(&g, false, FaultKind::Crash);
    assert!(
        g.fault_output
            .iter()
            .any(|l| l == "stderr: faulty-engine: crashing on purpose at search 0"),
        "{:?}",
        g.fault_output
    );
}

#[test]
fn resign_adjudication_uses_engine_scores() {
    // The faulty engine reports scores in -20..20: a resign threshold of 10 over 1 move triggers.
    let (mut w, mut b) = (player(&["--seed", "3"]), player(&["--seed", "4"]));
    let mut s = settings("10+0.1");
    s.adjudication.resign = Some(ResignRule {
        movecount: 1,
        score: 10,
        twosided: false,
    });
    let g = play_game(&mut w, &mut b, &Opening::default(), &s).unwrap();
    assert_eq!(g.termination, Termination::Adjudication, "{}", g.reason);
    assert!(g.reason.ends_with("wins by adjudication"));
    s.adjudication = Adjudication {
        maxmoves: Some(5),
        ..Adjudication::default()
    };
    let g = play_game(&mut w, &mut b, &Opening::default(), &s).unwrap();
    assert_eq!(
        (g.outcome, g.moves.len()),
        (Outcome::Draw, 10),
        "{}",
        g.reason
    );
}

#[test]
fn chess960_castling_is_king_takes_rook_and_reads_back_as_o_o() {
    // King on g1 and rook on h1: castling king side moves only the rook (to f1), the case
    // standard notation cannot express. The book plays it as king takes rook.
    let fen = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1";
    let mut s = settings("10+0.1");
    s.variant = Variant::Chess960;
    let chess960 = |seed: &str| {
        Player::new(
            faulty(&["--chess960", "--seed", seed]),
            Duration::from_secs(5),
            Duration::from_secs(2),
        )
    };
    let (mut w, mut b) = (chess960("5"), chess960("6"));
    let opening = Opening {
        fen: Some(fen.into()),
        moves: vec!["g1h1".into(), "g8h8".into()],
        origin: None,
    };
    let g = play_game(&mut w, &mut b, &opening, &s).unwrap();
    assert_eq!(g.fault, None, "{}", g.reason);
    assert_eq!(
        (g.moves[0].uci.as_str(), g.moves[0].san.as_str()),
        ("g1h1", "O-O")
    );
    assert_eq!(g.moves[1].san, "O-O");
    let text = pgn::write_game(&g, &pgn::PgnHeader::default());
    assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
    assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
    // Our own reader, which follows the Variant tag, replays every move.
    let back = pgn::PgnReader::new(text.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(back.error, None);
    assert_eq!(back.variant, Variant::Chess960);
    let played: Vec<&str> = g.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(back.uci_moves(), played);
    // In standard chess the same opening is not even a position.
    let standard = play_game(&mut w, &mut b, &opening, &settings("10+0.1")).unwrap();
    assert!(
        standard.reason.starts_with("Unusable opening"),
        "{}",
        standard.reason
    );
}
