//! The runner at scale, from outside: threads grow with the games played at once and no more (no
//! reader thread per engine), no engine process or zombie is left, and `--affinity` pins or
//! refuses with a message that says what fits. Linux only (/proc).
#![cfg(target_os = "linux")]

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sable-scale-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Fields of /proc/PID/stat after the command name: state is [0], parent [1], threads [17].
fn stat(pid: u32) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 2..];
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

fn children_of(pid: u32) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Some(f) = stat(p) {
            if f[1] == pid.to_string() {
                out.push((p, f[0].clone()));
            }
        }
    }
    out
}

fn match_args(dir: &std::path::Path, concurrency: usize, rounds: u32) -> Vec<String> {
    // 2 ms a move: games last long enough (60 moves, then a draw) to be seen from outside.
    let mut a: Vec<String> = [
        "match",
        "--engine",
        &format!("cmd={FAULTY}"),
        "name=a",
        "--engine",
        &format!("cmd={FAULTY}"),
        "name=b",
        "--each",
        "tc=10+0.1",
        "args=--move-ms 2",
        "--quiet",
        "--openings",
        "startpos",
        "--maxmoves",
        "60",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(["--rounds".into(), rounds.to_string()]);
    a.extend(["--concurrency".into(), concurrency.to_string()]);
    a.extend(["--results".into(), dir.join("r.json").display().to_string()]);
    a
}

#[test]
fn threads_grow_with_games_at_once_and_nothing_is_left_behind() {
    let dir = temp_dir("threads");
    let concurrency = 8;
    let mut child = Command::new(HARNESS)
        .args(match_args(&dir, concurrency, 40))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut peak_threads, mut peak_engines) = (0usize, 0usize);
    // How many samples in a row each zombie was seen in.
    let mut zombie_samples: std::collections::HashMap<u32, u32> = Default::default();
    let mut engines = HashSet::new();
    let until = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() && Instant::now() < until {
        if let Some(f) = stat(child.id()) {
            peak_threads = peak_threads.max(f[17].parse().unwrap_or(0));
        }
        let kids = children_of(child.id());
        peak_engines = peak_engines.max(kids.len());
        for (p, _) in kids.iter().filter(|(_, s)| s == "Z") {
            *zombie_samples.entry(*p).or_default() += 1;
        }
        engines.extend(kids.into_iter().map(|(p, _)| p));
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The main thread and one worker per game at once; a reader thread per pipe would add four
    // per game.
    assert!(
        peak_engines >= concurrency,
        "saw only {peak_engines} engines at once"
    );
    assert!(
        peak_threads <= concurrency + 2,
        "{peak_threads} threads for {concurrency} games at once"
    );
    // A zombie is an engine that died and was not yet reaped: for the few milliseconds between
    // its exit and the runner's wait that is normal; one that stays is a leak.
    let lingering = zombie_samples.values().max().copied().unwrap_or(0);
    assert!(
        lingering < 10,
        "a zombie stayed for {lingering} samples (20 ms apart)"
    );
    std::thread::sleep(Duration::from_millis(300));
    let alive: Vec<u32> = engines
        .into_iter()
        .filter(|p| stat(*p).is_some_and(|f| f[0] != "Z"))
        .collect();
    assert!(alive.is_empty(), "engines left running: {alive:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn affinity_asks_for_no_more_cores_than_there_are() {
    let dir = temp_dir("affinity-refused");
    let cores = std::thread::available_parallelism().unwrap().get();
    let mut args = match_args(&dir, cores + 1, 1);
    args.push("--affinity".into());
    let out = Command::new(HARNESS).args(&args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(&format!("need {} cores", cores + 1)), "{err}");
    assert!(
        err.contains(&format!("lower --concurrency to {cores}")),
        "{err}"
    );
    // Refused before anything was played or written.
    assert!(!dir.join("r.json.games.jsonl").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn affinity_pins_each_game_to_its_own_core() {
    let dir = temp_dir("affinity");
    let mut args = match_args(&dir, 1, 4);
    args.push("--affinity".into());
    let mut child = Command::new(HARNESS)
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut allowed = HashSet::new();
    while child.try_wait().unwrap().is_none() {
        for (p, _) in children_of(child.id()) {
            // Between fork and exec the child is still the harness, with its cores.
            let comm = std::fs::read_to_string(format!("/proc/{p}/comm")).unwrap_or_default();
            if comm.trim() != "faulty-engine" {
                continue;
            }
            if let Ok(s) = std::fs::read_to_string(format!("/proc/{p}/status")) {
                if let Some(l) = s.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")) {
                    allowed.insert(l.trim().to_owned());
                }
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // One game at a time: both engines on the first core this process may use.
    let first = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .map(|l| l.trim().split([',', '-']).next().unwrap().to_owned())
        .unwrap();
    assert_eq!(
        allowed,
        HashSet::from([first]),
        "engines ran on {allowed:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
