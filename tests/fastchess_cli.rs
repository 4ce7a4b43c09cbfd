//! The harness started as fastchess (a link named `fastchess-ob`, as OpenBench's client runs
//! it): real node-limited games, read by a parser of the client's contract, written here from
//! OpenBench's documented behaviour (Client/worker.py, run_and_parse_runner and update_results):
//!
//! - stdout is read line by line, decoded as ASCII, each line stripped; an empty line ends the
//!   reading;
//! - a line containing `Finished game` is split at whitespace: word 3 is the game's number,
//!   word 7 the result (`1-0`, `0-1`, `1/2-1/2`); the text between the first and second `:` is
//!   the reason, counted as a crash when it says `disconnect` or `stalls`, a time loss for
//!   `on time`, an illegal move for `illegal`;
//! - games 2k-1 and 2k are a pair (same opening, colours swapped: the first engine is White in
//!   the odd game); a pair is scored into the pentanomial once both are in.
//!
//! The same parser reads a real fastchess's output in the differential test (skipped, with a
//! line saying so, when no fastchess is built).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What OpenBench's client makes of a runner's stdout.
#[derive(Debug, Default, PartialEq)]
struct ClientView {
    /// Game number to (white, black, result).
    games: BTreeMap<u64, (String, String, String)>,
    /// Losses, draws, wins of the first engine (the client's trinomial).
    trinomial: [u32; 3],
    /// LL, DL, DD+WL, DW, WW pairs (the client's pentanomial).
    pentanomial: [u32; 5],
    crashes: u32,
    timelosses: u32,
    illegals: u32,
    /// Lines read before the reading stopped.
    lines: usize,
}

fn client_view(stdout: &[u8]) -> ClientView {
    let text = std::str::from_utf8(stdout).expect("stdout is UTF-8");
    assert!(text.is_ascii(), "stdout must be ASCII: {text}");
    let score = |r: &str| match r {
        "0-1" => 0,
        "1/2-1/2" => 1,
        "1-0" => 2,
        other => panic!("result `{other}` is none the client knows"),
    };
    let mut v = ClientView::default();
    let mut pending: BTreeMap<u64, String> = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() {
            break;
        }
        v.lines += 1;
        if !line.contains("Finished game") {
            continue;
        }
        let reason = line.split(':').nth(1).expect("a reason after the colon");
        v.crashes += u32::from(reason.contains("disconnect") || reason.contains("stalls"));
        v.timelosses += u32::from(reason.contains("on time"));
        v.illegals += u32::from(reason.contains("illegal"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let game: u64 = words[2].parse().expect("game number");
        let result = words[6].to_owned();
        let names = line[line.find('(').unwrap() + 1..line.find("):").unwrap()].to_owned();
        let (white, black) = names.split_once(" vs ").expect("White vs Black");
        let before = v
            .games
            .insert(game, (white.into(), black.into(), result.clone()));
        assert!(before.is_none(), "game {game} finished twice");
        pending.insert(game, result);
        let (first, second) = if game % 2 == 1 {
            (game, game + 1)
        } else {
            (game - 1, game)
        };
        if let (Some(r1), Some(r2)) = (pending.get(&first), pending.get(&second)) {
            let (s1, s2) = (score(r1), score(r2));
            v.pentanomial[s1 + 2 - s2] += 1;
            v.trinomial[s1] += 1;
            v.trinomial[2 - s2] += 1;
            pending.remove(&first);
            pending.remove(&second);
        }
    }
    v
}

/// A folder with `fastchess-ob`, a link to this harness, as OpenBench's client keeps it.
fn runner_dir(name: &str) -> (PathBuf, PathBuf) {
    let dir = common::temp_dir("fastchess", name);
    let link = dir.join("fastchess-ob");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_harness"), &link).unwrap();
    (dir, link)
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

/// OpenBench's command line for two engines, node-limited, `rounds` pairs.
fn openbench_args(dev: &Path, base: &Path, rounds: u32, pgn: &str, book: &Path) -> Vec<String> {
    let mut a = words(&format!(
        "-recover -variant standard -testEnv -concurrency 2 -rounds {rounds} -games 2 \
         -draw movenumber=40 movecount=8 score=10 \
         -engine cmd={} proto=uci tc=inf nodes=2000 option.Hash=16 name=Sable-dev \
         -engine cmd={} proto=uci tc=inf nodes=2000 option.Hash=16 name=Sable-base \
         -openings file={} format=epd order=random start=1 -srand 7 \
         -pgnout file={pgn} seldepth=true nodes=true",
        dev.display(),
        base.display(),
        book.display()
    ));
    a.push("match_line=^info string x.*".to_owned());
    a
}

fn book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/openings.epd")
}

fn run(program: &Path, dir: &Path, args: &[String]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run the runner")
}

/// The figures of the last result block: `Games: N, Wins: W, Losses: L, Draws: D`.
fn final_wld(stdout: &str) -> [u32; 4] {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Games: "))
        .unwrap_or_else(|| panic!("no result block: {stdout}"));
    let n: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .take(4)
        .map(|w| w.parse().unwrap())
        .collect();
    [n[0], n[1], n[2], n[3]]
}

/// Checks the client's view of `rounds` pairs between `first` and `second`.
fn assert_paired(v: &ClientView, rounds: u64, first: &str, second: &str) {
    let numbers: Vec<u64> = v.games.keys().copied().collect();
    assert_eq!(numbers, (1..=2 * rounds).collect::<Vec<_>>(), "{v:?}");
    for (n, (white, black, _)) in &v.games {
        let expected = if n % 2 == 1 {
            (first, second)
        } else {
            (second, first)
        };
        assert_eq!((white.as_str(), black.as_str()), expected, "game {n}");
    }
    assert_eq!(v.pentanomial.iter().sum::<u32>() as u64, rounds, "{v:?}");
    assert_eq!(v.trinomial.iter().sum::<u32>() as u64, 2 * rounds, "{v:?}");
}

#[test]
fn openbench_reads_every_game_pair_and_the_pgn_has_fastchess_comments() {
    let (dir, runner) = runner_dir("contract");
    let sable = common::sable_binary();
    let out = run(
        &runner,
        &dir,
        &openbench_args(&sable, &sable, 2, "games.pgn", &book()),
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{}", common::text(&out));
    let v = client_view(&out.stdout);
    assert_paired(&v, 2, "Sable-dev", "Sable-base");
    // Nothing after the games stops the client early, and the final block agrees with it.
    assert_eq!(v.lines, stdout.lines().count(), "{stdout}");
    let [games, wins, losses, draws] = final_wld(&stdout);
    assert_eq!(
        (games, losses, draws, wins),
        (4, v.trinomial[0], v.trinomial[1], v.trinomial[2])
    );
    assert!(
        stdout.contains("-----\nFinished match\nTotal Time: "),
        "{stdout}"
    );
    // Concurrent runners share the client's folder: a run writes no file but its PGN.
    assert_eq!(common::files_in(&dir), ["fastchess-ob", "games.pgn"]);
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 4, "{pgn}");
    let games = sable_harness::game::pgn::PgnReader::new(pgn.as_bytes());
    let mut searched = 0;
    for g in games {
        let g = g.unwrap();
        assert!(g.error.is_none(), "{:?}", g.error);
        for m in &g.moves {
            let c = &m.comments[0];
            if c == "book" {
                continue;
            }
            searched += 1;
            // `{score/depth time, n=nodes, sd=seldepth}`, as OpenBench's pgn_util reads it.
            let parts: Vec<&str> = c.split(", ").collect();
            let (eval, time) = parts[0].split_once(' ').unwrap();
            let (score, depth) = eval.split_once('/').unwrap();
            assert!(
                score.is_empty() || score.parse::<f64>().is_ok() || score.contains('M'),
                "{c}"
            );
            assert!(depth.parse::<u32>().unwrap() > 0, "{c}");
            assert!(
                time.ends_with('s') && time[..time.len() - 1].parse::<f64>().is_ok(),
                "{c}"
            );
            let nodes: u64 = parts[1].strip_prefix("n=").unwrap().parse().unwrap();
            assert!(nodes > 0, "{c}");
            assert!(
                parts[2].strip_prefix("sd=").unwrap().parse::<u32>().is_ok(),
                "{c}"
            );
        }
    }
    assert!(searched > 20, "{pgn}");
}

#[test]
fn faults_read_as_the_client_counts_them_and_match_lines_reach_the_pgn() {
    let (dir, runner) = runner_dir("faults");
    let faulty = PathBuf::from(env!("CARGO_BIN_EXE_faulty-engine"));
    // One engine writes an `info string xxxx` line with every search and makes an illegal move
    // from the 5th ply of every game (from the start position); the other plays legal moves.
    let f = faulty.display();
    let mut args = words(&format!(
        "-recover -rounds 2 -games 2 -engine cmd={f} name=bad"
    ));
    // `args=` takes the engine's arguments as one word (one argument of the command line).
    args.push("args=--long-line 4 --illegal-at-ply 5".to_owned());
    args.extend(words(&format!(
        "-engine cmd={f} name=good -each tc=inf nodes=100 -pgnout file=f.pgn"
    )));
    args.push("match_line=^info string x.*".to_owned());
    let out = run(&runner, &dir, &args);
    assert!(out.status.success(), "{}", common::text(&out));
    let v = client_view(&out.stdout);
    assert_paired(&v, 2, "bad", "good");
    assert_eq!(v.illegals, 4, "{}", common::text(&out));
    assert_eq!(v.crashes + v.timelosses, 0);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("makes an illegal move}"), "{stdout}");
    let pgn = std::fs::read_to_string(dir.join("f.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[Termination \"illegal move\"]").count(),
        4,
        "{pgn}"
    );
    assert!(pgn.contains("line=\"info string xxxx\""), "{pgn}");
}

#[test]
fn version_refusals_and_the_subcommand() {
    let (dir, runner) = runner_dir("version");
    for flag in ["--version", "-version", "-v", "version"] {
        let out = run(&runner, &dir, &[flag.to_owned()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success());
        assert!(text.starts_with("fastchess alpha 1.8.2 "), "{text}");
    }
    let harness = Path::new(env!("CARGO_BIN_EXE_harness"));
    let out = run(harness, &dir, &words("fastchess -version"));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("fastchess alpha"));
    for (line, needle) in [
        (
            "-noswap",
            "`-noswap` is a fastchess option the harness does not take",
        ),
        ("-concurency 2", "did you mean `-concurrency`?"),
        ("-engine cmd=a", "at least two -engine"),
    ] {
        let out = run(&runner, &dir, &words(line));
        assert_eq!(out.status.code(), Some(1), "{line}");
        assert!(
            common::text(&out).contains(needle),
            "{line}: {}",
            common::text(&out)
        );
        assert!(out.stdout.is_empty(), "{line}");
    }
    // The harness's own options are not fastchess's.
    let out = run(&runner, &dir, &words("-engine cmd=a -engine cmd=b -quiet"));
    let text = common::text(&out);
    assert!(text.contains("unknown option `-quiet`"), "{text}");
}

/// A fastchess built outside the tree: `$FASTCHESS`, else /work/fastchess-src/fastchess.
fn real_fastchess() -> Option<PathBuf> {
    let p = std::env::var_os("FASTCHESS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/fastchess-src/fastchess"));
    p.is_file().then_some(p)
}

#[test]
fn differential_against_a_real_fastchess() {
    let Some(fastchess) = real_fastchess() else {
        eprintln!(
            "skipped: no fastchess built (set FASTCHESS=/path/to/fastchess, or build one in \
             /work/fastchess-src with make -j2)"
        );
        return;
    };
    let sable = common::sable_binary();
    let mut views = Vec::new();
    for (name, program) in [
        ("real", fastchess),
        ("ours", PathBuf::from(env!("CARGO_BIN_EXE_harness"))),
    ] {
        let (dir, link) = runner_dir(&format!("diff-{name}"));
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&program, &link).unwrap();
        let out = run(
            &link,
            &dir,
            &openbench_args(&sable, &sable, 3, "d.pgn", &book()),
        );
        assert!(out.status.success(), "{name}: {}", common::text(&out));
        let v = client_view(&out.stdout);
        assert_paired(&v, 3, "Sable-dev", "Sable-base");
        views.push((name, v));
    }
    // Same count, numbering, colours and pairing; the results may differ (another book order).
    let keys = |v: &ClientView| -> Vec<(u64, String, String)> {
        v.games
            .iter()
            .map(|(n, (w, b, _))| (*n, w.clone(), b.clone()))
            .collect()
    };
    assert_eq!(keys(&views[0].1), keys(&views[1].1));
}
