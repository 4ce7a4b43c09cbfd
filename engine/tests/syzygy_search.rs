//! The search with Syzygy tables (needs the shared data's 3- and 4-piece tables): tablebase
//! scores and tbhits, probes that see through a capture into the tables, mates that still beat
//! tablebase wins, `Syzygy50MoveRule`, and root moves that never give up a win or a draw,
//! judged by shakmaty-syzygy's own probe of the position after the move played.

use crate::common;

use common::placements::random_fens;
use common::process::UciProcess;
use common::syzygy_dir;
use sable::board::Board;
use sable::search::{Limits, NoReport, Score, TbConfig, ThreadPool};
use sable::tablebase::Tablebases;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(60);

fn tables(dir: &Path) -> Arc<Tablebases> {
    let (tables, problems) = Tablebases::open(dir.to_str().unwrap());
    assert!(problems.is_empty(), "{problems:?}");
    Arc::new(tables.expect("tables"))
}

fn pool(tb: Option<Arc<Tablebases>>, threads: usize) -> ThreadPool {
    let mut p = ThreadPool::new(16);
    p.set_threads(threads);
    p.set_tablebases(tb);
    p
}

fn search(p: &mut ThreadPool, fen: &str, limits: Limits) -> sable::search::SearchResult {
    let mut board = Board::from_fen(fen).unwrap();
    p.search(&mut board, &limits, &mut NoReport)
}

#[test]
#[ignore = "needs the Syzygy tables of the shared data"]
fn a_root_in_the_tables_scores_as_a_tablebase_win_and_counts_its_probes() {
    let Some(dir) = syzygy_dir() else {
        return;
    };
    let fen = "K7/2kr4/8/8/8/8/3Q4/8 w - - 0 1"; // KQvKR, DTZ 59
    let legal = Board::from_fen(fen).unwrap().legal_moves().len() as u64;
    let mut with = pool(Some(tables(&dir)), 1);
    let r = search(&mut with, fen, Limits::depth(8));
    assert_eq!(r.score, Score::Cp(20_000), "{r:?}");
    // Ranked by DTZ at the root: one probe per root move, none below.
    assert_eq!(r.tbhits, legal);
    let mut without = pool(None, 1);
    let r = search(&mut without, fen, Limits::depth(8));
    assert_eq!(r.tbhits, 0);
    assert!(matches!(r.score, Score::Cp(cp) if cp < 5_000), "{r:?}");
}

#[test]
#[ignore = "needs the Syzygy tables of the shared data"]
fn probes_below_the_root_see_a_capture_into_a_won_ending() {
    let Some(dir) = syzygy_dir() else {
        return;
    };
    // Five pieces: Qxe4 leaves KQvKR, a tablebase win the evaluation alone scores far lower.
    let fen = "8/1r5k/8/8/3Qn3/8/8/6K1 w - - 0 1";
    for threads in [1, 3] {
        let mut p = pool(Some(tables(&dir)), threads);
        let r = search(&mut p, fen, Limits::depth(8));
        let capture = Board::from_fen(fen)
            .unwrap()
            .parse_uci_move("d4e4")
            .unwrap();
        assert_eq!(r.best_move, capture, "{r:?}");
        // A win one ply from the root: 20000 - 1 (unless a mate was found).
        assert!(
            matches!(r.score, Score::Cp(19_999) | Score::Mate(1..)),
            "{threads} threads: {r:?}"
        );
        assert!(r.tbhits > 0, "{threads} threads: {r:?}");
    }
    let mut p = pool(None, 1);
    let r = search(&mut p, fen, Limits::depth(8));
    assert!(matches!(r.score, Score::Cp(cp) if cp < 5_000), "{r:?}");
}

#[test]
#[ignore = "needs the Syzygy tables of the shared data"]
fn a_mate_found_by_the_search_beats_the_tablebase_score() {
    let Some(dir) = syzygy_dir() else {
        return;
    };
    let mut p = pool(Some(tables(&dir)), 1);
    let r = search(&mut p, "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", Limits::depth(6));
    assert_eq!(r.score, Score::Mate(1), "{r:?}");
    assert_eq!(r.score.to_uci(), "mate 1");
}

#[test]
#[ignore = "needs the Syzygy tables of the shared data"]
fn the_fifty_move_rule_option_decides_whether_a_distant_win_is_a_win() {
    let Some(dir) = syzygy_dir() else {
        return;
    };
    // KBNvK, 62 plies to mate with the clock at 60: the rule draws it before the mate.
    let fen = "3N4/8/3B4/3k4/8/8/K7/8 w - - 60 80";
    let mut p = pool(Some(tables(&dir)), 1);
    let r = search(&mut p, fen, Limits::depth(6));
    assert!(
        matches!(r.score, Score::Cp(cp) if (1..=100).contains(&cp)),
        "a cursed win shows as a few centipawns: {r:?}"
    );
    p.set_tb_config(TbConfig {
        rule50: false,
        ..TbConfig::default()
    });
    let r = search(&mut p, fen, Limits::depth(6));
    assert_eq!(r.score, Score::Cp(20_000), "{r:?}");
    // The same position from a fresh clock is a plain win either way.
    p.set_tb_config(TbConfig::default());
    let r = search(
        &mut p,
        "3N4/8/3B4/3k4/8/8/K7/8 w - - 0 80",
        Limits::depth(6),
    );
    assert_eq!(r.score, Score::Cp(20_000), "{r:?}");
}

/// The outcome under the fifty-move rule for the side to move of `pos` (which has the clock
/// of the game): 1 win, 0 draw, -1 loss; `None` when DTZ rounding leaves it open.
fn outcome(tb: &Tablebase<Chess>, pos: &Chess) -> Option<i32> {
    if pos.halfmoves() == 0 {
        return Some(match tb.probe_wdl_after_zeroing(pos).unwrap() {
            Wdl::Win => 1,
            Wdl::Loss => -1,
            _ => 0,
        });
    }
    match tb.probe_wdl(pos).unwrap() {
        AmbiguousWdl::Win => Some(1),
        AmbiguousWdl::Loss => Some(-1),
        AmbiguousWdl::MaybeWin | AmbiguousWdl::MaybeLoss => None,
        _ => Some(0),
    }
}

#[test]
#[ignore = "needs the Syzygy tables of the shared data"]
fn the_move_played_keeps_the_result_of_every_position() {
    let Some(dir) = syzygy_dir() else {
        return;
    };
    let mut oracle = Tablebase::<Chess>::new();
    oracle.add_directory(&dir).unwrap();
    // Endings where careless moves throw away draws and wins.
    let fens: Vec<String> = random_fens(
        &[
            "KRvKR", "KQvKQ", "KRvKP", "KQvKP", "KBvKP", "KNvKP", "KPvKP", "KPvK", "KRvKB", "KBPvK",
        ],
        8,
        2026,
    )
    .into_iter()
    .filter(|f| !Board::from_fen(f).unwrap().legal_moves().is_empty())
    .collect();
    let mut p = pool(Some(tables(&dir)), 1);
    let mut kept = [0; 3];
    for fen in &fens {
        let root: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let want = outcome(&oracle, &root).unwrap();
        let r = search(&mut p, fen, Limits::nodes(3_000));
        let board = Board::from_fen(fen).unwrap();
        let uci = board.move_to_uci(r.best_move, false);
        let mv = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&root)
            .unwrap();
        let mut after = root.clone();
        after.play_unchecked(mv);
        let got = if after.is_checkmate() {
            1
        } else if after.is_stalemate() || after.is_insufficient_material() {
            0
        } else {
            match outcome(&oracle, &after) {
                Some(o) => -o,
                None => continue,
            }
        };
        assert_eq!(got, want, "{fen}: {uci} changes the result");
        kept[(want + 1) as usize] += 1;
    }
    println!(
        "results kept: {} losses, {} draws, {} wins",
        kept[0], kept[1], kept[2]
    );
    assert!(kept.iter().all(|&k| k > 0), "every result met: {kept:?}");
}

#[test]
#[ignore = "needs the Syzygy tables of the shared data"]
fn uci_info_lines_carry_tbhits_summed_over_threads() {
    let Some(dir) = syzygy_dir() else {
        return;
    };
    let mut e = UciProcess::start();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.send("setoption name Threads value 3");
    e.send("position fen 8/1r5k/8/8/3Qn3/8/8/6K1 w - - 0 1");
    e.send("go depth 10");
    let lines = e.until("bestmove", LONG);
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let tbhits: u64 = last
        .split_whitespace()
        .skip_while(|w| *w != "tbhits")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no tbhits in {last}"));
    assert!(tbhits > 0, "{last}");
    assert!(
        last.contains("score cp 19999") || last.contains("score mate"),
        "{last}"
    );
    e.send("quit");
}
