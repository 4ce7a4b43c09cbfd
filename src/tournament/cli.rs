//! The command-line options of a match, in fastchess's vocabulary (`--engine cmd=X tc=10+0.1`,
//! `--each`, `--openings file=...`, `--draw`, `--resign`, ...), and the [`MatchConfig`] they
//! build.
//!
//! A results file does not store these words: it stores the run as data
//! ([`super::record::RunRecord`]), and `--resume` reads that back without this parser.

use super::engine_args::{adjudication, engine_from_words, WordsError};
use super::error::MatchError;
use super::record::{announce_syzygy, RunRecord};
use super::resume::{ResultsFile, StoredRun};
use super::revision::resolve_engine_revision;
use super::{MatchConfig, Mode};
use crate::game::Variant;
use crate::openings::BookSource;
use crate::plumbing::{naming, timeouts};
use crate::tablebase::TbArgs;
use std::path::PathBuf;
use std::time::Duration;

/// The options of `harness match` (and, flattened, of `harness sprt`).
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// The engines, each as its `--engine` words.
    #[command(flatten)]
    pub engine: EngineGroups,
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
    /// Games played at once (default 1). With --resume: the machine the run goes on with (its
    /// --affinity then comes from this call too), e.g. a run begun on a lent 16-core machine
    /// continued on 2 cores.
    #[arg(long)]
    pub concurrency: Option<usize>,
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
    #[arg(long = "startup-ms", default_value_t = timeouts::STARTUP.as_millis() as u64)]
    pub startup_ms: u64,
    /// Milliseconds an engine may take to answer isready between games or stop after a timeout.
    #[arg(long = "ping-ms", default_value_t = timeouts::PING.as_millis() as u64)]
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
    /// Continue an interrupted run from its results file: every option comes from the run's
    /// record there, except `--rounds` (which may extend it), the machine (`--concurrency`, and
    /// with it `--affinity`), the fault limits, `--log`,
    /// `--max-failure-files` and `--quiet`.
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
    /// Play on when an engine is given a setting of an option it does not declare (a warning
    /// says so); without it such a setting (`option.Hsh=16`) stops the run before any game,
    /// naming the declared option nearest to it.
    #[arg(long)]
    pub allow_unknown_options: bool,
    /// Event name for the PGN.
    #[arg(long, default_value = "Sable match")]
    pub event: String,
}

/// The `--engine` option, each occurrence's words kept together (`--engine name=a cmd=x
/// --engine cmd=y`: two engines, whatever the order of their words). clap's derive flattens
/// repeated multi-value options into one list, so this reads its occurrences itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineGroups(pub Vec<Vec<String>>);

impl std::ops::Deref for EngineGroups {
    type Target = Vec<Vec<String>>;
    fn deref(&self) -> &Vec<Vec<String>> {
        &self.0
    }
}

impl clap::FromArgMatches for EngineGroups {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<EngineGroups, clap::Error> {
        let groups = m
            .get_occurrences::<String>("engine")
            .map(|all| all.map(|one| one.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = EngineGroups::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for EngineGroups {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .value_name("KEY=VALUE")
                .action(clap::ArgAction::Append)
                .help(
                    "An engine as key=value words: cmd=PATH|rev:REV (rev:WORKTREE, rev:HEAD~1: \
                     sable built at that git revision, cached under target/sable-revs), name=, \
                     dir=, args=\"A B\", option.NAME=VALUE, tc=[moves/]secs[+inc], st=SECS, \
                     nodes=N, depth=N, timemargin=MS. Repeat for every engine.",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        EngineGroups::augment_args(cmd)
    }
}

/// Builds the match configuration from the command line, or, with `--resume`, from the record
/// in the results file (see [`resume_config`]). Other front ends (a configuration file, another
/// tool's flags) fill a [`MatchArgs`] and call this, or build a [`MatchConfig`] in code: either
/// way the results file records the run as data, and `--resume` needs nothing else.
pub fn build_config(
    args: MatchArgs,
    kind: &str,
    default_rounds: Option<u32>,
) -> Result<MatchConfig, MatchError> {
    if let Some(path) = &args.resume {
        return match ResultsFile::load(path)?.stored_run(path)? {
            StoredRun::Record(record) => resume_config(*record, &args),
            StoredRun::Legacy(_) => Err(MatchError::LegacyResults {
                path: path.clone(),
                kind: kind.to_string(),
            }),
        };
    }
    config_from(args, kind, default_rounds)
}

/// The configuration that continues the run `record`, whose results file is `now.resume`,
/// with what the resuming call `now` may change: `--rounds` (to extend it), the fault limits,
/// `--log`, `--max-failure-files`, `--quiet`, and the machine: `--concurrency` (with
/// `--affinity` or its absence). Every other option comes from the record.
pub fn resume_config(mut record: RunRecord, now: &MatchArgs) -> Result<MatchConfig, MatchError> {
    if let Some(n) = now.concurrency {
        record.concurrency = n;
        record.affinity = now.affinity;
    }
    if let Some(rounds) = now.rounds {
        record.rounds = rounds;
    }
    if let Some(n) = now.max_consecutive_faults {
        record.fault_rules.max_consecutive = n;
    }
    if let Some(pct) = now.max_fault_share {
        record.fault_rules.max_share = fault_share(pct)?;
    }
    if now.log.is_some() {
        record.log = now.log.clone();
    }
    if let Some(n) = now.max_failure_files {
        record.max_failure_files = n;
    }
    let mut cfg = record.config(!now.quiet)?;
    cfg.results = now.resume.clone();
    cfg.resume = true;
    cfg.progress = !now.quiet;
    Ok(cfg)
}

/// `--max-fault-share` as a share.
fn fault_share(pct: f64) -> Result<f64, MatchError> {
    if !(0.0..=100.0).contains(&pct) {
        return Err(MatchError::FaultShare { pct });
    }
    Ok(pct / 100.0)
}

/// The engines `args` describe, in the run's order, as written: `rev:` engines are neither
/// built nor resolved (for readers that need only who played, such as `harness tune --sprt`
/// reading a version 1 results file).
pub fn engines_of(args: &MatchArgs) -> Result<Vec<super::EngineConfig>, WordsError> {
    let mut engines = Vec::new();
    for (name, cmd) in [("dev", &args.dev), ("base", &args.base)] {
        if let Some(cmd) = cmd {
            let own = vec![format!("cmd={cmd}"), format!("name={name}")];
            engines.push(engine_from_words(&args.each, &own)?);
        }
    }
    for words in args.engine.iter() {
        engines.push(engine_from_words(&args.each, words)?);
    }
    Ok(engines)
}

/// A new run's configuration from its options (every input file read, every `rev:` built).
fn config_from(
    args: MatchArgs,
    kind: &str,
    default_rounds: Option<u32>,
) -> Result<MatchConfig, MatchError> {
    let mut engines = engines_of(&args)?;
    // Every input file is read before anything slow happens (a `rev:` build, an engine's
    // start): a mistyped book costs a second, not a build.
    let book = BookSource::from_words(&args.openings, args.seed)?;
    let (openings, book_name) = book.load(args.variant)?;
    let syzygy = syzygy_rule(&args.tb, args.quiet)?;
    for e in &mut engines {
        resolve_engine_revision(e, !args.quiet)?;
    }
    if openings.is_empty() && !args.quiet {
        errln!("Openings: every game starts from the start position (--openings startpos)");
    }
    if args.variant == Variant::Chess960 {
        for e in &mut engines {
            e.spec.set_option("UCI_Chess960", "true");
        }
    }
    let mut cfg = MatchConfig::new(engines, openings);
    cfg.variant = args.variant;
    cfg.book_name = book_name;
    cfg.book = Some(book);
    cfg.rounds = args.rounds.or(default_rounds).unwrap_or(1);
    cfg.adjudication = adjudication(&args.draw, &args.resign, args.maxmoves)?;
    cfg.adjudication.syzygy = syzygy;
    play_rules(&mut cfg, &args)?;
    output_files(&mut cfg, &args, kind)?;
    cfg.rating_interval = args.ratinginterval;
    cfg.progress = !args.quiet;
    cfg.allow_unknown_options = args.allow_unknown_options;
    cfg.event = args.event;
    Ok(cfg)
}

/// How games are played and judged for faults, from the options.
fn play_rules(cfg: &mut MatchConfig, args: &MatchArgs) -> Result<(), MatchError> {
    cfg.games_per_round = args.games;
    cfg.concurrency = args.concurrency.unwrap_or(1);
    cfg.affinity = args.affinity;
    cfg.mode = args.tournament;
    cfg.recover = args.recover;
    if let Some(n) = args.max_consecutive_faults {
        cfg.fault_rules.max_consecutive = n;
    }
    if let Some(pct) = args.max_fault_share {
        cfg.fault_rules.max_share = fault_share(pct)?;
    }
    cfg.log = args.log.clone();
    if let Some(n) = args.max_failure_files {
        cfg.max_failure_files = n;
    }
    cfg.startup = Duration::from_millis(args.startup_ms);
    cfg.ping = Duration::from_millis(args.ping_ms);
    Ok(())
}

/// The results file (a default name when none is given) and the PGN beside it, with its style
/// and the `--pgn-match-line` patterns.
fn output_files(cfg: &mut MatchConfig, args: &MatchArgs, kind: &str) -> Result<(), MatchError> {
    let results = match &args.results {
        Some(path) => path.clone(),
        None => default_results(kind, &cfg.engines),
    };
    cfg.pgn_out = args
        .pgnout
        .as_ref()
        .map(|p| match p.strip_prefix("file=").unwrap_or(p) {
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
    Ok(())
}

/// The results file of a run given none: kind, engines and date, numbered when an earlier run
/// has that name (which is then said, with how to continue that run instead).
fn default_results(kind: &str, engines: &[super::EngineConfig]) -> PathBuf {
    let names: Vec<String> = engines.iter().map(|e| e.spec.display_name()).collect();
    let path = naming::default_results(kind, &names, &crate::report::dates::today(), "json");
    let (free, numbered) = naming::first_free(&path);
    if numbered {
        errln!(
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
) -> Result<Option<crate::tablebase::SyzygyRule>, crate::tablebase::TbError> {
    Ok(announce_syzygy(tb.rule()?, !quiet))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The options as a command line parses them.
    #[derive(Parser)]
    #[command(no_binary_name = true)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn parse(line: &str) -> MatchArgs {
        Cli::try_parse_from(line.split_whitespace()).unwrap().args
    }

    fn w(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn each_engine_keeps_its_own_words() {
        let args = parse(
            "--engine name=a cmd=x --each tc=1 --engine cmd=y option.Hash=16 --concurrency 2",
        );
        assert_eq!(*args.engine, [w("name=a cmd=x"), w("cmd=y option.Hash=16")]);
        let cfg = config_from(parse("--engine name=a cmd=/bin/true --engine cmd=/bin/true name=b --each tc=1+0.01 --rounds 7 --quiet --results r.json"), "match", None).unwrap();
        assert_eq!(cfg.engines[0].spec.name.as_deref(), Some("a"));
        assert_eq!(cfg.engines[1].spec.name.as_deref(), Some("b"));
        assert_eq!(cfg.engines[0].limits.tc.unwrap().inc_ms, 10);
        assert_eq!(cfg.rounds, 7);
    }

    /// A run given every kind of option: record -> results file -> record -> configuration
    /// gives the configuration the options gave, and the same record.
    #[test]
    fn a_record_round_trips_through_the_results_file_to_the_same_config() {
        let dir = crate::test_dir("record-round-trip");
        let book = dir.join("book.epd");
        std::fs::write(
            &book,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1\n",
        )
        .unwrap();
        let results = dir.join("r.json");
        let line = format!(
            "--engine cmd=/bin/true name=a args=-x option.Hash=16 nodes=500 depth=9 \
             --engine cmd=/bin/true name=b dir=/tmp st=0.25 timemargin=40 \
             --each tc=40/10+0.1 option.Threads=1 --openings file={} order=random start=2 \
             --seed 7 --games 1 --rounds 9 --concurrency 3 --tournament roundrobin \
             --draw movenumber=30 movecount=4 score=5 --resign score=900 twosided=true \
             --maxmoves 150 --max-consecutive-faults 0 --max-fault-share 7 --pgnout \
             --results {} --event Test --ratinginterval 4 --startup-ms 1234 --ping-ms 567 \
             --max-failure-files 3 --quiet",
            book.display(),
            results.display()
        );
        let mut cfg = config_from(parse(&line), "match", None).unwrap();
        cfg.sprt = Some(
            crate::stats::Sprt::new(-1.0, 3.0, 0.1, 0.05, crate::stats::Model::Logistic).unwrap(),
        );
        let record = RunRecord::of(&cfg);
        let file = ResultsFile {
            version: super::super::resume::RESULTS_VERSION,
            record: Some(record.clone()),
            ..ResultsFile::default()
        };
        file.save(&results).unwrap();
        let StoredRun::Record(back) = ResultsFile::load(&results)
            .unwrap()
            .stored_run(&results)
            .unwrap()
        else {
            panic!("a record was written");
        };
        assert_eq!(*back, record);
        let now = parse(&format!("--resume {} --quiet", results.display()));
        let again = resume_config(*back, &now).unwrap();
        assert_eq!(RunRecord::of(&again), record);
        assert_eq!(again.engines, cfg.engines);
        assert_eq!(again.openings, cfg.openings);
        assert_eq!(again.book_name, cfg.book_name);
        assert_eq!(again.adjudication, cfg.adjudication);
        assert_eq!(again.fault_rules, cfg.fault_rules);
        assert_eq!(again.pgn_out, cfg.pgn_out);
        assert_eq!((again.startup, again.ping), (cfg.startup, cfg.ping));
        assert_eq!(again.sprt, cfg.sprt);
        assert_eq!(again.results, cfg.results);
        assert!(again.resume);
        // What the options said, read from the record's own fields (not only equal to itself).
        assert_eq!(record.engines[0].limits.nodes, Some(500));
        assert_eq!(record.engines[1].limits.movetime_ms, Some(250));
        assert_eq!(record.engines[0].limits.tc.unwrap().moves, 40);
        assert_eq!(record.fault_rules.max_share, 0.07);
        assert_eq!(
            (record.rounds, record.games_per_round, record.concurrency),
            (9, 1, 3)
        );
        assert_eq!(record.tournament, Mode::RoundRobin);
        assert_eq!(cfg.openings.len(), 3);
        // A resume's --rounds extends the run; other options stay as recorded, but for the
        // machine: --concurrency, and with it --affinity.
        let now = parse(&format!(
            "--resume {} --rounds 20 --quiet",
            results.display()
        ));
        let longer = resume_config(record.clone(), &now).unwrap();
        assert_eq!((longer.rounds, longer.concurrency), (20, 3));
        let mut pinned = record.clone();
        pinned.affinity = true;
        let elsewhere = parse(&format!("--resume {} --concurrency 1", results.display()));
        let moved = resume_config(pinned.clone(), &elsewhere).unwrap();
        assert_eq!((moved.concurrency, moved.affinity), (1, false));
        assert_eq!(moved.rounds, 9);
        let kept = resume_config(pinned, &parse(&format!("--resume {}", results.display())));
        assert!(kept.unwrap().affinity);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn openings_given_in_code_are_recorded_whole() {
        let opening = crate::game::Opening {
            fen: None,
            moves: w("e2e4 e7e5"),
            origin: None,
        };
        let e = engine_from_words(&[], &w("cmd=/bin/true")).unwrap();
        let cfg = MatchConfig::new(vec![e.clone(), e], vec![opening]);
        let record = RunRecord::of(&cfg);
        let back = record.config(false).unwrap();
        assert_eq!(back.openings, cfg.openings);
        assert_eq!(RunRecord::of(&back), record);
    }
}
