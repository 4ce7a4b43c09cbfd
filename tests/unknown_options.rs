//! A setting of an option the engine does not declare (`option.Hsh=16`) stops a match or SPRT
//! before any game, exit 2, naming the declared option nearest to it, whether it came in an
//! `--engine` or in `--each`; `--allow-unknown-options` plays on with a warning. With the
//! faulty engine and with our own sable.

use crate::common;

use common::{sable_binary, temp_dir, text};
use std::path::Path;
use std::process::{Command, Output};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

fn run(dir: &Path, words: &str) -> Output {
    Command::new(HARNESS)
        .args(words.split_whitespace())
        .current_dir(dir)
        .output()
        .unwrap()
}

/// No game was played in `dir`: no journal holds a line.
fn no_games(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().all(|e| {
        let path = e.unwrap().path();
        !path.to_string_lossy().ends_with(".games.jsonl")
            || std::fs::read_to_string(&path).unwrap().trim().is_empty()
    })
}

fn refused(dir: &Path, words: &str, engine: &str) {
    let out = run(dir, words);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{words}: {all}");
    assert!(
        all.contains(&format!(
            "engine {engine}: it does not declare option 'Hsh'; did you mean 'Hash'?"
        )) && all.contains("--allow-unknown-options"),
        "{words}: {all}"
    );
    assert!(no_games(dir), "{words}: refused before any game");
}

#[test]
fn an_undeclared_option_is_refused_before_any_game_with_the_nearest_name() {
    let dir = temp_dir("unknown-options", "faulty");
    let two = format!("--engine cmd={FAULTY} name=a --engine cmd={FAULTY} name=b");
    refused(
        &dir,
        &format!("match {two} option.Hsh=16 --each tc=inf nodes=1 --rounds 1"),
        "b",
    );
    refused(
        &dir,
        &format!("sprt {two} --each tc=inf nodes=1 option.Hsh=16 --elo0 0 --elo1 5"),
        "a",
    );
    // Meant: the games are played, and a warning says what was not declared.
    let out = run(
        &dir,
        &format!("match {two} --each tc=inf nodes=1 option.Hsh=16 --allow-unknown-options"),
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(
        all.contains("it does not declare option 'Hsh'; did you mean 'Hash'?")
            && all.contains("played as asked (--allow-unknown-options)"),
        "{all}"
    );
    assert!(!no_games(&dir), "{all}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn our_own_engine_refuses_a_mistyped_hash_too() {
    let dir = temp_dir("unknown-options", "sable");
    let sable = sable_binary();
    let s = sable.display();
    refused(
        &dir,
        &format!(
            "match --engine cmd={s} name=dev --engine cmd={s} name=base --each nodes=500 \
             option.Hsh=16"
        ),
        "dev",
    );
    std::fs::remove_dir_all(&dir).ok();
}
