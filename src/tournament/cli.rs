//! The command-line options of a match, in fastchess's vocabulary (`--engine cmd=X tc=10+0.1`,
//! `--each`, `--openings file=...`, `--draw`, `--resign`, ...), and the [`MatchConfig`] they
//! build.
//!
//! The options are clap arguments, yet they live here and not in `cmd`: a results file stores
//! the command-line words of its run, and `--resume` parses them again with these very
//! definitions, so they are the tournament's persistent format, not only its command line.

use super::engine_args::{adjudication, engine_from_words};
use super::naming;
use super::resume::ResultsFile;
use super::revision::resolve_engine_revision;
use super::{MatchConfig, Mode};
use crate::game::Variant;
use crate::openings::openings_from_words;
use crate::tablebase::TbArgs;
use anyhow::{bail, Context};
use clap::Parser;
use std::path::PathBuf;
use std::time::Duration;

/// The options of `harness match` (and, flattened, of `harness sprt`).
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine as key=value words: cmd=PATH|rev:REV (rev:WORKTREE, rev:HEAD~1: sable built at
    /// that git revision, cached under target/sable-revs), name=, dir=, args="A B",
    /// option.NAME=VALUE, tc=[moves/]secs[+inc], st=SECS, nodes=N, depth=N, timemargin=MS.
    /// Repeat for every engine.
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    pub engine: Vec<String>,
    /// Settings for every engine, same keys as --engine (an engine's own words win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Engine under test, listed first: a command or rev:REV (rev:WORKTREE = the working tree as
    /// it is). Shorthand for --engine cmd=X name=dev.
    #[arg(long, value_name = "CMD|rev:REV")]
    pub dev: Option<String>,
    /// Baseline engine, listed second: a command or rev:REV (e.g. rev:HEAD~1); named "base".
    #[arg(long, value_name = "CMD|rev:REV")]
    pub base: Option<String>,
    /// Opening book: file=PATH [format=epd|pgn] [order=random|sequential] [plies=N] [start=N],
    /// or `startpos` (every game from the start position). Default: the built-in book
    /// (suites/openings.epd, compiled in), in random order.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub openings: Vec<String>,
    /// The rules: standard, or fischerandom (Chess960 and double Fischer random: sets
    /// UCI_Chess960 on every engine, refuses engines without it; default book: the 960 starts).
    #[arg(long, default_value = "standard")]
    pub variant: Variant,
    /// Games per round and pairing: 2 plays each opening twice with colours swapped.
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Rounds (one opening per round and pairing). Default: 1 for match, 100000 for sprt.
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Linux: give each game played at once cores of its own for its two engines (as many as
    /// its engines' Threads), and keep the runner on the cores left over (fastchess's
    /// -use-affinity). Refused when the machine has too few cores.
    #[arg(long)]
    pub affinity: bool,
    /// Pairing scheme for more than two engines.
    #[arg(long, value_enum, default_value_t = Mode::Gauntlet)]
    pub tournament: Mode,
    /// Draw adjudication: movenumber=N movecount=M score=CP (defaults 40, 8, 10).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Vec<String>,
    /// Resign adjudication: movecount=M score=CP twosided=true|false (defaults 3, 600, false).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Vec<String>,
    /// Adjudicate a draw after this many full moves.
    #[arg(long)]
    pub maxmoves: Option<u32>,
    /// Syzygy adjudication: a game whose position is in the tables ends with their result.
    #[command(flatten)]
    pub tb: TbArgs,
    /// After an engine crashes or hangs, restart it and go on (else stop). An engine that cannot
    /// start or answer `uci`/`isready` always stops the run.
    #[arg(long)]
    pub recover: bool,
    /// Stop without a verdict when one engine faults (crash, hang, illegal move, time loss) in
    /// this many of its games in a row; 0 = never. Default 3.
    #[arg(long = "max-consecutive-faults", value_name = "N")]
    pub max_consecutive_faults: Option<u32>,
    /// Give no verdict when an engine's faults exceed this percentage of its games. Default 2.
    #[arg(long = "max-fault-share", value_name = "PERCENT")]
    pub max_fault_share: Option<f64>,
    /// Write every line to and from every engine (and their stderr) to FILE, with timestamps
    /// (appended to).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Keep at most N failure case files (a crash, hang, illegal move or time loss: the game's
    /// UCI transcript and what `harness replay` needs) in <results-stem>.failures/. Default 50.
    #[arg(long = "max-failure-files", value_name = "N")]
    pub max_failure_files: Option<usize>,
    /// Milliseconds an engine may take to start (uci→uciok, isready→readyok).
    #[arg(long = "startup-ms", default_value_t = 10_000)]
    pub startup_ms: u64,
    /// Milliseconds an engine may take to answer isready between games or stop after a timeout.
    #[arg(long = "ping-ms", default_value_t = 5_000)]
    pub ping_ms: u64,
    /// Append every game to this PGN file (`file=PATH` also accepted); without FILE, to the
    /// results file's name with .pgn (sprt-dev-vs-base-2026-11-25.pgn).
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "")]
    pub pgnout: Option<String>,
    /// PGN move comments in fastchess's form (`{+0.35/12 0.123s, n=4567, sd=18}`, fastchess's
    /// `Termination` words), as `harness fastchess` writes them.
    #[arg(long = "pgn-fastchess")]
    pub pgn_fastchess: bool,
    /// With --pgn-fastchess: `n=` (nodes) in every engine move's comment.
    #[arg(long = "pgn-nodes")]
    pub pgn_nodes: bool,
    /// With --pgn-fastchess: `sd=` (selective depth) in every engine move's comment.
    #[arg(long = "pgn-seldepth")]
    pub pgn_seldepth: bool,
    /// Keep the engine's last `info string` line of each search that matches PATTERN in the
    /// move's comment (`line="..."`): literal text with ^, $, . and .* (fastchess's
    /// `match_line=`, e.g. `^info string pgncomment .*`). Repeatable.
    #[arg(long = "pgn-match-line", value_name = "PATTERN")]
    pub pgn_match_line: Vec<String>,
    /// JSON results summary, rewritten after every game, with a journal of every game beside it
    /// (FILE.games.jsonl); together they are the resume file. Every other file of the run is
    /// named after it (chart, failure cases, PGN without a name). Default: kind, engines and
    /// date, e.g. sprt-dev-vs-base-2026-11-25.json (numbered -2, -3, ... when taken).
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Continue an interrupted match from its results file (all other options come from the
    /// file, except `--rounds`, which may extend it).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Seed of the random opening order.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print the interim report every N games (0 = only at the end).
    #[arg(long, default_value_t = 10)]
    pub ratinginterval: u64,
    /// No progress bar, no per-game lines (the final report is still printed).
    #[arg(long)]
    pub quiet: bool,
    /// Event name for the PGN.
    #[arg(long, default_value = "Sable match")]
    pub event: String,
}

/// Re-parses stored command-line words (for `--resume`).
#[derive(Parser, Debug)]
#[command(no_binary_name = true)]
struct Stored {
    #[command(flatten)]
    args: MatchArgs,
}

/// The words after the subcommand name, stored in the results file for `--resume`.
pub fn own_words() -> Vec<String> {
    std::env::args().skip(2).collect()
}

/// Builds the match configuration from the CLI (or from a results file with `--resume`).
pub fn build_config(
    args: MatchArgs,
    kind: &str,
    default_rounds: Option<u32>,
) -> anyhow::Result<MatchConfig> {
    if let Some(path) = &args.resume {
        let (old, words) = parse_stored::<Stored>(path)?;
        return resumed_config(old.args, &args, kind, default_rounds, words);
    }
    config_from(args, kind, default_rounds, own_words())
}

/// Builds the configuration from `args` and the `words` stored for `--resume`, for callers
/// that rewrite the command line (the two-stage SPRT stores its words with `rev:` pinned).
pub fn build_config_from_words(
    args: MatchArgs,
    kind: &str,
    default_rounds: Option<u32>,
    words: Vec<String>,
) -> anyhow::Result<MatchConfig> {
    config_from(args, kind, default_rounds, words)
}

/// The command-line words stored in a results file, parsed by the subcommand's own parser `P`
/// (so `sprt` gets its bounds back), and the words themselves.
pub fn parse_stored<P: Parser>(path: &std::path::Path) -> anyhow::Result<(P, Vec<String>)> {
    let words = ResultsFile::load(path)?.args;
    let parsed = P::try_parse_from(&words)
        .with_context(|| format!("{}: the stored arguments do not parse", path.display()))?;
    Ok((parsed, words))
}

/// The configuration of an interrupted run, from its stored arguments `old` (parsed by the
/// subcommand that made them, so `sprt` can keep its own options) and stored `words`; `now`
/// are the arguments of the resuming call (its `--resume` file and `--quiet`).
pub fn resumed_config(
    mut old: MatchArgs,
    now: &MatchArgs,
    kind: &str,
    default_rounds: Option<u32>,
    mut words: Vec<String>,
) -> anyhow::Result<MatchConfig> {
    old.resume = None;
    old.results = now.resume.clone();
    old.quiet = now.quiet;
    // The fault limits and the log may be changed by the resuming call.
    if now.max_consecutive_faults.is_some() {
        old.max_consecutive_faults = now.max_consecutive_faults;
    }
    if now.max_fault_share.is_some() {
        old.max_fault_share = now.max_fault_share;
    }
    if now.log.is_some() {
        old.log = now.log.clone();
    }
    if now.max_failure_files.is_some() {
        old.max_failure_files = now.max_failure_files;
    }
    if let Some(rounds) = now.rounds {
        old.rounds = Some(rounds);
        words = with_rounds(words, rounds);
    }
    let mut cfg = config_from(old, kind, default_rounds, words)?;
    cfg.resume = true;
    Ok(cfg)
}

/// The stored words with their round count set to `rounds`, so that a resumed run that was
/// extended resumes as extended.
fn with_rounds(mut words: Vec<String>, rounds: u32) -> Vec<String> {
    words.retain(|w| !w.starts_with("--rounds="));
    match words.iter().position(|w| w == "--rounds") {
        Some(i) if i + 1 < words.len() => words[i + 1] = rounds.to_string(),
        _ => words.extend(["--rounds".to_owned(), rounds.to_string()]),
    }
    words
}

fn config_from(
    args: MatchArgs,
    kind: &str,
    default_rounds: Option<u32>,
    words: Vec<String>,
) -> anyhow::Result<MatchConfig> {
    let mut engines = Vec::new();
    for (name, cmd) in [("dev", &args.dev), ("base", &args.base)] {
        if let Some(cmd) = cmd {
            let own = vec![format!("cmd={cmd}"), format!("name={name}")];
            engines.push(engine_from_words(&args.each, &own).map_err(anyhow::Error::msg)?);
        }
    }
    for words in engine_groups(&words, &args.engine) {
        engines.push(engine_from_words(&args.each, &words).map_err(anyhow::Error::msg)?);
    }
    // Every input file is read before anything slow happens (a `rev:` build, an engine's
    // start): a mistyped book costs a second, not a build.
    let (openings, book_name) = openings_from_words(&args.openings, args.seed, args.variant)?;
    let syzygy = syzygy_rule(&args.tb, args.quiet)?;
    for e in &mut engines {
        resolve_engine_revision(e, !args.quiet).map_err(anyhow::Error::msg)?;
    }
    if openings.is_empty() && !args.quiet {
        eprintln!("Openings: every game starts from the start position (--openings startpos)");
    }
    if args.variant == Variant::Chess960 {
        for e in &mut engines {
            e.spec.set_option("UCI_Chess960", "true");
        }
    }
    let mut cfg = MatchConfig::new(engines, openings);
    cfg.variant = args.variant;
    cfg.book_name = book_name;
    cfg.rounds = args.rounds.or(default_rounds).unwrap_or(1);
    cfg.games_per_round = args.games;
    cfg.concurrency = args.concurrency;
    cfg.affinity = args.affinity;
    cfg.mode = args.tournament;
    cfg.adjudication =
        adjudication(&args.draw, &args.resign, args.maxmoves).map_err(anyhow::Error::msg)?;
    cfg.adjudication.syzygy = syzygy;
    cfg.recover = args.recover;
    if let Some(n) = args.max_consecutive_faults {
        cfg.fault_rules.max_consecutive = n;
    }
    if let Some(pct) = args.max_fault_share {
        if !(0.0..=100.0).contains(&pct) {
            bail!("--max-fault-share must be a percentage from 0 to 100 (got {pct})");
        }
        cfg.fault_rules.max_share = pct / 100.0;
    }
    cfg.log = args.log;
    if let Some(n) = args.max_failure_files {
        cfg.max_failure_files = n;
    }
    cfg.startup = Duration::from_millis(args.startup_ms);
    cfg.ping = Duration::from_millis(args.ping_ms);
    let results = match args.results {
        Some(path) => path,
        None => default_results(kind, &cfg.engines),
    };
    cfg.pgn_out = args
        .pgnout
        .map(|p| match p.strip_prefix("file=").unwrap_or(&p) {
            "" => naming::sibling(&results, "pgn"),
            p => PathBuf::from(p),
        });
    cfg.pgn_style = crate::game::pgn::PgnStyle {
        fastchess: args.pgn_fastchess,
        nodes: args.pgn_nodes,
        seldepth: args.pgn_seldepth,
    };
    cfg.match_lines = args
        .pgn_match_line
        .iter()
        .map(|p| crate::game::LinePattern::new(p))
        .collect::<Result<_, _>>()?;
    cfg.results = Some(results);
    cfg.rating_interval = args.ratinginterval;
    cfg.progress = !args.quiet;
    cfg.event = args.event;
    cfg.args = words;
    Ok(cfg)
}

/// The results file of a run given none: kind, engines and date, numbered when an earlier run
/// has that name (which is then said, with how to continue that run instead).
fn default_results(kind: &str, engines: &[super::EngineConfig]) -> PathBuf {
    let names: Vec<String> = engines.iter().map(|e| e.spec.display_name()).collect();
    let path = naming::default_results(kind, &names, &naming::today(), "json");
    let (free, numbered) = naming::first_free(&path);
    if numbered {
        eprintln!(
            "note: {} is taken by an earlier run (continue that one with `harness {kind} \
             --resume {}`); this run writes {}",
            path.display(),
            path.display(),
            free.display()
        );
    }
    free
}

/// The `--tb` rule, if asked for; says what was loaded (unless quiet) and warns of refused
/// files (always).
pub fn syzygy_rule(
    tb: &TbArgs,
    quiet: bool,
) -> anyhow::Result<Option<crate::tablebase::SyzygyRule>> {
    let Some((rule, warnings)) = tb.rule()? else {
        return Ok(None);
    };
    if !quiet {
        eprintln!("Syzygy: {}", rule.tables.describe());
    }
    for w in warnings {
        eprintln!("warning: {w}");
    }
    Ok(Some(rule))
}

/// The words of each `--engine` occurrence. clap's derive flattens repeated multi-value options,
/// so the grouping is recovered from the raw command line (`parsed` is clap's flat list, used
/// to check the result and as a fallback split at each `cmd=`).
fn engine_groups(raw: &[String], parsed: &[String]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut inside = false;
    for w in raw {
        if w == "--engine" {
            groups.push(Vec::new());
            inside = true;
        } else if let Some(first) = w.strip_prefix("--engine=") {
            groups.push(vec![first.to_owned()]);
            inside = true;
        } else if w.starts_with("--") {
            inside = false;
        } else if inside {
            groups
                .last_mut()
                .expect("a group was opened")
                .push(w.clone());
        }
    }
    if groups.concat() == parsed {
        return groups;
    }
    let mut groups: Vec<Vec<String>> = Vec::new();
    for w in parsed {
        match groups.last_mut() {
            Some(g) if !w.starts_with("cmd=") => g.push(w.clone()),
            _ => groups.push(vec![w.clone()]),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn engine_groups_follow_the_command_line() {
        let raw =
            w("--engine name=a cmd=x --each tc=1 --engine cmd=y option.Hash=16 --concurrency 2");
        let parsed = w("name=a cmd=x cmd=y option.Hash=16");
        assert_eq!(
            engine_groups(&raw, &parsed),
            [w("name=a cmd=x"), w("cmd=y option.Hash=16")]
        );
        // Without matching raw words (e.g. a config built in code), split at cmd=.
        assert_eq!(
            engine_groups(&[], &w("cmd=x name=a cmd=y")),
            [w("cmd=x name=a"), w("cmd=y")]
        );
    }

    #[test]
    fn stored_words_reparse_into_a_config() {
        let words = w("--engine cmd=/bin/true name=a --engine cmd=/bin/true name=b --each tc=1+0.01 --rounds 7 --quiet");
        let args = Stored::try_parse_from(&words).unwrap().args;
        let cfg = config_from(args, "match", None, words).unwrap();
        assert_eq!(cfg.engines.len(), 2);
        assert_eq!(cfg.engines[1].spec.name.as_deref(), Some("b"));
        assert_eq!(cfg.engines[0].limits.tc.unwrap().inc_ms, 10);
        assert_eq!(cfg.rounds, 7);
    }
}
