//! Lazy SMP under stress over UCI: many short searches with 4 threads (and changes of Threads
//! and Hash, `ucinewgame`) at random limits and random `stop` timings. Every search must end
//! in one legal `bestmove` (checked by shakmaty), every `isready` must be answered, and the
//! engine must not die. `SABLE_STRESS_ROUNDS` sets the number of searches (default 60).

use crate::common;

use common::process::UciProcess as Engine;
use common::{chess, shakmaty_moves, Rng};
use std::time::Duration;

const LONG: Duration = Duration::from_secs(20);

/// `isready` answered, with no `bestmove` nobody asked for on the way.
fn ready(e: &mut Engine) {
    e.send("isready");
    let lines = e.until("readyok", LONG);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "a bestmove nobody asked for: {lines:?}"
    );
}

#[test]
fn four_threads_survive_many_short_searches_with_random_stops() {
    let rounds: usize = std::env::var("SABLE_STRESS_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let mut rng = Rng::new(30);
    let positions = common::random_positions(rounds, 30);
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", LONG);
    e.send("setoption name Threads value 4");
    e.send("setoption name Hash value 8");
    ready(&mut e);
    for (round, fen) in positions.iter().enumerate() {
        let legal = shakmaty_moves(&chess(fen));
        if legal.is_empty() {
            continue;
        }
        match rng.below(12) {
            0 => e.send("ucinewgame"),
            1 => e.send(&format!("setoption name Hash value {}", 1 + rng.below(32))),
            2 => e.send(&format!(
                "setoption name Threads value {}",
                1 + rng.below(4)
            )),
            3 => e.send("setoption name Threads value 4"),
            _ => {}
        }
        e.send(&format!("position fen {fen}"));
        let infinite = rng.below(4) == 0;
        let go = match rng.below(5) {
            _ if infinite => "go infinite".to_string(),
            0 => format!("go nodes {}", 1 + rng.below(60_000)),
            1 => format!("go depth {}", 1 + rng.below(9)),
            2 => format!("go movetime {}", 1 + rng.below(60)),
            3 => format!(
                "go wtime {0} btime {0} winc 10 binc 10",
                10 + rng.below(2_000)
            ),
            _ => format!("go movetime {}", 1 + rng.below(20)),
        };
        e.send(&go);
        let mut early = Vec::new();
        if infinite || rng.below(3) == 0 {
            std::thread::sleep(Duration::from_millis(rng.below(40) as u64));
            if rng.below(2) == 0 {
                // Answered at once while the threads search (or after a short search ended).
                e.send("isready");
                early = e.until("readyok", LONG);
            }
            e.send("stop");
        }
        let lines = match early.iter().position(|l| l.starts_with("bestmove")) {
            Some(i) => early[..=i].to_vec(),
            None => e.until("bestmove", LONG),
        };
        let mv = lines
            .last()
            .and_then(|l| l.strip_prefix("bestmove "))
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or_default()
            .to_string();
        assert!(
            legal.contains(&mv),
            "round {round}: '{go}' in {fen} gave bestmove '{mv}', not legal"
        );
        ready(&mut e);
    }
    e.send("quit");
    let status = e.child.wait().expect("engine exits");
    assert!(status.success(), "engine exit status {status}");
}
