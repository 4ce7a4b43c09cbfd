//! The client against the deliberately faulty engine (always) and stockfish (`#[ignore]`).

use super::*;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The faulty engine built beside the test binary (cargo builds it because the package has
/// integration tests; `target/<profile>/deps/harness-*` → `target/<profile>/faulty-engine`).
pub(crate) fn faulty_engine_path() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent().and_then(|d| d.parent()).expect("target dir");
    let p = dir.join("faulty-engine");
    assert!(
        p.exists(),
        "{} missing: run `cargo test` (it builds the faulty engine)",
        p.display()
    );
    p
}

pub(crate) fn faulty(flags: &[&str]) -> EngineSpec {
    let mut s = EngineSpec::new(faulty_engine_path().to_string_lossy());
    s.args = flags.iter().map(|f| f.to_string()).collect();
    s
}

const SEC: Duration = Duration::from_secs(1);

fn quick() -> GoParams {
    GoParams {
        movetime: Some(10),
        ..GoParams::default()
    }
}

#[test]
fn handshake_options_and_a_search() {
    let spec = faulty(&["--name", "Rando"]).option("Hash", "8");
    let mut e = Engine::start(&spec, 5 * SEC).unwrap();
    assert_eq!(e.name(), "Rando");
    assert_eq!(e.declared_options(), ["Hash", "Threads"]);
    e.new_game().unwrap();
    e.is_ready(SEC).unwrap();
    e.set_position(None, &["e2e4", "e7e5"]).unwrap();
    let mut infos = 0;
    let r = e.go(&quick(), 5 * SEC, |_| infos += 1).unwrap();
    assert_eq!(infos, 1);
    let mv = r.best.mv.expect("a move");
    assert!(mv.len() >= 4, "{mv}");
    assert_eq!(r.info.depth, Some(1));
    e.quit(SEC);
}

#[test]
fn spec_name_wins_over_id_name() {
    let spec = EngineSpec {
        name: Some("mine".into()),
        ..faulty(&[])
    };
    assert_eq!(Engine::start(&spec, 5 * SEC).unwrap().name(), "mine");
}

#[test]
fn missing_program_is_a_spawn_error() {
    let err = Engine::start(&EngineSpec::new("/nonexistent/engine"), SEC)
        .err()
        .unwrap();
    assert!(matches!(err.error, UciError::Spawn { .. }), "{err}");
    assert!(err.to_string().contains("/nonexistent/engine"));
}

#[test]
fn crash_reports_the_exit_status() {
    let mut e = Engine::start(&faulty(&["--crash-after", "1"]), 5 * SEC).unwrap();
    e.set_position(None, &[] as &[&str]).unwrap();
    e.go(&quick(), 5 * SEC, |_| {}).unwrap();
    let err = e.go(&quick(), 5 * SEC, |_| {}).unwrap_err();
    assert_eq!(err, UciError::Crashed("exit status: 3".into()));
    assert!(!e.is_alive());
}

#[test]
fn hang_times_out_and_quit_kills() {
    let mut e = Engine::start(&faulty(&["--hang-after", "0"]), 5 * SEC).unwrap();
    let t = Instant::now();
    let err = e
        .go(&quick(), Duration::from_millis(200), |_| {})
        .unwrap_err();
    assert_eq!(err, UciError::Timeout("bestmove".into()));
    assert!(t.elapsed() < SEC);
    assert!(matches!(
        e.is_ready(Duration::from_millis(100)),
        Err(UciError::Timeout(_))
    ));
    let t = Instant::now();
    e.quit(Duration::from_millis(100));
    assert!(t.elapsed() < SEC);
}

#[test]
fn handshake_failures_time_out() {
    let t = Instant::now();
    let err = Engine::start(&faulty(&["--no-uciok"]), Duration::from_millis(300))
        .err()
        .unwrap();
    assert_eq!(err.error, UciError::Timeout("uciok".into()));
    let err = Engine::start(&faulty(&["--no-readyok"]), Duration::from_millis(300))
        .err()
        .unwrap();
    assert_eq!(err.error, UciError::Timeout("readyok".into()));
    let err = Engine::start(
        &faulty(&["--slow-start", "2000"]),
        Duration::from_millis(300),
    )
    .err()
    .unwrap();
    assert_eq!(err.error, UciError::Timeout("uciok".into()));
    assert!(t.elapsed() < 3 * SEC);
    // A slow start within the allowance is fine.
    Engine::start(&faulty(&["--slow-start", "100"]), 5 * SEC).unwrap();
}

#[test]
fn garbage_output_is_skipped_and_an_empty_bestmove_is_a_protocol_error() {
    let mut e = Engine::start(
        &faulty(&["--garbage-after", "1", "--empty-bestmove-after", "2"]),
        5 * SEC,
    )
    .unwrap();
    e.go(&quick(), 5 * SEC, |_| {}).unwrap();
    let r = e.go(&quick(), 5 * SEC, |_| {}).unwrap();
    // Syntactically a bestmove line after garbage lines: the move itself is judged by the referee.
    assert_eq!(r.best.mv.as_deref(), Some("!!garbage!!"));
    let err = e.go(&quick(), 5 * SEC, |_| {}).unwrap_err();
    assert_eq!(err, UciError::Protocol("bestmove".into()));
}

#[test]
fn floods_and_huge_lines_do_not_blow_up() {
    let spec = faulty(&["--flood", "200000", "--long-line", "5000000"]);
    let mut e = Engine::start(&spec, 5 * SEC).unwrap();
    let mut seen = 0u64;
    let r = e.go(&quick(), 30 * SEC, |_| seen += 1).unwrap();
    assert!(r.best.mv.is_some());
    // Read in the game's thread, every line is seen: the engine waits on its full pipe.
    assert_eq!(seen, 200_002, "every info line was seen");
    e.is_ready(5 * SEC).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_pinned_engine_runs_only_on_its_cores() {
    let cpus = cpus::available().unwrap();
    let last = *cpus.last().unwrap();
    let e = Engine::start_pinned(&faulty(&[]), 5 * SEC, None, &[last]).unwrap();
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.pid())).unwrap();
    let allowed = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim()
        .to_owned();
    assert_eq!(allowed, last.to_string());
    // Unpinned, it may use every core this process may.
    let free = Engine::start(&faulty(&[]), 5 * SEC).unwrap();
    let status = std::fs::read_to_string(format!("/proc/{}/status", free.pid())).unwrap();
    assert!(status.contains("Cpus_allowed_list:"));
    assert_eq!(
        cpus::available().unwrap(),
        cpus,
        "the harness itself stays unpinned"
    );
}

fn stockfish() -> EngineSpec {
    EngineSpec::new("/usr/games/stockfish")
        .option("Threads", "1")
        .option("Hash", "16")
}

#[test]
#[ignore = "needs /usr/games/stockfish"]
fn stockfish_finds_mate_in_one() {
    let mut e = Engine::start(&stockfish(), 10 * SEC).unwrap();
    assert!(e.id_name().unwrap().starts_with("Stockfish"));
    e.new_game().unwrap();
    e.is_ready(5 * SEC).unwrap();
    e.set_position(Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), &[] as &[&str])
        .unwrap();
    let r = e
        .go(
            &GoParams {
                depth: Some(8),
                ..GoParams::default()
            },
            10 * SEC,
            |_| {},
        )
        .unwrap();
    assert_eq!(r.best.mv.as_deref(), Some("a1a8"));
    assert_eq!(r.info.score, Some(Score::Mate(1)));
    e.quit(SEC);
}

#[test]
#[ignore = "needs /usr/games/stockfish"]
fn stockfish_stops_an_infinite_search() {
    let mut e = Engine::start(&stockfish(), 10 * SEC).unwrap();
    e.set_position(None, &[] as &[&str]).unwrap();
    let err = e.go(
        &GoParams {
            infinite: true,
            ..GoParams::default()
        },
        Duration::from_millis(300),
        |_| {},
    );
    assert_eq!(err.unwrap_err(), UciError::Timeout("bestmove".into()));
    let r = e.stop(5 * SEC).unwrap();
    assert!(r.best.mv.is_some());
    assert!(r.info.depth.unwrap_or(0) > 3);
    e.is_ready(SEC).unwrap();
}
