//! `harness label DATA --engine stockfish --nodes 2000 --out OUT.csv`: give every labelled
//! position a reference engine's score (the CSV's third column), keeping its game result, so that
//! `harness tune --lambda` can learn from a stronger engine's judgement of each position as well
//! as from how the game ended.
//!
//! With `--tb DIR`, a position in the Syzygy tables gets its exact result from them instead (the
//! result column, and a score of +-3000 or 0 from White's view, as for a forced mate or a draw),
//! without a search.
//!
//! The output keeps the input's order, and is written a chunk at a time: an interrupted run
//! re-started with the same command skips the positions already in OUT and goes on.

use crate::tablebase::{parse_position, SyzygyRule, TbResults, TbTableArgs};
use crate::tune::dataset::{self, Record};
use crate::uci::{engine_spec, Engine, EngineSpec, GoParams, Info, Score};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Positions labelled between two writes of the output file.
const CHUNK: usize = 4096;

/// The centipawn score written for a forced mate (sign from White's view).
const MATE_CP: i32 = 3000;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Labelled positions: EPD `FEN c9 "1-0";`, `FEN [1.0]` or CSV `fen,result,score`.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The reference engine: a program with arguments (e.g. "/usr/games/stockfish").
    #[arg(long)]
    pub engine: String,
    /// A UCI option for the engine as Name=Value; repeat for several.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Nodes per position.
    #[arg(long, default_value_t = 2000, conflicts_with = "depth")]
    pub nodes: u64,
    /// Depth per position instead of a node count.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Engine processes in parallel (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub concurrency: usize,
    /// Skip (and count) malformed dataset lines instead of stopping at the first.
    #[arg(long)]
    pub skip_bad: bool,
    /// Output CSV `fen,result,score` (score from White's view); an existing file is continued.
    #[arg(short, long)]
    pub out: PathBuf,
    /// Syzygy tables: positions in them get their exact result and score, unsearched.
    #[command(flatten)]
    pub tb: TbTableArgs,
}

/// Runs the subcommand; returns the process exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let spec = engine_spec(&args.engine, &args.options)?;
    let syzygy = match args.tb.rule(TbResults::Both)? {
        Some((rule, warnings)) => {
            eprintln!("Syzygy: {}", rule.tables.describe());
            warnings.iter().for_each(|w| eprintln!("warning: {w}"));
            Some(rule)
        }
        None => None,
    };
    let mut records = Vec::new();
    for path in &args.data {
        let skipped = dataset::for_each_in_file(path, args.skip_bad, |r| records.push(r))?;
        if skipped > 0 {
            eprintln!("{}: {skipped} bad lines skipped", path.display());
        }
    }
    let done = already_labelled(&args.out)?;
    anyhow::ensure!(
        done <= records.len(),
        "{} already holds {done} positions, more than the {} given: not the same input?",
        args.out.display(),
        records.len()
    );
    if done > 0 {
        eprintln!(
            "{}: {done} positions already labelled, going on",
            args.out.display()
        );
    }
    let params = GoParams {
        nodes: args.depth.is_none().then_some(args.nodes),
        depth: args.depth,
        ..GoParams::default()
    };
    let workers = match args.concurrency {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    // Fail early, with the engine's own error, when it cannot even start.
    let first = Engine::start(&spec, Duration::from_secs(20)).map_err(anyhow::Error::new)?;
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("opening {}", args.out.display()))?;
    let bar = ProgressBar::new(records.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions {per_sec} eta {eta}")
            .expect("valid template"),
    );
    bar.set_position(done as u64);
    let pool = Pool::new(spec, first, workers);
    let (mut failed, mut from_tables) = (0, 0);
    for chunk in records[done..].chunks(CHUNK) {
        let exact: Vec<Option<Record>> = chunk
            .iter()
            .map(|r| syzygy.as_ref().and_then(|rule| table_label(rule, r)))
            .collect();
        let searched: Vec<Record> = chunk
            .iter()
            .zip(&exact)
            .filter(|(_, e)| e.is_none())
            .map(|(r, _)| r.clone())
            .collect();
        let mut scores = pool.label(&searched, &params, &bar).into_iter();
        failed += scores.clone().filter(|s| s.is_none()).count();
        from_tables += exact.iter().filter(|e| e.is_some()).count();
        bar.inc((chunk.len() - searched.len()) as u64);
        let labelled: Vec<Record> = chunk
            .iter()
            .zip(exact)
            .map(|(r, e)| {
                e.unwrap_or_else(|| Record {
                    score: scores.next().flatten(),
                    ..r.clone()
                })
            })
            .collect();
        out.write_all(csv_lines(&labelled).as_bytes())?;
        out.flush()?;
    }
    bar.finish_and_clear();
    eprintln!(
        "{}: {} positions labelled ({from_tables} from the tables; {failed} without a score: \
         the engine failed on them)",
        args.out.display(),
        records.len() - done
    );
    Ok(0)
}

/// The records as CSV lines.
fn csv_lines(records: &[Record]) -> String {
    let mut text = String::new();
    for r in records {
        text.push_str(&dataset::to_csv_line(r));
        text.push('\n');
    }
    text
}

/// The record with the tables' exact result and its score (+-MATE_CP or 0, White's view), if
/// the position is in them and they answer.
fn table_label(rule: &SyzygyRule, r: &Record) -> Option<Record> {
    let pos = parse_position(&r.fen).ok()?;
    let (result, score) = match rule.exact(&pos).ok()?.outcome {
        shakmaty::KnownOutcome::Decisive { winner } if winner.is_white() => (1.0, MATE_CP),
        shakmaty::KnownOutcome::Decisive { .. } => (0.0, -MATE_CP),
        shakmaty::KnownOutcome::Draw => (0.5, 0),
    };
    Some(Record {
        fen: r.fen.clone(),
        result,
        score: Some(score),
    })
}

/// Positions already in the output file (0 when there is none). A half-written last line is
/// cut off, so that the run goes on from the last whole position.
fn already_labelled(path: &Path) -> anyhow::Result<usize> {
    if !path.exists() {
        return Ok(0);
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        OpenOptions::new()
            .write(true)
            .open(path)?
            .set_len(whole as u64)?;
    }
    Ok(text[..whole]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count())
}

/// One engine process per worker (the first one already started, the others on first use),
/// restarted after a failure.
struct Pool {
    spec: EngineSpec,
    engines: Vec<Mutex<Option<Engine>>>,
}

impl Pool {
    fn new(spec: EngineSpec, first: Engine, workers: usize) -> Pool {
        let mut engines = vec![Mutex::new(Some(first))];
        engines.extend((1..workers).map(|_| Mutex::new(None)));
        Pool { spec, engines }
    }

    /// The score of each record from White's view (`None` where the engine failed).
    fn label(&self, chunk: &[Record], params: &GoParams, bar: &ProgressBar) -> Vec<Option<i32>> {
        let next = AtomicUsize::new(0);
        let mut scores = vec![None; chunk.len()];
        std::thread::scope(|scope| {
            let workers: Vec<_> = self
                .engines
                .iter()
                .map(|slot| {
                    let next = &next;
                    scope.spawn(move || {
                        let mut engine = slot.lock().unwrap_or_else(|p| p.into_inner());
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(r) = chunk.get(i) else { break };
                            done.push((i, self.score(&mut engine, &r.fen, params)));
                            bar.inc(1);
                        }
                        done
                    })
                })
                .collect();
            for w in workers {
                for (i, s) in w.join().expect("a labelling worker panicked") {
                    scores[i] = s;
                }
            }
        });
        scores
    }

    /// One search; on any failure the engine is dropped (killed) and restarted next time.
    fn score(&self, engine: &mut Option<Engine>, fen: &str, params: &GoParams) -> Option<i32> {
        if engine.is_none() {
            *engine = Engine::start(&self.spec, Duration::from_secs(20)).ok();
        }
        let e = engine.as_mut()?;
        let mut last = None;
        let searched = e.set_position::<&str>(Some(fen), &[]).and_then(|_| {
            e.go(params, Duration::from_secs(60), |info: &Info| {
                if info.bound.is_none() && info.multipv.unwrap_or(1) == 1 {
                    if let Some(s) = info.score {
                        last = Some(s);
                    }
                }
            })
        });
        if searched.is_err() {
            *engine = None;
            return None;
        }
        let cp = match last? {
            Score::Cp(cp) => cp,
            Score::Mate(m) => MATE_CP * m.signum(),
        };
        Some(if black_to_move(fen) { -cp } else { cp })
    }
}

/// Whether the FEN's side-to-move field is `b`.
fn black_to_move(fen: &str) -> bool {
    fen.split_whitespace().nth(1) == Some("b")
}
