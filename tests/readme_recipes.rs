//! Every recipe of README.md, run in order as a new user would (issue 44): a fresh clone of this
//! checkout with `../shared` beside it, `target/release` on the `PATH`, Debian's peer engines in
//! `/usr/games`, and each command of each `sh` block of the `## Recipes` section in turn. The
//! run fails on an exit code that means an error, on a `*.lock` file left behind, and on a
//! collision: a command that changes a file an earlier command (or the clone) made without
//! naming that file.
//!
//! The same shortening applies to every command, word by word (`shorten`):
//! - `tc=...` becomes `depth=4`, and `sprt`/`bisect` without `--rounds` get `--rounds 2` (a
//!   depth, not a node limit: Glaurung 2.2 answers `bestmove (none)` when a small node limit
//!   ends its first iteration), except in the recipes of [`REAL_CLOCKS`], which play their
//!   clocks as written: the README promises that those fit a 2-core machine, and a loss on time
//!   there would stop the match with exit code 4;
//! - these options are capped: `--rounds` 2, `--positions` 200, `--iterations` 2, `--pairs-per`
//!   2, `--count` 20, `--random` 20, `--max-depth` 3, `--depth` 8, `--movetime` 100, `--repeat` 2.
//!
//! The recipes of [`IN_FULL`] run as written, with no cap, and must exit 0 (the planted
//! regression's bisect must name the planted commit).
//!
//! The folder is `target/readme-recipes/` (removed at the start of each run): `sable/` is a
//! clone of HEAD, `shared` links to the reference data, `sable/target/release` holds this
//! build's `harness`, `sable` and `faulty-engine`, and the `rev:` cache holds that `sable` for
//! the last 20 commits, so that `rev:` engines and `bisect` build nothing. Cargo builds that a
//! recipe starts itself (`make -C engine ... TUNE=1`) use this checkout's target folder, with the
//! clone's files dated at HEAD's commit time, so the build is reused from one run to the next.
//!
//! It takes minutes, so it is `#[ignore]`d; `.ci/run` runs it with `SABLE_REQUIRE_RECIPES=1`,
//! which makes a missing prerequisite (reference data, a peer engine, git) a failure instead of a
//! skip.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime};

const ENGINES: [&str; 3] = [
    "/usr/games/stockfish",
    "/usr/games/glaurung",
    "/usr/games/ethereal-chess",
];

/// Caps applied to option values (`--rounds 100` becomes `--rounds 2`).
const CAPS: [(&str, u64); 10] = [
    ("--rounds", 2),
    ("--positions", 200),
    ("--iterations", 2),
    ("--pairs-per", 2),
    ("--count", 20),
    ("--random", 20),
    ("--max-depth", 3),
    ("--depth", 8),
    ("--movetime", 100),
    ("--repeat", 2),
];

/// Recipes whose `tc=` stays as written (their rounds are still capped).
const REAL_CLOCKS: [&str; 1] = ["Make a suite from your games"];

/// Recipes run whole (no cap on rounds) that must end in success, exit 0: the planted
/// regression's bisect has to name the planted commit, in about 120 games at 5,000 nodes.
const IN_FULL: [&str; 1] = ["Try bisect on a planted regression"];

/// One command of a recipe.
#[derive(Debug, Clone)]
struct Step {
    /// The `###` title of its recipe.
    recipe: String,
    /// The command as written (continuation lines joined).
    command: String,
}

/// The commands of README's `## Recipes` section: every line of its fenced `sh` blocks, lines
/// ending in `\` joined to the next, comment-only lines left out. Panics unless there is
/// exactly one such section.
fn recipes(readme: &str) -> Vec<Step> {
    let starts = readme.lines().filter(|l| *l == "## Recipes").count();
    assert_eq!(
        starts, 1,
        "README.md needs exactly one `## Recipes` section"
    );
    let mut steps = Vec::new();
    let (mut inside, mut fence, mut recipe) = (false, None::<bool>, String::new());
    let mut pending = String::new();
    for line in readme.lines() {
        if line == "## Recipes" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if fence.is_none() && line.starts_with("## ") {
            break;
        }
        if let Some(title) = line.strip_prefix("### ") {
            recipe = title.to_string();
        }
        if let Some(lang) = line.strip_prefix("```") {
            fence = match fence {
                None => Some(lang.trim() == "sh"),
                Some(_) => None,
            };
            continue;
        }
        if fence != Some(true) {
            continue;
        }
        let trimmed = line.trim();
        if pending.is_empty() && (trimmed.is_empty() || trimmed.starts_with('#')) {
            continue;
        }
        match trimmed.strip_suffix('\\') {
            Some(head) => {
                pending.push_str(head.trim_end());
                pending.push(' ');
            }
            None => {
                pending.push_str(trimmed);
                steps.push(Step {
                    recipe: recipe.clone(),
                    command: std::mem::take(&mut pending),
                });
            }
        }
    }
    steps
}

/// The subcommand of a `harness` command (`sprt` for `harness sprt ...`), else `None`.
fn subcommand(command: &str) -> Option<&str> {
    let mut words = command.split_whitespace();
    (words.next() == Some("harness"))
        .then(|| words.next())
        .flatten()
}

/// The command shortened as the module documentation says; `real_clock` keeps its `tc=`. A
/// recipe of [`IN_FULL`] is not shortened.
fn shorten(command: &str, real_clock: bool) -> String {
    let mut words: Vec<String> = command.split(' ').map(str::to_string).collect();
    for i in 0..words.len() {
        if words[i].starts_with("tc=") && !real_clock {
            words[i] = "depth=4".into();
        }
        let cap = CAPS.iter().find(|(flag, _)| *flag == words[i]);
        if let (Some((_, cap)), Some(value)) = (cap, words.get(i + 1)) {
            if let Ok(v) = value.parse::<u64>() {
                words[i + 1] = v.min(*cap).to_string();
            }
        }
    }
    let mut out = words.join(" ");
    // A comment at the end of the line stays a comment: options go before it.
    let (code, comment) = match out.find(" # ") {
        Some(at) => (out[..at].to_string(), out[at..].to_string()),
        None => (out.clone(), String::new()),
    };
    if matches!(subcommand(&code), Some("sprt" | "bisect")) && !code.contains("--rounds") {
        out = format!("{code} --rounds 2{comment}");
    }
    out
}

/// Exit codes that are verdicts, not errors.
fn accepted(command: &str) -> &'static [i32] {
    match subcommand(command) {
        Some("sprt") => &[0, 1, 3],      // H1, H0, no decision yet
        Some("bisect") => &[0, 1, 3, 5], // found, not weaker, undecided, only skipped left
        Some("replay") => &[0, 1],       // reproduced, not reproduced
        // compiled in, or not: the SPRT it names did not accept H1 (a verdict, not an error)
        Some("tune") if command.contains(" --sprt ") => &[0, 1],
        _ => &[0],
    }
}

/// Every file under `dir` (but `.git` and `target`) with its size and modification time.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (u64, SystemTime)> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if d == dir && (name == ".git" || name == "target") {
                continue;
            }
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                todo.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, (meta.len(), meta.modified().unwrap()));
            }
        }
    }
    out
}

/// Runs `git` in `dir`; panics with its output when it fails.
fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", common::text(&o));
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Why the recipes cannot run here, if they cannot.
fn missing_prerequisite() -> Option<String> {
    if let Some(e) = ENGINES.iter().find(|e| !Path::new(e).exists()) {
        return Some(format!(
            "no {e} (apt-get install stockfish glaurung ethereal-chess)"
        ));
    }
    if Command::new("git").arg("--version").output().is_err() {
        return Some("no git".into());
    }
    None
}

#[test]
fn the_recipes_section_is_runnable_as_written() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let steps = recipes(&readme);
    assert!(steps.len() >= 25, "{steps:#?}");
    let programs = ["harness ", "target/release/", "make ", "scripts/"];
    for s in &steps {
        assert!(
            programs.iter().any(|p| s.command.starts_with(p)),
            "{}: `{}` starts with none of {programs:?}",
            s.recipe,
            s.command
        );
        assert!(
            !s.command.contains("...") && !s.command.contains('<'),
            "{}: `{}` has a placeholder",
            s.recipe,
            s.command
        );
    }
    // The shortening: caps, time controls to nodes, a round limit for every SPRT.
    let sprt = "harness sprt --dev rev:WORKTREE --each tc=10+0.1 --concurrency 2 # note";
    assert_eq!(
        shorten(sprt, false),
        "harness sprt --dev rev:WORKTREE --each depth=4 --concurrency 2 --rounds 2 # note"
    );
    assert_eq!(
        shorten("harness match --each tc=10+0.1 --rounds 50", true),
        "harness match --each tc=10+0.1 --rounds 2"
    );
    assert_eq!(
        shorten(
            "harness perft --fen \"x w - - 0 1\" --depth 4 --max-depth 5 --rounds 100",
            false
        ),
        "harness perft --fen \"x w - - 0 1\" --depth 4 --max-depth 3 --rounds 2"
    );
    // Every recipe kept at its real clock exists and has one.
    for title in REAL_CLOCKS.iter().chain(&IN_FULL) {
        assert!(
            steps
                .iter()
                .any(|s| &s.recipe == title
                    && (s.command.contains(" tc=") || IN_FULL.contains(title))),
            "no recipe `{title}` (with a tc=, where it keeps its clock)"
        );
    }
    assert_eq!(accepted("harness sprt --x"), &[0, 1, 3]);
    assert_eq!(accepted("target/release/sable perft 6"), &[0]);
    assert_eq!(
        accepted("harness tune d.csv --emit-rust x.rs --sprt s.json"),
        &[0, 1]
    );
    assert_eq!(accepted("harness tune d.csv --emit-rust x.rs"), &[0]);
}

#[test]
#[ignore = "minutes; needs ../shared, git and /usr/games/{stockfish,glaurung,ethereal-chess}"]
fn every_readme_recipe_runs_in_order() {
    let required = std::env::var_os("SABLE_REQUIRE_RECIPES").is_some();
    let Some(data) = common::shared_data() else {
        assert!(!required, "SABLE_REQUIRE_RECIPES: no shared reference data");
        return;
    };
    if let Some(why) = missing_prerequisite() {
        assert!(!required, "SABLE_REQUIRE_RECIPES: {why}");
        eprintln!("skipped: {why}");
        return;
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let harness = PathBuf::from(env!("CARGO_BIN_EXE_harness"));
    let target = harness.parent().unwrap().parent().unwrap().to_path_buf();
    let sable = common::sable_binary();
    let readme = std::fs::read_to_string(manifest.join("README.md")).unwrap();
    let steps = recipes(&readme);

    // The folder: a clone of HEAD, ../shared beside it, this build in its target/release.
    let top = target.join("readme-recipes");
    let _ = std::fs::remove_dir_all(&top);
    std::fs::create_dir_all(&top).unwrap();
    std::os::unix::fs::symlink(
        data.canonicalize().unwrap().parent().unwrap(),
        top.join("shared"),
    )
    .unwrap();
    let dir = top.join("sable");
    let head = git(manifest, &["rev-parse", "HEAD"]);
    git(
        &top,
        &[
            "clone",
            "--quiet",
            "--no-checkout",
            manifest.to_str().unwrap(),
            "sable",
        ],
    );
    git(&dir, &["checkout", "--quiet", "--detach", &head]);
    // Files dated at HEAD's commit: a cargo build of the clone is reused by the next run.
    let when = git(&dir, &["log", "-1", "--format=%ct", "HEAD"]);
    let touched = Command::new("sh")
        .arg("-c")
        .arg(format!("git ls-files -z | xargs -0 touch -h -d @{when}"))
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(touched.success());
    let release = dir.join("target/release");
    std::fs::create_dir_all(&release).unwrap();
    for (from, name) in [
        (harness.clone(), "harness"),
        (sable.clone(), "sable"),
        (
            PathBuf::from(env!("CARGO_BIN_EXE_faulty-engine")),
            "faulty-engine",
        ),
    ] {
        std::fs::copy(&from, release.join(name)).unwrap();
    }
    for commit in git(&dir, &["rev-list", "--first-parent", "-n", "20", "HEAD"]).lines() {
        let cached = dir.join("target/sable-revs").join(commit);
        std::fs::create_dir_all(&cached).unwrap();
        std::fs::hard_link(release.join("sable"), cached.join("sable")).unwrap();
    }
    let path = format!(
        "{}:{}",
        release.display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let start = Instant::now();
    let mut files = snapshot(&dir);
    let mut made_by: BTreeMap<PathBuf, String> = BTreeMap::new();
    // Locks and collisions are collected and reported together at the end; an error exit
    // stops the run at once (the recipes after it may need its files).
    let mut problems = Vec::new();
    for step in &steps {
        let whole = IN_FULL.contains(&step.recipe.as_str());
        let command = match whole {
            true => step.command.clone(),
            false => shorten(&step.command, REAL_CLOCKS.contains(&step.recipe.as_str())),
        };
        let t = Instant::now();
        let o = Command::new("timeout")
            .args(["300", "bash", "-o", "pipefail", "-c", &command])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("SABLE_REQUIRE_RECIPES")
            .output()
            .unwrap();
        let out = common::text(&o);
        let tail: Vec<&str> = out.lines().rev().take(40).collect();
        let tail = tail.into_iter().rev().collect::<Vec<_>>().join("\n");
        let code = o.status.code().unwrap_or(-1);
        eprintln!(
            "[{:>5.1}s] {}: exit {code} in {:.1}s: {command}",
            start.elapsed().as_secs_f64(),
            step.recipe,
            t.elapsed().as_secs_f64()
        );
        let accepted: &[i32] = if whole { &[0] } else { accepted(&command) };
        assert!(
            accepted.contains(&code),
            "recipe `{}`: `{command}` exited with {code} (accepted: {accepted:?}):\n{tail}",
            step.recipe,
        );
        let now = snapshot(&dir);
        let locks: Vec<_> = now
            .keys()
            .filter(|p| p.extension().is_some_and(|e| e == "lock") && !p.ends_with("Cargo.lock"))
            .collect();
        if !locks.is_empty() {
            problems.push(format!(
                "recipe `{}`: `{command}` left {locks:?} behind",
                step.recipe
            ));
        }
        for (file, meta) in &now {
            match files.get(file) {
                None => {
                    made_by.insert(file.clone(), command.clone());
                }
                Some(old) if old != meta => {
                    let named = command.contains(file.to_str().unwrap());
                    let earlier = made_by
                        .get(file)
                        .map_or("the clone".to_string(), |c| format!("`{c}`"));
                    if !named {
                        problems.push(format!(
                            "collision: recipe `{}`: `{command}` changed {} (made by {earlier}) \
                             without naming it",
                            step.recipe,
                            file.display()
                        ));
                    }
                }
                Some(_) => {}
            }
        }
        files = now;
    }
    eprintln!(
        "{} commands of {} recipes in {:.0}s",
        steps.len(),
        steps
            .iter()
            .map(|s| &s.recipe)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        start.elapsed().as_secs_f64()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The walk leaves the engine as it found it: the tuning recipe compiles weights in only
    // after an H1 against the shipped engine, which its two-round SPRT here cannot reach.
    let engine_changes = git(&dir, &["status", "--porcelain", "--", "engine"]);
    assert!(
        engine_changes.is_empty(),
        "the recipes changed the engine:\n{engine_changes}"
    );
    let _ = std::fs::remove_dir_all(&top);
}
