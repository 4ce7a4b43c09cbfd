//! One step on one built commit: an SPRT of it against good through the match runner (its
//! results file in the bisection's folder, so an interrupted step resumes with the runner's own
//! machinery), or the `--test` command run in its worktree, read like `git bisect run` reads an
//! exit code.

use super::build::Built;
use super::history::Commit;
use super::plan::Verdict;
use super::state::{Evidence, Step};
use super::BisectError;
use crate::plumbing::interrupt;
use crate::plumbing::progress::spin;
use crate::stats::{Decision, Sprt};
use crate::tournament::cli::{build_config, EngineGroups, MatchArgs};
use crate::tournament::config::Stop;
use crate::tournament::report::summaries;
use crate::tournament::run_match;
use std::path::Path;
use std::process::Command;

/// How a step ended.
#[derive(Debug)]
pub enum StepEnd {
    /// A verdict (or a skip) to record.
    Done(Step),
    /// Ctrl-C: nothing recorded; a rerun continues the step.
    Interrupted,
    /// The SPRT reached `--rounds` without deciding: nothing recorded; a rerun with more rounds
    /// continues it.
    Undecided {
        /// Games played.
        games: u64,
        /// The final LLR.
        llr: f64,
    },
    /// The games give no verdict (an engine that cannot start or faults too often): the reason.
    NoVerdict(String),
}

/// The engine words of one side: its command, name and (for a worktree build) directory.
fn engine_words(built: &Built, name: &str) -> Vec<String> {
    let engine = built.engine.as_ref().expect("games need an engine");
    let mut words = vec![format!("cmd={}", engine.display()), format!("name={name}")];
    if let Some(tree) = &built.tree {
        words.push(format!("dir={}", tree.display()));
    }
    words
}

/// Plays the SPRT of `commit` (built as `tested`) against good (`good`), its results in
/// `results` (resumed if the file exists).
pub fn sprt_step(
    args: &MatchArgs,
    sprt: Sprt,
    good: &Built,
    commit: &Commit,
    tested: &Built,
    results: &Path,
) -> Result<StepEnd, BisectError> {
    let mut args = args.clone();
    args.engine = EngineGroups(vec![
        engine_words(tested, commit.short()),
        engine_words(good, "good"),
    ]);
    args.results = Some(results.to_owned());
    let mut cfg = build_config(args, "sprt", Some(100_000))?;
    cfg.resume = results.exists();
    cfg.sprt = Some(sprt);
    cfg.event = format!("harness bisect: {} against good", commit.short());
    let outcome = run_match(&cfg)?;
    match outcome.stopped {
        Some(Stop::Interrupted) => return Ok(StepEnd::Interrupted),
        Some(why) => return Ok(StepEnd::NoVerdict(why.to_string())),
        None => {}
    }
    let summary = summaries(&cfg, &outcome)
        .into_iter()
        .next()
        .expect("an SPRT has one pairing");
    let llr = summary.llr.unwrap_or(0.0);
    let verdict = match outcome.decision.unwrap_or(Decision::Continue) {
        Decision::AcceptH0 => Verdict::Bad,
        Decision::AcceptH1 => Verdict::Good,
        Decision::Continue => {
            return Ok(StepEnd::Undecided {
                games: outcome.games,
                llr,
            })
        }
    };
    let reason = match verdict {
        Verdict::Bad => format!("LLR {llr:.2} <= {:.2}: H0, weaker", sprt.bounds.lower),
        _ => format!("LLR {llr:.2} >= {:.2}: H1, as strong", sprt.bounds.upper),
    };
    Ok(StepEnd::Done(Step {
        commit: commit.hash.clone(),
        subject: commit.subject.clone(),
        verdict,
        reason,
        evidence: Some(Evidence {
            games: outcome.games,
            wld: summary.wld,
            elo: summary.elo,
            llr,
            bounds: [sprt.bounds.lower, sprt.bounds.upper],
            results: results.display().to_string(),
        }),
        exit_code: None,
    }))
}

/// The meaning of a test command's exit code, as `git bisect run` reads it: 0 good, 125 skip,
/// 1 to 127 bad; anything else (above 127, or killed by a signal) stops the bisection.
pub fn exit_verdict(code: Option<i32>) -> Option<Verdict> {
    match code? {
        0 => Some(Verdict::Good),
        125 => Some(Verdict::Skip),
        1..=127 => Some(Verdict::Bad),
        _ => None,
    }
}

/// Runs the test command `cmd` (`sh -c`) for `commit`, in its worktree, with `BISECT_ENGINE`
/// (the built engine, if any), `BISECT_COMMIT` and `BISECT_TREE` set; its output goes to
/// `log`. `Err` when the exit code stops the bisection.
pub fn test_step(
    cmd: &str,
    commit: &Commit,
    built: &Built,
    log: &Path,
    verbose: bool,
) -> Result<StepEnd, BisectError> {
    let tree = built.tree.as_ref().expect("a test runs in a worktree");
    let mut c = Command::new("sh");
    c.arg("-c").arg(cmd).current_dir(tree);
    c.env("BISECT_COMMIT", &commit.hash)
        .env("BISECT_TREE", tree);
    if let Some(engine) = &built.engine {
        c.env("BISECT_ENGINE", engine);
    }
    let what = format!("testing {}: {cmd}", commit.short());
    let out = spin(verbose, &what, || c.output()).map_err(|source| BisectError::TestCommand {
        cmd: cmd.to_string(),
        source,
    })?;
    if interrupt::requested() {
        return Ok(StepEnd::Interrupted);
    }
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(log, &text).map_err(|source| BisectError::Log {
        path: log.to_owned(),
        source,
    })?;
    let Some(verdict) = exit_verdict(out.status.code()) else {
        return Err(BisectError::TestStopped {
            status: out.status.to_string(),
            commit: commit.short().to_string(),
            log: log.to_owned(),
        });
    };
    let last = text
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| format!(", last line: {l}"))
        .unwrap_or_default();
    let code = out.status.code().unwrap_or(-1);
    Ok(StepEnd::Done(Step {
        commit: commit.hash.clone(),
        subject: commit.subject.clone(),
        verdict,
        reason: format!("exit code {code}{last} (output: {})", log.display()),
        evidence: None,
        exit_code: Some(code),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_read_as_git_bisect_run_reads_them() {
        assert_eq!(exit_verdict(Some(0)), Some(Verdict::Good));
        assert_eq!(exit_verdict(Some(1)), Some(Verdict::Bad));
        assert_eq!(exit_verdict(Some(127)), Some(Verdict::Bad));
        assert_eq!(exit_verdict(Some(125)), Some(Verdict::Skip));
        assert_eq!(exit_verdict(Some(128)), None);
        assert_eq!(exit_verdict(Some(-1)), None);
        assert_eq!(exit_verdict(None), None);
    }
}
