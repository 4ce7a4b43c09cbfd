//! Probes per second of the engine's Syzygy probing, for docs/syzygy.md:
//!
//!   cargo run --release -p sable --example tb_speed -- PATH [POSITIONS]
//!
//! Random legal positions of every table in PATH (all sides to move, halfmove clock 0) are
//! converted to shakmaty positions alone, then probed for WDL (what the search does), then for
//! DTZ (what the root does); each pass is timed over all positions after a warm-up pass, so the
//! tables are open and in the page cache.

use sable::board::Board;
use sable::rng::Rng;
use sable::tablebase::{material_pieces, to_chess, Tablebases};
use std::time::Instant;

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
    sable::movegen::init();
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
        let start = Instant::now();
        let answered = boards.iter().filter(|b| f(b)).count();
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{label:<22} {:>9.0} per second  {:>7.2} us each  ({answered} answered)",
            boards.len() as f64 / secs,
            secs * 1e6 / boards.len() as f64
        );
    };
    time("conversion only", &|b| to_chess(b).is_some());
    time("WDL probe (search)", &|b| tables.probe_wdl(b).is_some());
    time("DTZ probe (root)", &|b| tables.probe_dtz(b).is_some());
}
