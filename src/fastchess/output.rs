//! fastchess's output contract on stdout, which OpenBench's client reads line by line:
//!
//! - `Finished game N (White vs Black): RESULT {reason}` for every game, numbered in schedule
//!   order (games 2k-1 and 2k share an opening, the first engine White in the odd one), with
//!   fastchess's reason words ([`GameRecord::fastchess_reason`]);
//! - the result block (`Results of A vs B (...)`, Elo, LOS, games, pentanomial, LLR) between
//!   rules of dashes every `-ratinginterval` pairs and at the end;
//! - after an SPRT's decision `SPRT ([e0, e1]) completed - H0 was accepted`; then
//!   `Finished match` and `Total Time: 00:01:02 (hours:minutes:seconds)`.
//!
//! ASCII only (the client decodes stdout as ASCII), and no blank line (the client stops reading
//! at one).

use crate::game::GameRecord;
use crate::stats::Decision;
use crate::tournament::config::Stop;
use crate::tournament::{report, MatchConfig, MatchOutcome};

/// The fastchess release whose command line and output this follows. OpenBench's client reads
/// the first `N.N[.N]` of `fastchess-ob --version` and compares it with the server's
/// `fastchess_min_version`; this is that number (see docs/openbench.md).
pub const FASTCHESS_CONTRACT: &str = "1.8.2";

/// `-version`: fastchess's layout (`fastchess alpha 1.8.2 ...`), the harness named after it.
pub fn version() -> String {
    format!(
        "fastchess alpha {FASTCHESS_CONTRACT} (the command line and output of fastchess \
         {FASTCHESS_CONTRACT}, played by sable-harness {})",
        env!("CARGO_PKG_VERSION")
    )
}

/// The line of a finished game.
pub fn game_line(number: u64, g: &GameRecord) -> String {
    ascii(&format!(
        "Finished game {number} ({} vs {}): {} {{{}}}",
        g.white,
        g.black,
        g.outcome.pgn(),
        g.fastchess_reason()
    ))
}

/// The end of a run: the result block of each pairing, then how it ended.
pub fn final_report(cfg: &MatchConfig, o: &MatchOutcome, wall: std::time::Duration) -> String {
    let mut out = String::new();
    if o.games > 0 {
        out.push_str(&report::interim(cfg, o));
    }
    for (i, f) in o.faults.iter().enumerate() {
        if f.total() > 0 {
            out.push_str(&format!(
                "Faults of {}: {} crashes, {} time losses, {} illegal moves, {} stalls\n",
                o.names[i], f.crashes, f.time_losses, f.illegal_moves, f.disconnects
            ));
        }
    }
    let end = match (&o.stopped, o.decision, &cfg.sprt) {
        (Some(Stop::Interrupted), _, _) => Some("Tournament was interrupted".to_owned()),
        (Some(why), _, _) => Some(format!("Tournament stopped: {why}")),
        (None, Some(d @ (Decision::AcceptH0 | Decision::AcceptH1)), Some(s)) => Some(format!(
            "SPRT ([{:.2}, {:.2}]) completed - {} was accepted",
            s.elo0,
            s.elo1,
            if d == Decision::AcceptH0 { "H0" } else { "H1" }
        )),
        // fastchess says nothing more when every game was played.
        _ => None,
    };
    if let Some(end) = end {
        out.push_str(&end);
        out.push('\n');
    }
    let secs = wall.as_secs();
    out.push_str(&format!(
        "Finished match\nTotal Time: {:02}:{:02}:{:02} (hours:minutes:seconds)\n",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    ));
    ascii(&out)
}

/// Text with every character outside printable ASCII (and newline) written as `?`, and no
/// empty line: each would stop OpenBench's client.
fn ascii(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| match c {
            ' '..='~' | '\n' => c,
            _ => '?',
        })
        .collect();
    let lines: Vec<&str> = clean.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out = lines.join("\n");
    if clean.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// `-help`.
pub fn usage() -> String {
    format!(
        "{}\n\
         Usage: fastchess -engine cmd=PATH [name=N] [tc=T|st=S|nodes=N|depth=N] [option.X=V]...\n\
         \x20                -engine ... [-each KEY=VALUE...] [-openings file=F format=epd|pgn order=random|sequential start=N plies=N]\n\
         \x20                [-rounds N] [-games 1|2] [-repeat] [-concurrency N] [-srand N] [-recover]\n\
         \x20                [-sprt elo0=E elo1=E alpha=A beta=B model=normalized|logistic]\n\
         \x20                [-pgnout file=F nodes=true seldepth=true match_line=PATTERN] [-log file=F]\n\
         \x20                [-draw ...] [-resign ...] [-maxmoves N] [-tb DIR] [-tbpieces N] [-tbadjudicate WIN_LOSS|DRAW|BOTH]\n\
         \x20                [-variant standard|fischerandom] [-ratinginterval N] [-output format=fastchess]\n\
         \x20                [-config file=F | outname=F] [-use-affinity] [-force-concurrency] [-testEnv] [-version]\n\
         The harness reads fastchess's command line when started as `fastchess`/`fastchess-ob`\n\
         or as `harness fastchess`; see docs/openbench.md for what differs.",
        version()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_ascii_without_empty_lines() {
        assert_eq!(ascii("a\u{e9}b\n\n  \nc\n"), "a?b\nc\n");
        assert_eq!(ascii("x"), "x");
    }

    #[test]
    fn the_version_reads_as_openbench_reads_it() {
        // The client takes the first N.N[.N] of the output.
        let v = version();
        let first = v
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .find(|w| w.contains('.') && w.starts_with(|c: char| c.is_ascii_digit()))
            .unwrap();
        assert_eq!(first, FASTCHESS_CONTRACT);
        assert!(v.starts_with("fastchess "));
    }
}
