//! Tests of suite generation: PGN collection, selection rules, EPD output, mate verification.

use super::*;
use crate::suites::epd::{parse_line, LineRef};
use shakmaty::CastlingMode;

const PGN: &str = r#"[Event "t"]
[White "sable"]
[Black "other"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 1-0

[Event "t2"]
[White "other"]
[Black "sable"]
[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]
[SetUp "1"]
[Result "1-0"]

1. Ra8# 1-0
"#;

fn write_pgn(text: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("epd-gen-{}-{}.pgn", std::process::id(), text.len()));
    std::fs::write(&path, text).unwrap();
    path
}

fn opts(skip: usize, player: Option<&str>) -> CollectOptions {
    CollectOptions {
        skip_plies: skip,
        player: player.map(str::to_string),
    }
}

#[test]
fn collects_mainline_positions_with_fen_tags_and_player_filter() {
    let path = write_pgn(PGN);
    let all = collect_positions(&path, &opts(0, None)).unwrap();
    // 10 positions before each move of game 1, 1 of game 2.
    assert_eq!(all.len(), 11);
    assert_eq!(all[10].origin, "game 2 ply 0");
    assert_eq!(
        Fen::from_position(&all[10].position, EnPassantMode::Legal).to_string(),
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    );
    let skipped = collect_positions(&path, &opts(4, None)).unwrap();
    assert_eq!(skipped.len(), 6, "game 1 from ply 4 only");
    // Only positions with sable to move: White in game 1 (plies 0,2,..,8), Black in game 2 (none).
    let sable = collect_positions(&path, &opts(0, Some("sable"))).unwrap();
    assert_eq!(sable.len(), 5);
    assert!(sable
        .iter()
        .all(|c| c.position.turn() == shakmaty::Color::White));
    assert!(sable[1]
        .last_move
        .is_some_and(|m| san(&all[1].position, &m) == "e5"));
    // With a player, each position carries the move that player made there (to be scored).
    assert!(sable[1]
        .played
        .is_some_and(|m| san(&sable[1].position, &m) == "Nf3"));
    assert!(all.iter().all(|c| c.played.is_none()));
    std::fs::remove_file(path).unwrap();
}

#[test]
fn illegal_pgn_move_is_an_error_naming_game_and_ply() {
    let path = write_pgn("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n");
    let e = collect_positions(&path, &opts(0, None))
        .unwrap_err()
        .to_string();
    assert!(e.contains("game 1: ply 3: 'Ke3'"), "{e}");
    std::fs::remove_file(path).unwrap();
    let path = write_pgn(
        "[Event \"x\"]\n\n1. e4 *\n\n[Variant \"Chess960\"]\n\
         [FEN \"bqnbrk1r/pppppppp/8/8/8/8/PPPPPPPP/BQNBRK1R w HEhe - 0 1\"]\n\n1. O-O *\n",
    );
    let e = collect_positions(&path, &opts(0, None))
        .unwrap_err()
        .to_string();
    assert!(e.contains("game 2: Chess960 is not supported"), "{e}");
    std::fs::remove_file(path).unwrap();
}

fn candidate(fen: &str, last: Option<&str>) -> Candidate {
    let f: Fen = fen.parse().unwrap();
    let mut position: Chess = f.into_position(CastlingMode::Standard).unwrap();
    let mut last_move = None;
    if let Some(uci) = last {
        // `fen` is the position before `last`; play it.
        let m = UciMove::from_ascii(uci.as_bytes())
            .unwrap()
            .to_move(&position)
            .unwrap();
        position.play_unchecked(m);
        last_move = Some(m);
    }
    Candidate {
        position,
        last_move,
        played: None,
        origin: "game 1 ply 9".into(),
    }
}

fn mv(c: &Candidate, uci: &str) -> Move {
    UciMove::from_ascii(uci.as_bytes())
        .unwrap()
        .to_move(&c.position)
        .unwrap()
}

const SEL: Selection = Selection {
    margin: 150,
    max_second: 200,
    keep_recaptures: false,
    mates_only: None,
};

#[test]
fn selection_by_margin_second_line_recapture_and_mates() {
    let c = candidate("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", None);
    let a = |best: Score, second: Option<Score>| Analysis {
        best: (mv(&c, "a1a8"), best),
        second: second.map(|s| (mv(&c, "g1f1"), s)),
        depth: 9,
        played: None,
    };
    assert!(keep(&c, &a(Score::Cp(300), Some(Score::Cp(100))), &SEL));
    assert!(
        !keep(&c, &a(Score::Cp(240), Some(Score::Cp(100))), &SEL),
        "margin 140 < 150"
    );
    assert!(
        !keep(&c, &a(Score::Cp(900), Some(Score::Cp(500))), &SEL),
        "second already winning"
    );
    assert!(keep(&c, &a(Score::Mate(1), Some(Score::Cp(0))), &SEL));
    assert!(
        keep(&c, &a(Score::Mate(2), Some(Score::Cp(900))), &SEL),
        "the only mate"
    );
    assert!(
        !keep(&c, &a(Score::Mate(2), Some(Score::Mate(3))), &SEL),
        "two mates"
    );
    assert!(
        !keep(&c, &a(Score::Mate(1), None), &SEL),
        "single legal move"
    );
    let mates = Selection {
        mates_only: Some(2),
        ..SEL
    };
    assert!(keep(&c, &a(Score::Mate(1), Some(Score::Cp(900))), &mates));
    assert!(
        !keep(&c, &a(Score::Mate(3), Some(Score::Cp(0))), &mates),
        "too long"
    );
    assert!(
        !keep(&c, &a(Score::Mate(1), Some(Score::Mate(2))), &mates),
        "two mating moves"
    );
    assert!(comparable(Score::Mate(1)) > comparable(Score::Mate(2)));
    assert!(comparable(Score::Mate(-1)) < comparable(Score::Mate(-5)));
    assert!(comparable(Score::Mate(-5)) < comparable(Score::Cp(-3000)));

    // Black just took on d5 with the knight; exd5 recaptures and is dropped unless asked for.
    let r = candidate("4k3/8/8/3P4/8/4n3/4P3/4K3 b - - 0 1", Some("e3d5"));
    let ra = Analysis {
        best: (mv(&r, "e2e4"), Score::Cp(400)),
        second: Some((mv(&r, "e1d2"), Score::Cp(0))),
        depth: 5,
        played: None,
    };
    assert!(keep(&r, &ra, &SEL), "e4 does not recapture");
}

#[test]
fn the_players_move_must_be_worse_than_the_best_by_the_margin() {
    let c = candidate("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", None);
    let a = |played: &str, score: Option<Score>| Analysis {
        best: (mv(&c, "a1a8"), Score::Cp(300)),
        second: Some((mv(&c, "g1f1"), Score::Cp(100))),
        depth: 9,
        played: Some((mv(&c, played), score)),
    };
    // The best line clears the margin over the second in every case: only the played move decides.
    assert_eq!(
        judge(&c, &a("a1a8", Some(Score::Cp(300))), &SEL),
        Err(Dropped::PlayedBest)
    );
    assert_eq!(
        judge(&c, &a("h2h3", Some(Score::Cp(200))), &SEL),
        Err(Dropped::PlayedWithinMargin),
        "100 cp worse < 150"
    );
    assert_eq!(judge(&c, &a("h2h3", Some(Score::Cp(150))), &SEL), Ok(()));
    assert_eq!(judge(&c, &a("h2h3", Some(Score::Mate(-3))), &SEL), Ok(()));
    assert_eq!(
        judge(&c, &a("h2h3", None), &SEL),
        Err(Dropped::PlayedUnscored)
    );
    let mut played = a("h2h3", Some(Score::Cp(-500)));
    played.second = Some((mv(&c, "g1f1"), Score::Cp(250)));
    assert_eq!(
        judge(&c, &played, &SEL),
        Err(Dropped::NarrowMargin),
        "the best must still beat the second"
    );
    let line = epd_line(&c, &a("h2h3", Some(Score::Cp(-20))), "t.1", None);
    assert!(line.contains(" c2 \"played h3 -0.20\";"), "{line}");
}

#[test]
fn recapture_is_recognised() {
    // White pawn took on e6; ...dxe6 recaptures.
    let c = candidate("4k3/3p4/4p3/3P4/8/8/8/4K3 w - - 0 1", Some("d5e6"));
    let a = Analysis {
        best: (mv(&c, "d7e6"), Score::Cp(0)),
        second: Some((mv(&c, "e8f8"), Score::Cp(-200))),
        depth: 5,
        played: None,
    };
    assert!(!keep(&c, &a, &SEL));
    assert!(keep(
        &c,
        &a,
        &Selection {
            keep_recaptures: true,
            ..SEL
        }
    ));
}

#[test]
fn epd_output_parses_back_with_bm_and_dm() {
    let c = candidate("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", None);
    let a = Analysis {
        best: (mv(&c, "a1a8"), Score::Mate(1)),
        second: Some((mv(&c, "g1f1"), Score::Cp(0))),
        depth: 7,
        played: None,
    };
    let verified = verify_mate(&c, &a);
    assert_eq!(verified, Some(1));
    let line = epd_line(&c, &a, "mates.1", verified);
    assert_eq!(line, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; dm 1; acd 7; id \"mates.1\"; c1 \"second Kf1 +0.00; game 1 ply 9\";");
    let back = parse_line(
        &line,
        LineRef {
            file: "x".into(),
            line: 1,
        },
    )
    .unwrap();
    assert_eq!(
        (back.dm, back.id.as_str(), back.bm.len()),
        (Some(1), "mates.1", 1)
    );
    // A false mate claim is not verified.
    let wrong = Analysis {
        best: (mv(&c, "g1f1"), Score::Mate(2)),
        ..a
    };
    assert_eq!(
        verify_mate(&c, &wrong),
        None,
        "the shortest mate is 1, not 2"
    );
    let cp = Analysis {
        best: (mv(&c, "a1a8"), Score::Cp(250)),
        ..a
    };
    assert!(epd_line(&c, &cp, "t.1", None).contains(" ce 250; acd 7;"));
}

#[test]
fn random_playouts_are_reproducible_and_distinct() {
    let a = random_playout_positions(3, 40, 10, 7);
    let b = random_playout_positions(3, 40, 10, 7);
    let key = |c: &Candidate| Epd::from_position(&c.position, EnPassantMode::Legal).to_string();
    assert_eq!(
        a.iter().map(key).collect::<Vec<_>>(),
        b.iter().map(key).collect::<Vec<_>>()
    );
    assert!(a.len() > 60 && a.len() <= 90, "{}", a.len());
    let distinct: HashSet<String> = a.iter().map(key).collect();
    assert_eq!(distinct.len(), a.len());
    assert!(a[0].origin == "playout 1 ply 10" && a[0].last_move.is_some());
    let c = random_playout_positions(3, 40, 10, 8);
    assert_ne!(key(&a[5]), key(&c[5]), "another seed, other games");
}
