//! Legacy: results files of version 1 stored their run as the command line's words, and
//! `--resume` parsed them again. Such a file is converted here, once, through that old path
//! (the words parsed by `harness sprt`'s parser, whose options include every option of `harness
//! match`), into a run record; the resumed run rewrites its file as version 2, with the record.
//! Nothing else uses this module: new runs never store words.

use super::sprt_args::{Args, Stored};
use crate::tournament::cli::{build_config, engines_of, resume_config, MatchArgs};
use crate::tournament::record::SprtRecord;
use crate::tournament::resume::{ResultsFile, StoredRun};
use crate::tournament::{MatchConfig, RunRecord};
use anyhow::Context as _;
use clap::Parser as _;
use std::path::Path;

/// The configuration of `args`: a new run, or the run its `--resume` file records, converting
/// a version 1 file's words (`kind` says whether they were a `match` or an `sprt`).
pub fn build(
    args: MatchArgs,
    kind: &str,
    default_rounds: Option<u32>,
) -> anyhow::Result<MatchConfig> {
    if let Some(path) = &args.resume {
        if let StoredRun::Legacy(words) = ResultsFile::load(path)?.stored_run(path)? {
            let old = parse(path, &words)?;
            let record = record(old, kind, default_rounds, args.quiet, path)?;
            return Ok(resume_config(record, &args)?);
        }
    }
    Ok(build_config(args, kind, default_rounds)?)
}

/// A version 1 file's words, parsed as the command that wrote them parsed them.
pub fn parse(path: &Path, words: &[String]) -> anyhow::Result<Args> {
    Ok(Stored::try_parse_from(words)
        .with_context(|| {
            format!(
                "{}: a results file of version 1, whose stored command line does not parse; \
                 start the run again with a new --results file",
                path.display()
            )
        })?
        .args)
}

/// The record of the run the old words `old` describe (built as that run was built: the book
/// read, `rev:` engines built), with its SPRT for an `sprt`.
pub fn record(
    old: Args,
    kind: &str,
    default_rounds: Option<u32>,
    quiet: bool,
    path: &Path,
) -> anyhow::Result<RunRecord> {
    let mut m = old.match_args.clone();
    m.resume = None;
    m.results = Some(path.to_owned());
    m.quiet = quiet;
    let cfg = build_config(m, kind, default_rounds)?;
    let mut record = RunRecord::of(&cfg);
    if kind == "sprt" {
        record.sprt = Some(sprt_of(&old));
        record.plot = old.plot;
    }
    Ok(record)
}

/// The SPRT that old `sprt` words describe.
pub fn sprt_of(old: &Args) -> SprtRecord {
    SprtRecord {
        elo0: old.elo0,
        elo1: old.elo1,
        alpha: old.alpha,
        beta: old.beta,
        model: old.model,
    }
}

/// The engines old words describe, as written (`rev:` engines are not built).
pub fn engine_specs(m: &MatchArgs) -> anyhow::Result<Vec<crate::uci::EngineSpec>> {
    Ok(engines_of(m)?.into_iter().map(|e| e.spec).collect())
}
