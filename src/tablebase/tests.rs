//! The tables module against bad folders and bad files (made here, no data needed) and against
//! the shared reference tables (ignored tests; `.ci/run` runs them): known positions, and
//! truncated, corrupt and wrong tables that must give no answer, never a panic.

use super::*;
use sable::rng::Rng;
use shakmaty::{Chess, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, Wdl};
use std::path::{Path, PathBuf};

/// The first bytes of a Syzygy WDL table for chess.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];

fn folder(name: &str) -> PathBuf {
    let dir = crate::test_dir(&format!("tb-{name}"));
    for entry in std::fs::read_dir(&dir).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    dir
}

fn open(dir: &Path) -> Result<Tablebases, TbError> {
    Tablebases::open(dir.to_str().unwrap())
}

fn pos(fen: &str) -> Chess {
    parse_position(fen).unwrap()
}

/// A file of `len` bytes starting with `head`, the rest a fixed pattern.
fn write_file(path: &Path, head: &[u8], len: usize) {
    let mut bytes: Vec<u8> = (0..len).map(|i| (i * 37 % 251) as u8).collect();
    bytes[..head.len()].copy_from_slice(head);
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn epd_files_give_their_positions_with_file_and_line_skipping_comments_and_blanks() {
    let dir = folder("epd-file");
    let path = dir.join("probe.epd");
    std::fs::write(
        &path,
        "# KQ v K\n8/8/8/8/8/8/1Q6/K1k5 w - - 0 1\n\n   \n  4k3/8/8/8/8/8/8/4K2R w K - bm O-O;  \n",
    )
    .unwrap();
    let got = epd_file_positions(&path).unwrap();
    let shown = path.display();
    assert_eq!(
        got,
        vec![
            (
                format!("{shown}:2"),
                "8/8/8/8/8/8/1Q6/K1k5 w - - 0 1".to_string()
            ),
            (
                format!("{shown}:5"),
                "4k3/8/8/8/8/8/8/4K2R w K - bm O-O;".to_string()
            ),
        ]
    );
    // An unreadable file is an error naming it, not an empty list.
    let missing = dir.join("nowhere.epd");
    let err = epd_file_positions(&missing).unwrap_err();
    assert!(format!("{err:#}").contains("nowhere.epd"), "{err:#}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn missing_empty_and_non_folders_are_errors_naming_them() {
    let dir = folder("bad-folders");
    let missing = dir.join("nowhere");
    let err = open(&missing).unwrap_err();
    assert!(matches!(err, TbError::Missing { .. }), "{err}");
    assert!(err.to_string().contains("nowhere"), "{err}");
    // In a list, the missing one is named even after a good one.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let err = open(&empty).unwrap_err();
    assert!(matches!(err, TbError::NoTables { .. }), "{err}");
    assert!(err.to_string().contains("empty"), "{err}");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let err = open(&file).unwrap_err();
    assert!(matches!(err, TbError::NotAFolder { .. }), "{err}");
    assert!(matches!(Tablebases::open(""), Err(TbError::NoFolder)));
    assert!(matches!(Tablebases::open("::"), Err(TbError::NoFolder)));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn other_variants_bad_names_and_truncated_files_are_refused_with_their_reason() {
    let dir = folder("refused");
    // An antichess table, an atomic one, a table name with too many pieces, a README and a
    // chess table whose size no table has (cut short).
    write_file(&dir.join("KQvK.gtbw"), &[0xbc, 0x55, 0xbc, 0x21], 16 + 64);
    write_file(&dir.join("KQvK.atbz"), &[0x91, 0xa9, 0x5e, 0xeb], 16 + 64);
    write_file(&dir.join("KQQQQQQvK.rtbw"), &WDL_MAGIC, 16 + 64);
    std::fs::write(dir.join("README.txt"), "tables").unwrap();
    write_file(&dir.join("KRvK.rtbw"), &WDL_MAGIC, 16 + 64 + 5);
    let err = open(&dir).unwrap_err();
    let TbError::NoTables { refused, .. } = &err else {
        panic!("{err}")
    };
    let why = |name: &str| {
        refused
            .iter()
            .find(|(f, _)| f.ends_with(name))
            .map(|(_, w)| w.clone())
            .unwrap_or_else(|| panic!("{name} not refused: {err}"))
    };
    assert!(why("KQvK.gtbw").contains("antichess"));
    assert!(why("KQvK.atbz").contains("atomic"));
    assert!(why("KQQQQQQvK.rtbw").contains("not a chess table name"));
    assert!(why("KRvK.rtbw").contains("truncated"));
    assert_eq!(refused.len(), 4, "the README is no table: {err}");
    // Beside a usable table the same files are warnings, and the folder loads.
    write_file(&dir.join("KQvK.rtbw"), &WDL_MAGIC, 16 + 64 * 3);
    let tb = open(&dir).unwrap();
    assert_eq!(
        (tb.wdl_tables(), tb.dtz_tables(), tb.max_pieces()),
        (1, 0, 3)
    );
    assert_eq!(tb.refused().len(), 4);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn garbage_tables_give_no_answer_and_castling_or_too_many_pieces_no_probe() {
    let dir = folder("garbage");
    // Right size, wrong magic: a file that only looks like a table.
    write_file(&dir.join("KQvK.rtbw"), b"junk", 16 + 64 * 4);
    // Right magic, garbage after it.
    write_file(&dir.join("KRvK.rtbw"), &WDL_MAGIC, 16 + 64 * 4);
    let tb = Tablebases::open_shared(dir.to_str().unwrap()).unwrap();
    let kqk = tb.probe(&pos("8/8/8/8/8/k7/8/1K5Q w - - 0 1")).unwrap_err();
    assert!(
        matches!(&kqk, NoAnswer::BadTable { cause, .. } if cause.contains("not a Syzygy chess table")),
        "{kqk}"
    );
    let krk = tb.probe(&pos("8/8/8/8/8/k7/8/1K5R w - - 0 1")).unwrap_err();
    assert!(
        matches!(&krk, NoAnswer::BadTable { cause, .. } if cause.contains("corrupt")),
        "{krk}"
    );
    // Asked again (the table is opened once; a failed opening is tried again, and fails again).
    assert_eq!(
        tb.probe(&pos("8/8/8/8/8/k7/8/1K5R w - - 0 1")).unwrap_err(),
        krk
    );
    let missing = tb.probe(&pos("8/8/8/8/8/k7/8/1K5B w - - 0 1")).unwrap_err();
    assert!(
        matches!(missing, NoAnswer::MissingTable { .. }),
        "{missing}"
    );
    assert!(missing.to_string().contains("KBvK"), "{missing}");
    assert_eq!(tb.probe(&Chess::default()).unwrap_err(), NoAnswer::Castling);
    assert_eq!(
        tb.probe(&pos("8/8/8/8/8/k7/8/1KR4R w - - 0 1"))
            .unwrap_err(),
        NoAnswer::TooManyPieces { pieces: 4, max: 3 }
    );
    // Chess960 castling rights (Shredder-FEN) are castling rights too.
    let c960 = pos("1r2k3/8/8/8/8/8/8/1R2K3 w Bb - 0 1");
    assert_eq!(tb.probe(&c960).unwrap_err(), NoAnswer::Castling);
    // The rule over them: no verdict, no label; never a panic.
    let rule = SyzygyRule::new(tb, None, TbResults::Both, false).unwrap();
    assert!(rule
        .verdict(&pos("8/8/8/8/8/k7/8/1K5R w - - 0 1"))
        .is_none());
    assert!(matches!(
        SyzygyRule::new(tb, Some(4), TbResults::Both, false),
        Err(TbError::Pieces { asked: 4, max: 3 })
    ));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn positions_parse_from_fen_and_epd_lines_and_bad_ones_say_why() {
    let fen = pos("8/8/8/8/8/k7/8/1K5Q w - - 37 80");
    assert_eq!(fen.halfmoves(), 37);
    let epd = pos("8/8/8/8/8/k7/8/1K5Q b - - bm Kb3; id \"x\";");
    assert_eq!((epd.halfmoves(), epd.turn()), (0, shakmaty::Color::Black));
    for (bad, why) in [
        ("8/8/8 w", "at least 4 fields"),
        ("8/8/8/8/8/k7/8/1K5X w - - 0 1", "bad FEN"),
        ("8/8/8/8/8/8/k7/1K5Q w - - 0 1", "illegal position"),
        ("", "at least 4 fields"),
    ] {
        let err = parse_position(bad).unwrap_err().to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
}

/// The shared reference tables, or `None` (the test then skips, saying why).
fn shared_tables() -> Option<&'static Tablebases> {
    let dir = crate::suites::shared_data()?.join("syzygy");
    Some(Tablebases::open_shared(dir.to_str().unwrap()).unwrap())
}

#[test]
#[ignore = "reads ../shared/data/syzygy (skips when it is absent)"]
fn the_shared_tables_load_and_answer_positions_whose_value_chess_knows() {
    let Some(tb) = shared_tables() else { return };
    assert_eq!(
        (tb.wdl_tables(), tb.dtz_tables(), tb.max_pieces()),
        (35, 35, 4)
    );
    assert!(tb.refused().is_empty(), "{:?}", tb.refused());
    let wdl = |fen: &str| tb.probe(&pos(fen)).unwrap().wdl;
    // A queen up wins; a rook pawn with the defending king in its corner draws.
    assert_eq!(wdl("8/8/8/8/8/k7/8/1K5Q w - - 0 1"), Wdl::Win);
    assert_eq!(wdl("8/8/8/8/8/k7/8/1K5Q b - - 0 1"), Wdl::Loss);
    assert_eq!(wdl("k7/8/8/P7/8/8/8/2K5 w - - 0 1"), Wdl::Draw);
    // Mated and stalemated: lost and drawn on the board.
    assert_eq!(wdl("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"), Wdl::Loss);
    assert_eq!(wdl("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), Wdl::Draw);
    // Bishop and knight mate: the longest 4-piece win, 59 or 60 plies to zeroing here.
    let kbnk = tb.probe(&pos("8/8/8/8/B7/N7/K2k4/8 b - - 0 1")).unwrap();
    assert_eq!(kbnk.wdl, Wdl::Loss);
    assert!(matches!(kbnk.dtz, Ok(MaybeRounded::Rounded(Dtz(-59)))));
    // The halfmove clock: the same queen win is drawn once the clock leaves too few moves.
    let rule = SyzygyRule::new(tb, None, TbResults::Both, false).unwrap();
    let ignoring = SyzygyRule::new(tb, None, TbResults::Both, true).unwrap();
    let late = pos("8/8/8/8/8/k7/8/1K5Q w - - 95 80");
    let v = rule.verdict(&late).unwrap();
    assert_eq!(v.outcome, shakmaty::KnownOutcome::Draw);
    assert!(
        v.reason.starts_with("Syzygy: draw by the 50-move rule"),
        "{}",
        v.reason
    );
    let v = ignoring.verdict(&late).unwrap();
    assert!(
        v.reason.contains("ignoring the 50-move rule"),
        "{}",
        v.reason
    );
    // Which results end a game.
    let draws_only = SyzygyRule::new(tb, None, TbResults::Draw, false).unwrap();
    let wins_only = SyzygyRule::new(tb, None, TbResults::WinLoss, false).unwrap();
    let won = pos("8/8/8/8/8/k7/8/1K5Q b - - 0 1");
    let drawn = pos("k7/8/8/P7/8/8/8/2K5 w - - 0 1");
    assert!(draws_only.verdict(&won).is_none() && draws_only.verdict(&drawn).is_some());
    assert!(wins_only.verdict(&won).is_some() && wins_only.verdict(&drawn).is_none());
    let v = wins_only.verdict(&won).unwrap();
    assert_eq!(
        v.outcome,
        shakmaty::KnownOutcome::Decisive {
            winner: shakmaty::Color::White
        }
    );
    assert!(v
        .reason
        .starts_with("Syzygy: White wins (Black to move: WDL -2, DTZ -"));
    // --tb-pieces 3 leaves 4-piece positions alone.
    let three = SyzygyRule::new(tb, Some(3), TbResults::Both, false).unwrap();
    let rooks = pos("8/8/8/8/8/k7/r7/1K5R w - - 0 1");
    assert!(rule.verdict(&rooks).is_some() && three.verdict(&rooks).is_none());
    assert!(three.verdict(&drawn).is_some());
}

/// `n` random legal positions with White's `white` pieces and Black's `black` (kings added),
/// either side to move.
fn random_positions(white: &str, black: &str, n: usize, seed: u64) -> Vec<Chess> {
    let mut rng = Rng::from_seed(seed);
    let mut out = Vec::new();
    let pieces: Vec<char> = format!("K{white}k{black}").chars().collect();
    while out.len() < n {
        let mut board = ['.'; 64];
        for &p in &pieces {
            let sq = loop {
                let sq = rng.below(64);
                if board[sq] == '.' {
                    break sq;
                }
            };
            board[sq] = p;
        }
        let ranks: Vec<String> = board.chunks(8).map(|r| r.iter().collect()).collect();
        let placement = ranks.join("/").replace('.', "1");
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        if let Ok(p) = parse_position(&format!("{placement} {side} - - 0 1")) {
            out.push(p);
        }
    }
    out
}

/// Copies `names` from the shared tables into a scratch folder.
fn copy_tables(from: &Path, to: &Path, names: &[&str]) {
    for n in names {
        std::fs::copy(from.join(n), to.join(n)).unwrap();
    }
}

#[test]
#[ignore = "reads ../shared/data/syzygy (skips when it is absent)"]
fn truncated_corrupt_and_wrong_tables_give_no_answer_never_a_panic() {
    let Some(data) = crate::suites::shared_data() else {
        return;
    };
    let src = data.join("syzygy");
    let good = Tablebases::open(src.to_str().unwrap()).unwrap();
    let dir = folder("corrupt");
    // KBvK, KNvK and KRvK are reached by captures and promotions; KQvK is reached too, and wrong.
    for m in ["KBvK", "KNvK", "KRvK"] {
        copy_tables(&src, &dir, &[&format!("{m}.rtbw"), &format!("{m}.rtbz")]);
    }
    // A wrong table: KRvK's under KQvK's name.
    std::fs::copy(src.join("KRvK.rtbw"), dir.join("KQvK.rtbw")).unwrap();
    // Truncated to a size a table may have (so only probing finds out).
    let full = std::fs::read(src.join("KBNvK.rtbz")).unwrap();
    std::fs::write(dir.join("KBNvK.rtbz"), &full[..16 + 64]).unwrap();
    copy_tables(&src, &dir, &["KBNvK.rtbw"]);
    // Random bytes changed all over a copy (the header excepted, so that it opens).
    let mut bytes = std::fs::read(src.join("KPvK.rtbw")).unwrap();
    let mut rng = Rng::from_seed(2026);
    for _ in 0..bytes.len() / 8 {
        let i = 64 + rng.below(bytes.len() - 64);
        bytes[i] = rng.next_u64() as u8;
    }
    std::fs::write(dir.join("KPvK.rtbw"), bytes).unwrap();
    copy_tables(&src, &dir, &["KPvK.rtbz", "KQvK.rtbz"]);
    let tb = open(&dir).unwrap();
    let wrong = tb.probe(&pos("8/8/8/8/8/k7/8/1K5Q w - - 0 1")).unwrap_err();
    assert!(matches!(wrong, NoAnswer::BadTable { .. }), "{wrong}");
    let mut answers = [0usize; 2];
    for (w, b, seed) in [("BN", "", 1), ("P", "", 2), ("", "P", 3), ("R", "", 4)] {
        for p in random_positions(w, b, 400, seed) {
            match tb.probe(&p) {
                Ok(probe) => {
                    answers[0] += 1;
                    // Untouched tables still answer right.
                    if w == "R" {
                        assert_eq!(probe.wdl, good.probe(&p).unwrap().wdl);
                    }
                }
                Err(NoAnswer::ProberFailed(why)) => panic!("the prober panicked: {why}"),
                Err(NoAnswer::BadTable { material, .. }) => {
                    answers[1] += 1;
                    let broken = ["KBNvK", "KPvK", "KvKP", "KQvK", "KvKQ"];
                    assert!(broken.contains(&material.as_str()), "{material}");
                }
                Err(e) => panic!("{e}"),
            }
            let _ = tb.probe_moves(&p);
            let _ = tb.best_move(&p);
        }
    }
    assert!(
        answers[1] >= 400,
        "the truncated table gave answers: {answers:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

proptest::proptest! {
    /// Any line, FEN-like or not, parses or says why; never a panic.
    #[test]
    fn any_line_parses_or_says_why(line in "[KQRBNPkqrbnp1-9/ wb-]{0,90}|.{0,60}") {
        if let Err(why) = parse_position(&line) {
            proptest::prop_assert!(!why.to_string().is_empty());
        }
    }
}
