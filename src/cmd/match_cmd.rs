//! `harness match`: play a match between UCI engines (fastchess vocabulary).

use crate::game::Variant;
use crate::tournament::book::openings_from_words;
use crate::tournament::config::Stop;
use crate::tournament::engine_args::{adjudication, engine_from_words};
use crate::tournament::resume::ResultsFile;
use crate::tournament::revision::resolve_engine_revision;
use crate::tournament::{interrupt, report, run_match, MatchConfig, MatchOutcome, Mode};
use anyhow::{bail, Context};
use clap::Parser;
use std::path::PathBuf;
use std::time::Duration;

/// Options of this subcommand (shared with `harness sprt`).
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
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
    /// Pairing scheme for more than two engines.
    #[arg(long, value_enum, default_value_t = TournamentKind::Gauntlet)]
    pub tournament: TournamentKind,
    /// Draw adjudication: movenumber=N movecount=M score=CP (defaults 40, 8, 10).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Vec<String>,
    /// Resign adjudication: movecount=M score=CP twosided=true|false (defaults 3, 600, false).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Vec<String>,
    /// Adjudicate a draw after this many full moves.
    #[arg(long)]
    pub maxmoves: Option<u32>,
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
    /// Milliseconds an engine may take to start (uci→uciok, isready→readyok).
    #[arg(long = "startup-ms", default_value_t = 10_000)]
    pub startup_ms: u64,
    /// Milliseconds an engine may take to answer isready between games or stop after a timeout.
    #[arg(long = "ping-ms", default_value_t = 5_000)]
    pub ping_ms: u64,
    /// Append every game to this PGN file (`file=PATH` also accepted).
    #[arg(long, value_name = "FILE")]
    pub pgnout: Option<String>,
    /// JSON results summary, rewritten after every game, with a journal of every game beside it
    /// (FILE.games.jsonl); together they are the resume file. Default: match.json / sprt.json.
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

/// Pairing schemes.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TournamentKind {
    /// The first engine plays each of the others.
    Gauntlet,
    /// Every engine plays every other.
    Roundrobin,
}

/// Re-parses stored command-line words (for `--resume`).
#[derive(Parser, Debug)]
#[command(no_binary_name = true)]
struct Stored {
    #[command(flatten)]
    args: Args,
}

/// Exit code of a run stopped by a broken setup or faulty engines: no verdict. Distinct from
/// the SPRT's 0 (H1), 1 (H0) and 3 (no decision yet), and from 2 (bad command line).
pub const EXIT_NO_VERDICT: i32 = 4;

/// Runs the subcommand; returns the process exit code (0: done; 4: stopped by a broken setup
/// or faulty engines, or faults above --max-fault-share; 130: interrupted, resumable).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let cfg = build_config(args, "match", None)?;
    interrupt::install();
    let start = std::time::Instant::now();
    let outcome = run_match(&cfg)?;
    print_final(&cfg, &outcome);
    print_speed(&outcome, start.elapsed());
    let too_many = !outcome.fault_shares_over(&cfg.fault_rules).is_empty();
    Ok(match &outcome.stopped {
        Some(Stop::Interrupted) => interrupt::EXIT_INTERRUPTED,
        Some(_) => EXIT_NO_VERDICT,
        None if too_many => EXIT_NO_VERDICT,
        None => 0,
    })
}

/// The words after the subcommand name, stored in the results file for `--resume`.
fn own_words() -> Vec<String> {
    std::env::args().skip(2).collect()
}

/// Builds the match configuration from the CLI (or from a results file with `--resume`).
pub fn build_config(
    args: Args,
    kind: &str,
    default_rounds: Option<u32>,
) -> anyhow::Result<MatchConfig> {
    if let Some(path) = &args.resume {
        let (old, words) = parse_stored::<Stored>(path)?;
        return resumed_config(old.args, &args, kind, default_rounds, words);
    }
    config_from(args, kind, default_rounds, own_words())
}

/// The command-line words stored in a results file, parsed by the subcommand's own parser `P`
/// (so `sprt` gets its bounds back), and the words themselves.
pub fn parse_stored<P: Parser>(path: &std::path::Path) -> anyhow::Result<(P, Vec<String>)> {
    let words = ResultsFile::load(path).map_err(anyhow::Error::msg)?.args;
    let parsed = P::try_parse_from(&words)
        .with_context(|| format!("{}: the stored arguments do not parse", path.display()))?;
    Ok((parsed, words))
}

/// The configuration of an interrupted run, from its stored arguments `old` (parsed by the
/// subcommand that made them, so `sprt` can keep its own options) and stored `words`; `now`
/// are the arguments of the resuming call (its `--resume` file and `--quiet`).
pub fn resumed_config(
    mut old: Args,
    now: &Args,
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
    args: Args,
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
    for e in &mut engines {
        resolve_engine_revision(e, !args.quiet).map_err(anyhow::Error::msg)?;
    }
    let (openings, book_name) =
        openings_from_words(&args.openings, args.seed, args.variant).map_err(anyhow::Error::msg)?;
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
    cfg.mode = match args.tournament {
        TournamentKind::Gauntlet => Mode::Gauntlet,
        TournamentKind::Roundrobin => Mode::RoundRobin,
    };
    cfg.adjudication =
        adjudication(&args.draw, &args.resign, args.maxmoves).map_err(anyhow::Error::msg)?;
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
    cfg.startup = Duration::from_millis(args.startup_ms);
    cfg.ping = Duration::from_millis(args.ping_ms);
    cfg.pgn_out = args
        .pgnout
        .map(|p| PathBuf::from(p.strip_prefix("file=").unwrap_or(&p)));
    cfg.results = Some(
        args.results
            .unwrap_or_else(|| PathBuf::from(format!("{kind}.json"))),
    );
    cfg.rating_interval = args.ratinginterval;
    cfg.progress = !args.quiet;
    cfg.event = args.event;
    cfg.args = words;
    Ok(cfg)
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

/// CPU seconds (user + system) used by this process itself, engines excluded (Linux /proc).
fn own_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may contain spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ is 100 on Linux.
}

/// Games per minute and the runner's own CPU time.
pub fn print_speed(o: &MatchOutcome, wall: std::time::Duration) {
    let wall = wall.as_secs_f64().max(1e-9);
    // games loaded by --resume were played by an earlier run, not in this wall time
    let played = (o.games - o.resumed) as f64;
    print!("Wall {wall:.1} s, {:.1} games/min", played * 60.0 / wall);
    if let Some(cpu) = own_cpu_seconds() {
        let per_game = if played > 0.0 {
            1000.0 * cpu / played
        } else {
            0.0
        };
        print!(
            ", runner CPU {cpu:.2} s ({per_game:.1} ms/game, {:.2} % of wall)",
            100.0 * cpu / wall
        );
    }
    println!();
}

/// The final report: every pairing in the fastchess layout, faults, and speed.
pub fn print_final(cfg: &MatchConfig, o: &MatchOutcome) {
    if o.games > 0 {
        print!("{}", report::interim(cfg, o));
    }
    for c in crate::tournament::compare::challengers(o) {
        println!("{c}");
    }
    for (i, f) in o.faults.iter().enumerate() {
        if f.total() > 0 {
            let games = o.engine_games.get(i).copied().unwrap_or(0);
            println!(
                "{}: {} crashes, {} time losses, {} illegal moves, {} disconnects ({:.1} % of its {games} games)",
                o.names[i],
                f.crashes,
                f.time_losses,
                f.illegal_moves,
                f.disconnects,
                100.0 * f.total() as f64 / games.max(1) as f64
            );
        }
    }
    for (i, share) in o.fault_shares_over(&cfg.fault_rules) {
        println!(
            "Warning: {} faulted in {:.1} % of its games (--max-fault-share {:.1} %): its results \
             measure its faults, not its chess",
            o.names[i],
            100.0 * share,
            100.0 * cfg.fault_rules.max_share
        );
    }
    if o.repeated_games > 0 {
        println!(
            "Warning: {} games repeated an earlier game move for move (deterministic limits and \
             repeated openings): they are not independent, so the error bars are too narrow",
            o.repeated_games
        );
    }
    if o.late_games > 0 {
        println!(
            "{} game(s) in flight when the run stopped were recorded; they did not change its outcome",
            o.late_games
        );
    }
    match &o.stopped {
        Some(Stop::Interrupted) => println!("Stopped: {}", Stop::Interrupted),
        Some(why) => println!("Stopped, no verdict: {why}"),
        None => {}
    }
    println!("Finished {} of {} games", o.games, o.scheduled);
    let kind = if cfg.sprt.is_some() { "sprt" } else { "match" };
    match &cfg.results {
        Some(path) if path.exists() => {
            println!("Results: {}", path.display());
            let how = match &o.stopped {
                Some(Stop::Interrupted) => "To continue",
                Some(_) => "To continue once the engines are mended",
                None => "",
            };
            if o.games < o.scheduled && !how.is_empty() {
                println!("{how}: harness {kind} --resume {}", path.display());
            }
        }
        _ if o.stopped.is_some() && o.games == 0 => {
            println!("Nothing was played or written: mend the setup and run the command again");
        }
        _ => {}
    }
}

/// Errors for impossible combinations that clap cannot express.
pub fn check_two_engines(cfg: &MatchConfig) -> anyhow::Result<()> {
    if cfg.engines.len() != 2 {
        bail!(
            "an SPRT needs exactly two engines (got {})",
            cfg.engines.len()
        );
    }
    Ok(())
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
