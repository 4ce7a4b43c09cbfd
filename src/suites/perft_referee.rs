//! shakmaty as the independent referee for perft: locating a move generation bug by descending
//! with divide, cross-checking random positions, and computing the counts of the built-in suite.

use super::error::SuiteError;
use rayon::prelude::*;
use sable::board::Board;
use sable::movegen;
use sable::rng::Rng;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::BTreeMap;
use std::fmt;

/// The shakmaty position for a FEN, in Chess960 castling mode when the castling field needs it
/// (a king off the e-file or a castling rook off the a- and h-files, in X-FEN or Shredder-FEN).
pub fn referee_position(fen: &str) -> Result<Chess, SuiteError> {
    let parsed: Fen = fen.parse().map_err(|source| SuiteError::RefereeFen {
        fen: fen.to_string(),
        source,
    })?;
    let mode = CastlingMode::detect(parsed.as_setup());
    parsed
        .into_position(mode)
        .map_err(|source| SuiteError::RefereePosition {
            fen: fen.to_string(),
            source: Box::new(source),
        })
}

/// Whether moves of `pos` are written in Chess960 notation (castling as king takes rook).
fn is_chess960(pos: &Chess) -> bool {
    pos.castles().mode().is_chess960()
}

/// The FEN shakmaty writes for a position (en passant square only when legally capturable).
pub fn referee_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Legal moves of a shakmaty position keyed by UCI text (castling as king takes rook in
/// Chess960 mode, as [`Board::move_to_uci`] writes it with `chess960`).
fn referee_moves(pos: &Chess, chess960: bool) -> BTreeMap<String, shakmaty::Move> {
    let mode = CastlingMode::from_chess960(chess960);
    pos.legal_moves()
        .into_iter()
        .map(|m| (m.to_uci(mode).to_string(), m))
        .collect()
}

/// Where our move generator and shakmaty first disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BugReport {
    /// The position the search started from.
    pub root_fen: String,
    /// Moves (UCI) from the root to the faulty position.
    pub path: Vec<String>,
    /// The position where the move lists differ.
    pub fen: String,
    /// Legal moves we do not generate.
    pub missing: Vec<String>,
    /// Moves we generate that are not legal.
    pub extra: Vec<String>,
}

impl fmt::Display for BugReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "first wrong position: {}", self.fen)?;
        if !self.path.is_empty() {
            writeln!(f, "  reached by: {}", self.path.join(" "))?;
        }
        if !self.missing.is_empty() {
            writeln!(
                f,
                "  missing moves (legal, not generated): {}",
                self.missing.join(" ")
            )?;
        }
        if !self.extra.is_empty() {
            writeln!(
                f,
                "  extra moves (generated, not legal): {}",
                self.extra.join(" ")
            )?;
        }
        Ok(())
    }
}

/// What the referee says about a perft count that did not match a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Diagnosis {
    /// Our generator is wrong; here is the first position with a missing or extra move.
    Bug(BugReport),
    /// shakmaty gets the same count as we do, so the expected count in the suite is wrong.
    Agree {
        /// The count both generators agree on.
        count: u64,
    },
}

/// A move generator under test: the legal moves of a position. The real one is
/// `Board::legal_moves`; tests pass deliberately broken ones to check the diagnosis.
pub type MoveGen = dyn Fn(&Board) -> Vec<sable::types::Move> + Sync;

/// Our legal move generator as a [`MoveGen`].
pub fn engine_moves(board: &Board) -> Vec<sable::types::Move> {
    board.legal_moves().as_slice().to_vec()
}

/// Perft through a [`MoveGen`] (bulk counting at the last ply).
fn perft_with(board: &mut Board, depth: u32, gen: &MoveGen) -> u64 {
    let moves = gen(board);
    if depth <= 1 {
        return if depth == 0 { 1 } else { moves.len() as u64 };
    }
    let mut n = 0;
    for m in moves {
        board.make(m);
        n += perft_with(board, depth - 1, gen);
        board.unmake();
    }
    n
}

/// Descends from `fen` with divide against shakmaty's perft, following the first root move whose
/// counts differ, until a position whose move lists differ.
pub fn find_bug(fen: &str, depth: u32) -> Result<Diagnosis, SuiteError> {
    find_bug_with(fen, depth, &engine_moves)
}

/// [`find_bug`] for any move generator.
pub fn find_bug_with(fen: &str, depth: u32, gen: &MoveGen) -> Result<Diagnosis, SuiteError> {
    let mut board = Board::from_fen(fen).map_err(SuiteError::fen(format!("bad FEN '{fen}'")))?;
    let mut pos = referee_position(fen)?;
    let chess960 = is_chess960(&pos);
    let mut path = Vec::new();
    let total = perft_with(&mut board, depth, gen);
    if depth == 0 || total == shakmaty::perft(&pos, depth) {
        return Ok(Diagnosis::Agree { count: total });
    }
    let mut d = depth;
    loop {
        let ours: BTreeMap<String, sable::types::Move> = gen(&board)
            .into_iter()
            .map(|m| (board.move_to_uci(m, chess960), m))
            .collect();
        let theirs = referee_moves(&pos, chess960);
        let missing: Vec<String> = theirs
            .keys()
            .filter(|k| !ours.contains_key(*k))
            .cloned()
            .collect();
        let extra: Vec<String> = ours
            .keys()
            .filter(|k| !theirs.contains_key(*k))
            .cloned()
            .collect();
        if !missing.is_empty() || !extra.is_empty() || d <= 1 {
            return Ok(Diagnosis::Bug(BugReport {
                root_fen: fen.to_string(),
                path,
                fen: board.to_fen(),
                missing,
                extra,
            }));
        }
        // Same moves: find one whose subtree counts differ and go down it.
        let mut next = None;
        for (uci, &m) in &ours {
            board.make(m);
            let ours_n = perft_with(&mut board, d - 1, gen);
            board.unmake();
            let mut child = pos.clone();
            child.play_unchecked(theirs[uci]);
            if ours_n != shakmaty::perft(&child, d - 1) {
                next = Some((uci.clone(), m, child));
                break;
            }
        }
        let Some((uci, m, child)) = next else {
            // Totals differ but no subtree does: impossible with equal move lists.
            return Err(SuiteError::NoRootMoveDiffers {
                fen: board.to_fen(),
            });
        };
        board.make(m);
        pos = child;
        path.push(uci);
        d -= 1;
    }
}

/// `count` positions reached by random playouts (up to 40 plies, shakmaty's rules) from `seeds`,
/// choosing castling, en passant, promotions and double pawn steps half the time when available.
pub fn random_positions(
    seeds: &[String],
    count: usize,
    seed: u64,
) -> Result<Vec<String>, SuiteError> {
    let starts: Vec<Chess> = seeds
        .iter()
        .map(|f| referee_position(f))
        .collect::<Result<_, _>>()?;
    if starts.is_empty() {
        return Err(SuiteError::NoSeeds);
    }
    let mut rng = Rng::new(seed | 1);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = starts[rng.below(starts.len())].clone();
        let plies = 1 + rng.below(40);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let special: Vec<&shakmaty::Move> = moves
                .iter()
                .filter(|m| {
                    let double_step = m.role() == shakmaty::Role::Pawn
                        && m.from().is_some_and(|f| f.distance(m.to()) == 2);
                    m.is_castle() || m.is_en_passant() || m.is_promotion() || double_step
                })
                .collect();
            let m = if !special.is_empty() && rng.below(2) == 0 {
                *special[rng.below(special.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play_unchecked(m);
        }
        out.push(referee_fen(&pos));
    }
    Ok(out)
}

/// A position where our perft and shakmaty's differ.
#[derive(Clone, Debug)]
pub struct CrossCheckFailure {
    /// The position.
    pub fen: String,
    /// The shallowest differing depth.
    pub depth: u32,
    /// Our count.
    pub ours: u64,
    /// shakmaty's count.
    pub theirs: u64,
}

/// The referee's perft count of a position at a depth: shakmaty's ([`shakmaty_count`]), or a
/// test's stand-in that counts wrong on purpose, to show that a disagreement is reported.
pub type RefereeCount = dyn Fn(&Chess, u32) -> u64 + Sync;

/// shakmaty's perft as a [`RefereeCount`].
pub fn shakmaty_count(pos: &Chess, depth: u32) -> u64 {
    shakmaty::perft(pos, depth)
}

/// Compares perft counts at depths 1..=max_depth with shakmaty on every position, in parallel.
/// `on_done` is called once per position.
pub fn cross_check(
    fens: &[String],
    max_depth: u32,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<CrossCheckFailure>, SuiteError> {
    cross_check_with(fens, max_depth, &shakmaty_count, on_done)
}

/// [`cross_check`] against any referee.
pub fn cross_check_with(
    fens: &[String],
    max_depth: u32,
    referee: &RefereeCount,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<CrossCheckFailure>, SuiteError> {
    let results: Vec<Result<Option<CrossCheckFailure>, SuiteError>> = fens
        .par_iter()
        .map(|fen| {
            let mut board =
                Board::from_fen(fen).map_err(SuiteError::fen(format!("we reject '{fen}'")))?;
            let pos = referee_position(fen)?;
            let mut failure = None;
            for depth in 1..=max_depth {
                let (ours, theirs) = (movegen::perft(&mut board, depth), referee(&pos, depth));
                if ours != theirs {
                    failure = Some(CrossCheckFailure {
                        fen: fen.clone(),
                        depth,
                        ours,
                        theirs,
                    });
                    break;
                }
            }
            on_done();
            Ok(failure)
        })
        .collect();
    let mut failures = Vec::new();
    for r in results {
        failures.extend(r?);
    }
    Ok(failures)
}

/// The six Chess Programming Wiki perft positions.
pub const CPW_POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// Hand-picked edge cases, each with the rule it exercises.
pub const EDGE_CASES: &[(&str, &str)] = &[
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "Kiwipete, Black to move",
    ),
    (
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "position 4 mirrored",
    ),
    (
        "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
        "double step into a rank pin (en passant illegal)",
    ),
    (
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "en passant along a diagonal pin",
    ),
    (
        "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
        "en passant removes both pawns from the king's rank",
    ),
    (
        "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
        "en passant discovered check",
    ),
    (
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "en passant captures the checking pawn",
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "en passant after 1.e4 d5 2.e5 f5",
    ),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "all four castlings"),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "all four castlings, Black to move",
    ),
    (
        "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1",
        "castling through an attacked square",
    ),
    (
        "r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 0 1",
        "queen-side castling with b-file attacked (allowed)",
    ),
    (
        "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
        "castling rights with sliders on the board",
    ),
    (
        "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
        "castling under queen fire",
    ),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "short castling only"),
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "long castling only"),
    (
        "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
        "one castling right gone with its rook",
    ),
    (
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "promotions with captures",
    ),
    ("8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1", "promotion race"),
    (
        "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
        "promotion out of check",
    ),
    ("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", "under-promotions"),
    ("K1k5/8/P7/8/8/8/8/8 w - - 0 1", "stalemate traps"),
    ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", "promotion with stalemate"),
    (
        "4k3/8/8/8/8/3n4/8/R3K2r w Q - 0 1",
        "double check: only king moves",
    ),
    ("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", "discovered checks"),
    (
        "K7/8/8/3Q4/4q3/8/8/7k w - - 0 1",
        "pinned queen moves along the pin",
    ),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
    ("R6k/6pp/8/8/8/8/8/K7 b - - 0 1", "checkmate"),
    (
        "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
        "knight and queen checks",
    ),
    ("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", "pawns only"),
];

/// Computes the built-in suite: each position to the depths whose counts stay near `budget`
/// leaf nodes, counted by both shakmaty and our generator (which must agree), plus `random`
/// positions from playouts. Returns the EPD text.
pub fn generate_suite(budget: u64, random: usize) -> Result<String, SuiteError> {
    let seeds: Vec<String> = CPW_POSITIONS.iter().map(|s| s.to_string()).collect();
    let mut entries: Vec<(String, String)> = CPW_POSITIONS
        .iter()
        .enumerate()
        .map(|(i, f)| (f.to_string(), format!("CPW perft position {}", i + 1)))
        .collect();
    entries.extend(
        EDGE_CASES
            .iter()
            .map(|(f, why)| (f.to_string(), why.to_string())),
    );
    let mut seen: std::collections::HashSet<String> = entries.iter().map(|e| e.0.clone()).collect();
    for fen in random_positions(&seeds, random * 4, 0x5ab1e)? {
        if entries.len() >= CPW_POSITIONS.len() + EDGE_CASES.len() + random {
            break;
        }
        let board = Board::from_fen(&fen).map_err(SuiteError::fen(fen.clone()))?;
        if board.legal_moves().len() > 3 && seen.insert(fen.clone()) {
            entries.push((fen, "random playout".to_string()));
        }
    }
    let body = count_entries(&entries, budget)?;
    Ok(format!(
        "# Sable perft suite: generated by scripts/gen-perft-suite.sh (harness perft --generate).\n\
         # Every count was computed by both sable and shakmaty 0.30.1, which agreed.\n\
         # Format: FEN ;D<depth> <leaf nodes> ...\n{body}"
    ))
}

/// Counts each `(FEN, why)` entry with both generators (which must agree) at depths 1, 2, ...
/// while the next depth stays near `budget` leaf nodes; returns `# why` and `FEN ;D1 n ...`
/// lines, in parallel over the entries.
pub fn count_entries(entries: &[(String, String)], budget: u64) -> Result<String, SuiteError> {
    let lines: Vec<Result<String, SuiteError>> = entries
        .par_iter()
        .map(|(fen, why)| {
            let mut board = Board::from_fen(fen).map_err(SuiteError::fen(fen.clone()))?;
            let pos = referee_position(fen)?;
            let mut line = fen.clone();
            let mut prev = 1u64;
            for depth in 1..=7 {
                let ours = movegen::perft(&mut board, depth);
                let theirs = shakmaty::perft(&pos, depth);
                if ours != theirs {
                    return Err(SuiteError::CountsDiffer {
                        fen: fen.clone(),
                        why: why.clone(),
                        depth,
                        ours,
                        theirs,
                    });
                }
                line.push_str(&format!(" ;D{depth} {ours}"));
                let branching = (ours / prev.max(1)).max(2);
                if ours == 0 || ours.saturating_mul(branching) > budget {
                    break;
                }
                prev = ours;
            }
            Ok(format!("# {why}\n{line}"))
        })
        .collect();
    let mut text = String::new();
    for l in lines {
        text.push_str(&l?);
        text.push('\n');
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_missing_en_passant_move_deep_in_the_tree() {
        // A generator that forgets en passant: the diagnosis must walk down to a position with
        // an en passant capture and name it as missing.
        let no_ep = |b: &Board| -> Vec<sable::types::Move> {
            engine_moves(b)
                .into_iter()
                .filter(|m| !m.is_en_passant())
                .collect()
        };
        let fen = "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let Diagnosis::Bug(bug) = find_bug_with(fen, 3, &no_ep).unwrap() else {
            panic!("bug not found");
        };
        assert!(bug.extra.is_empty());
        assert_eq!(bug.missing.len(), 1, "{bug}");
        let board = Board::from_fen(&bug.fen).unwrap();
        let ep = board.parse_uci_move(&bug.missing[0]).unwrap();
        assert!(ep.is_en_passant(), "{bug}");
        assert_eq!(
            bug.path.len(),
            1,
            "one ply (a double step) leads to it: {bug}"
        );
    }

    #[test]
    fn finds_an_extra_move() {
        // A generator that also lets the king step into check from e1 to e2 when attacked.
        let extra = |b: &Board| -> Vec<sable::types::Move> {
            let mut v = engine_moves(b);
            let king = b.king_square(b.side_to_move());
            let bad = sable::types::Move::new(king, sable::types::Square::E2);
            if king == sable::types::Square::E1
                && b.piece_on(sable::types::Square::E2).is_none()
                && !v.contains(&bad)
            {
                v.push(bad);
            }
            v
        };
        let fen = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1";
        let Diagnosis::Bug(bug) = find_bug_with(fen, 2, &extra).unwrap() else {
            panic!("bug not found");
        };
        assert_eq!(bug.extra, vec!["e1e2".to_string()], "{bug}");
    }

    #[test]
    fn a_correct_generator_agrees_with_the_referee() {
        let d = find_bug(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            2,
        );
        assert_eq!(d.unwrap(), Diagnosis::Agree { count: 2039 });
    }

    #[test]
    fn random_positions_cross_check_clean_and_reproducibly() {
        let seeds: Vec<String> = CPW_POSITIONS.iter().map(|s| s.to_string()).collect();
        let a = random_positions(&seeds, 200, 5).unwrap();
        assert_eq!(a, random_positions(&seeds, 200, 5).unwrap());
        assert_eq!(a.len(), 200);
        assert!(cross_check(&a, 2, &|| {}).unwrap().is_empty());
    }

    #[test]
    fn edge_cases_are_valid_for_both_generators() {
        for (fen, why) in EDGE_CASES {
            assert!(Board::from_fen(fen).is_ok(), "{why}: {fen}");
            assert!(referee_position(fen).is_ok(), "{why}: {fen}");
        }
    }
}
