//! In-process fixed-node self-play between two search configurations, to measure what a
//! selectivity feature is worth before (and besides) the harness's UCI match runner.
//!
//! `sable selfplay --nodes N --games G --without NullMove` plays game pairs from varied
//! openings (random but reproducible first plies), each opening once with either colour,
//! between the default configuration ("with") and one with the named features off
//! ("without"). Games are adjudicated by our own rules code: mate, stalemate, threefold
//! repetition, fifty moves, insufficient material, or a ply cap (draw).

use crate::board::Board;
use crate::rng::Rng;
use crate::search::{Limits, NoReport, SearchOptions, Searcher};
use crate::types::Move;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Settings of one self-play run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Nodes per move for both sides.
    pub nodes: u64,
    /// Number of games (rounded up to whole pairs).
    pub games: usize,
    /// Features switched off in the "without" configuration.
    pub without: Vec<String>,
    /// Random plies of each opening.
    pub opening_plies: usize,
    /// Games longer than this are drawn.
    pub max_plies: usize,
    /// Worker threads.
    pub threads: usize,
    /// Seed of the opening generator.
    pub seed: u64,
    /// Hash per engine, MB.
    pub hash_mb: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            nodes: 5_000,
            games: 100,
            without: Vec::new(),
            opening_plies: 8,
            max_plies: 300,
            threads: 1,
            seed: 1,
            hash_mb: 4,
        }
    }
}

/// Game result from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Draw by any rule or by the ply cap.
    Draw,
}

/// Wins, losses and draws of the "with" configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won by "with".
    pub wins: u32,
    /// Games lost by "with".
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score fraction of "with" (0..1).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// Elo difference "with" minus "without" and its 95% error margin (per-game variance).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let se = (var / n).sqrt();
        let elo = |p: f64| {
            let p = p.clamp(1e-6, 1.0 - 1e-6);
            -400.0 * (1.0 / p - 1.0).log10()
        };
        let margin = (elo(s + 1.96 * se) - elo(s - 1.96 * se)) / 2.0;
        (elo(s), margin)
    }
}

/// The opening of pair `index`: `plies` random legal moves from the start position that leave
/// a position with legal moves.
pub fn opening(seed: u64, index: usize, plies: usize) -> Vec<Move> {
    let mut rng = Rng::new((seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
    loop {
        let mut board = Board::startpos();
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            board.make(mv);
            line.push(mv);
        }
        if line.len() == plies && !board.legal_moves().is_empty() {
            return line;
        }
    }
}

/// The game's result if it is over (adjudicated by our own rules code), else `None`.
pub fn adjudicate(board: &Board, history: &[u64], max_plies: usize) -> Option<Outcome> {
    if board.legal_moves().is_empty() {
        if !board.in_check() {
            return Some(Outcome::Draw);
        }
        return Some(match board.side_to_move() {
            crate::types::Color::White => Outcome::BlackWins,
            crate::types::Color::Black => Outcome::WhiteWins,
        });
    }
    let key = board.key();
    let seen = history.iter().filter(|&&k| k == key).count();
    if seen >= 3
        || board.is_fifty_move_draw()
        || board.has_insufficient_material()
        || history.len() > max_plies
    {
        return Some(Outcome::Draw);
    }
    None
}

/// Play one game; `with_is_white` says which configuration has White. Returns the outcome.
pub fn play_game(cfg: &Config, opening: &[Move], with_is_white: bool) -> Outcome {
    let mut without = SearchOptions::default();
    for f in &cfg.without {
        without.set_feature(f, false);
    }
    let mut engines = [Searcher::new(cfg.hash_mb), Searcher::new(cfg.hash_mb)];
    let (white, black) = if with_is_white {
        (SearchOptions::default(), without)
    } else {
        (without, SearchOptions::default())
    };
    engines[0].set_options(white);
    engines[1].set_options(black);
    let mut board = Board::startpos();
    let mut history = vec![board.key()];
    for &mv in opening {
        board.make(mv);
        history.push(board.key());
    }
    let limits = Limits::nodes(cfg.nodes);
    loop {
        if let Some(o) = adjudicate(&board, &history, cfg.max_plies) {
            return o;
        }
        let side = board.side_to_move().index();
        let r = engines[side].search(&mut board, &limits, &mut NoReport);
        if r.best_move.is_null() {
            return Outcome::Draw;
        }
        board.make(r.best_move);
        history.push(board.key());
    }
}

/// Play the whole run, printing progress to stderr; returns the tally of "with".
pub fn run(cfg: &Config) -> Tally {
    let pairs = cfg.games.div_ceil(2);
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= pairs {
                    break;
                }
                let line = opening(cfg.seed, i, cfg.opening_plies);
                for with_is_white in [true, false] {
                    let o = play_game(cfg, &line, with_is_white);
                    let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
                    match (o, with_is_white) {
                        (Outcome::Draw, _) => t.draws += 1,
                        (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => t.wins += 1,
                        _ => t.losses += 1,
                    }
                    if t.games() % 10 == 0 {
                        let (elo, err) = t.elo();
                        eprintln!(
                            "games {:>5}  +{} -{} ={}  elo {elo:+.1} +/- {err:.1}",
                            t.games(),
                            t.wins,
                            t.losses,
                            t.draws
                        );
                    }
                }
            });
        }
    });
    tally.into_inner().unwrap_or_else(|p| p.into_inner())
}

const USAGE: &str = "usage: sable selfplay [--nodes N (5000)] [--games G (100)] \
[--without F[,F..]] [--threads T (1)] [--seed S (1)] [--opening-plies P (8)] \
[--max-plies P (300)] [--hash MB (4)]";

/// The usage text, with the feature names as `--without` takes them.
fn usage() -> String {
    format!(
        "{USAGE}\n  features: {}",
        crate::search::SearchOptions::FEATURES.join(", ")
    )
}

/// Parse `sable selfplay` arguments.
pub fn parse_args(args: &[String]) -> Result<Config, String> {
    let mut cfg = Config::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i].as_str();
        let val = args
            .get(i + 1)
            .ok_or_else(|| format!("'{key}' needs a value\n{}", usage()))?;
        let num = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("'{key}': '{v}' is not a number\n{}", usage()))
        };
        match key {
            "--nodes" => cfg.nodes = num(val)?.max(1),
            "--games" => cfg.games = num(val)? as usize,
            "--threads" => cfg.threads = num(val)?.max(1) as usize,
            "--seed" => cfg.seed = num(val)?,
            "--opening-plies" => cfg.opening_plies = num(val)? as usize,
            "--max-plies" => cfg.max_plies = num(val)? as usize,
            "--hash" => cfg.hash_mb = num(val)?.max(1) as usize,
            "--without" => {
                for f in val.split(',').filter(|f| !f.is_empty()) {
                    if !SearchOptions::default().set_feature(f, false) {
                        return Err(format!("unknown feature '{f}'\n{}", usage()));
                    }
                    cfg.without.push(f.to_string());
                }
            }
            _ => return Err(format!("unknown argument '{key}'\n{}", usage())),
        }
        i += 2;
    }
    Ok(cfg)
}

/// `sable selfplay ...`: run and print the result. Returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let cfg = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let start = std::time::Instant::now();
    let t = run(&cfg);
    let (elo, err) = t.elo();
    let without = if cfg.without.is_empty() {
        "nothing".to_string()
    } else {
        cfg.without.join(",")
    };
    println!(
        "with vs without {without}: nodes {} games {} W {} L {} D {} score {:.3} elo {elo:+.1} +/- {err:.1} ({} s)",
        cfg.nodes,
        t.games(),
        t.wins,
        t.losses,
        t.draws,
        t.score(),
        start.elapsed().as_secs()
    );
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        let even = Tally {
            wins: 10,
            losses: 10,
            draws: 10,
        };
        assert!(even.elo().0.abs() < 1e-9);
        let t = Tally {
            wins: 76,
            losses: 24,
            draws: 0,
        };
        assert!((t.elo().0 - 200.0).abs() < 3.0, "{:?}", t.elo());
        assert!(t.elo().1 > 0.0);
    }

    #[test]
    fn openings_are_reproducible_and_varied() {
        assert_eq!(opening(7, 3, 8), opening(7, 3, 8));
        assert_ne!(opening(7, 3, 8), opening(7, 4, 8));
    }

    #[test]
    fn adjudication_rules() {
        let mate = Board::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(adjudicate(&mate, &[], 300), Some(Outcome::WhiteWins));
        let stale = Board::from_fen("7k/8/6QK/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(adjudicate(&stale, &[], 300), Some(Outcome::Draw));
        let kk = Board::from_fen("7k/8/8/8/8/8/8/K7 w - - 0 1").unwrap();
        assert_eq!(adjudicate(&kk, &[], 300), Some(Outcome::Draw));
        let start = Board::startpos();
        let k = start.key();
        assert_eq!(
            adjudicate(&start, &[k, 1, k, 2, k], 300),
            Some(Outcome::Draw)
        );
        assert_eq!(adjudicate(&start, &[k], 300), None);
    }

    #[test]
    fn args_parse_and_reject() {
        let a: Vec<String> = [
            "--nodes",
            "300",
            "--games",
            "4",
            "--without",
            "NullMove,LMR",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let c = parse_args(&a).unwrap();
        assert_eq!((c.nodes, c.games, c.without.len()), (300, 4, 2));
        assert!(parse_args(&["--without".into(), "Magic".into()]).is_err());
        assert!(parse_args(&["--nodes".into()]).is_err());
    }

    #[test]
    fn tiny_match_completes() {
        let cfg = Config {
            nodes: 200,
            games: 2,
            max_plies: 60,
            ..Config::default()
        };
        assert_eq!(run(&cfg).games(), 2);
    }
}
