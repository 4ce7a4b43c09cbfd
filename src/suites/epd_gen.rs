//! Making test suites from games: positions from a PGN, analysed by a reference engine with
//! MultiPV 2; a position is kept when its best move beats the second by a margin (or is the only
//! forced mate), and written as EPD with `bm`, the oracle's score and an `id`.

use super::error::SuiteError;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::Duration;

use shakmaty::fen::{Epd, Fen};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::epd::san;
use super::epd_mate::{mating_moves, shortest_mate};
use crate::game::pgn::PgnReader;
use crate::game::Variant;
use crate::uci::limit::Limit;
use crate::uci::pool::{self, Job, JobError, JobFailure, PoolConfig, PoolError};
use crate::uci::{Engine, EngineSpec, Info, Score};

/// A candidate position from a game, with the move that led to it.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The position to solve.
    pub position: Chess,
    /// The move just played, to recognise plain recaptures.
    pub last_move: Option<Move>,
    /// The move the `--player` made here in the game (`None` without a player), to be scored
    /// against the oracle's best.
    pub played: Option<Move>,
    /// Where it came from (`game N ply M`).
    pub origin: String,
}

/// What to collect from a PGN.
#[derive(Clone, Debug)]
pub struct CollectOptions {
    /// Skip this many plies at the start of each game (the opening).
    pub skip_plies: usize,
    /// Only positions where this player (White/Black tag, substring) is to move.
    pub player: Option<String>,
}

/// Reads every game's mainline positions, deduplicated by EPD; honours `[FEN]` start positions.
/// A game that does not replay (bad FEN tag, illegal move) or is Chess960 (the oracle is asked
/// about standard chess) stops the collection with an error naming the file and the game.
pub fn collect_positions(path: &Path, opts: &CollectOptions) -> Result<Vec<Candidate>, SuiteError> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (index, game) in PgnReader::open(path)?.enumerate() {
        let number = index + 1;
        let game = game.map_err(SuiteError::io(path.display().to_string()))?;
        if let Some(why) = &game.error {
            return Err(SuiteError::GameNotReplayed {
                path: path.to_owned(),
                number,
                why: why.clone(),
            });
        }
        if game.variant != Variant::Standard {
            return Err(SuiteError::Chess960Game {
                path: path.to_owned(),
                number,
            });
        }
        // With a player: only the positions where that player is to move.
        let keep = match &opts.player {
            None => None,
            Some(p) if game.tag("White").unwrap_or("").contains(p.as_str()) => Some(Color::White),
            Some(p) if game.tag("Black").unwrap_or("").contains(p.as_str()) => Some(Color::Black),
            Some(_) => continue, // neither side is the player: nothing from this game
        };
        let mut last_move = None;
        for (ply, m) in game.moves.iter().enumerate() {
            let position = &m.before;
            if ply >= opts.skip_plies && keep.is_none_or(|c| c == position.turn()) {
                let key = Epd::from_position(position, EnPassantMode::Legal).to_string();
                if seen.insert(key) {
                    out.push(Candidate {
                        position: position.clone(),
                        last_move,
                        played: keep.map(|_| m.mv),
                        origin: format!("game {number} ply {ply}"),
                    });
                }
            }
            last_move = Some(m.mv);
        }
    }
    Ok(out)
}

/// Positions from `games` random playouts of up to `max_plies` plies from the start position
/// (uniformly random legal moves from a seeded generator, so a run is reproducible); positions
/// before ply `skip_plies` are left out. Random games blunder into mates, which makes them a good
/// source of mate candidates.
pub fn random_playout_positions(
    games: usize,
    max_plies: usize,
    skip_plies: usize,
    seed: u64,
) -> Vec<Candidate> {
    let mut rng = sable::rng::Rng::from_seed(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for game in 1..=games {
        let mut pos = Chess::default();
        let mut last = None;
        for ply in 0..max_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() {
                break;
            }
            if ply >= skip_plies {
                let key = Epd::from_position(&pos, EnPassantMode::Legal).to_string();
                if seen.insert(key) {
                    out.push(Candidate {
                        position: pos.clone(),
                        last_move: last,
                        played: None,
                        origin: format!("playout {game} ply {ply}"),
                    });
                }
            }
            let m = moves[rng.below(moves.len())];
            pos.play_unchecked(m);
            last = Some(m);
        }
    }
    out
}

/// The oracle's view of a position: its two best lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The best move and its score.
    pub best: (Move, Score),
    /// The second-best move and its score (`None` with a single legal move).
    pub second: Option<(Move, Score)>,
    /// The depth of the analysis.
    pub depth: u32,
    /// The candidate's played move and the oracle's score of it (its best line's score when it
    /// is the best move, else from `go searchmoves MOVE`); the score is `None` when the oracle
    /// ignored `searchmoves` and answered another move. `None` without a played move.
    pub played: Option<(Move, Option<Score>)>,
}

/// A score on one scale for comparing lines: mates beyond any centipawn value.
pub fn comparable(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

/// Selection rules.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    /// The best line must beat the second by at least this many centipawns.
    pub margin: i64,
    /// Skip positions whose second line is already this good (nothing to find).
    pub max_second: i64,
    /// Keep positions whose best move recaptures on the square just captured on.
    pub keep_recaptures: bool,
    /// Keep only forced mates, of at most this many moves.
    pub mates_only: Option<u32>,
}

/// Why a candidate was not written: one reason each, counted and printed by `suite-gen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dropped {
    /// One legal move: nothing to find.
    SingleMove,
    /// With `mates_only`: no unique forced mate short enough.
    NoUniqueMate,
    /// The best move plainly recaptures on the square just captured on.
    Recapture,
    /// The best move does not beat the second by the margin.
    NarrowMargin,
    /// The second line already wins: nothing to find.
    SecondWins,
    /// The player made the oracle's best move: no mistake.
    PlayedBest,
    /// The player's move scores within the margin of the best.
    PlayedWithinMargin,
    /// The oracle ignored `searchmoves`, so the player's move has no score.
    PlayedUnscored,
}

impl Dropped {
    /// The reason in words, as printed.
    pub fn describe(self, margin: i64, max_second: i64) -> String {
        match self {
            Dropped::SingleMove => "a single legal move".into(),
            Dropped::NoUniqueMate => "no unique forced mate within --mates-only".into(),
            Dropped::Recapture => "a plain recapture (--keep-recaptures keeps them)".into(),
            Dropped::NarrowMargin => {
                format!("best move not {margin} cp (--margin) better than the second")
            }
            Dropped::SecondWins => format!("second line already {max_second} cp (--max-second)"),
            Dropped::PlayedBest => "the player made the oracle's best move".into(),
            Dropped::PlayedWithinMargin => {
                format!("the player's move within {margin} cp (--margin) of the best")
            }
            Dropped::PlayedUnscored => {
                "the oracle ignored `go searchmoves` (the player's move is unscored; Stockfish \
                 supports it)"
                    .into()
            }
        }
    }
}

/// Whether a candidate with this analysis makes a good test position.
pub fn keep(c: &Candidate, a: &Analysis, sel: &Selection) -> bool {
    judge(c, a, sel).is_ok()
}

/// Judges a candidate: `Ok` to write it, else the first reason to drop it. The best move must
/// beat the second by the margin, and, where the candidate has a player's move, that move too:
/// a suite of the player's mistakes holds only positions where its move was the worse by the
/// margin in the oracle's eyes.
pub fn judge(c: &Candidate, a: &Analysis, sel: &Selection) -> Result<(), Dropped> {
    let Some((_, second)) = a.second else {
        return Err(Dropped::SingleMove); // A single legal move tests nothing.
    };
    let (best_move, best) = a.best;
    if let Some(max) = sel.mates_only {
        let unique_mate = matches!(best, Score::Mate(n) if n > 0 && n as u32 <= max)
            && !matches!(second, Score::Mate(n) if n > 0);
        return if unique_mate {
            Ok(())
        } else {
            Err(Dropped::NoUniqueMate)
        };
    }
    let recapture = c.last_move.is_some_and(|last| {
        last.is_capture() && best_move.is_capture() && best_move.to() == last.to()
    });
    if recapture && !sel.keep_recaptures {
        return Err(Dropped::Recapture);
    }
    // The only forced mate is a test even when the side is winning anyway.
    let only_mate =
        matches!(best, Score::Mate(n) if n > 0) && !matches!(second, Score::Mate(n) if n > 0);
    let (b, s) = (comparable(best), comparable(second));
    if !only_mate && b - s < sel.margin {
        return Err(Dropped::NarrowMargin);
    }
    if !only_mate && s > sel.max_second {
        return Err(Dropped::SecondWins);
    }
    match a.played {
        None => Ok(()),
        Some((m, _)) if m == best_move => Err(Dropped::PlayedBest),
        Some((_, None)) => Err(Dropped::PlayedUnscored),
        Some((_, Some(p))) if b - comparable(p) < sel.margin => Err(Dropped::PlayedWithinMargin),
        Some(_) => Ok(()),
    }
}

/// Analyses a candidate with MultiPV 2 on an engine that has `MultiPV` set to 2; a played move
/// other than the best is then scored by a second search restricted to it (`go searchmoves`).
/// An answer without a move, without a scored line or with an illegal move is a
/// [`JobError::Answer`]: the position is not analysed.
pub fn analyse(
    engine: &mut Engine,
    c: &Candidate,
    limit: Limit,
    timeout: Duration,
) -> Result<Analysis, JobError> {
    let pos = &c.position;
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    engine.new_game()?;
    engine.is_ready(crate::plumbing::timeouts::STARTUP)?;
    engine.set_position::<&str>(Some(&fen), &[])?;
    let params = limit.go_params();
    let mut lines: [Option<(String, Score, u32)>; 2] = [None, None];
    let result = engine.go(&params, timeout, |info: &Info| {
        let (Some(score), Some(first)) = (info.score, info.pv.first()) else {
            return;
        };
        if info.bound.is_some() {
            return;
        }
        let slot = info.multipv.unwrap_or(1) as usize;
        if (1..=2).contains(&slot) {
            lines[slot - 1] = Some((first.clone(), score, info.depth.unwrap_or(0)));
        }
    })?;
    let to_move = |uci: &str| -> Result<Move, JobError> {
        UciMove::from_ascii(uci.as_bytes())
            .map_err(|_| JobError::Answer(format!("oracle sent '{uci}'")))?
            .to_move(pos)
            .map_err(|_| JobError::Answer(format!("oracle sent illegal '{uci}'")))
    };
    let best_uci = result
        .best
        .mv
        .ok_or_else(|| JobError::Answer("oracle found no move".into()))?;
    let (first, best_score, depth) = lines[0]
        .clone()
        .ok_or_else(|| JobError::Answer("oracle sent no scored PV".into()))?;
    let best = to_move(if first == best_uci { &first } else { &best_uci })?;
    let second = match &lines[1] {
        Some((uci, score, _)) => Some((to_move(uci)?, *score)),
        None => None,
    };
    let played = match c.played {
        None => None,
        Some(m) if m == best => Some((m, Some(best_score))),
        Some(m) => Some((m, score_move(engine, pos, m, limit, timeout)?)),
    };
    Ok(Analysis {
        best: (best, best_score),
        second: second.filter(|(m, _)| *m != best),
        depth,
        played,
    })
}

/// The oracle's score of one move (`go searchmoves MOVE` with the same limit), from its last
/// exact main line; `None` when its `bestmove` is another move (it ignores `searchmoves`).
fn score_move(
    engine: &mut Engine,
    pos: &Chess,
    mv: Move,
    limit: Limit,
    timeout: Duration,
) -> Result<Option<Score>, JobError> {
    let uci = UciMove::from_move(mv, pos.castles().mode());
    let params = crate::uci::GoParams {
        searchmove: Some(uci),
        ..limit.go_params()
    };
    let mut score = None;
    let result = engine.go(&params, timeout, |info: &Info| {
        if info.bound.is_none() && info.multipv.unwrap_or(1) == 1 && !info.pv.is_empty() {
            score = info.score.or(score);
        }
    })?;
    let answered = result.best.mv.unwrap_or_default();
    Ok(score.filter(|_| answered == uci.to_string()))
}

/// One selected position as an EPD line: `bm`, `ce` or `dm`, `acd`, `id`, and the second line.
pub fn epd_line(c: &Candidate, a: &Analysis, id: &str, verified_mate: Option<u32>) -> String {
    let epd = Epd::from_position(&c.position, EnPassantMode::Legal);
    let (best, score) = a.best;
    let mut line = format!("{epd} bm {};", san(&c.position, &best));
    match (score, verified_mate) {
        (_, Some(n)) => line.push_str(&format!(" dm {n};")),
        (Score::Mate(n @ 1..), None) => line.push_str(&format!(" dm {n};")),
        (Score::Cp(cp), _) => line.push_str(&format!(" ce {cp};")),
        _ => {}
    }
    line.push_str(&format!(" acd {}; id \"{id}\";", a.depth));
    if let Some((m, Some(s))) = a.played {
        line.push_str(&format!(" c2 \"played {} {s}\";", san(&c.position, &m)));
    }
    if let Some((m, s)) = a.second {
        line.push_str(&format!(
            " c1 \"second {} {s}; {}\";",
            san(&c.position, &m),
            c.origin
        ));
    }
    line
}

/// For mates in 1 and 2, the oracle's claim is checked by our own exhaustive search; returns the
/// verified shortest mate, or `None` when the claim does not hold (the position is dropped).
pub fn verify_mate(c: &Candidate, a: &Analysis) -> Option<u32> {
    match a.best.1 {
        Score::Mate(n @ 1..=2) => {
            let found = shortest_mate(&c.position, 2)?;
            let mates = mating_moves(&c.position, found);
            (found == n as u32 && mates.contains(&a.best.0)).then_some(found)
        }
        Score::Mate(n) if n > 0 => Some(n as u32),
        _ => None,
    }
}

impl Job for Candidate {
    fn describe(&self) -> String {
        let fen = Fen::from_position(&self.position, EnPassantMode::Legal);
        format!("{} ({fen})", self.origin)
    }
}

/// Analyses every candidate on `concurrency` processes of the oracle (the one engine pool,
/// `uci::pool`, with MultiPV 2); calls `on_done` after each. A candidate the oracle failed on
/// has its [`JobFailure`] (the oracle is restarted after a crash or hang); an oracle that cannot
/// start, or fails on candidate after candidate, is an error.
pub fn analyse_all(
    candidates: &[Candidate],
    oracle: &EngineSpec,
    limit: Limit,
    concurrency: usize,
    on_done: &dyn Fn(),
) -> Result<Vec<Result<Analysis, JobFailure>>, PoolError> {
    let mut spec = oracle.clone();
    spec.set_option("MultiPV", "2");
    let timeout = match limit {
        Limit::Movetime(ms) => Duration::from_millis(ms * 2 + 10_000),
        _ => Duration::from_secs(120),
    };
    let run = pool::run(
        &PoolConfig::new(spec, concurrency),
        candidates,
        |engine, c| analyse(engine, c, limit, timeout),
        |_, _| {
            on_done();
            ControlFlow::Continue(())
        },
    )?;
    Ok(run.outcomes)
}

/// How many positions to write, and their names.
#[derive(Clone, Debug)]
pub struct Output {
    /// At most this many positions for each mate length (with `mates_only`).
    pub max_per_mate: Option<usize>,
    /// At most this many positions in all.
    pub max_positions: Option<usize>,
    /// Each line's `id` is `PREFIX.N`, N counting the written lines from 1.
    pub id_prefix: String,
}

/// The suite chosen from the analysed candidates, and what was left out.
#[derive(Debug, Default)]
pub struct Chosen<'a> {
    /// The suite's EPD lines, in the candidates' order.
    pub lines: Vec<String>,
    /// The candidates the oracle failed on.
    pub failed: Vec<&'a JobFailure>,
    /// Mates the oracle claimed that the mate search could not confirm.
    pub unverified: usize,
    /// Candidates dropped by the selection rules, by reason.
    pub dropped: std::collections::BTreeMap<Dropped, usize>,
}

/// Chooses the suite: each analysed candidate judged by `sel` ([`judge`]), mates verified
/// ([`verify_mate`]) and counted per length, until `out.max_positions`.
pub fn choose<'a>(
    candidates: &[Candidate],
    analyses: &'a [Result<Analysis, JobFailure>],
    sel: &Selection,
    out: &Output,
) -> Chosen<'a> {
    let mut chosen = Chosen::default();
    let mut per_mate = std::collections::HashMap::<u32, usize>::new();
    for (c, a) in candidates.iter().zip(analyses) {
        let a = match a {
            Ok(a) => a,
            Err(failure) => {
                chosen.failed.push(failure);
                continue;
            }
        };
        if let Err(why) = judge(c, a, sel) {
            *chosen.dropped.entry(why).or_default() += 1;
            continue;
        }
        let verified = match sel.mates_only {
            None => None,
            Some(_) => match verify_mate(c, a) {
                Some(n) => Some(n),
                None => {
                    chosen.unverified += 1;
                    continue;
                }
            },
        };
        if let Some(n) = verified {
            let count = per_mate.entry(n).or_default();
            if out.max_per_mate.is_some_and(|max| *count >= max) {
                continue;
            }
            *count += 1;
        }
        let id = format!("{}.{}", out.id_prefix, chosen.lines.len() + 1);
        chosen.lines.push(epd_line(c, a, &id, verified));
        if out.max_positions.is_some_and(|m| chosen.lines.len() >= m) {
            break;
        }
    }
    chosen
}

#[cfg(test)]
#[path = "epd_gen_tests.rs"]
mod tests;
