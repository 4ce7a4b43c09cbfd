//! fastchess's options in the harness's spelling: the words `harness sprt` parses (so a run
//! started as fastchess is built, played and resumed by the very code of `harness match` and
//! `harness sprt`, and its results file stores these words), and the few choices that have no
//! harness word.

use super::args::{FastchessArgs, Openings};
use std::fmt;
use std::path::PathBuf;

/// What the harness runs for a fastchess command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// `harness sprt` words: `--engine ... --each ... --rounds N ...` (with the SPRT's bounds
    /// when there is one).
    pub words: Vec<String>,
    /// Whether it is an SPRT.
    pub sprt: bool,
    /// The results file (`-config outname=`); none otherwise, as concurrent runs in one folder
    /// (OpenBench's client starts one per socket) must not share one.
    pub results: Option<PathBuf>,
    /// The saved run to resume (`-config file=`).
    pub resume: Option<PathBuf>,
}

/// Why a command line cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanError {
    /// Fewer than two engines (and nothing to resume).
    Engines(usize),
    /// More games at once than CPUs, without `-force-concurrency`.
    Concurrency {
        /// Asked for.
        asked: usize,
        /// CPUs of this machine.
        cpus: usize,
    },
    /// `-games` above 2 with `-rounds` above 2 too.
    Games(u32),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Engines(n) => write!(f, "a match needs at least two -engine (got {n})"),
            PlanError::Concurrency { asked, cpus } => write!(
                f,
                "-concurrency {asked} exceeds the {cpus} CPUs of this machine; use \
                 -force-concurrency to override"
            ),
            PlanError::Games(n) => write!(f, "-games {n}: at most 2 games per round and pairing"),
        }
    }
}

impl std::error::Error for PlanError {}

/// The harness's words for `a` (CPUs counted by the caller, for `-concurrency`).
pub fn plan(a: &FastchessArgs, cpus: usize) -> Result<Plan, PlanError> {
    let resume = a.config.as_ref().and_then(|c| c.file.clone());
    if a.engines.len() < 2 && resume.is_none() {
        return Err(PlanError::Engines(a.engines.len()));
    }
    let concurrency = a.concurrency.unwrap_or(1);
    if concurrency > cpus && !a.force_concurrency {
        return Err(PlanError::Concurrency {
            asked: concurrency,
            cpus,
        });
    }
    let (games, rounds) = games_and_rounds(a)?;
    let mut w = Words::default();
    for engine in &a.engines {
        w.list("--engine", engine);
    }
    w.list("--each", &a.each);
    if let Some(o) = &a.openings {
        w.list("--openings", &openings(o));
    } else {
        // fastchess without a book plays every game from the start position.
        w.one("--openings", "startpos");
    }
    w.one("--seed", a.srand.unwrap_or(0));
    w.one("--concurrency", concurrency);
    w.one("--rounds", rounds);
    w.one("--games", games);
    rules(&mut w, a);
    tablebases(&mut w, a);
    pgn(&mut w, a);
    reports(&mut w, a, games);
    sprt(&mut w, a);
    let results = a.config.as_ref().and_then(|c| c.outname.clone());
    if let Some(path) = &results {
        w.one("--results", path.display());
    }
    Ok(Plan {
        words: w.0,
        sprt: a.sprt.is_some(),
        results,
        resume,
    })
}

/// Games per round and rounds: fastchess's defaults are 2 rounds of game pairs, and `-games`
/// above 2 trades places with `-rounds`.
fn games_and_rounds(a: &FastchessArgs) -> Result<(u32, u32), PlanError> {
    let (mut games, mut rounds) = (a.games.unwrap_or(2), a.rounds.unwrap_or(2));
    if games > 2 {
        (games, rounds) = (rounds, games);
        if games > 2 {
            return Err(PlanError::Games(rounds));
        }
    }
    Ok((games, rounds))
}

/// How games are played and ended: recovery, fault rules, affinity, variant, pairing,
/// adjudication.
fn rules(w: &mut Words, a: &FastchessArgs) {
    w.flag("--recover", a.recover);
    // fastchess plays every game whatever an engine's faults; OpenBench's client and server
    // count them (crashes, time losses, illegal moves) and judge for themselves.
    w.one("--max-consecutive-faults", 0);
    w.one("--max-fault-share", 100);
    w.flag("--affinity", a.affinity);
    if a.fischer_random {
        w.one("--variant", "fischerandom");
    }
    // fastchess's default pairing is a round robin (the same as a gauntlet for two engines).
    w.one(
        "--tournament",
        a.tournament.as_deref().unwrap_or("roundrobin"),
    );
    w.list("--draw", &a.draw);
    w.list("--resign", &a.resign);
    if let Some(n) = a.maxmoves {
        w.one("--maxmoves", n);
    }
}

/// The log, the interim reports, the event's name and the engines' start-up limits.
fn reports(w: &mut Words, a: &FastchessArgs, games: u32) {
    if let Some(log) = &a.log {
        w.one("--log", log.display());
    }
    // fastchess counts the interval in pairs when games come in pairs, the harness in games.
    w.one(
        "--ratinginterval",
        a.ratinginterval.unwrap_or(10) * u64::from(games),
    );
    w.one(
        "--event",
        a.event.as_deref().unwrap_or("Fastchess Tournament"),
    );
    if let Some(ms) = a.startup_ms {
        w.one("--startup-ms", ms);
    }
    if let Some(ms) = a.ping_ms {
        w.one("--ping-ms", ms);
    }
}

/// The SPRT's bounds and model, when there is one.
fn sprt(w: &mut Words, a: &FastchessArgs) {
    if let Some(s) = &a.sprt {
        w.one("--elo0", s.elo0);
        w.one("--elo1", s.elo1);
        w.one("--alpha", s.alpha);
        w.one("--beta", s.beta);
        w.one(
            "--model",
            if s.logistic { "logistic" } else { "normalized" },
        );
    }
}

/// The harness's `--openings` words: fastchess reads a book in order unless told otherwise.
fn openings(o: &Openings) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(f) = &o.file {
        words.push(format!("file={f}"));
    }
    if let Some(f) = &o.format {
        words.push(format!("format={f}"));
    }
    words.push(format!(
        "order={}",
        o.order.as_deref().unwrap_or("sequential")
    ));
    if let Some(s) = o.start {
        words.push(format!("start={s}"));
    }
    if let Some(p) = o.plies {
        words.push(format!("plies={p}"));
    }
    words
}

fn tablebases(w: &mut Words, a: &FastchessArgs) {
    if let Some(tb) = &a.tb {
        w.one("--tb", tb);
    }
    if let Some(n) = a.tbpieces {
        w.one("--tb-pieces", n);
    }
    w.flag("--tb-ignore-50", a.tbignore50);
    if let Some(r) = a.tbadjudicate {
        w.one("--tb-adjudicate", r);
    }
}

fn pgn(w: &mut Words, a: &FastchessArgs) {
    let Some(p) = &a.pgnout else { return };
    // fastchess's name for a PGN given none.
    let file = p.file.clone().unwrap_or_else(|| {
        // `2026-11-25T10:04:05.123Z` becomes `fastchess_20261125_100405.pgn`.
        let now = crate::report::dates::utc_timestamp(std::time::SystemTime::now());
        let digits: String = now[..19].chars().filter(char::is_ascii_digit).collect();
        format!("fastchess_{}_{}.pgn", &digits[..8], &digits[8..])
    });
    w.one("--pgnout", file);
    w.flag("--pgn-fastchess", true);
    w.flag("--pgn-nodes", p.nodes);
    w.flag("--pgn-seldepth", p.seldepth);
    for m in &p.match_lines {
        w.one("--pgn-match-line", m);
    }
}

/// The words being built.
#[derive(Default)]
struct Words(Vec<String>);

impl Words {
    fn one(&mut self, flag: &str, value: impl fmt::Display) {
        self.0.push(flag.to_owned());
        self.0.push(value.to_string());
    }

    fn list(&mut self, flag: &str, values: &[String]) {
        if !values.is_empty() {
            self.0.push(flag.to_owned());
            self.0.extend(values.iter().cloned());
        }
    }

    fn flag(&mut self, flag: &str, on: bool) {
        if on {
            self.0.push(flag.to_owned());
        }
    }
}
