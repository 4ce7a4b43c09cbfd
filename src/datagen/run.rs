//! The jobs that fill a file of labelled positions. Self-play ([`run`]): one searcher per
//! worker thread plays games ([`selfplay::play_game`]) until the output holds the positions
//! asked for; the calling thread writes every game's positions as it arrives, so a killed run
//! loses at most the games in flight, and a restarted one continues where the file stops. An
//! interruption (Ctrl-C, SIGTERM: the caller's `interrupted` test) stops it the same way: the
//! games in flight are abandoned, every finished one is in the file.
//! Extraction ([`extract_files`]): the quiet positions of PGN files' games, appended without
//! repeats. `harness datagen` and `harness extract` parse their command lines and call these.

use super::extract;
use super::labels::LabelWriter;
use super::selfplay::{self, GameOptions};
use super::DatagenError;
use crate::game::Variant;
use crate::openings as book;
use crate::plumbing::progress::{Describe, Progress};
use crate::tune::dataset::Record;
use sable::rng::Rng;
use sable::search::Searcher;
use shakmaty::Chess;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// One data generation run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The CSV (`fen,result,score`), appended to.
    pub out: PathBuf,
    /// Stop when the file holds this many positions (counting those already there).
    pub positions: usize,
    /// How each game is played and adjudicated.
    pub game: GameOptions,
    /// Start positions (a random one per game); empty: the start position.
    pub book: Vec<Chess>,
    /// Worker threads, each with its own searcher (0 = one per core).
    pub threads: usize,
    /// Transposition table per worker, in MB.
    pub hash: usize,
    /// Seed of the openings (a resumed run mixes in the positions already written).
    pub seed: u64,
}

/// What a run wrote.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Positions in the file at the end.
    pub total: usize,
    /// Positions this run added.
    pub new: usize,
    /// Games this run finished.
    pub games: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// Positions this run's games played but did not keep, by why.
    pub skipped: selfplay::Skipped,
    /// Kept positions not written because the file (or this run) had them already.
    pub duplicates: usize,
    /// Whether the run was interrupted before the file held the positions asked for.
    pub interrupted: bool,
}

/// What the progress reporter shows after each game: the games and the pace.
impl Describe for Summary {
    fn describe(&self) -> String {
        format!(
            "{} games, {:.0} pos/s",
            self.games,
            self.new as f64 / self.seconds
        )
    }
}

/// The book's positions (EPD or FEN lines, as a match's `--openings format=epd` reads them).
pub fn read_book(path: &Path) -> Result<Vec<Chess>, DatagenError> {
    let openings = book::read_epd(path, Variant::Standard)?;
    if openings.is_empty() {
        return Err(DatagenError::EmptyBook {
            path: path.to_owned(),
        });
    }
    openings
        .iter()
        .map(|o| o.position(Variant::Standard).map_err(Into::into))
        .collect()
}

/// Plays games until `cfg.out` holds `cfg.positions` positions or `interrupted()` turns true
/// (it is asked after each game and a few times a second); nothing is played when the file
/// holds them already.
/// `progress` hears the positions in the file and those asked for before the first game (not
/// at all when the file has enough), then the positions in the file and the run's figures
/// after each game.
pub fn run(
    cfg: &Config,
    progress: &mut dyn Progress<Summary>,
    interrupted: &dyn Fn() -> bool,
) -> Result<Summary, DatagenError> {
    let mut writer = LabelWriter::open(&cfg.out)?;
    let mut summary = Summary {
        total: writer.count,
        new: 0,
        games: 0,
        seconds: 0.0,
        skipped: selfplay::Skipped::default(),
        duplicates: 0,
        interrupted: false,
    };
    if writer.count >= cfg.positions {
        return Ok(summary);
    }
    progress.start(writer.count as u64, cfg.positions as u64);
    let threads = match cfg.threads {
        0 => rayon::current_num_threads(),
        n => n,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let t0 = Instant::now();
    let start_count = writer.count;
    let writing = || DatagenError::io(format!("writing {}", cfg.out.display()));
    pool.in_place_scope(|s| -> Result<(), DatagenError> {
        for w in 0..threads {
            let tx = tx.clone();
            let stop = &stop;
            // Each worker its own games; a resumed run does not replay the first run's.
            let seed =
                cfg.seed ^ ((start_count as u64) << 20) ^ (w as u64).wrapping_mul(0x9E37_79B9);
            s.spawn(move |_| worker(cfg, seed, stop, &tx));
        }
        drop(tx);
        loop {
            // A game at a few thousand nodes a move takes seconds: wake up meanwhile to see
            // whether the user asked to stop.
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok((recs, skipped)) => {
                    for r in &recs {
                        if !writer.write(r).map_err(writing())? {
                            summary.duplicates += 1;
                        }
                    }
                    for restored in writer.flush().map_err(writing())? {
                        progress.warn(&restored.to_string());
                    }
                    summary.skipped.add(skipped);
                    summary.total = writer.count;
                    summary.new = writer.count - start_count;
                    summary.games += 1;
                    summary.seconds = t0.elapsed().as_secs_f64();
                    progress.step(summary.total as u64, &summary);
                    if writer.count >= cfg.positions {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            // Asked after each game and each wait, until the workers are told to stop.
            if !stop.load(Ordering::Relaxed) && interrupted() {
                stop.store(true, Ordering::Relaxed);
                summary.interrupted = true;
            }
        }
        Ok(())
    })?;
    summary.seconds = t0.elapsed().as_secs_f64();
    Ok(summary)
}

/// A game's kept positions and the count of those it did not keep.
type Game = (Vec<Record>, selfplay::Skipped);

/// One worker: games with its own searcher and generator until `stop` (or the collector is gone).
fn worker(cfg: &Config, seed: u64, stop: &AtomicBool, tx: &mpsc::Sender<Game>) {
    let mut searcher = Searcher::new(cfg.hash);
    let mut rng = Rng::from_seed(seed);
    while !stop.load(Ordering::Relaxed) {
        let mut skipped = selfplay::Skipped::default();
        let recs = selfplay::play_game_counted(
            &mut searcher,
            &cfg.game,
            &cfg.book,
            &mut rng,
            stop,
            &mut skipped,
        );
        // A game cut short by `stop` has no result to label its positions with: not a game.
        if stop.load(Ordering::Relaxed) && recs.is_empty() {
            break;
        }
        if tx.send((recs, skipped)).is_err() {
            break;
        }
    }
}

/// What extraction found in one PGN file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileExtract {
    /// Games read, games skipped and quiet positions found.
    pub summary: extract::Summary,
    /// Positions not in the output before.
    pub new: usize,
    /// Why games were skipped (a few).
    pub problems: Vec<String>,
}

/// Appends the quiet positions of every game in `pgns` to `out` (positions already there are
/// not repeated); `each` hears of every file when it is done. Returns the positions in `out`
/// and how many were added.
pub fn extract_files(
    pgns: &[PathBuf],
    out: &Path,
    opt: &extract::Options,
    mut each: impl FnMut(&Path, &FileExtract),
) -> Result<(usize, usize), DatagenError> {
    let mut w = LabelWriter::open(out)?;
    let writing = || DatagenError::io(format!("writing {}", out.display()));
    let before = w.count;
    for path in pgns {
        let file = std::fs::File::open(path)
            .map_err(DatagenError::io(format!("opening {}", path.display())))?;
        let (recs, summary, problems) = extract::from_pgn(std::io::BufReader::new(file), opt)
            .map_err(DatagenError::io(format!("reading {}", path.display())))?;
        // A file without a usable game is a mistake (wrong file, truncated download), not a
        // run that found nothing: say so before any of its positions is written.
        if summary.games <= summary.bad_games {
            return Err(DatagenError::NoGames {
                path: path.to_owned(),
                why: match problems.first() {
                    None => "the file holds no game".to_owned(),
                    Some(p) => format!("{} games, all unusable; first: {p}", summary.games),
                },
            });
        }
        let mut new = 0;
        for r in &recs {
            new += usize::from(w.write(r).map_err(writing())?);
        }
        let found = FileExtract {
            summary,
            new,
            problems,
        };
        each(path, &found);
    }
    for restored in w.flush().map_err(writing())? {
        errln!("warning: {restored}");
    }
    Ok((w.count, w.count - before))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::dataset;

    fn config(out: &Path, positions: usize, threads: usize) -> Config {
        Config {
            out: out.to_owned(),
            positions,
            game: GameOptions::quick(),
            book: Vec::new(),
            threads,
            hash: 1,
            seed: 5,
        }
    }

    /// Counts what the run reports to its progress.
    #[derive(Default)]
    struct Seen {
        start: Option<(usize, usize)>,
        games: Vec<Summary>,
    }

    impl Progress<Summary> for Seen {
        fn start(&mut self, have: u64, want: u64) {
            self.start = Some((have as usize, want as usize));
        }
        fn step(&mut self, done: u64, so_far: &Summary) {
            assert_eq!(done, so_far.total as u64);
            self.games.push(*so_far);
        }
    }

    #[test]
    fn the_loop_fills_the_file_to_the_count_and_a_second_run_continues_it() {
        let dir = crate::test_dir("datagen-run");
        let out = dir.join("data.csv");
        std::fs::remove_file(&out).ok();
        let mut seen = Seen::default();
        let first = run(&config(&out, 40, 2), &mut seen, &|| false).unwrap();
        assert_eq!(seen.start, Some((0, 40)));
        // Games are written whole: the count is reached, by at most a game's positions more.
        let data = dataset::read_file(&out, false).unwrap();
        assert_eq!(data.records.len(), first.total);
        assert!(first.total >= 40 && first.new == first.total, "{first:?}");
        let last = seen.games.last().unwrap();
        assert_eq!(
            (last.total, last.new, last.games),
            (first.total, first.new, first.games)
        );
        assert_eq!(first.games, seen.games.len() as u64);
        assert!(seen.games.windows(2).all(|w| w[0].total <= w[1].total));
        // Every kept position is the engine's, with one of the three results.
        assert!(data
            .records
            .iter()
            .all(|r| r.score.is_some() && [0.0, 0.5, 1.0].contains(&r.result)));
        // Enough already: nothing played, nothing written.
        let again = run(&config(&out, 40, 2), &mut (), &|| false).unwrap();
        assert_eq!((again.total, again.new, again.games), (first.total, 0, 0));
        // More asked for: the file grows from where it stopped, with no position twice.
        let more = run(&config(&out, first.total + 30, 1), &mut (), &|| false).unwrap();
        assert_eq!(more.total, first.total + more.new);
        assert!(more.total >= first.total + 30 && more.games > 0, "{more:?}");
        let data = dataset::read_file(&out, false).unwrap();
        assert_eq!(data.records.len(), more.total);
        let keys: std::collections::HashSet<String> = data
            .records
            .iter()
            .map(|r| super::super::labels::key(&r.fen))
            .collect();
        assert_eq!(keys.len(), more.total);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn an_interrupted_run_keeps_its_finished_games_and_the_next_one_continues() {
        let dir = crate::test_dir("datagen-interrupt");
        let out = dir.join("data.csv");
        std::fs::remove_file(&out).ok();
        // "Ctrl-C" as soon as the first game is in the file: the run stops well short of the
        // count asked for, says it was interrupted, and the file holds whole games only.
        let written = || std::fs::metadata(&out).is_ok_and(|m| m.len() > 0);
        let cut = run(&config(&out, 100_000, 2), &mut (), &written).unwrap();
        assert!(cut.interrupted, "{cut:?}");
        assert!(
            cut.games >= 1 && cut.total > 0 && cut.total < 100_000,
            "{cut:?}"
        );
        let data = dataset::read_file(&out, false).unwrap();
        assert_eq!(data.records.len(), cut.total);
        // Asked from the start: the one worker's first game may finish before the collector
        // first asks; the next one is dropped in flight, and nothing more is played.
        let other = dir.join("none.csv");
        std::fs::remove_file(&other).ok();
        let early = run(&config(&other, 100_000, 1), &mut (), &|| true).unwrap();
        assert!(early.interrupted && early.games <= 1, "{early:?}");
        let data = dataset::read_file(&other, true).map_or(0, |d| d.records.len());
        assert_eq!(data, early.total);
        // The same command again carries on from the file.
        let more = run(&config(&out, cut.total + 20, 1), &mut (), &|| false).unwrap();
        assert!(
            !more.interrupted && more.total >= cut.total + 20,
            "{more:?}"
        );
        assert_eq!(more.total, cut.total + more.new);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn extraction_appends_each_files_new_positions_once() {
        let dir = crate::test_dir("datagen-extract");
        let (pgn, out) = (dir.join("games.pgn"), dir.join("data.csv"));
        std::fs::remove_file(&out).ok();
        std::fs::write(
            &pgn,
            "[Event \"t\"]\n[Result \"1-0\"]\n\n1. e4 {+0.30/10} e5 {-0.25/10} 2. Nf3 {+0.35/9} \
             Nc6 {-0.3/9} 3. Bb5 {+0.3/9} a6 {-0.2/9} 1-0\n\n[Event \"bad\"]\n[Result \"0-1\"]\n\n\
             1. e4 e4 0-1\n",
        )
        .unwrap();
        let opt = extract::Options {
            per_game: 0,
            skip_plies: 0,
            seed: 1,
        };
        let mut heard = Vec::new();
        let (total, added) = extract_files(std::slice::from_ref(&pgn), &out, &opt, |p, f| {
            heard.push((p.to_owned(), f.clone()))
        })
        .unwrap();
        assert_eq!(heard.len(), 1);
        let (path, found) = &heard[0];
        assert_eq!(path, &pgn);
        assert_eq!((found.summary.games, found.summary.bad_games), (2, 1));
        assert!(
            added > 0 && found.new == added && total == added,
            "{found:?}"
        );
        assert_eq!(
            dataset::read_file(&out, false).unwrap().records.len(),
            total
        );
        // Both files again: nothing new, the file as it was.
        let again = extract_files(&[pgn.clone(), pgn.clone()], &out, &opt, |_, f| {
            assert_eq!(f.new, 0)
        })
        .unwrap();
        assert_eq!(again, (total, 0));
        let missing = dir.join("none.pgn");
        let err = extract_files(&[missing], &out, &opt, |_, _| {}).unwrap_err();
        assert!(format!("{err:#}").contains("none.pgn"), "{err:#}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
