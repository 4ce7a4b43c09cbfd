//! `harness perft`: run perft suites against the engine's move generator, find the first wrong
//! position with shakmaty when a count is off, cross-check random positions, and (hidden)
//! regenerate the built-in suite.

use crate::plumbing::progress::{Reporter, Unit};
use crate::suites::perft::{
    default_suite, parse_suite, run_with_progress, PerftCase, SuiteReport, DEFAULT_MAX_DEPTH,
    DEFAULT_SUITE_NAME,
};
use crate::suites::perft960::{chess960_suite, generate_960_suite, CHESS960_SUITE_NAME};
use crate::suites::perft_check::{check_position, random_check, RANDOM_CHECK_DEPTH};
use crate::suites::perft_referee::{find_bug, generate_suite, Diagnosis};
use anyhow::{bail, Context};
use std::path::PathBuf;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Perft suite files (`FEN ;D1 20 ;D2 400 ...` per line; Chess960 positions in X-FEN or
    /// Shredder-FEN). Default: the built-in suites/perft.epd and suites/perft960.epd.
    pub files: Vec<PathBuf>,
    /// Skip depths above this one (default 6; the built-in suite is sized for it).
    #[arg(long, default_value_t = DEFAULT_MAX_DEPTH, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub max_depth: u32,
    /// Check a single position instead of a suite (against shakmaty; with --depth).
    #[arg(long, conflicts_with_all = ["files", "random"])]
    pub fen: Option<String>,
    /// Depth for --fen (default 5).
    #[arg(long, default_value_t = 5, requires = "fen", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Cross-check N random positions (playouts from the suite positions) against shakmaty at
    /// depths 1 to 3 instead of checking the suite's counts.
    #[arg(long, value_name = "N")]
    pub random: Option<usize>,
    /// Seed of the random playouts for --random (default 1).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print only failing positions, not one line per position (for big suites).
    #[arg(long)]
    pub failures_only: bool,
    /// How many failing positions to diagnose with shakmaty (default 3; diagnosis runs
    /// shakmaty's perft, which can take a while at depth 6).
    #[arg(long, default_value_t = 3)]
    pub diagnose: usize,
    /// Write a freshly computed built-in suite to this file (developer tool, see
    /// scripts/gen-perft-suite.sh).
    #[arg(long, value_name = "OUT", hide = true)]
    pub generate: Option<PathBuf>,
    /// Write a freshly computed built-in Chess960 suite to this file (developer tool, see
    /// scripts/gen-perft-suite.sh).
    #[arg(long, value_name = "OUT", hide = true)]
    pub generate_960: Option<PathBuf>,
}

/// Runs the subcommand; returns the process exit code (0 all good, 1 any mismatch).
pub fn run(args: Args) -> anyhow::Result<i32> {
    if let Some(out) = &args.generate {
        let text = generate_suite(8_000_000, 40)?;
        std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
        errln!("wrote {}", out.display());
        return Ok(0);
    }
    if let Some(out) = &args.generate_960 {
        let text = generate_960_suite(8_000_000, 30)?;
        std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
        errln!("wrote {}", out.display());
        return Ok(0);
    }
    if let Some(fen) = &args.fen {
        return run_single(fen, args.depth);
    }
    let suites = load_suites(&args.files)?;
    if let Some(n) = args.random {
        let seeds: Vec<String> = suites
            .iter()
            .flat_map(|(_, c)| c.iter().map(|c| c.fen.clone()))
            .collect();
        return run_random(&seeds, n, args.seed);
    }
    let mut code = 0;
    for (name, cases) in &suites {
        let report = run_with_progress(name, cases, args.max_depth);
        print_report(name, &report, args.failures_only);
        if !report.passed() {
            code = 1;
            diagnose(&report, args.diagnose)?;
        }
    }
    Ok(code)
}

/// Reads the given suite files, or the built-in suites (standard and Chess960) when none is
/// given. Chess960 positions are recognised by their castling fields (X-FEN or Shredder-FEN).
fn load_suites(files: &[PathBuf]) -> anyhow::Result<Vec<(String, Vec<PerftCase>)>> {
    if files.is_empty() {
        return Ok(vec![
            (DEFAULT_SUITE_NAME.to_string(), default_suite()?),
            (CHESS960_SUITE_NAME.to_string(), chess960_suite()?),
        ]);
    }
    files
        .iter()
        .map(|f| {
            let name = f.display().to_string();
            let bytes = std::fs::read(f).with_context(|| format!("cannot read {name}"))?;
            let text = String::from_utf8_lossy(&bytes);
            let cases = parse_suite(&text, &name)?;
            // Nothing to count is not a pass.
            anyhow::ensure!(
                !cases.is_empty(),
                "{name}: no position (the file holds only blank lines and comments; a perft \
                 suite line is `FEN ;D1 20 ;D2 400 ...`)"
            );
            Ok((name.clone(), cases))
        })
        .collect()
}

fn print_report(name: &str, report: &SuiteReport, failures_only: bool) {
    for case in &report.cases {
        let deepest = case.results.last();
        match case.first_failure() {
            None if failures_only => {}
            None => outln!(
                "ok    line {:>5}  {}  D{} {} ({:.2}s)",
                case.line,
                case.fen,
                deepest.map_or(0, |r| r.depth),
                deepest.map_or(0, |r| r.got),
                case.elapsed.as_secs_f64()
            ),
            Some(r) => outln!(
                "FAIL  line {:>5}  {}  D{}: expected {}, got {}",
                case.line,
                case.fen,
                r.depth,
                r.expected,
                r.got
            ),
        }
    }
    let failed = report.failures().count();
    let unchecked = report.cases.iter().filter(|c| c.results.is_empty()).count();
    let note = if unchecked > 0 {
        format!(" ({unchecked} had no count at or below --max-depth)")
    } else {
        String::new()
    };
    outln!(
        "{name}: {} positions, {} passed{note}, {} failed; {} nodes in {:.2}s ({:.1} Mnps)",
        report.cases.len(),
        report.cases.len() - failed,
        failed,
        report.total_nodes,
        report.elapsed.as_secs_f64(),
        report.nps() / 1e6
    );
}

/// Finds the first wrong position for up to `limit` failing cases.
fn diagnose(report: &SuiteReport, limit: usize) -> anyhow::Result<()> {
    for case in report.failures().take(limit) {
        let Some(r) = case.first_failure() else {
            continue;
        };
        errln!(
            "diagnosing line {} at depth {} with shakmaty...",
            case.line,
            r.depth
        );
        print_diagnosis(&case.fen, r.depth)?;
    }
    Ok(())
}

fn print_diagnosis(fen: &str, depth: u32) -> anyhow::Result<()> {
    match find_bug(fen, depth)? {
        Diagnosis::Bug(bug) => out!("{bug}"),
        Diagnosis::Agree { count } => outln!(
            "  shakmaty also counts {count} for {fen} at depth {depth}: the expected count looks wrong"
        ),
    }
    Ok(())
}

/// `--fen FEN --depth N`: our counts against shakmaty's at every depth up to N.
fn run_single(fen: &str, depth: u32) -> anyhow::Result<i32> {
    let checks = check_position(fen, depth, &mut |c| {
        let verdict = if c.agrees() { "ok" } else { "FAIL" };
        outln!(
            "{verdict:4}  D{} {} (shakmaty {})  {:.2}s  {:.1} Mnps",
            c.depth,
            c.ours,
            c.theirs,
            c.elapsed.as_secs_f64(),
            c.nps() / 1e6
        );
    })?;
    match checks.last() {
        Some(c) if !c.agrees() => {
            print_diagnosis(fen, c.depth)?;
            Ok(1)
        }
        _ => Ok(0),
    }
}

/// `--random N`: random playouts from the suite positions, cross-checked at depths 1-3.
fn run_random(seeds: &[String], n: usize, seed: u64) -> anyhow::Result<i32> {
    if n == 0 {
        bail!("--random needs at least 1 position");
    }
    let bar = Reporter::new(true, "random", Unit::POSITIONS, n as u64);
    let failures = random_check(seeds, n, seed, &|| bar.inc(1))?;
    bar.clear();
    for f in failures.iter().take(20) {
        outln!(
            "FAIL  {}  D{}: sable {}, shakmaty {}",
            f.fen,
            f.depth,
            f.ours,
            f.theirs
        );
    }
    if let Some(f) = failures.first() {
        print_diagnosis(&f.fen, f.depth)?;
    }
    outln!(
        "random: {n} positions (seed {seed}), {} mismatches against shakmaty at depths 1-{RANDOM_CHECK_DEPTH}",
        failures.len()
    );
    Ok(if failures.is_empty() { 0 } else { 1 })
}
