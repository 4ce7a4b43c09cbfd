//! Helpers shared by the harness's command-line tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Output;

/// A fresh, empty directory for one test: `sable-<kind>-<name>-<pid>` in the temp folder.
pub fn temp_dir(kind: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sable-{kind}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A process's stdout followed by its stderr, for assertions and messages.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The shared reference data (`$SABLE_SHARED_DATA`, else `../shared/data` beside the
/// checkout), as the library's unit tests find it: `None`, after printing why, when there is
/// none, unless `SABLE_REQUIRE_SHARED_DATA` is set (`.ci/run`), which makes that a failure.
pub fn shared_data() -> Option<PathBuf> {
    use std::io::Write;
    if let Some(dir) = std::env::var_os("SABLE_SHARED_DATA").map(PathBuf::from) {
        assert!(
            dir.is_dir(),
            "SABLE_SHARED_DATA={} is no directory",
            dir.display()
        );
        return Some(dir);
    }
    let beside = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if beside.is_dir() {
        return Some(beside);
    }
    let why = format!(
        "no shared reference data in {} (set SABLE_SHARED_DATA)",
        beside.display()
    );
    assert!(
        std::env::var_os("SABLE_REQUIRE_SHARED_DATA").is_none(),
        "{why}"
    );
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
    None
}

/// The names in `dir`, sorted (a folder's name ends with `/`), to compare a run's files with
/// what it should have written.
pub fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                format!("{name}/")
            } else {
                name
            }
        })
        .collect();
    names.sort();
    names
}

/// A process id that surely names no running process: a child started and waited for.
pub fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

/// A shell script in `dir` that touches `dir/<name>.started` and then runs `engine` with its
/// arguments: proof of whether a run started the engine at all.
pub fn marked_engine(dir: &std::path::Path, name: &str, engine: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join(format!("{name}.sh"));
    let marker = dir.join(format!("{name}.started"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntouch '{}'\nexec '{engine}' \"$@\"\n",
            marker.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// The `sable` binary of this checkout, built now in release.
///
/// It belongs to the engine crate, so cargo gives this package no `CARGO_BIN_EXE_sable`, and a
/// `target/release/sable` found lying around may be stale (built before the last edit, or by
/// another checkout sharing the target dir). So we ask cargo (`$CARGO`, the one running these
/// tests) to build it: a no-op when it is up to date, as after `cargo test --release`, which
/// builds it with the workspace. Cargo's JSON messages name the executable it produced, so the
/// path is right whatever the target dir (`CARGO_TARGET_DIR`, `--target-dir`, a config file).
///
/// The build selects the whole workspace (`--bin sable`, not `-p sable`): alone, the engine's
/// dependencies get fewer features (num-traits, memchr, serde_core, syn) than in the
/// workspace's build, so `-p sable` rebuilt shakmaty, serde and the engine with fat LTO inside
/// the first test that asked, minutes of a fresh clone's `cargo test --release`.
pub fn sable_binary() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let out = std::process::Command::new(cargo)
        .args(["build", "--release", "--bin", "sable"])
        .arg("--message-format=json-render-diagnostics")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "cargo build --release --bin sable failed"
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "sable")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .expect("cargo named no sable executable")
}

/// Polls `ok` every 20 ms until it holds; fails the test, naming `what`, after 60 s.
pub fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "timed out: {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Sends SIGINT (what Ctrl-C sends) to process `pid`.
pub fn interrupt(pid: u32) {
    let kill = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(kill.success(), "kill -INT {pid}");
}

/// Each position has a single legal move, so even a random mover solves it.
pub const FORCED: &str = "\
k7/1R6/8/8/8/8/8/7K b - - bm Kxb7; id \"f1\";
k7/1R6/8/8/8/8/8/7K b - - bm Kxb7; id \"f2\";
k7/1R6/8/8/8/8/8/7K b - - bm Kxb7; id \"f3\";
k7/1R6/8/8/8/8/8/7K b - - bm Kxb7; id \"f4\";
k7/1R6/8/8/8/8/8/7K b - - bm Kxb7; id \"f5\";
k7/1R6/8/8/8/8/8/7K b - - bm Kxb7; id \"f6\";
";

/// The moves and result of each game, as pgn-reader reads them.
struct Games;

impl pgn_reader::Visitor for Games {
    type Tags = ();
    type Movetext = (usize, Option<String>);
    type Output = (usize, Option<String>);
    fn begin_tags(&mut self) -> std::ops::ControlFlow<Self::Output, ()> {
        std::ops::ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> std::ops::ControlFlow<Self::Output, Self::Movetext> {
        std::ops::ControlFlow::Continue((0, None))
    }
    fn san(
        &mut self,
        m: &mut Self::Movetext,
        _: pgn_reader::SanPlus,
    ) -> std::ops::ControlFlow<Self::Output> {
        m.0 += 1;
        std::ops::ControlFlow::Continue(())
    }
    fn outcome(
        &mut self,
        m: &mut Self::Movetext,
        o: pgn_reader::Outcome,
    ) -> std::ops::ControlFlow<Self::Output> {
        m.1 = Some(o.to_string());
        std::ops::ControlFlow::Continue(())
    }
    fn end_game(&mut self, m: Self::Movetext) -> Self::Output {
        m
    }
}

/// Every game of the PGN file `path`, read by pgn-reader (an independent reader, not the
/// harness's): its number of moves and its result (`None` for a game cut short). Panics on a
/// file it cannot read.
pub fn pgn_games(path: &std::path::Path) -> Vec<(usize, Option<String>)> {
    let file = std::fs::File::open(path).unwrap();
    let mut reader = pgn_reader::Reader::new(file);
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut Games).unwrap() {
        games.push(game);
    }
    games
}

/// The game ids of a results journal's text (`FILE.games.jsonl`), in file order; panics on a
/// line that is not a game.
pub fn journal_game_ids(journal: &str) -> Vec<u64> {
    journal
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_u64()
                .unwrap()
        })
        .collect()
}
