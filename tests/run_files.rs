//! The files of a run, as a user following the README meets them: every file a match, sprt or
//! spsa run writes is named after its results file (two runs, two names, no shared file);
//! default names carry kind, engines and date and never collide; a lock lives exactly as long
//! as its run, however the run ends, and a stale one is taken over with a line; an engine that
//! is not there gives exit code 4 before any engine starts; input files are checked before any
//! engine starts; errors say what to type instead.

use crate::common;

use common::{dead_pid, files_in, marked_engine, temp_dir, text, wait_for};

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

/// The words of a command line: `FAULTY` is the faulty engine, `ARGS:a,b` the one word `args=a b`.
fn words(line: &str) -> Vec<String> {
    line.split_whitespace()
        .map(|w| match w.strip_prefix("ARGS:") {
            Some(a) => format!("args={}", a.replace(',', " ")),
            None => w.replace("FAULTY", FAULTY),
        })
        .collect()
}

/// Runs the harness in `dir`.
fn harness(dir: &Path, line: &str) -> Output {
    Command::new(HARNESS)
        .args(words(line))
        .current_dir(dir)
        .output()
        .unwrap()
}

fn spawn(dir: &Path, line: &str) -> Child {
    Command::new(HARNESS)
        .args(words(line))
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Today's date as the system's `date` prints it (UTC): the oracle for default names.
fn utc_date() -> String {
    let out = Command::new("date").args(["-u", "+%F"]).output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn locks(dir: &Path) -> Vec<String> {
    files_in(dir)
        .into_iter()
        .filter(|f| f.ends_with(".lock"))
        .collect()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const QUICK: &str = "--each tc=inf nodes=10 --maxmoves 10 --quiet";

#[test]
fn two_runs_with_two_results_files_touch_only_their_own_files() {
    let dir = temp_dir("files", "two");
    // b plays an illegal move in every game: each run also writes failure cases.
    let sprt = |results: &str| {
        harness(
            &dir,
            &format!(
                "sprt --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b ARGS:--illegal-after,2 \
                 --each tc=inf nodes=10 --rounds 2 --maxmoves 20 --recover \
                 --max-consecutive-faults 0 --max-fault-share 100 --quiet --pgnout --results {results}"
            ),
        )
    };
    let one = sprt("one.json");
    assert!(matches!(one.status.code(), Some(0 | 3)), "{}", text(&one));
    let mine = |stem: &str| {
        [
            format!("{stem}.failures/"),
            format!("{stem}.json"),
            format!("{stem}.json.games.jsonl"),
            format!("{stem}.pgn"),
            format!("{stem}.svg"),
        ]
    };
    assert_eq!(files_in(&dir), mine("one"), "{}", text(&one));
    assert!(text(&one).contains("Chart: one.svg"), "{}", text(&one));
    let before: Vec<Vec<u8>> = ["one.json", "one.json.games.jsonl", "one.pgn", "one.svg"]
        .iter()
        .map(|f| read(&dir.join(f)))
        .collect();
    let cases = files_in(&dir.join("one.failures"));
    assert!(!cases.is_empty());

    let two = sprt("two.json");
    assert!(matches!(two.status.code(), Some(0 | 3)), "{}", text(&two));
    let mut all: Vec<String> = mine("one").into_iter().chain(mine("two")).collect();
    all.sort();
    assert_eq!(files_in(&dir), all, "no shared file, no lock left");
    let after: Vec<Vec<u8>> = ["one.json", "one.json.games.jsonl", "one.pgn", "one.svg"]
        .iter()
        .map(|f| read(&dir.join(f)))
        .collect();
    assert!(before == after, "the second run touched the first's files");
    assert_eq!(files_in(&dir.join("one.failures")), cases);
    // The PGN without a name holds the run's games: 4 games, 4 results.
    let pgn = String::from_utf8(read(&dir.join("two.pgn"))).unwrap();
    assert_eq!(pgn.matches("[Result ").count(), 4, "{pgn}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn default_names_carry_kind_engines_and_date_and_never_collide() {
    let dir = temp_dir("files", "defaults");
    let run = format!("match --engine cmd=FAULTY name=x --engine cmd=FAULTY name=y {QUICK}");
    let first = harness(&dir, &run);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    let date = utc_date();
    let name = format!("match-x-vs-y-{date}.json");
    assert_eq!(
        files_in(&dir),
        [name.clone(), format!("{name}.games.jsonl")],
        "(a run at midnight UTC may see another date)"
    );
    let results = std::fs::read_to_string(dir.join(&name)).unwrap();
    // The same command again: a new, numbered name, and a line that says so.
    let second = harness(&dir, &run);
    assert_eq!(second.status.code(), Some(0), "{}", text(&second));
    let numbered = format!("match-x-vs-y-{date}-2.json");
    assert!(
        text(&second).contains(&format!(
            "note: {name} is taken by an earlier run (continue that one with `harness match \
             --resume {name}`); this run writes {numbered}"
        )),
        "{}",
        text(&second)
    );
    let mut both = vec![
        name.clone(),
        format!("{name}.games.jsonl"),
        numbered.clone(),
        format!("{numbered}.games.jsonl"),
    ];
    both.sort();
    assert_eq!(files_in(&dir), both);
    assert_eq!(std::fs::read_to_string(dir.join(&name)).unwrap(), results);
    // A name given by hand is refused when taken, with a hint that is right: following it
    // continues that very run.
    let refused = harness(&dir, &format!("{run} --results {name}"));
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    let hint = format!("harness match --resume {name}");
    assert!(text(&refused).contains(&hint), "{}", text(&refused));
    assert_eq!(std::fs::read_to_string(dir.join(&name)).unwrap(), results);
    let followed = harness(&dir, &format!("match --resume {name} --rounds 2 --quiet"));
    let t = text(&followed);
    assert_eq!(followed.status.code(), Some(0), "{t}");
    assert!(
        t.contains("Results of x vs y") && t.contains("Finished 4 of 4 games"),
        "{t}"
    );
    assert!(locks(&dir).is_empty(), "{:?}", files_in(&dir));

    // An SPRT's defaults: its chart shares the results' stem.
    let sprt = harness(
        &dir,
        &format!("sprt --dev FAULTY --base FAULTY --rounds 2 {QUICK}"),
    );
    assert!(
        matches!(sprt.status.code(), Some(0 | 1 | 3)),
        "{}",
        text(&sprt)
    );
    let stem = format!("sprt-dev-vs-base-{date}");
    for f in [
        format!("{stem}.json"),
        format!("{stem}.json.games.jsonl"),
        format!("{stem}.svg"),
    ] {
        assert!(dir.join(&f).exists(), "{f}: {:?}", files_in(&dir));
    }
    assert!(!dir.join("sprt.svg").exists() && locks(&dir).is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn locks_disappear_however_the_run_ends() {
    let dir = temp_dir("files", "locks");
    let pair = "--engine cmd=FAULTY name=a --engine cmd=FAULTY name=b";
    // An engine that dies in its handshake: exit 4, nothing left at all.
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=a ARGS:--exit-before-uciok,3 --engine cmd=FAULTY name=b \
         --each nodes=10 --results r.json --quiet",
    );
    assert_eq!(out.status.code(), Some(4), "{}", text(&out));
    assert!(files_in(&dir).is_empty(), "{:?}", files_in(&dir));
    // An error after the lock was taken (an option value the engine does not declare).
    let out = harness(
        &dir,
        &format!("match {pair} option.Hash=5000 --each nodes=10 --results r.json --quiet"),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(files_in(&dir).is_empty(), "{:?}", files_in(&dir));
    // An engine that crashes, without --recover: the run stops, its results stay, the lock goes.
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b ARGS:--crash-after,0 \
         --each nodes=10 --results r.json --quiet",
    );
    assert_eq!(out.status.code(), Some(4), "{}", text(&out));
    assert!(dir.join("r.json").exists());
    assert!(locks(&dir).is_empty(), "{:?}", files_in(&dir));
    // A results file that exists: refused, untouched, no lock.
    let before = read(&dir.join("r.json"));
    let out = harness(&dir, &format!("match {pair} {QUICK} --results r.json"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert_eq!(read(&dir.join("r.json")), before);
    assert!(locks(&dir).is_empty(), "{:?}", files_in(&dir));

    // Ctrl-C, once (orderly) and twice (at once): no lock either way.
    let slow = "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b ARGS:--move-ms,100 \
                --each tc=inf nodes=10 --rounds 4 --maxmoves 6 --concurrency 2 --quiet";
    for (results, signals) in [("once.json", 1), ("twice.json", 2)] {
        let child = spawn(&dir, &format!("{slow} --results {results}"));
        let journal = dir.join(format!("{results}.games.jsonl"));
        wait_for("a game", || {
            std::fs::read_to_string(&journal).is_ok_and(|t| t.lines().count() >= 1)
        });
        assert!(
            dir.join(format!("{results}.lock")).exists(),
            "held while it runs"
        );
        for _ in 0..signals {
            common::interrupt(child.id());
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{}", text(&out));
        assert!(
            locks(&dir).is_empty(),
            "{signals} Ctrl-C: {:?}",
            files_in(&dir)
        );
    }

    // SIGKILL leaves the lock file (no code runs); the next run on it takes it over, says so,
    // and leaves none.
    let mut child = spawn(&dir, &format!("{slow} --results killed.json"));
    let journal = dir.join("killed.json.games.jsonl");
    wait_for("a game", || {
        std::fs::read_to_string(&journal).is_ok_and(|t| t.lines().count() >= 1)
    });
    let pid = child.id();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(locks(&dir), ["killed.json.lock"]);
    let out = harness(&dir, "match --resume killed.json --quiet");
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains(&format!(
            "note: taking over the stale lock killed.json.lock left by pid {pid}: harness match "
        )) && t.contains("which is no longer running"),
        "{t}"
    );
    assert!(locks(&dir).is_empty(), "{:?}", files_in(&dir));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_stale_lock_of_a_dead_process_is_taken_over_with_a_line() {
    let dir = temp_dir("files", "stale");
    let dead = dead_pid();
    std::fs::write(
        dir.join("r.json.lock"),
        format!("pid {dead}: harness match --rounds 9\n"),
    )
    .unwrap();
    let out = harness(
        &dir,
        &format!(
            "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b {QUICK} --results r.json"
        ),
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains(&format!(
            "note: taking over the stale lock r.json.lock left by pid {dead}: harness match \
             --rounds 9, which is no longer running"
        )),
        "{t}"
    );
    assert_eq!(files_in(&dir), ["r.json", "r.json.games.jsonl"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_that_is_not_there_exits_4_before_any_engine_starts() {
    let dir = temp_dir("files", "missing");
    let dev = marked_engine(&dir, "dev", FAULTY);
    let out = harness(
        &dir,
        &format!(
            "sprt --dev {} --base ./no-such-engine --each nodes=10 --quiet",
            dev.display()
        ),
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "{t}");
    assert!(
        t.contains("engine base cannot start: its program `./no-such-engine` does not exist"),
        "{t}"
    );
    assert!(t.contains("Nothing was played or written"), "{t}");
    assert_eq!(t.matches("SPRT: no verdict").count(), 1, "{t}");
    assert_eq!(
        files_in(&dir),
        ["dev.sh"],
        "dev never started, nothing written"
    );
    // The same for spsa, whose engine is started to list its parameters.
    let out = harness(
        &dir,
        "spsa --engine cmd=./no-such-engine --each nodes=1 --quiet",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "{t}");
    assert!(t.contains("`./no-such-engine` does not exist"), "{t}");
    assert_eq!(files_in(&dir), ["dev.sh"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_input_file_is_checked_before_any_engine_starts() {
    let dir = temp_dir("files", "inputs");
    let e = marked_engine(&dir, "e", FAULTY);
    let pair = format!(
        "--engine cmd={} name=a --engine cmd={} name=b --each nodes=10 --quiet",
        e.display(),
        e.display()
    );
    std::fs::write(
        dir.join("suite1.epd"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"start\";\n",
    )
    .unwrap();
    let cases: [(String, &str); 6] = [
        (
            format!("match {pair} --openings file=8moves_v3.pgn"),
            "opening book 8moves_v3.pgn not found",
        ),
        (
            format!("sprt {pair} --openings suite1.epd"),
            "did you mean `file=suite1.epd`",
        ),
        (
            format!("match {pair} --tb no-such-tables"),
            "no-such-tables",
        ),
        (
            format!(
                "spsa --engine cmd={} --params p.txt --each nodes=1 --quiet",
                e.display()
            ),
            "cannot read the SPSA input (--params) p.txt",
        ),
        (
            format!(
                "spsa --engine cmd={} --openings file=b.epd --each nodes=1",
                e.display()
            ),
            "opening book b.epd not found",
        ),
        (
            format!(
                "epd suite1.epd --engine {} --nodes 10 --baseline old.csv",
                e.display()
            ),
            "old.csv",
        ),
    ];
    for (line, says) in cases {
        let out = harness(&dir, &line);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{line}: {t}");
        assert!(t.contains(says), "{line}: {t}");
        assert!(!dir.join("e.started").exists(), "{line}: an engine started");
    }
    assert_eq!(files_in(&dir), ["e.sh", "suite1.epd"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn errors_say_what_to_type_instead() {
    let dir = temp_dir("files", "hints");
    let pair = "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b";
    let out = harness(&dir, &format!("{pair} --each nodes=10 hash=16 --quiet"));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(t.contains("unknown engine setting `hash`"), "{t}");
    assert!(t.contains("did you mean `option.Hash=16`?"), "{t}");
    assert!(
        t.contains("cmd=, name=, dir=, args=, tc=, st=, nodes=, depth=, timemargin="),
        "{t}"
    );
    // A value outside the engine's declared range is refused before the first game.
    let out = harness(
        &dir,
        &format!("{pair} --each nodes=10 option.Hash=5000 --quiet"),
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains(
            "engine a: option.Hash=5000 is not a value it declares (it takes a whole number \
             from 1 to 1024)"
        ),
        "{t}"
    );
    assert!(!t.contains("Finished game"), "{t}");
    // A mistyped flag: the flag meant, and a usage line that does not make options required.
    let out = harness(&dir, &format!("{pair} --each nodes=10 --round 3"));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(t.contains("'--rounds'"), "{t}");
    assert!(!t.contains("Usage: harness match --each"), "{t}");
    assert!(t.contains("Usage: harness match --engine cmd=PATH"), "{t}");
    assert!(files_in(&dir).is_empty(), "{:?}", files_in(&dir));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_final_report_is_printed_once() {
    let dir = temp_dir("files", "report");
    // 6 games with an interim report every 6: the last game's report is the final one.
    for kind in [
        "sprt --dev FAULTY --base FAULTY",
        "match --engine cmd=FAULTY name=dev --engine cmd=FAULTY name=base",
    ] {
        let out = harness(
            &dir,
            &format!(
                "{kind} --each tc=inf nodes=10 --rounds 3 --maxmoves 10 --ratinginterval 6 \
                 --results r-{}.json",
                &kind[..4]
            ),
        );
        let t = text(&out);
        assert!(matches!(out.status.code(), Some(0 | 1 | 3)), "{t}");
        assert_eq!(t.matches("Results of dev vs base").count(), 1, "{t}");
        assert_eq!(t.matches("Finished 6 of").count(), 1, "{t}");
    }
    // With an interim report every 2 games: at 2 and 4, then the final one.
    let out = harness(
        &dir,
        "match --engine cmd=FAULTY name=dev --engine cmd=FAULTY name=base --each tc=inf nodes=10 \
         --rounds 3 --maxmoves 10 --ratinginterval 2 --results r2.json",
    );
    assert_eq!(
        text(&out).matches("Results of dev vs base").count(),
        3,
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn spsa_files_sit_beside_its_out_file_and_default_names_resume() {
    let dir = temp_dir("files", "spsa");
    std::fs::write(dir.join("p.txt"), "Skill, int, 100, -1000, 1000, 40, 0.2\n").unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    let spsa = "spsa --engine cmd=FAULTY ARGS:--optimum,Skill=0 --params p.txt --each tc=inf \
                nodes=1 --pairs-per 1 --maxmoves 20 --quiet";
    let out = harness(&dir, &format!("{spsa} --iterations 2 --out sub/x.csv"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(files_in(&dir), ["p.txt", "sub/"]);
    assert_eq!(files_in(&dir.join("sub")), ["x.csv", "x.svg"]);
    // Without --out: named after the engine and the day; --resume finds it again.
    let out = harness(&dir, &format!("{spsa} --iterations 2"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stem = format!("spsa-faulty-engine-{}", utc_date());
    assert_eq!(
        files_in(&dir),
        [
            "p.txt".into(),
            format!("{stem}.csv"),
            format!("{stem}.svg"),
            "sub/".into()
        ]
    );
    let out = harness(&dir, &format!("{spsa} --iterations 3 --resume"));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains(&format!("Resuming {stem}.csv")), "{t}");
    let rows = std::fs::read_to_string(dir.join(format!("{stem}.csv"))).unwrap();
    assert_eq!(rows.lines().count(), 1 + 3, "{rows}");
    assert_eq!(files_in(&dir).len(), 4, "{:?}", files_in(&dir));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_pgn_and_journal_removed_or_replaced_mid_run_keep_every_game() {
    let dir = temp_dir("files", "removed");
    // 8 games, a move each 50 ms: time to take the files away after the first.
    let slow = "match --engine cmd=FAULTY name=a --engine cmd=FAULTY name=b ARGS:--move-ms,50 \
                --each tc=inf nodes=10 --rounds 4 --maxmoves 6 --concurrency 1 \
                --results r.json --pgnout games.pgn";
    let child = spawn(&dir, slow);
    let (pgn, journal) = (dir.join("games.pgn"), dir.join("r.json.games.jsonl"));
    wait_for("a game", || {
        std::fs::read_to_string(&journal).is_ok_and(|t| t.lines().count() >= 1)
    });
    // The PGN goes (a checkout of a branch without it); the journal is put back as the older
    // copy of itself that a checkout of a commit with its first game would write.
    let first = std::fs::read_to_string(&journal).unwrap();
    let first_line = first.lines().next().unwrap().to_owned() + "\n";
    std::fs::remove_file(&pgn).unwrap();
    std::fs::remove_file(&journal).unwrap();
    std::fs::write(&journal, &first_line).unwrap();
    let out = child.wait_with_output().unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains("games.pgn was removed while this run wrote to it: written back whole"),
        "{t}"
    );
    assert!(
        t.contains("r.json.games.jsonl was replaced by an older copy of itself"),
        "{t}"
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Result ").count(), 8, "{games}");
    let lines = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(lines.lines().count(), 8, "{lines}");
    // The games that were played before the files went are there too, whole and once.
    assert!(lines.starts_with(&first), "{lines}");
    assert_eq!(games.matches("[Round \"1.1\"]").count(), 1, "{games}");
    std::fs::remove_dir_all(&dir).ok();
}
