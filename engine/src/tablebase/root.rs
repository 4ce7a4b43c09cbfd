//! Ranking the root moves by the tables, Stockfish's way (`Tablebases::rank_root_moves`), so
//! that the search only chooses among the moves that keep the best result.
//!
//! With the DTZ tables, each move gets its distance to zeroing counted from the root and the
//! root's halfmove clock is added: every win that still zeroes before the fifty-move rule can
//! strike ranks equally (the search picks among them, so it may mate faster than the DTZ line),
//! and once the clock runs short only the moves that zero soonest are left. That keeps every
//! won position won under the fifty-move rule, move after move, and a drawn one drawn. Without
//! DTZ tables the moves are ranked by WDL alone (win, cursed win, draw, blessed loss, loss).

use super::{TableKind, Tablebases, Wdl};
use crate::board::Board;
use crate::types::Move;

/// Stockfish's scale of ranks: wins near `MAX_DTZ`, losses near `-MAX_DTZ`.
pub const MAX_DTZ: i32 = 1 << 18;

/// The score a root move gets from the tables, for `info score` while the search itself finds
/// no mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootScore {
    /// A win the fifty-move rule cannot spoil (or any win when the rule is off).
    Win,
    /// A loss the fifty-move rule cannot save.
    Loss,
    /// A draw (0) or a win or loss that the fifty-move rule may turn into one: a few
    /// centipawns, growing as the win gets closer to being real.
    Cp(i32),
}

/// One legal root move with its rank (higher is better) and score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Its rank: moves of equal rank are equally good by the tables.
    pub rank: i32,
    /// Its score by the tables.
    pub score: RootScore,
}

/// The root moves ranked by the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// Every legal move, best rank first (stable: the move generator's order within a rank).
    pub moves: Vec<RankedMove>,
    /// Ranked by DTZ (else by WDL alone, when a DTZ table was missing).
    pub by_dtz: bool,
    /// Probes made (one per move): the root's tbhits.
    pub probes: u64,
}

impl RootRanking {
    /// The moves that keep the best result: those of the best rank.
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.moves[0].rank;
        self.moves
            .iter()
            .take_while(|m| m.rank == best)
            .map(|m| m.mv)
            .collect()
    }

    /// The score of the best moves.
    pub fn score(&self) -> RootScore {
        self.moves[0].score
    }
}

/// Ranks the legal moves of `board` by DTZ, or by WDL when DTZ tables are missing; `None` when
/// the position is not in the tables (too many pieces, castling rights, a table missing) or
/// has no legal move. `rule50` is `Syzygy50MoveRule`: when off, cursed wins count as wins and
/// blessed losses as losses.
pub fn rank(tb: &Tablebases, board: &mut Board, rule50: bool) -> Option<RootRanking> {
    if board.occupied().count() > tb.max_pieces() || !board.castling().is_empty() {
        return None;
    }
    let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
    if moves.is_empty() {
        return None;
    }
    let mut ranking = rank_by_dtz(tb, board, &moves, rule50)
        .or_else(|| rank_by_wdl(tb, board, &moves, rule50))?;
    // Best rank first; the sort is stable, so equal ranks keep the generator's order.
    ranking.moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
    Some(ranking)
}

/// Stockfish's `root_probe`: ranks by DTZ counted from the root plus the halfmove clock.
fn rank_by_dtz(
    tb: &Tablebases,
    board: &mut Board,
    moves: &[Move],
    rule50: bool,
) -> Option<RootRanking> {
    if tb.count(TableKind::Dtz) == 0 {
        return None;
    }
    let cnt50 = board.halfmove_clock() as i32;
    let rep = repeated_since_zeroing(board);
    // Ranks from here up score as real wins (below as cursed ones, shown in centipawns).
    let bound = if rule50 { MAX_DTZ / 2 - 100 } else { 1 };
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        board.make(mv);
        let dtz = dtz_after(tb, board);
        board.unmake();
        let dtz = dtz?;
        let rank = if dtz > 0 {
            if dtz + cnt50 <= 99 && !rep {
                MAX_DTZ
            } else {
                MAX_DTZ / 2 - (dtz + cnt50)
            }
        } else if dtz < 0 {
            if -dtz * 2 + cnt50 < 100 {
                -MAX_DTZ
            } else {
                -MAX_DTZ / 2 + (-dtz + cnt50)
            }
        } else {
            0
        };
        let score = if rank >= bound {
            RootScore::Win
        } else if rank > 0 {
            RootScore::Cp((rank - (MAX_DTZ / 2 - 200)).max(3) * 100 / 200)
        } else if rank == 0 {
            RootScore::Cp(0)
        } else if rank > -bound {
            RootScore::Cp((rank + (MAX_DTZ / 2 - 200)).min(-3) * 100 / 200)
        } else {
            RootScore::Loss
        };
        ranked.push(RankedMove { mv, rank, score });
    }
    Some(RootRanking {
        probes: ranked.len() as u64,
        moves: ranked,
        by_dtz: true,
    })
}

/// The DTZ of the move just made on `board`, counted from the position before it (so from the
/// side that made it): positive when it wins. A rounded table value is taken at its longest
/// for a win, so a win is never thought nearer to zeroing than it may be.
fn dtz_after(tb: &Tablebases, board: &Board) -> Option<i32> {
    let dtz = if board.halfmove_clock() == 0 {
        // A capture or pawn move: the new phase's WDL says all.
        match -tb.probe_wdl(board)? {
            Wdl::Win => 1,
            Wdl::CursedWin => 101,
            Wdl::Draw => 0,
            Wdl::BlessedLoss => -101,
            Wdl::Loss => -1,
        }
    } else if board.repetition_count() >= 2 || board.is_fifty_move_draw() {
        // The move draws by rule at once, whatever the tables say.
        0
    } else {
        let theirs = tb.probe_dtz(board)?;
        let ours = -theirs.plies;
        let ours = if theirs.rounded && ours > 0 {
            ours + 1
        } else {
            ours
        };
        ours + ours.signum()
    };
    // A mating move zeroes at once.
    if dtz == 2 && board.in_check() && board.legal_moves().is_empty() {
        return Some(1);
    }
    Some(dtz)
}

/// Stockfish's `root_probe_wdl`: ranks by the WDL after each move.
fn rank_by_wdl(
    tb: &Tablebases,
    board: &mut Board,
    moves: &[Move],
    rule50: bool,
) -> Option<RootRanking> {
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        board.make(mv);
        let wdl = tb.probe_wdl(board);
        board.unmake();
        let wdl = -wdl?;
        let rank = match wdl {
            Wdl::Loss => -MAX_DTZ,
            Wdl::BlessedLoss => -MAX_DTZ + 101,
            Wdl::Draw => 0,
            Wdl::CursedWin => MAX_DTZ - 101,
            Wdl::Win => MAX_DTZ,
        };
        let score = match (wdl, rule50) {
            (Wdl::Win, _) | (Wdl::CursedWin, false) => RootScore::Win,
            (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => RootScore::Loss,
            (Wdl::CursedWin, true) => RootScore::Cp(2),
            (Wdl::BlessedLoss, true) => RootScore::Cp(-2),
            (Wdl::Draw, _) => RootScore::Cp(0),
        };
        ranked.push(RankedMove { mv, rank, score });
    }
    Some(RootRanking {
        probes: ranked.len() as u64,
        moves: ranked,
        by_dtz: false,
    })
}

/// Whether some position since the last capture or pawn move occurred twice (Stockfish's
/// `has_repeated`): then wins are ranked strictly by DTZ, so the engine cannot go round in
/// circles among equally ranked winning moves.
fn repeated_since_zeroing(board: &Board) -> bool {
    let mut b = board.clone();
    loop {
        if b.is_repetition() {
            return true;
        }
        if b.halfmove_clock() == 0 || b.history_len() == 0 {
            return false;
        }
        b.unmake();
    }
}
