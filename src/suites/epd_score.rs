//! Scoring one engine answer against an EPD position: solved or not, STS points, and when the
//! engine first settled on a correct move and kept it ("solved in 0.4 s at depth 12").

use shakmaty::Move;

use super::epd::EpdPosition;
pub use crate::uci::Score as EngineScore;

/// One `info ... pv` line, reduced to what scoring needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvSample {
    /// Milliseconds since `go` (the engine's `time` when given, else measured by the harness).
    pub time_ms: u64,
    /// Search depth of the line.
    pub depth: u32,
    /// The score of the line, if it had one.
    pub score: Option<EngineScore>,
    /// The first move of the PV, if it was legal in the position.
    pub first_move: Option<Move>,
}

/// How the engine's search of one position ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchTrace {
    /// The PV lines in the order received.
    pub samples: Vec<PvSample>,
    /// The final `bestmove`, if it was legal.
    pub best: Option<Move>,
    /// Milliseconds from `go` to `bestmove`.
    pub total_ms: u64,
}

/// The verdict on one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the final answer solves the position.
    pub solved: bool,
    /// STS points earned (`None` when the position has no scored alternatives).
    pub points: Option<u32>,
    /// When the engine settled on a correct answer for good (ms since `go`), if solved.
    pub solved_at_ms: Option<u64>,
    /// The depth at which it settled, if solved and reported.
    pub solved_at_depth: Option<u32>,
    /// The last depth reported.
    pub depth: Option<u32>,
    /// The last score reported.
    pub score: Option<EngineScore>,
}

/// Whether `mv` (with the engine's score `score`) answers the position correctly: none of the
/// `am` moves, and then with `dm` a reported mate within N (by any move), else one of the `bm`
/// moves (when given), and for STS-only positions the move earning full points.
pub fn is_correct(pos: &EpdPosition, mv: &Move, score: Option<EngineScore>) -> bool {
    if pos.am.contains(mv) {
        return false;
    }
    if let Some(n) = pos.dm {
        // Any mate within N solves a `dm` position, also one by another move than `bm`.
        return matches!(score, Some(EngineScore::Mate(m)) if m > 0 && m as u32 <= n);
    }
    if !pos.bm.is_empty() && !pos.bm.contains(mv) {
        return false;
    }
    if pos.bm.is_empty() && pos.am.is_empty() && pos.dm.is_none() {
        return pos.points_for(mv) == pos.max_points() && pos.max_points().is_some();
    }
    true
}

/// Scores a finished search of `pos`.
pub fn score(pos: &EpdPosition, trace: &SearchTrace) -> Verdict {
    let last_score = trace.samples.iter().rev().find_map(|s| s.score);
    let depth = trace.samples.iter().map(|s| s.depth).max();
    let solved = trace
        .best
        .as_ref()
        .is_some_and(|mv| is_correct(pos, mv, last_score));
    let points = trace
        .best
        .as_ref()
        .map_or(pos.max_points().map(|_| 0), |mv| pos.points_for(mv));
    let (solved_at_ms, solved_at_depth) = if solved {
        settled(pos, trace)
    } else {
        (None, None)
    };
    Verdict {
        solved,
        points,
        solved_at_ms,
        solved_at_depth,
        depth,
        score: last_score,
    }
}

/// The first PV line after the last incorrect one: from there on the engine kept a correct move.
/// Without any PV line, the answer counts as found when `bestmove` came.
fn settled(pos: &EpdPosition, trace: &SearchTrace) -> (Option<u64>, Option<u32>) {
    let samples: Vec<&PvSample> = trace
        .samples
        .iter()
        .filter(|s| s.first_move.is_some())
        .collect();
    let correct = |s: &PvSample| {
        s.first_move
            .as_ref()
            .is_some_and(|mv| is_correct(pos, mv, s.score))
    };
    let start = samples
        .iter()
        .rposition(|s| !correct(s))
        .map_or(0, |i| i + 1);
    match samples.get(start) {
        Some(s) => (Some(s.time_ms), Some(s.depth)),
        None => (Some(trace.total_ms), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::epd::{parse_line, parse_move, LineRef};

    fn position(line: &str) -> EpdPosition {
        let at = LineRef {
            file: "t".into(),
            line: 1,
        };
        parse_line(line, at).unwrap()
    }

    fn mv(pos: &EpdPosition, word: &str) -> Move {
        parse_move(&pos.position, word).unwrap()
    }

    fn sample(pos: &EpdPosition, t: u64, d: u32, word: &str, score: EngineScore) -> PvSample {
        PvSample {
            time_ms: t,
            depth: d,
            score: Some(score),
            first_move: Some(mv(pos, word)),
        }
    }

    const ROOKS: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - -";

    #[test]
    fn bm_solved_and_settling_time_is_after_last_wrong_pv() {
        let p = position(&format!("{ROOKS} bm Ra8#;"));
        let trace = SearchTrace {
            samples: vec![
                sample(&p, 1, 1, "Ra8#", EngineScore::Cp(50)),
                sample(&p, 5, 2, "Kf1", EngineScore::Cp(10)),
                sample(&p, 9, 3, "Ra8#", EngineScore::Mate(1)),
                sample(&p, 20, 4, "Ra8#", EngineScore::Mate(1)),
            ],
            best: Some(mv(&p, "Ra8#")),
            total_ms: 30,
        };
        let v = score(&p, &trace);
        assert!(v.solved);
        assert_eq!((v.solved_at_ms, v.solved_at_depth), (Some(9), Some(3)));
        assert_eq!((v.depth, v.score), (Some(4), Some(EngineScore::Mate(1))));
        assert_eq!(v.points, None);
    }

    #[test]
    fn wrong_best_move_or_avoided_move_fails() {
        let p = position(&format!("{ROOKS} bm Ra8#;"));
        let trace = SearchTrace {
            samples: vec![sample(&p, 1, 1, "Ra8#", EngineScore::Mate(1))],
            best: Some(mv(&p, "Kf1")),
            total_ms: 3,
        };
        let v = score(&p, &trace);
        assert!(!v.solved);
        assert_eq!(v.solved_at_ms, None);
        let p = position(&format!("{ROOKS} am Kf1;"));
        assert!(!is_correct(&p, &mv(&p, "Kf1"), None));
        assert!(is_correct(&p, &mv(&p, "h3"), None));
        let no_answer = SearchTrace {
            samples: vec![],
            best: None,
            total_ms: 0,
        };
        assert!(!score(&p, &no_answer).solved);
    }

    #[test]
    fn dm_needs_the_mate_score_within_n() {
        let p = position(&format!("{ROOKS} dm 1;"));
        let ra8 = mv(&p, "Ra8#");
        assert!(is_correct(&p, &ra8, Some(EngineScore::Mate(1))));
        assert!(!is_correct(&p, &ra8, Some(EngineScore::Mate(2))));
        assert!(!is_correct(&p, &ra8, Some(EngineScore::Mate(-1))));
        assert!(!is_correct(&p, &ra8, Some(EngineScore::Cp(900))));
        let p2 = position(&format!("{ROOKS} dm 3;"));
        assert!(is_correct(&p2, &ra8, Some(EngineScore::Mate(1))));
        // With bm and dm, another move that mates in time also solves it.
        let p3 = position(&format!("{ROOKS} bm Ra8#; dm 3;"));
        let slow = mv(&p3, "Kf1");
        assert!(is_correct(&p3, &slow, Some(EngineScore::Mate(3))));
        assert!(!is_correct(&p3, &slow, Some(EngineScore::Cp(800))));
        let trace = SearchTrace {
            samples: vec![
                sample(&p, 1, 1, "Ra8#", EngineScore::Cp(500)),
                sample(&p, 2, 2, "Ra8#", EngineScore::Mate(1)),
            ],
            best: Some(ra8),
            total_ms: 2,
        };
        let v = score(&p, &trace);
        assert!(v.solved);
        assert_eq!(v.solved_at_depth, Some(2));
    }

    #[test]
    fn sts_points_for_any_move_and_full_points_solve() {
        let p = position(&format!("{ROOKS} c0 \"Ra8#=100, h3=40\";"));
        let trace = |word: &str| SearchTrace {
            samples: vec![],
            best: Some(mv(&p, word)),
            total_ms: 7,
        };
        let v = score(&p, &trace("h3"));
        assert_eq!((v.solved, v.points), (false, Some(40)));
        let v = score(&p, &trace("g3"));
        assert_eq!((v.solved, v.points), (false, Some(0)));
        let v = score(&p, &trace("Ra8#"));
        assert_eq!((v.solved, v.points), (true, Some(100)));
        assert_eq!(v.solved_at_ms, Some(7));
        let none = SearchTrace {
            samples: vec![],
            best: None,
            total_ms: 0,
        };
        assert_eq!(score(&p, &none).points, Some(0));
    }
}
