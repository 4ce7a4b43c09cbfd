//! Probes per second of the engine's Syzygy probing, for docs/syzygy.md:
//!
//!   cargo run --release -p sable --example tb_speed -- PATH [POSITIONS]
//!
//! Random legal positions of every table in PATH (all sides to move, halfmove clock 0) are
//! converted to shakmaty positions alone, then probed for WDL (what the search does), then for
//! DTZ (what the root does); each pass is timed over all positions after a warm-up pass, so the
//! tables are open and in the page cache. The probes are timed twice: with the engine's reader
//! (small files in memory) and with shakmaty-syzygy's default one (`pread` for each access).
//! Times are the thread's CPU time (on Linux; wall time elsewhere), so that a machine busy with
//! other work does not inflate them.

use sable::board::Board;
use sable::rng::Rng;
use sable::tablebase::{material_pieces, to_chess, Tablebases};
use shakmaty_syzygy::filesystem::OsFilesystem;
use std::sync::Arc;

/// Seconds of CPU time this thread has used (Linux), else of wall time since the first call.
fn cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to write; the clock id is a constant the
        // kernel knows.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
        if ok {
            return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
        }
    }
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// A random legal position of `material` (`KQvKR`: white the first side), as a board.
fn random_board(material: &str, rng: &mut Rng) -> Board {
    let (w, b) = material.split_once('v').unwrap();
    let pieces: Vec<char> = w
        .chars()
        .chain(b.chars().map(|c| c.to_ascii_lowercase()))
        .collect();
    loop {
        let mut squares = [None; 64];
        for &c in &pieces {
            let mut sq = rng.below(64);
            while squares[sq].is_some() || (c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq))
            {
                sq = rng.below(64);
            }
            squares[sq] = Some(c);
        }
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|r| {
                let mut t = String::new();
                let mut gap = 0;
                for f in 0..8 {
                    match squares[r * 8 + f] {
                        Some(c) => {
                            if gap > 0 {
                                t.push_str(&gap.to_string());
                                gap = 0;
                            }
                            t.push(c);
                        }
                        None => gap += 1,
                    }
                }
                if gap > 0 {
                    t.push_str(&gap.to_string());
                }
                t
            })
            .collect();
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        if let Ok(board) = Board::from_fen(&format!("{} {side} - - 0 1", rows.join("/"))) {
            return board;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: tb_speed PATH [POSITIONS]");
        std::process::exit(2);
    };
    let count: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(50_000);
    sable::attacks::init();
    let (tables, problems) = Tablebases::open(path);
    for p in &problems {
        eprintln!("{p}");
    }
    let Some(tables) = tables else {
        eprintln!("no tables in {path}");
        std::process::exit(2);
    };
    let mut materials: Vec<String> = std::fs::read_dir(path)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "rtbw").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .filter(|m| material_pieces(m).is_some())
        .collect();
    materials.sort();
    let mut rng = Rng::new(1);
    let boards: Vec<Board> = (0..count)
        .map(|i| random_board(&materials[i % materials.len()], &mut rng))
        .collect();
    println!(
        "{} positions over {} tables ({})",
        boards.len(),
        materials.len(),
        tables.summary()
    );
    let time = |label: &str, f: &dyn Fn(&Board) -> bool| {
        let _ = boards.iter().filter(|b| f(b)).count();
        let start = cpu_seconds();
        let answered = boards.iter().filter(|b| f(b)).count();
        let secs = cpu_seconds() - start;
        println!(
            "{label:<22} {:>9.0} per second  {:>7.2} us each  ({answered} answered)",
            boards.len() as f64 / secs,
            secs * 1e6 / boards.len() as f64
        );
    };
    time("conversion only", &|b| to_chess(b).is_some());
    time("WDL probe (search)", &|b| tables.probe_wdl(b).is_some());
    time("DTZ probe (root)", &|b| tables.probe_dtz(b).is_some());
    let (Some(pread), _) =
        Tablebases::open_with_filesystem(path, Some(Arc::new(OsFilesystem::new())))
    else {
        unreachable!("the same path loaded above")
    };
    time("WDL probe, pread", &|b| pread.probe_wdl(b).is_some());
    time("DTZ probe, pread", &|b| pread.probe_dtz(b).is_some());
}
