//! `harness ratings` end to end: the joint list of a round robin played by the runner equals the
//! list `harness ratings` computes from the PGN it wrote, and awkward PGNs give notes, bad ones
//! clear errors.

use crate::common;

use common::{temp_dir, text};
use std::path::Path;
use std::process::{Command, Output};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

fn harness(args: &[&str]) -> Output {
    Command::new(HARNESS).args(args).output().unwrap()
}

fn engines(json: &serde_json::Value) -> Vec<(String, f64, f64)> {
    json["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_owned(),
                e["rating"].as_f64().unwrap(),
                e["error"].as_f64().unwrap(),
            )
        })
        .collect()
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_round_robin_ends_with_the_list_that_its_pgn_gives() {
    let dir = temp_dir("ratings", "rr");
    let (pgn, results, list) = (
        dir.join("rr.pgn"),
        dir.join("rr.json"),
        dir.join("list.json"),
    );
    let engine = |name: &str, target: i64| {
        vec![
            "--engine".to_owned(),
            format!("cmd={FAULTY}"),
            format!("name={name}"),
            format!("args=--optimum Skill={target}"),
        ]
    };
    let mut args: Vec<String> = vec!["match".into()];
    args.extend(engine("a", 0));
    args.extend(engine("b", 150));
    args.extend(engine("c", 400));
    for w in "--tournament roundrobin --each tc=inf nodes=1 --resign movecount=1 score=900 \
              --maxmoves 60 --rounds 12 --concurrency 2 --quiet"
        .split_whitespace()
    {
        args.push(w.into());
    }
    args.extend(["--pgnout".into(), pgn.display().to_string()]);
    args.extend(["--results".into(), results.display().to_string()]);
    let out = Command::new(HARNESS).args(&args).output().unwrap();
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(all.contains("Ratings of 3 engines from 72 games"), "{all}");
    assert!(
        all.contains("from the 36 colour-swapped game pairs"),
        "{all}"
    );

    let out = harness(&[
        "ratings",
        &pgn.display().to_string(),
        "--json",
        &list.display().to_string(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let from_match = engines(&read_json(&results)["ratings"]);
    let from_pgn = engines(&read_json(&list));
    assert_eq!(from_match.len(), 3);
    for ((n1, r1, e1), (n2, r2, e2)) in from_match.iter().zip(&from_pgn) {
        assert_eq!(n1, n2);
        assert!(
            (r1 - r2).abs() < 1e-6 && (e1 - e2).abs() < 1e-6,
            "{from_match:?} {from_pgn:?}"
        );
    }
    // Resigning 40 % of moves against never: a is far above c.
    assert_eq!(from_pgn[0].0, "a");
    assert_eq!(from_pgn[2].0, "c");
    std::fs::remove_dir_all(&dir).ok();
}

fn game(white: &str, black: &str, result: &str, round: &str) -> String {
    format!(
        "[Event \"t\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n\n"
    )
}

#[test]
fn awkward_games_are_said_and_bad_input_fails_clearly() {
    let dir = temp_dir("ratings", "awkward");
    let mut text_pgn = String::new();
    // a, b, c play a round robin with every result; top wins every game against them.
    for (k, (w, b, r)) in [
        ("a", "b", "1-0"),
        ("b", "a", "1/2-1/2"),
        ("b", "c", "1-0"),
        ("c", "b", "0-1"),
        ("c", "a", "1-0"),
        ("a", "c", "1/2-1/2"),
        ("a", "b", "0-1"),
        ("c", "a", "0-1"),
        ("top", "a", "1-0"),
        ("b", "top", "0-1"),
        ("top", "c", "1-0"),
        // x and y only meet each other; "Sable 1" and "sable1" differ only in case and spaces.
        ("x", "y", "1-0"),
        ("y", "x", "1/2-1/2"),
        ("Sable 1", "a", "1-0"),
        ("sable1", "b", "0-1"),
        ("a", "Sable 1", "1/2-1/2"),
        ("b", "sable1", "1/2-1/2"),
    ]
    .iter()
    .enumerate()
    {
        text_pgn.push_str(&game(w, b, r, &(k + 1).to_string()));
    }
    text_pgn.push_str(&game("a", "b", "*", "90"));
    text_pgn.push_str(&game("a", "b", "2-0", "91"));
    text_pgn.push_str("[Event \"t\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n");
    let pgn = dir.join("awkward.pgn");
    std::fs::write(&pgn, text_pgn).unwrap();
    let (csv, json) = (dir.join("l.csv"), dir.join("l.json"));
    let out = harness(&[
        "ratings",
        &pgn.display().to_string(),
        "--csv",
        &csv.display().to_string(),
        "--json",
        &json.display().to_string(),
    ]);
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("2 unfinished games or games with an unknown result skipped"),
        "{all}"
    );
    assert!(
        all.contains("1 game without a White or Black tag skipped"),
        "{all}"
    );
    assert!(
        all.contains("2 groups that never played each other"),
        "{all}"
    );
    assert!(all.contains("top won all its 3 games"), "{all}");
    assert!(all.contains("(infinite: capped)"), "{all}");
    assert!(
        all.contains("\"Sable 1\", \"sable1\" differ only in case or spaces"),
        "{all}"
    );
    assert!(
        all.contains("sandwich estimator over games taken as independent"),
        "{all}"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 1 + 8, "{rows}");
    assert!(rows
        .lines()
        .next()
        .unwrap()
        .starts_with("rank,name,elo,error,games"));
    // The CSV's group of each engine is the JSON's (its index in `groups`), row for row.
    let listed = read_json(&json);
    let groups: Vec<String> = rows
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(7).unwrap().to_owned())
        .collect();
    let json_groups: Vec<String> = listed["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["group"].to_string())
        .collect();
    assert_eq!(groups, json_groups, "{rows}");
    assert!(groups.contains(&"0".to_owned()) && groups.contains(&"1".to_owned()));

    // Games of one engine against itself rate nothing: an error that says so, not an empty list.
    let alone = dir.join("alone.pgn");
    std::fs::write(
        &alone,
        game("sable", "sable", "1-0", "1") + &game("sable", "sable", "0-1", "2"),
    )
    .unwrap();
    let out = harness(&["ratings", &alone.display().to_string()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("all played by one engine (sable)"),
        "{}",
        text(&out)
    );

    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, game("a", "b", "*", "1")).unwrap();
    let out = harness(&["ratings", &empty.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("no finished games"), "{}", text(&out));
    let out = harness(&["ratings", "/no/such.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("/no/such.pgn"), "{}", text(&out));
    let out = harness(&["ratings", &pgn.display().to_string(), "--anchor", "zed=100"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("no engine called `zed`"),
        "{}",
        text(&out)
    );
    let out = harness(&["ratings", &pgn.display().to_string(), "--anchor", "a=high"]);
    assert!(
        text(&out).contains("`high` is not a number"),
        "{}",
        text(&out)
    );
    let out = harness(&["ratings", &pgn.display().to_string(), "--anchor", "a=2500"]);
    assert!(out.status.success());
    assert!(text(&out).contains("Anchor: a = 2500"), "{}", text(&out));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_engines_rate_as_harness_stats_on_the_same_counts() {
    // The case: 170 wins, 140 draws, 90 losses for a, colours alternating.
    let dir = temp_dir("ratings", "two");
    let mut pgn_text = String::new();
    let mut k = 0;
    for (count, a_result) in [(170, "1-0"), (140, "1/2-1/2"), (90, "0-1")] {
        for _ in 0..count {
            k += 1;
            let swap = |r: &str| match r {
                "1-0" => "0-1".to_owned(),
                "0-1" => "1-0".to_owned(),
                d => d.to_owned(),
            };
            let g = if k % 2 == 0 {
                game("a", "b", a_result, &k.to_string())
            } else {
                game("b", "a", &swap(a_result), &k.to_string())
            };
            pgn_text.push_str(&g);
        }
    }
    let (pgn, json) = (dir.join("two.pgn"), dir.join("two.json"));
    std::fs::write(&pgn, pgn_text).unwrap();
    let out = harness(&[
        "ratings",
        &pgn.display().to_string(),
        "--json",
        &json.display().to_string(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let list = engines(&read_json(&json));
    let diff = list[0].1 - list[1].1;
    let stats = harness(&["stats", "--wdl", "170,90,140"]);
    let stats_text = text(&stats);
    let elo: f64 = stats_text
        .lines()
        .find_map(|l| l.strip_prefix("Elo:"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no Elo line: {stats_text}"));
    assert_eq!(list[0].0, "a");
    assert_eq!(format!("{diff:.2}"), format!("{elo:.2}"), "{stats_text}");
    // Davidson's model, on request, stretches the difference (the draws are 35 %).
    let out = harness(&[
        "ratings",
        &pgn.display().to_string(),
        "--model",
        "davidson",
        "--json",
        &json.display().to_string(),
        "--force", // the list of the logistic model above is replaced on purpose
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let list = engines(&read_json(&json));
    assert!(list[0].1 - list[1].1 > diff + 30.0, "{list:?}");
}
