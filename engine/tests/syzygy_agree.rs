//! The engine's Syzygy probes (its board, its conversion to a shakmaty position,
//! shakmaty-syzygy) against python-chess's independent prober: scripts/tb-agree-engine.py probes
//! thousands of random positions of every 3- and 4-piece table, both sides to move, with and
//! without en passant, through `sable tbprobe` and `chess.syzygy`, and fails on any difference
//! in WDL or DTZ. Needs the shared tables and python-chess (skipped, saying so, without it;
//! `scripts/ci/tb-agree.sh` installs it first).

use crate::common;

use common::syzygy_dir;
use std::io::Write;
use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs the Syzygy tables of the shared data and python-chess"]
fn sable_and_python_chess_agree_on_every_wdl_and_dtz() {
    let Some(dir) = syzygy_dir() else {
        return;
    };
    let python_chess = Command::new("python3")
        .args(["-c", "import chess.syzygy"])
        .status()
        .is_ok_and(|s| s.success());
    if !python_chess {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: python-chess is not installed (scripts/ci/tb-agree.sh installs it)"
        );
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/tb-agree-engine.py");
    let out = Command::new("python3")
        .arg(&script)
        .args(["--sable", env!("CARGO_BIN_EXE_sable")])
        .arg("--tables")
        .arg(&dir)
        .output()
        .expect("run scripts/tb-agree.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("(100 %)"), "{stdout}");
}
