//! PGN movetext in fastchess's form (`-pgnout` of the harness started as fastchess), which
//! OpenBench's client and server read: `{+0.35/12 0.123s, n=4567, sd=18, line="..."}`, the
//! reason in the last engine move's comment. The tags are [`super::pgn::write_game`]'s.

use super::pgn_text::{start_of, wrap, PgnStyle};
use super::record::{GameRecord, MoveRecord};
use crate::uci::Score;
use std::fmt::Write as _;

/// Movetext in fastchess's form (see [`PgnStyle`]).
pub(super) fn movetext(game: &GameRecord, style: PgnStyle) -> String {
    let (mut white_to_move, mut number) = start_of(game.start_fen.as_deref());
    let mut text = String::new();
    let reason = game.fastchess_reason();
    // The reason goes into the last engine move's comment; a game without one (ended in its
    // opening) gets it in a comment of its own.
    let last_searched = game
        .moves
        .last()
        .filter(|m| !m.book)
        .map(|_| game.moves.len() - 1);
    for (i, m) in game.moves.iter().enumerate() {
        if white_to_move {
            let _ = write!(text, "{number}. ");
        } else if i == 0 {
            let _ = write!(text, "{number}... ");
        }
        let _ = write!(text, "{} ", m.san);
        let mut parts = match m.book {
            true => vec!["book".to_owned()],
            false => fastchess_comment(m, style),
        };
        if Some(i) == last_searched {
            parts.push(reason.clone());
        }
        let _ = write!(text, "{{{}}} ", parts.join(", ").replace('}', ")"));
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    if last_searched.is_none() {
        let _ = write!(text, "{{{}}} ", reason.replace('}', ")"));
    }
    text.push_str(game.outcome.pgn());
    wrap(&text, 80)
}

/// The parts of an engine move's comment in fastchess's form: `+0.35/12 0.123s`, then `n=`,
/// `sd=` when asked for, then the kept engine lines.
fn fastchess_comment(m: &MoveRecord, style: PgnStyle) -> Vec<String> {
    // fastchess writes a centipawn score with two decimals (no sign for 0) and a mate in plies.
    let score = match m.score {
        Some(Score::Cp(cp)) => {
            let sign = match cp.signum() {
                1 => "+",
                -1 => "-",
                _ => "",
            };
            format!("{sign}{:.2}", f64::from(cp.unsigned_abs()) / 100.0)
        }
        Some(Score::Mate(n)) if n > 0 => format!("+M{}", 2 * i64::from(n) - 1),
        Some(Score::Mate(n)) => format!("-M{}", -2 * i64::from(n)),
        None => String::new(),
    };
    let mut parts = vec![format!(
        "{score}/{} {:.3}s",
        m.depth.unwrap_or(0),
        m.time_ms as f64 / 1000.0
    )];
    if style.nodes {
        parts.push(format!("n={}", m.nodes.unwrap_or(0)));
    }
    if style.seldepth {
        parts.push(format!("sd={}", m.seldepth.unwrap_or(0)));
    }
    parts.extend(
        m.lines
            .iter()
            .map(|l| format!("line=\"{}\"", l.replace('"', "'"))),
    );
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::fault::{Fault, FaultKind};
    use crate::game::pgn::{write_game, PgnHeader, PgnReader};
    use crate::game::record::{Outcome, Termination};
    use crate::game::Variant;

    fn mv(san: &str, book: bool, score: Option<Score>) -> MoveRecord {
        MoveRecord {
            uci: String::new(),
            san: san.into(),
            score,
            depth: Some(7),
            seldepth: Some(11),
            nodes: Some(1234),
            time_ms: 125,
            book,
            lines: vec!["info string pgncomment eval 12".into()],
        }
    }

    #[test]
    fn fastchess_comments_reason_and_termination() {
        let moves = vec![
            mv("e4", true, None),
            mv("e5", false, Some(Score::Cp(0))),
            mv("Nf3", false, Some(Score::Mate(2))),
            mv("Nc6", false, Some(Score::Mate(-1))),
        ];
        let game = GameRecord {
            white: "A".into(),
            black: "B".into(),
            start_fen: None,
            moves,
            outcome: Outcome::WhiteWins,
            reason: "Black makes an illegal move a1a1 in ... (details)".into(),
            termination: Termination::RulesInfraction,
            fault: Some(Fault {
                white: false,
                kind: FaultKind::IllegalMove,
                detail: "a1a1".into(),
            }),
            fault_output: Vec::new(),
            case: None,
            time_control: "-".into(),
            black_time_control: "-".into(),
            start_time: std::time::UNIX_EPOCH,
            duration_ms: 0,
            variant: Variant::Standard,
        };
        let style = PgnStyle {
            fastchess: true,
            nodes: true,
            seldepth: true,
        };
        let header = PgnHeader {
            style,
            ..PgnHeader::default()
        };
        let text = write_game(&game, &header);
        assert!(text.contains("[Termination \"illegal move\"]"), "{text}");
        let g = PgnReader::new(text.as_bytes()).next().unwrap().unwrap();
        assert_eq!(g.moves[0].comments, ["book"]);
        let line = "line=\"info string pgncomment eval 12\"";
        // No sign for 0.00; a mate in plies, as fastchess writes them.
        assert_eq!(
            g.moves[1].comments,
            [format!("0.00/7 0.125s, n=1234, sd=11, {line}")]
        );
        assert_eq!(
            g.moves[2].comments,
            [format!("+M3/7 0.125s, n=1234, sd=11, {line}")]
        );
        assert_eq!(
            g.moves[3].comments,
            [format!(
                "-M2/7 0.125s, n=1234, sd=11, {line}, Black makes an illegal move"
            )]
        );
        assert_eq!(g.result, Some(Outcome::WhiteWins));
        // Without nodes= and seldepth=, neither is written.
        let plain = movetext(
            &game,
            PgnStyle {
                fastchess: true,
                ..PgnStyle::default()
            },
        );
        assert!(plain.contains("{0.00/7 0.125s, line="), "{plain}");
    }
}
