//! `scripts/layers.py --check` catches what it is there to catch (issue 52): an import up the
//! rooms' order and a cycle among a room's files, each planted in a copy of the tree. The
//! unplanted tree itself is checked by `.ci/run`. Skips, saying so, where there is no python3.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A copy of `src/` and `scripts/layers.py` under a fresh temporary folder.
fn copy_tree(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("sable-layers-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&manifest.join("src"), &root.join("src"));
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    std::fs::copy(
        manifest.join("scripts/layers.py"),
        root.join("scripts/layers.py"),
    )
    .unwrap();
    root
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

/// Runs the check on `root`: its exit code and the lines that name problems.
fn check(root: &Path) -> (i32, Vec<String>) {
    let o = Command::new("python3")
        .arg(root.join("scripts/layers.py"))
        .args(["--check", "--root"])
        .arg(root)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let problems = text
        .lines()
        .filter(|l| l.starts_with("arrow up") || l.starts_with("cycle") || l.starts_with("room "))
        .map(str::to_owned)
        .collect();
    (o.status.code().unwrap_or(-1), problems)
}

/// Appends `line` to the file `rel` of the copy.
fn plant(root: &Path, rel: &str, line: &str) {
    let path = root.join(rel);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(line);
    std::fs::write(path, text).unwrap();
}

fn python() -> bool {
    let ok = Command::new("python3").arg("--version").output().is_ok();
    if !ok {
        eprintln!("skipped: no python3 to run scripts/layers.py");
    }
    ok
}

#[test]
fn an_import_up_the_rooms_fails_the_check() {
    if !python() {
        return;
    }
    let root = copy_tree("up");
    let (_, before) = check(&root);
    // The UCI client reaching up into a command adapter.
    plant(
        &root,
        "src/uci/mod.rs",
        "\n#[allow(unused_imports)]\nuse crate::cmd::tune as _planted;\n",
    );
    let (code, after) = check(&root);
    assert_eq!(code, 1, "{after:?}");
    let new: Vec<&String> = after.iter().filter(|p| !before.contains(p)).collect();
    assert!(
        new.iter().any(|p| p.starts_with("arrow up: uci -> cmd")),
        "{new:?}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_cycle_among_a_rooms_files_fails_the_check() {
    if !python() {
        return;
    }
    let root = copy_tree("cycle");
    let (_, before) = check(&root);
    assert!(!before.iter().any(|p| p.contains("files in report")));
    // report::plot and report::dates importing each other.
    plant(
        &root,
        "src/report/plot.rs",
        "\n#[allow(unused_imports)]\nuse super::dates as _planted;\n",
    );
    plant(
        &root,
        "src/report/dates.rs",
        "\n#[allow(unused_imports)]\nuse crate::report::plot::{LineChart as _Planted};\n",
    );
    let (code, after) = check(&root);
    assert_eq!(code, 1, "{after:?}");
    assert!(
        after
            .iter()
            .any(|p| p == "cycle of files in report: report::dates report::plot"),
        "{after:?}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_room_the_order_does_not_place_fails_the_check() {
    if !python() {
        return;
    }
    let root = copy_tree("unplaced");
    std::fs::create_dir_all(root.join("src/annex")).unwrap();
    std::fs::write(root.join("src/annex/mod.rs"), "//! planted\n").unwrap();
    plant(&root, "src/lib.rs", "\npub mod annex;\n");
    let (code, after) = check(&root);
    assert_eq!(code, 1);
    assert!(
        after
            .iter()
            .any(|p| p.starts_with("room annex has no place")),
        "{after:?}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}
