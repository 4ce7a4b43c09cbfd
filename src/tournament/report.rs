//! What the runner shows: the progress bar, per-game lines, fastchess-style interim reports,
//! summaries for the results file, and the final report of a match.

use super::config::{MatchConfig, MatchOutcome, PairingResult, Stop};
use super::resume::{FaultSummary, PairingSummary};
use super::schedule::GameJob;
use crate::game::GameRecord;
use crate::plumbing::progress::{Reporter, Unit};
use crate::report::plural;
use crate::stats::ratings::{Anchor, Model, RatingList};
use crate::stats::{eta, InterimReport};

/// Match conditions for report headers: `10+0.1, 1t, 16MB, openings.epd`.
pub fn conditions(cfg: &MatchConfig, engine: usize) -> String {
    let e = &cfg.engines[engine];
    let mut parts = vec![e.limits.describe()];
    for (name, value) in &e.spec.options {
        if name.eq_ignore_ascii_case("Threads") {
            parts.push(format!("{value}t"));
        } else if name.eq_ignore_ascii_case("Hash") {
            parts.push(format!("{value}MB"));
        }
    }
    if !cfg.book_name.is_empty() {
        let file = std::path::Path::new(&cfg.book_name).file_name();
        parts.push(file.map_or_else(|| cfg.book_name.clone(), |f| f.to_string_lossy().into()));
    }
    parts.join(", ")
}

/// Calls `f` with the interim report of one pairing.
pub fn with_report<R>(
    cfg: &MatchConfig,
    names: &[String],
    p: &PairingResult,
    f: impl FnOnce(&InterimReport) -> R,
) -> R {
    let cond = conditions(cfg, p.a);
    let report = InterimReport {
        engine: &names[p.a],
        opponent: &names[p.b],
        conditions: &cond,
        tracker: &p.tracker,
        paired: cfg.games_per_round == 2,
        sprt: cfg.sprt.as_ref().filter(|_| names.len() == 2),
    };
    f(&report)
}

/// The interim reports of every pairing, one after the other.
pub fn interim(cfg: &MatchConfig, o: &MatchOutcome) -> String {
    o.pairings
        .iter()
        .map(|p| with_report(cfg, &o.names, p, |r| r.to_string()))
        .collect()
}

/// Per-pairing figures for the results file.
pub fn summaries(cfg: &MatchConfig, o: &MatchOutcome) -> Vec<PairingSummary> {
    o.pairings
        .iter()
        .map(|p| {
            with_report(cfg, &o.names, p, |r| {
                let t = p.tracker.trinomial();
                let e = r.elo();
                PairingSummary {
                    engine: r.engine.to_owned(),
                    opponent: r.opponent.to_owned(),
                    wld: [t.wins, t.losses, t.draws],
                    pentanomial: p.tracker.pentanomial().0,
                    elo: [e.elo.value, e.elo.error],
                    nelo: [e.nelo.value, e.nelo.error],
                    los: e.los,
                    llr: r.llr(),
                }
            })
        })
        .collect()
}

/// Per-engine faults for the results file.
pub fn fault_summaries(o: &MatchOutcome) -> Vec<FaultSummary> {
    o.faults
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let games = o.engine_games.get(i).copied().unwrap_or(0);
            FaultSummary {
                engine: o.names[i].clone(),
                games,
                crashes: f.crashes,
                time_losses: f.time_losses,
                illegal_moves: f.illegal_moves,
                disconnects: f.disconnects,
                share: f.total() as f64 / games.max(1) as f64,
            }
        })
        .collect()
}

/// The live progress bar (stderr) and per-game lines; silent when progress is off.
pub struct Progress {
    bar: Option<Reporter>,
    /// fastchess's contract: lines go to stdout without a bar, each game's written by this.
    plain: Option<super::config::GameLine>,
    /// When this run started and how many games were done then (resumed), for the pace.
    started: std::time::Instant,
    resumed: u64,
}

impl Progress {
    /// A bar for `total` games of which `done` are finished.
    pub fn new(cfg: &MatchConfig, total: u64, done: u64) -> Progress {
        let started = std::time::Instant::now();
        if !cfg.progress || cfg.game_line.is_some() {
            return Progress {
                bar: None,
                plain: cfg.game_line,
                started,
                resumed: done,
            };
        }
        let bar = Reporter::new(true, "", Unit::GAMES, total).paced_by_message(Unit::GAMES);
        bar.set_position(done);
        Progress {
            bar: Some(bar),
            plain: None,
            started,
            resumed: done,
        }
    }

    /// `Finished game 7 (dev vs base): 1-0 {White mates}`.
    pub fn game_line(&self, job: &GameJob, g: &GameRecord) {
        if let Some(line) = self.plain {
            self.print(&line(job.id + 1, g));
            return;
        }
        let line = format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            job.id + 1,
            g.white,
            g.black,
            g.outcome.pgn(),
            g.reason
        );
        self.print(&line);
    }

    /// Updates position and the W-L-D / Elo / LLR message.
    pub fn update(&self, cfg: &MatchConfig, o: &MatchOutcome) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(o.games);
        if let Some(p) = o.pairings.first() {
            let t = p.tracker.trinomial();
            let mut msg = format!("W-L-D {}-{}-{}", t.wins, t.losses, t.draws);
            with_report(cfg, &o.names, p, |r| {
                let e = r.elo();
                if e.elo.value.is_finite() {
                    msg.push_str(&format!(" Elo {:.1} +/- {:.1}", e.elo.value, e.elo.error));
                }
                if let Some(llr) = r.llr() {
                    msg.push_str(&format!(" LLR {llr:.2}"));
                }
            });
            msg.push_str(&self.eta(cfg, o));
            bar.set_message(msg);
        }
    }

    /// ` | 41.3 games/min, 1:10 left` for a fixed number of games; for an SPRT, the games to a
    /// decision estimated from the LLR's drift (see [`crate::stats::eta`]), within the games
    /// the run has left.
    fn eta(&self, cfg: &MatchConfig, o: &MatchOutcome) -> String {
        let pace = eta::Pace {
            games: o.games.saturating_sub(self.resumed),
            elapsed: self.started.elapsed(),
        };
        let Some(per_minute) = pace.per_minute() else {
            return String::new();
        };
        let mut text = format!(" | {per_minute:.1} games/min");
        let scheduled_left = o.scheduled.saturating_sub(o.games);
        let sprt_left = match (cfg.sprt.as_ref(), o.pairings.first()) {
            (Some(sprt), Some(p)) if o.pairings.len() == 1 => {
                let llr = with_report(cfg, &o.names, p, |r| r.llr());
                llr.and_then(|llr| {
                    eta::sprt_games_left(llr, o.games, sprt.bounds.lower, sprt.bounds.upper)
                })
            }
            _ => None,
        };
        let left = match (cfg.sprt.is_some(), sprt_left) {
            (true, Some(n)) => {
                let n = n.min(scheduled_left);
                text.push_str(&format!(", ~{n} games to a decision"));
                n
            }
            // An SPRT too young for an estimate: no time is better than a wrong one.
            (true, None) => return text,
            (false, _) => scheduled_left,
        };
        if let Some(t) = pace.time_for(left) {
            text.push_str(&format!(", {} left", eta::clock(t)));
        }
        text
    }

    /// Prints text (to stdout) without garbling the bar; nothing when progress is off.
    pub fn print(&self, text: &str) {
        if let Some(bar) = &self.bar {
            bar.suspend(|| outln!("{}", text.trim_end()));
        } else if self.plain.is_some() {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            // Flushed at once: the reader (OpenBench's client) acts on each line as it comes.
            let _ = writeln!(out, "{}", text.trim_end());
            let _ = out.flush();
        }
    }

    /// Prints a warning to stderr (always, progress or not) without garbling the bar.
    pub fn warn(&self, text: &str) {
        let show = || errln!("warning: {}", text.trim_end());
        match &self.bar {
            Some(bar) => bar.suspend(show),
            None => show(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.clear();
        }
    }
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
    out!("Wall {wall:.1} s, {:.1} games/min", played * 60.0 / wall);
    if let Some(cpu) = own_cpu_seconds() {
        let per_game = if played > 0.0 {
            1000.0 * cpu / played
        } else {
            0.0
        };
        out!(
            ", runner CPU {cpu:.2} s ({per_game:.1} ms/game, {:.2} % of wall)",
            100.0 * cpu / wall
        );
    }
    outln!();
}

/// Where the failure cases of the run are, and how many failed games have none.
fn print_failures(o: &MatchOutcome) {
    let f = &o.failures;
    let Some(dir) = &f.dir else { return };
    if f.written > 0 {
        outln!(
            "Failure cases: {} written to {} (harness replay FILE replays one)",
            f.written,
            dir.display()
        );
    }
    if f.not_recorded > 0 {
        outln!(
            "{} more failures not recorded (--max-failure-files {})",
            f.not_recorded,
            f.max
        );
    }
}

/// Each engine's faults, the warnings about results that measure faults or repeated games
/// rather than chess, and the games in flight when the run stopped.
fn print_faults(cfg: &MatchConfig, o: &MatchOutcome) {
    for (i, f) in o.faults.iter().enumerate() {
        if f.total() > 0 {
            let games = o.engine_games.get(i).copied().unwrap_or(0);
            outln!(
                "{}: {}, {}, {}, {} ({:.1} % of its {})",
                o.names[i],
                plural(f.crashes, "crash"),
                plural(f.time_losses, "time loss"),
                plural(f.illegal_moves, "illegal move"),
                plural(f.disconnects, "disconnect"),
                100.0 * f.total() as f64 / games.max(1) as f64,
                plural(games, "game")
            );
        }
    }
    for (i, share) in o.fault_shares_over(&cfg.fault_rules) {
        outln!(
            "Warning: {} faulted in {:.1} % of its games (--max-fault-share {:.1} %): its results \
             measure its faults, not its chess",
            o.names[i],
            100.0 * share,
            100.0 * cfg.fault_rules.max_share
        );
    }
    if o.repeated_games > 0 {
        outln!(
            "Warning: {} repeated an earlier game move for move (deterministic limits and \
             repeated openings): they are not independent, so the error bars are too narrow",
            plural(o.repeated_games, "game")
        );
    }
    if o.late_games > 0 {
        outln!(
            "{} game(s) in flight when the run stopped were recorded; they did not change its outcome",
            o.late_games
        );
    }
}

/// The joint rating list of a match of more than two engines (mean 0), once games finished.
pub fn ratings(o: &MatchOutcome) -> Option<RatingList> {
    (o.names.len() > 2 && !o.games_rated.is_empty()).then(|| {
        crate::stats::ratings::rate(&o.names, &o.games_rated, Anchor::Mean, Model::default())
    })
}

/// The final report: every pairing in the fastchess layout, the joint rating list of a match
/// of more than two engines, faults, and speed.
pub fn print_final(cfg: &MatchConfig, o: &MatchOutcome) {
    if o.games > 0 {
        out!("{}", interim(cfg, o));
    }
    for c in super::compare::challengers(o) {
        outln!("{c}");
    }
    if let Some(list) = ratings(o) {
        out!("{}", crate::stats::ratings::table(&list));
    }
    print_faults(cfg, o);
    print_failures(o);
    match &o.stopped {
        Some(Stop::Interrupted) => outln!("Stopped: {}", Stop::Interrupted),
        Some(why) => outln!("Stopped, no verdict: {why}"),
        None => {}
    }
    outln!("Finished {} of {} games", o.games, o.scheduled);
    let kind = cfg.kind();
    match &cfg.results {
        Some(path) if path.exists() => {
            outln!("Results: {}", path.display());
            let how = match &o.stopped {
                Some(Stop::Interrupted) => "To continue",
                Some(_) => "To continue once the engines are mended",
                None => "",
            };
            if o.games < o.scheduled && !how.is_empty() {
                outln!("{how}: harness {kind} --resume {}", path.display());
            }
        }
        _ if o.stopped.is_some() && o.games == 0 => {
            outln!("Nothing was played or written: mend the setup and run the command again");
        }
        _ => {}
    }
}
