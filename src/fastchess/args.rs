//! fastchess's command line, read into typed values: single-dash options (`-engine`, `-each`,
//! `-openings`, `-sprt`, ...), each followed by its words up to the next option, as fastchess
//! reads them (and as OpenBench's client writes them).
//!
//! Every option fastchess has is either taken here or refused by name, saying what the harness
//! offers instead; a word that names no fastchess option gets the nearest one that does.

use super::values::{
    affinity, config, engine_words, log, openings, output, pgnout, sprt, tb_adjudicate, tournament,
    variant,
};
use super::words::{key_values, none, optional, single};
pub use super::words::{ArgsError, ConfigWords, Openings, PgnOut, SprtWords};
use std::path::PathBuf;

/// What the command line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Action {
    /// Play the match (or SPRT).
    #[default]
    Run,
    /// Print the version and stop (`-version`, `--version`, `-v`, `version`).
    Version,
    /// Print the usage and stop (`-help`, `--help`).
    Help,
}

/// fastchess's command line, typed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FastchessArgs {
    /// Version, help or a run.
    pub action: Action,
    /// The words of each `-engine`.
    pub engines: Vec<Vec<String>>,
    /// The words of `-each` (every engine).
    pub each: Vec<String>,
    /// `-openings`.
    pub openings: Option<Openings>,
    /// `-srand`: the seed of the random opening order.
    pub srand: Option<u64>,
    /// `-concurrency`.
    pub concurrency: Option<usize>,
    /// `-rounds`.
    pub rounds: Option<u32>,
    /// `-games` (or `-repeat`, which is `-games 2`).
    pub games: Option<u32>,
    /// `-recover`.
    pub recover: bool,
    /// `-variant standard|fischerandom`: true for Fischer random.
    pub fischer_random: bool,
    /// `-resign` words.
    pub resign: Vec<String>,
    /// `-draw` words.
    pub draw: Vec<String>,
    /// `-maxmoves`.
    pub maxmoves: Option<u32>,
    /// `-tb` folders.
    pub tb: Option<String>,
    /// `-tbpieces`.
    pub tbpieces: Option<usize>,
    /// `-tbadjudicate WIN_LOSS|DRAW|BOTH`, in the harness's spelling.
    pub tbadjudicate: Option<&'static str>,
    /// `-tbignore50`.
    pub tbignore50: bool,
    /// `-sprt`.
    pub sprt: Option<SprtWords>,
    /// `-pgnout`.
    pub pgnout: Option<PgnOut>,
    /// `-log file=`: the engines' traffic.
    pub log: Option<PathBuf>,
    /// `-ratinginterval` (in game pairs when games come in pairs, as fastchess counts).
    pub ratinginterval: Option<u64>,
    /// `-config`.
    pub config: Option<ConfigWords>,
    /// `-use-affinity`.
    pub affinity: bool,
    /// `-force-concurrency`: allow more games at once than CPUs.
    pub force_concurrency: bool,
    /// `-testEnv`: taken and without effect (see docs/openbench.md).
    pub test_env: bool,
    /// `-event`.
    pub event: Option<String>,
    /// `-tournament gauntlet|roundrobin`.
    pub tournament: Option<String>,
    /// `-startup-ms`.
    pub startup_ms: Option<u64>,
    /// `-ping-ms`.
    pub ping_ms: Option<u64>,
}

/// The options taken, without their dash (for the suggestion of a mistyped one).
pub const TAKEN: [&str; 33] = [
    "engine",
    "each",
    "openings",
    "srand",
    "concurrency",
    "rounds",
    "games",
    "repeat",
    "recover",
    "variant",
    "resign",
    "draw",
    "maxmoves",
    "tb",
    "tbpieces",
    "tbadjudicate",
    "tbignore50",
    "sprt",
    "pgnout",
    "log",
    "ratinginterval",
    "output",
    "config",
    "use-affinity",
    "force-concurrency",
    "testEnv",
    "event",
    "tournament",
    "startup-ms",
    "ping-ms",
    "version",
    "v",
    "help",
];

/// fastchess's options the harness refuses, each with the harness's nearest spelling or why
/// there is none.
pub const REFUSED: [(&str, &str); 17] = [
    ("noswap", "no equivalent: the games of a pair always swap colours (-games 1 plays single games)"),
    ("reverse", "no equivalent: the first engine is White in the first game of every pair"),
    ("wait", "no equivalent: games start as soon as a slot is free"),
    ("seeds", "no equivalent: -tournament gauntlet plays the first engine against each of the others"),
    ("quick", "spell it out: -engine cmd=A -engine cmd=B -each tc=10+0.1 -openings file=BOOK order=random -rounds 25000 -repeat -recover -draw movenumber=30 movecount=8 score=8"),
    ("epdout", "no equivalent: `harness match --pgnout` writes the games, `harness extract` turns PGN into positions"),
    ("crc32", "no equivalent"),
    ("report", "no equivalent: games in pairs (-games 2) are reported by pair (pentanomial), single games (-games 1) by game"),
    ("scoreinterval", "nearest: -ratinginterval N (the result block every N pairs)"),
    ("autosaveinterval", "nearest: -config outname=FILE, saved after every game"),
    ("check-mate-pvs", "no equivalent"),
    ("show-latency", "no equivalent"),
    ("strict", "no equivalent: an engine's faults are counted and reported in any case"),
    ("ucinewgame-ms", "nearest: -ping-ms MS (the wait for readyok after ucinewgame)"),
    ("site", "nearest: -event NAME (the PGN's Site tag is ?)"),
    ("debug", "nearest: -log file=FILE (every line to and from the engines)"),
    ("compliance", "nearest: `harness check`, or a short match with -log file=FILE"),
];

/// Reads fastchess's command line (without the program name).
pub fn parse(argv: &[String]) -> Result<FastchessArgs, ArgsError> {
    let mut args = FastchessArgs::default();
    let mut i = 0;
    while i < argv.len() {
        let word = &argv[i];
        let Some(name) = option_name(word) else {
            // fastchess's bare `version` (OpenBench's client tries it).
            if word == "version" {
                args.action = Action::Version;
                i += 1;
                continue;
            }
            return Err(ArgsError::Stray(word.clone()));
        };
        let end = argv[i + 1..]
            .iter()
            .position(|w| option_name(w).is_some())
            .map_or(argv.len(), |k| i + 1 + k);
        take(&mut args, word, name, &argv[i + 1..end])?;
        i = end;
    }
    Ok(args)
}

/// The name of an option word (`-engine`, `--version`), without its dashes; `None` for a value
/// (a negative number is a value).
fn option_name(word: &str) -> Option<&str> {
    let name = word.strip_prefix('-')?;
    let name = name.strip_prefix('-').unwrap_or(name);
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        .then_some(name)
}

/// Applies one option and its values.
fn take(a: &mut FastchessArgs, flag: &str, name: &str, v: &[String]) -> Result<(), ArgsError> {
    match name {
        "engine" => a.engines.push(engine_words(flag, v)?),
        "each" => a.each.extend(engine_words(flag, v)?),
        "openings" => a.openings = Some(openings(flag, v)?),
        "srand" => a.srand = Some(single(flag, v, "a seed")?),
        "concurrency" => a.concurrency = Some(single(flag, v, "a number of games")?),
        "rounds" => a.rounds = Some(single(flag, v, "a number of rounds")?),
        "games" => a.games = Some(single(flag, v, "a number of games")?),
        "repeat" => a.games = Some(optional(flag, v, "a number of games")?.unwrap_or(2)),
        "recover" => none(flag, v).map(|()| a.recover = true)?,
        "variant" => a.fischer_random = variant(flag, v)?,
        "resign" => a.resign = key_values(flag, v)?,
        "draw" => a.draw = key_values(flag, v)?,
        "maxmoves" => a.maxmoves = Some(single(flag, v, "a number of moves")?),
        "tb" => a.tb = Some(single::<String>(flag, v, "the tablebase folders")?.replace(';', ":")),
        "tbpieces" => a.tbpieces = Some(single(flag, v, "a number of pieces")?),
        "tbadjudicate" => a.tbadjudicate = Some(tb_adjudicate(flag, v)?),
        "tbignore50" => none(flag, v).map(|()| a.tbignore50 = true)?,
        "sprt" => a.sprt = Some(sprt(flag, v)?),
        "pgnout" => a.pgnout = Some(pgnout(flag, v)?),
        "log" => a.log = Some(log(flag, v)?),
        "ratinginterval" => a.ratinginterval = Some(single(flag, v, "a number of pairs")?),
        "output" => output(flag, v)?,
        "config" => a.config = Some(config(flag, v)?),
        "use-affinity" => affinity(flag, v).map(|()| a.affinity = true)?,
        "force-concurrency" => none(flag, v).map(|()| a.force_concurrency = true)?,
        "testEnv" => none(flag, v).map(|()| a.test_env = true)?,
        "event" => a.event = Some(v.join(" ")).filter(|e| !e.is_empty()),
        "tournament" => a.tournament = Some(tournament(flag, v)?),
        "startup-ms" => a.startup_ms = Some(single(flag, v, "milliseconds")?),
        "ping-ms" => a.ping_ms = Some(single(flag, v, "milliseconds")?),
        "version" | "v" => a.action = Action::Version,
        "help" => a.action = Action::Help,
        _ => return Err(refused_or_unknown(flag, name)),
    }
    Ok(())
}

fn refused_or_unknown(flag: &str, name: &str) -> ArgsError {
    if let Some((_, instead)) = REFUSED.iter().find(|(n, _)| *n == name) {
        return ArgsError::Refused {
            flag: flag.to_owned(),
            instead,
        };
    }
    let all: Vec<&str> = TAKEN
        .iter()
        .chain(REFUSED.iter().map(|(n, _)| n))
        .copied()
        .collect();
    ArgsError::Unknown {
        flag: flag.to_owned(),
        nearest: crate::report::suggest::nearest(name, &all).map(|n| format!("-{n}")),
    }
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
