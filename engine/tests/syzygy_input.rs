//! Bad Syzygy input: folders that do not exist or hold no table, files of the wrong size, the
//! wrong magic bytes, another variant's names, corrupt or truncated tables. Each is reported
//! (naming the folder or file), skipped, never a panic or a hang; the engine keeps searching.
//! The synthetic cases run everywhere; the ones that damage real tables need the shared data.

use crate::common;

use common::placements::random_fens;
use common::process::UciProcess;
use common::syzygy_dir;
use sable::board::Board;
use sable::tablebase::{TableKind, TableProblem, Tablebases};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const LONG: Duration = Duration::from_secs(30);
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];
const ANTICHESS_WDL_MAGIC: [u8; 4] = [0xbc, 0x55, 0xbc, 0x21];

/// A fresh, empty scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sable-syzygy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A file of `len` bytes: `head`, then a deterministic byte pattern.
fn write(dir: &Path, name: &str, head: &[u8], len: usize) -> PathBuf {
    let mut bytes = head.to_vec();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    while bytes.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.push(x as u8);
    }
    bytes.truncate(len);
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

/// Opens `spec` with a sink that records the problems told while probing.
fn open_recording(
    spec: &str,
) -> (
    Option<Tablebases>,
    Vec<TableProblem>,
    Arc<Mutex<Vec<String>>>,
) {
    let told = Arc::new(Mutex::new(Vec::new()));
    let (tables, problems) = Tablebases::open(spec);
    let tables = tables.map(|mut t| {
        let told = Arc::clone(&told);
        t.set_problem_sink(Box::new(move |m| told.lock().unwrap().push(m.to_string())));
        t
    });
    (tables, problems, told)
}

#[test]
fn missing_folders_files_and_empty_folders_are_named_and_leave_the_tables_off() {
    let empty = scratch("empty");
    let file = write(&empty, "notes.txt", b"not a folder", 12);
    let spec = format!(
        "/nonexistent/syzygy:{}::{}",
        empty.display(),
        file.display()
    );
    let (tables, problems) = Tablebases::open(&spec);
    assert!(tables.is_none());
    let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(text.len(), 3, "{text:?}");
    assert!(
        matches!(&problems[0], TableProblem::NoFolder(p) if p == Path::new("/nonexistent/syzygy"))
    );
    assert!(text[0].contains("/nonexistent/syzygy") && text[0].contains("does not exist"));
    assert!(matches!(&problems[1], TableProblem::NoTables(p) if *p == empty));
    assert!(matches!(&problems[2], TableProblem::NotAFolder(p) if *p == file));
    // An empty path is no folder at all: nothing to report, nothing loaded.
    let (tables, problems) = Tablebases::open("");
    assert!(tables.is_none() && problems.is_empty());
}

#[test]
fn wrong_magic_wrong_variant_and_wrong_size_files_are_skipped_with_their_reason() {
    let dir = scratch("bad-files");
    let size = 16 + 64 * 3;
    let zeros = write(&dir, "KQvK.rtbw", &[0; 4], size);
    let antichess = write(&dir, "KRvK.rtbw", &ANTICHESS_WDL_MAGIC, size);
    let swapped = write(&dir, "KNvK.rtbz", &WDL_MAGIC, size);
    let antichess_name = write(&dir, "QvR.rtbw", &WDL_MAGIC, size);
    let truncated = write(&dir, "KPvK.rtbw", &WDL_MAGIC, 100);
    // Other variants' extensions and other files are not tables of ours: silently ignored.
    write(&dir, "KQvK.gtbw", &ANTICHESS_WDL_MAGIC, size);
    write(&dir, "README.txt", b"tables", 6);
    let (tables, problems) = Tablebases::open(dir.to_str().unwrap());
    assert!(tables.is_none(), "no usable table");
    let find = |file: &Path| {
        problems
            .iter()
            .find(|p| p.to_string().contains(&file.display().to_string()))
            .unwrap_or_else(|| panic!("{} not reported: {problems:?}", file.display()))
    };
    assert!(matches!(
        find(&zeros),
        TableProblem::BadMagic { variant: None, .. }
    ));
    assert!(matches!(
        find(&antichess),
        TableProblem::BadMagic {
            variant: Some("antichess"),
            ..
        }
    ));
    assert!(find(&antichess).to_string().contains("antichess"));
    assert!(
        matches!(find(&swapped), TableProblem::BadMagic { variant: Some(v), .. } if v.contains("WDL"))
    );
    assert!(matches!(
        find(&antichess_name),
        TableProblem::NotAChessTable(_)
    ));
    assert!(matches!(
        find(&truncated),
        TableProblem::BadSize { size: 100, .. }
    ));
    assert_eq!(problems.len(), 5, "{problems:?}");
}

#[test]
fn a_corrupt_table_with_a_valid_header_gives_no_result_and_is_told_once() {
    let dir = scratch("corrupt");
    let file = write(&dir, "KQvK.rtbw", &WDL_MAGIC, 16 + 64 * 40);
    write(&dir, "KQvK.rtbz", &DTZ_MAGIC, 16 + 64 * 40);
    let (tables, problems, told) = open_recording(dir.to_str().unwrap());
    assert!(problems.is_empty(), "the header looks fine: {problems:?}");
    let tables = tables.expect("accepted until probed");
    assert_eq!((tables.count(TableKind::Wdl), tables.max_pieces()), (1, 3));
    let b = board("8/8/8/8/8/2k5/8/K6Q w - - 0 1");
    for _ in 0..3 {
        assert_eq!(tables.probe_wdl(&b), None);
        assert_eq!(tables.probe_dtz(&b), None);
    }
    let told = told.lock().unwrap().clone();
    assert!(!told.is_empty() && told.len() <= 2, "{told:?}");
    assert!(told[0].contains(&file.display().to_string()), "{told:?}");
}

#[test]
fn uci_reports_bad_paths_and_keeps_searching() {
    let dir = scratch("uci");
    let corrupt = write(&dir, "KQvK.rtbw", &WDL_MAGIC, 16 + 64 * 40);
    let mut e = UciProcess::start();
    e.send("uci");
    e.until("uciok", LONG);
    e.send("setoption name SyzygyPath value /nonexistent/tables");
    e.send("isready");
    let lines = e.until("readyok", LONG);
    assert!(
        lines.iter().any(|l| l.starts_with("info string")
            && l.contains("/nonexistent/tables")
            && l.contains("does not exist")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("tablebases off")),
        "{lines:?}"
    );
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.send("isready");
    let lines = e.until("readyok", LONG);
    assert!(
        lines
            .iter()
            .any(|l| l == "info string Syzygy: found 1 WDL and 0 DTZ tables, up to 3 pieces"),
        "{lines:?}"
    );
    // The root is in the (corrupt) table: the probe fails, is told, and the search goes on.
    e.send("position fen 8/8/8/8/8/2k5/8/K6Q w - - 0 1");
    e.send("go depth 6");
    let lines = e.until("bestmove", LONG);
    assert!(
        lines.iter().any(|l| l.starts_with("info string")
            && l.contains(&corrupt.display().to_string())
            && l.contains("corrupt")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains(" tbhits 0 ")), "{lines:?}");
    // Bad option values are refused with a reason and change nothing.
    for bad in [
        "setoption name SyzygyProbeDepth value 0",
        "setoption name SyzygyProbeLimit value 8",
        "setoption name Syzygy50MoveRule value maybe",
    ] {
        e.send(bad);
        e.send("isready");
        let lines = e.until("readyok", LONG);
        assert!(
            lines.iter().any(|l| l.starts_with("info string option")),
            "{bad}: {lines:?}"
        );
    }
    e.send("quit");
}

/// Copies the shared tables into a scratch folder, except those `skip` names.
fn copy_tables(from: &Path, to: &Path, skip: &[&str]) {
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if (name.ends_with(".rtbw") || name.ends_with(".rtbz")) && !skip.contains(&name.as_str()) {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

#[test]
#[ignore = "needs the Syzygy tables of the shared data"]
fn damaged_real_tables_never_panic_or_hang() {
    let Some(real) = syzygy_dir() else {
        return;
    };
    let positions: Vec<Board> = random_fens(&["KQvKR"], 400, 11)
        .iter()
        .map(|f| board(f))
        .collect();
    // 1. Truncated to half, at a size a table can have, so only probing can find out.
    let truncated = scratch("truncated");
    copy_tables(&real, &truncated, &["KQvKR.rtbw"]);
    let whole = std::fs::read(real.join("KQvKR.rtbw")).unwrap();
    let cut = whole.len() / 2 / 64 * 64 + 16;
    std::fs::write(truncated.join("KQvKR.rtbw"), &whole[..cut]).unwrap();
    // 2. The body overwritten with a byte pattern, the header kept.
    let scrambled = scratch("scrambled");
    copy_tables(&real, &scrambled, &["KQvKR.rtbw"]);
    let mut bytes = whole.clone();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for b in bytes.iter_mut().skip(whole.len() / 3) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = x as u8;
    }
    std::fs::write(scrambled.join("KQvKR.rtbw"), &bytes).unwrap();
    // 3. Another material's table under this name.
    let renamed = scratch("renamed");
    copy_tables(&real, &renamed, &["KQvKR.rtbw"]);
    std::fs::copy(real.join("KRvKR.rtbw"), renamed.join("KQvKR.rtbw")).unwrap();
    for dir in [&truncated, &scrambled, &renamed] {
        let (tables, problems, told) = open_recording(dir.to_str().unwrap());
        assert!(problems.is_empty(), "{problems:?}");
        let tables = tables.expect("loaded");
        let start = Instant::now();
        let mut answered = 0;
        for b in &positions {
            answered += tables.probe_wdl(b).is_some() as usize;
            let _ = tables.probe_dtz(b);
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{}",
            dir.display()
        );
        let told = told.lock().unwrap().clone();
        println!(
            "{}: {answered} of {} WDL probes answered; told {told:?}",
            dir.display(),
            positions.len()
        );
        // The truncated and renamed tables cannot answer everything: they say so.
        if dir != &scrambled {
            assert!(answered < positions.len());
            assert!(
                told.iter().any(|m| m.contains("KQvKR")),
                "{}: {told:?}",
                dir.display()
            );
        }
    }
    // And the engine still searches with the damaged table.
    let mut e = UciProcess::start();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        truncated.display()
    ));
    e.send("position fen 8/8/8/8/1k6/8/1r6/KQ6 w - - 0 1");
    e.send("go depth 8");
    let lines = e.until("bestmove", LONG);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 8")),
        "{lines:?}"
    );
    e.send("quit");
}
