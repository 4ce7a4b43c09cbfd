//! Tests of the EPD reader: every operation, every error, and the messy forms real suites use.

use super::*;

fn at() -> LineRef {
    LineRef {
        file: "t.epd".to_string(),
        line: 7,
    }
}

fn parse(line: &str) -> EpdPosition {
    parse_line(line, at()).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn cause(line: &str) -> String {
    let e = parse_line(line, at()).expect_err(line);
    assert_eq!(e.at, at());
    e.cause.to_string()
}

fn sans(pos: &EpdPosition, moves: &[Move]) -> String {
    san_list(&pos.position, moves)
}

const ECM1: &str = "2q1r1k1/1ppb4/r2p1Pp1/p4n1p/2P1n3/5NPP/PP3Q1K/2BRRB2 w - -";

#[test]
fn bm_and_id() {
    let p = parse(&format!("{ECM1} bm f7+; id \"ECM.001\";"));
    assert_eq!(sans(&p, &p.bm), "f7+");
    assert_eq!(p.id, "ECM.001");
    assert!(p.am.is_empty() && p.dm.is_none() && p.points.is_empty());
}

#[test]
fn several_bm_and_am_moves() {
    let p = parse("4k3/8/8/8/8/8/8/R3K2R w KQ - bm O-O Rh8+ Ra8+; am Kd1 Ke2;");
    assert_eq!(sans(&p, &p.bm), "O-O Rh8+ Ra8+");
    assert_eq!(sans(&p, &p.am), "Kd1 Ke2");
}

#[test]
fn bm_in_uci_notation_with_zero_castling_and_spaced_check() {
    let p = parse("4k3/8/8/8/8/8/8/R3K2R w KQ - bm e1g1, a1a8 ;");
    assert_eq!(sans(&p, &p.bm), "O-O Ra8+");
    let p = parse("4k3/8/8/8/8/8/8/R3K2R w KQ - bm 0-0-0 Ra8 +;");
    assert_eq!(sans(&p, &p.bm), "O-O-O Ra8+");
    let p = parse("4k3/8/8/8/8/8/8/R3K2R w KQ - bm Ra8+!;");
    assert_eq!(sans(&p, &p.bm), "Ra8+");
}

#[test]
fn counters_before_operations_are_kept_in_the_position() {
    let p = parse("rn1qkb1r/pp2pppp/5n2/3p1b2/3P4/2N1P3/PP3PPP/R1BQKBNR w KQkq - 3 12 ; bm Qb3 ");
    assert_eq!(sans(&p, &p.bm), "Qb3");
    assert!(p.fen().ends_with(" 3 12"), "{}", p.fen());
    assert!(p.id.starts_with("line 7"));
    // Kaufman #4 lost the space between the en-passant field and the clock.
    let p = parse("r1bqrnk1/pp2bp1p/2p2np1/3p2B1/3P4/2NBPN2/PPQ2PPP/1R3RK1 w - -1 12 ; bm b4");
    assert!(p.fen().ends_with(" - 1 12"), "{}", p.fen());
}

#[test]
fn unquoted_id_and_unknown_opcodes_are_kept() {
    let p = parse(&format!("{ECM1} bm f7+; od \"typo.37\"; id ECM 1; acd 12;"));
    assert_eq!(p.id, "ECM 1");
    assert_eq!(p.operation("od").as_deref(), Some("typo.37"));
    assert_eq!(p.operation("acd").as_deref(), Some("12"));
}

#[test]
fn direct_mate() {
    let p = parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1; id \"back rank\";");
    assert_eq!(p.dm, Some(1));
    assert!(p.has_criterion());
    assert!(cause("6k1/5ppp/8/8/8/8/8/R5K1 w - - dm x;").contains("'x' is not a number"));
    assert!(cause("6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 0;").contains("at least 1"));
    assert!(cause("6k1/5ppp/8/8/8/8/8/R5K1 w - - dm;").contains("missing"));
}

const STS: &str = "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; \
    id \"STS(v1.0) Undermine.001\"; c0 \"f5=100, Bf2=46, Bg4=23, fxg5=22\"; \
    c7 \"f5 Bf2 Bg4 fxg5\"; c8 \"100 46 23 22\"; c9 \"f4f5 d4f2 f3g4 f4g5\";";

#[test]
fn sts_scored_alternatives_and_theme() {
    let p = parse(STS);
    assert_eq!(p.points.len(), 4);
    assert_eq!(p.points_for(&p.bm[0]), Some(100));
    assert_eq!(p.points_for(&p.points[3].0), Some(22));
    assert_eq!(p.max_points(), Some(100));
    assert_eq!(p.theme(), Some("Undermine"));
    assert_eq!(sans(&p, &p.c9_moves), "f5 Bf2 Bg4 fxg5");
    // A move not listed earns nothing.
    let other = parse_move(&p.position, "Kh1").unwrap();
    assert_eq!(p.points_for(&other), Some(0));
}

#[test]
fn c9_with_c8_gives_points_without_c0() {
    let line = STS.replace("c0 \"f5=100, Bf2=46, Bg4=23, fxg5=22\";", "");
    let p = parse(&line);
    assert_eq!(p.points.len(), 4);
    assert_eq!(p.points_for(&p.c9_moves[1]), Some(46));
}

#[test]
fn c0_comment_and_c9_result_are_comments() {
    let p = parse(&format!(
        "{ECM1} bm f7+; c0 \"Polgar-Berkes, Budapest 2003\"; c9 \"1-0\";"
    ));
    assert!(p.points.is_empty() && p.c9_moves.is_empty());
    assert_eq!(p.points_for(&p.bm[0]), None);
    assert_eq!(p.theme(), None);
}

#[test]
fn errors_name_the_cause() {
    assert!(cause("8/8/8 w - - bm e4;").contains("bad position"));
    assert!(cause("rnbqkbnr/pppppppp w").contains("expected 4 FEN fields"));
    assert!(cause("8/8/8/8/8/8/8/8 w - - bm e4;").contains("illegal position"));
    assert!(cause(&format!("{ECM1} bm Qh7;")).contains("bm operation: 'Qh7'"));
    assert!(cause(&format!("{ECM1} bm zz9;")).contains("neither SAN nor UCI"));
    assert!(cause(&format!("{ECM1} am a2a5;")).contains("not a legal move"));
    assert!(cause(&format!("{ECM1} bm ;")).contains("no moves"));
    assert!(cause(&format!("{ECM1} bm f7; id \"open")).contains("unterminated"));
    assert!(cause(&format!("{ECM1} bm f7; id;")).contains("missing id"));
    assert!(cause(&format!("{ECM1} bm f7; c0 \"f7=100, Qh7=3\";")).contains("'Qh7'"));
    assert!(cause(&format!("{ECM1} bm f7; c9 \"f6f7 a2a5\";")).contains("not a legal"));
    assert!(cause(&format!("{} 5 bm f7;", ECM1)).contains("halfmove counter"));
}

#[test]
fn sloppy_capture_san_is_accepted_and_ambiguous_am_avoids_all() {
    // Kaufman #3 writes `am Ne5` for a knight capture that both knights can make.
    let p =
        parse("r1bqk2r/ppp2ppp/2n5/4P3/2Bp2n1/5N1P/PP1N1PP1/R2Q1RK1 b kq - 1 10 ; bm Nh6; am Ne5");
    assert_eq!(sans(&p, &p.am), "Ngxe5 Ncxe5");
    let c = cause("r1bqk2r/ppp2ppp/2n5/4P3/2Bp2n1/5N1P/PP1N1PP1/R2Q1RK1 b kq - 1 10 ; bm Ne5");
    assert!(c.contains("ambiguous"), "{c}");
}

#[test]
fn long_algebraic_and_promotion_without_equals() {
    let p = parse("8/1P4k1/8/8/8/8/6K1/1N6 w - - bm Nb1-c3 b8Q+;");
    assert_eq!(sans(&p, &p.bm), "Nc3 b8=Q");
    let p = parse("4k3/8/8/8/8/8/3P4/4K3 w - - bm d2-d4;");
    assert_eq!(sans(&p, &p.bm), "d4");
}

#[test]
fn ambiguous_san_is_an_error() {
    let c = cause("4k3/8/8/8/8/8/4K3/R6R w - - bm Rd1;");
    assert!(c.contains("ambiguous"), "{c}");
}

#[test]
fn suite_accepts_crlf_nul_comments_and_missing_final_newline() {
    let text =
        format!("# comment\r\n{ECM1} bm f7+; id \"a\";\r\n\0\r\n\r\n{ECM1} bm f7+; id \"b\";\0");
    let suite = parse_suite("s", "s.epd", &text, false).unwrap();
    let ids: Vec<_> = suite.positions.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["a", "b"]);
    assert_eq!(suite.positions[1].at.line, 5);
}

#[test]
fn suite_stops_on_bad_line_or_skips_and_counts() {
    let text = format!("{ECM1} bm f7+;\n{ECM1} bm Qh7;\n{ECM1}\n{ECM1} am Kg1;\n");
    let e = parse_suite("s", "s.epd", &text, false).unwrap_err();
    assert_eq!(e.to_string(), "s.epd:2: bm operation: 'Qh7': illegal san");
    let suite = parse_suite("s", "s.epd", &text, true).unwrap();
    assert_eq!(suite.positions.len(), 2);
    let lines: Vec<_> = suite.skipped.iter().map(|e| e.at.line).collect();
    assert_eq!(lines, [2, 3]);
    assert!(suite.skipped[1].cause.to_string().contains("no bm, am, dm"));
}

#[test]
fn repeated_ids_are_made_unique() {
    let text = format!("{ECM1} bm f7+; id x;\n{ECM1} bm f7+; id x;\n");
    let suite = parse_suite("s", "s.epd", &text, false).unwrap();
    assert_eq!(suite.positions[1].id, "x@2");
}

/// Every reference suite in the shared data parses without a single skipped line.
#[test]
#[ignore = "reads ../shared/data (run with --include-ignored; skips when it is absent)"]
fn every_shared_tactical_file_parses() {
    let Some(data) = crate::suites::shared_data() else {
        return;
    };
    let root = data.join("tactical");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("sts"), root.join("mates")] {
        for entry in std::fs::read_dir(&dir).expect("shared data present") {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "epd") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 15, "found {files:?}");
    let mut skipped = Vec::new();
    for path in files {
        let suite = read_suite(&path, true).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(!suite.positions.is_empty(), "{}", path.display());
        skipped.extend(suite.skipped.iter().map(|e| e.to_string()));
        if suite.name.starts_with("STS") {
            assert_eq!(suite.positions.len(), 1188);
            assert!(suite.positions.iter().all(|p| p.max_points() == Some(100)));
        }
        if suite.name == "arasan2023" {
            assert_eq!(suite.positions.len(), 200);
            assert_eq!(
                suite.positions[36].operation("od").as_deref(),
                Some("arasan2023.37")
            );
        }
    }
    // The truly malformed lines: Kaufman #6 gives `bm Bcx3` (no move at all); 8 zurichess mate
    // lines have no `bm`, and 2 hold a broken FEN (a stray `[`, two FENs run together).
    assert_eq!(skipped.len(), 11, "{skipped:#?}");
    assert!(skipped[0].ends_with("kaufman.epd:6: bm operation: 'Bcx3' is neither SAN nor UCI"));
    let no_bm = skipped
        .iter()
        .filter(|e| e.ends_with("no bm, am, dm or scored c0 to test against"));
    assert_eq!(no_bm.count(), 8);
    assert_eq!(
        skipped
            .iter()
            .filter(|e| e.contains("bad position"))
            .count(),
        2
    );
}

#[test]
fn chess960_positions_in_shredder_fen_and_x_fen() {
    // King b1, rooks a1 and e1 (Shredder-FEN "EA"): O-O takes the king to g1, the rook to f1.
    let p = parse("rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - bm O-O; id \"960.1\";");
    assert!(p.is_chess960());
    assert_eq!(sans(&p, &p.bm), "O-O");
    assert_eq!(
        p.fen(),
        "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1"
    );
    // The same position in X-FEN, the castling in UCI as king takes rook.
    let q = parse("rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - c9 b1e1;");
    assert_eq!(sans(&q, &q.c9_moves), "O-O");
    // Standard positions stay in standard mode.
    assert!(!parse("4k3/8/8/8/8/8/8/R3K2R w KQ - bm O-O;").is_chess960());
}
