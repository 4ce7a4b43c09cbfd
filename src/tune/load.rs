//! Loading a tuning set: the text datasets streamed twice (count, then parse and trace a window
//! at a time, so the text is never all in memory), or the binary cache of an earlier run
//! ([`super::cache`]), memory-mapped.

use super::cache;
use super::coefs;
use super::dataset::{self, Record};
use super::dict::{self, Dict};
use super::error::Rejection;
use super::record::Coefs;
use super::store::Store;
use super::tune_error::TuneError;
use crate::plumbing::progress::{Reporter, Unit};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Positions traced at a time; each window is sorted by its records' group lengths (see
/// [`Store::grouped`]), which changes no result, only the speed.
pub const WINDOW: usize = 1 << 16;

/// What to load and how.
pub struct Options {
    /// The text datasets, in order.
    pub data: Vec<PathBuf>,
    /// Skip (and count) malformed lines.
    pub skip_bad: bool,
    /// Resolve every position to its quiescence leaf before tracing.
    pub qsearch: bool,
    /// The fraction of positions (the last ones in file order) held out for validation.
    pub valid: f64,
    /// The binary cache to use or (re)build; none: trace the text in memory.
    pub cache: Option<PathBuf>,
    /// Everything else that shapes a record's training target (`--lambda`, `--score-k`): part
    /// of the cache's identity.
    pub target_options: String,
}

/// Loads the training and validation positions; `target` gives each record's training target.
pub fn load(
    o: &Options,
    target: &(dyn Fn(&Record) -> f64 + Sync),
) -> Result<(Store, Store), TuneError> {
    let Some(path) = &o.cache else {
        return build(o, target, None);
    };
    let identity = identity(o)?;
    let params = sable::eval::Params::len();
    if path.exists() {
        // SAFETY: the cache is the tuner's own file; the harness replaces it only by writing
        // beside it and renaming (never in place), and `--cache` names a file for this
        // harness alone (docs/tune.md).
        match unsafe { cache::open(path, &identity, params) } {
            Ok((train, valid)) => {
                errln!(
                    "{}: cache of {} + {} positions, {:.1} bytes/position, memory-mapped",
                    path.display(),
                    train.len(),
                    valid.len(),
                    (train.bytes() + valid.bytes()) as f64
                        / (train.len() + valid.len()).max(1) as f64
                );
                return Ok((train, valid));
            }
            Err(why) => errln!("{}: refused ({why}); rebuilding it", path.display()),
        }
    } else {
        errln!("{}: no cache yet; building it", path.display());
    }
    build(o, target, Some((path, &identity)))?;
    // SAFETY: as above; the file was just written by this process.
    unsafe { cache::open(path, &identity, params) }.map_err(|source| TuneError::CacheWritten {
        path: path.clone(),
        source,
    })
}

/// The identity text of a cache made from these options (see [`cache`]).
fn identity(o: &Options) -> Result<String, TuneError> {
    let mut s = format!("format=sable-tune-records-v{}\n", cache::VERSION);
    s += &format!("layout {}\n", cache::layout_identity());
    for (i, p) in o.data.iter().enumerate() {
        s += &format!("source.{i} {}\n", cache::source_identity(p)?);
    }
    s += &format!(
        "options qsearch={} skip_bad={} valid={} window={WINDOW} {}\n",
        o.qsearch, o.skip_bad, o.valid, o.target_options
    );
    Ok(s)
}

/// Counts, then traces every position, into memory or (with `cache`) into a cache file.
fn build(
    o: &Options,
    target: &(dyn Fn(&Record) -> f64 + Sync),
    cache: Option<(&PathBuf, &String)>,
) -> Result<(Store, Store), TuneError> {
    let total = count(o)?;
    let n_train = total - (total as f64 * o.valid).round() as usize;
    let t = Instant::now();
    let sink = match cache {
        Some((path, identity)) => Sink::File(cache::Writer::create(path, identity)?),
        None => Sink::Memory(vec![Store::new()]),
    };
    let mut tracer = Tracer::new(o.qsearch, sink, total);
    let mut i = 0usize;
    for path in &o.data {
        dataset::for_each_in_file(path, o.skip_bad, |mut r| {
            if i == n_train {
                tracer.next_section();
            }
            r.result = target(&r);
            tracer.add(r);
            i += 1;
        })?;
    }
    if n_train == total {
        tracer.next_section();
    }
    tracer.flush();
    tracer.bar.clear();
    if let Some(e) = tracer.error {
        return Err(e);
    }
    tracer.report_rejected();
    let secs = t.elapsed().as_secs_f64();
    match tracer.sink {
        Sink::Memory(mut v) => {
            let valid = v.pop().expect("two sections");
            let train = v.pop().expect("two sections");
            report_traced(&train, &valid, secs);
            Ok((train, valid))
        }
        Sink::File(w) => {
            w.finish()?;
            errln!("traced {total} positions in {secs:.1}s into the cache");
            Ok((Store::new(), Store::new()))
        }
    }
}

/// Counts the positions of every dataset, saying how many each holds (and skips); refuses
/// datasets without a position.
fn count(o: &Options) -> Result<usize, TuneError> {
    let mut total = 0usize;
    for path in &o.data {
        let mut n = 0usize;
        let skipped = dataset::for_each_in_file(path, o.skip_bad, |_| n += 1)?;
        let note = if skipped == 0 {
            String::new()
        } else {
            format!(" ({} skipped)", crate::report::plural(skipped, "bad line"))
        };
        errln!(
            "{}: {}{note}",
            path.display(),
            crate::report::plural(n, "position")
        );
        total += n;
    }
    if total == 0 {
        return Err(TuneError::NoPositions);
    }
    Ok(total)
}

fn report_traced(train: &Store, valid: &Store, secs: f64) {
    let n = (train.len() + valid.len()).max(1) as f64;
    let (mut unit, mut general, mut all, mut far) = (0usize, 0usize, 0usize, 0usize);
    for r in train
        .records(0..train.len())
        .chain(valid.records(0..valid.len()))
    {
        unit += r.unit.len();
        general += r.general.len();
        all += r.bytes.len();
        far += r.far.len() / 2;
    }
    errln!(
        "traced {} positions in {secs:.1}s, {:.1} bytes/position (header {:.1}, chain {:.1}, {:.1} far slots, {:.1} other terms, length 1), {} pairs in the dictionary",
        train.len() + valid.len(),
        (train.bytes() + valid.bytes()) as f64 / n,
        (all - unit - 2 * far - general) as f64 / n,
        unit as f64 / n,
        far as f64 / n,
        general as f64 / 2.0 / n,
        train.dict().pairs(),
    );
}

/// Where traced windows go.
enum Sink {
    /// One store per section (training, validation).
    Memory(Vec<Store>),
    /// A cache file being written.
    File(cache::Writer),
}

/// Traces records as they stream in, a window at a time, each window sorted by group lengths;
/// counts the positions the engine rejects. The macros of every record are learnt from the
/// first window ([`Dict::learn`]).
struct Tracer {
    qsearch: bool,
    dict: Option<Arc<Dict>>,
    pending: Vec<Record>,
    sink: Sink,
    rejected: usize,
    examples: Vec<Rejection>,
    bar: Reporter,
    /// The first write error (later windows are dropped; the caller reports it).
    error: Option<TuneError>,
}

impl Tracer {
    /// A tracer of `total` positions into `sink`, with its bar.
    fn new(qsearch: bool, sink: Sink, total: usize) -> Tracer {
        Tracer {
            qsearch,
            dict: None,
            pending: Vec::with_capacity(WINDOW),
            sink,
            rejected: 0,
            examples: Vec::new(),
            bar: Reporter::new(true, "tracing", Unit::POSITIONS, total as u64),
            error: None,
        }
    }

    /// Says how many positions were left out, with a few of them.
    fn report_rejected(&self) {
        if self.rejected > 0 {
            errln!(
                "{} rejected, e.g.:",
                crate::report::plural(self.rejected, "position")
            );
            for e in self.examples.iter().take(5) {
                errln!("  {e}");
            }
        }
    }

    fn add(&mut self, r: Record) {
        self.pending.push(r);
        if self.pending.len() >= WINDOW {
            self.flush();
        }
    }

    /// Ends the training section: the validation records start in a new window.
    fn next_section(&mut self) {
        self.flush();
        match &mut self.sink {
            Sink::Memory(v) => v.push(match &self.dict {
                Some(d) => Store::with_dict(Arc::clone(d)),
                None => Store::new(),
            }),
            Sink::File(w) => w.next_section(),
        }
    }

    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let built = coefs::build(&self.pending, self.qsearch);
        self.bar.inc(self.pending.len() as u64);
        self.pending.clear();
        let dict = match &self.dict {
            Some(d) => Arc::clone(d),
            None => {
                let t = Instant::now();
                let d = Arc::new(learn(&built.store));
                self.bar.suspend(|| {
                    errln!(
                        "dictionary: {} slots, {} of them pairs, learnt from {} positions in {:.1}s",
                        d.rules().len(),
                        d.pairs(),
                        built.store.len().min(dict::SAMPLE),
                        t.elapsed().as_secs_f64()
                    )
                });
                if let Sink::Memory(v) = &mut self.sink {
                    for s in v.iter_mut().filter(|s| s.is_empty()) {
                        *s = Store::with_dict(Arc::clone(&d));
                    }
                }
                self.dict = Some(Arc::clone(&d));
                d
            }
        };
        // encoded again with the dictionary: a record that fit without it may not (a slot can
        // lengthen a gap), and is rejected like a position the engine cannot trace
        let mut coded = Store::with_dict(dict);
        let left_out = coded.encode_all(&built.store);
        self.rejected += left_out.len();
        let room = 5usize.saturating_sub(self.examples.len());
        self.examples
            .extend(left_out.into_iter().take(room).map(Rejection::Record));
        let window = coded.grouped(WINDOW);
        match &mut self.sink {
            Sink::Memory(v) => v.last_mut().expect("a section").extend(&window),
            Sink::File(w) => {
                if self.error.is_none() {
                    self.error = w.append(&window).err();
                }
            }
        }
        self.rejected += built.rejected;
        self.examples.extend(built.examples);
    }
}

/// The dictionary learnt from `plain`, the first window's positions (a store without one).
fn learn(plain: &Store) -> Dict {
    let n = plain.len();
    let sample: Vec<Coefs> = plain.records(0..n).map(|r| r.coefs(plain.dict())).collect();
    Dict::learn(&sample, sable::eval::Params::len())
}

/// Resident memory of this process from /proc (anonymous and file-backed, in MB), for the
/// report: a mapped cache's pages are file-backed, and the kernel drops them under pressure.
pub fn resident_note() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = |key: &str| -> Option<f64> {
        let line = status.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    Some(format!(
        "{:.0} MB anonymous + {:.0} MB file-backed (peak {:.0} MB)",
        kb("RssAnon:")? / 1e3,
        kb("RssFile:")? / 1e3,
        kb("VmHWM:")? / 1e3
    ))
}
