//! The game loop: asks the engines for moves, keeps the clocks, referees with shakmaty, and
//! turns every engine failure into a lost game with its reason.

use super::adjudication::{Adjudication, Adjudicator, Verdict};
use super::case::{self, EngineCase, FailureCase, FailureKind, FailurePoint};
use super::fault::{Fault, FaultKind};
use super::judge;
use super::line_pattern::LinePattern;
use super::opening::{Opening, OpeningError};
use super::player::Player;
use super::record::{side_name, GameRecord, MoveRecord, Outcome, Termination};
use super::rules::History;
use super::tc::{go_params, Clock, ClockVerdict, Limits};
use super::variant::Variant;
use crate::uci::flight::{Bounds, Kind, Transcript};
use crate::uci::{SearchResult, StartError, UciError};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, EnPassantMode, Position};
use std::time::{Duration, Instant};

/// How games are played: limits for each side (white engine's, black engine's) and adjudication.
#[derive(Debug, Clone)]
pub struct GameSettings {
    /// Search limits of the engine playing White.
    pub white_limits: Limits,
    /// Search limits of the engine playing Black.
    pub black_limits: Limits,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Asked before every move: true abandons the game (Ctrl-C); it is then not played at all.
    pub abandon: fn() -> bool,
    /// The rules: standard chess or Chess960.
    pub variant: Variant,
    /// Engine lines to keep with each move (`-pgnout match_line=`).
    pub match_lines: Vec<LinePattern>,
}

impl GameSettings {
    /// Settings with these limits and rules, never abandoned.
    pub fn new(white: Limits, black: Limits, adjudication: Adjudication) -> GameSettings {
        GameSettings {
            white_limits: white,
            black_limits: black,
            adjudication,
            abandon: || false,
            variant: Variant::Standard,
            match_lines: Vec::new(),
        }
    }
}

/// Why a game was not played: no result, nothing to score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotPlayed {
    /// An engine could not be started or made ready.
    Start(StartError),
    /// The game was abandoned between moves because the run was interrupted.
    Abandoned,
}

/// How a game ended, before it is written into the record.
struct Ending {
    outcome: Outcome,
    reason: String,
    termination: Termination,
    fault: Option<Fault>,
    /// Where the fault happened, for the failure case.
    at: Option<FailurePoint>,
}

impl Ending {
    fn fault(loser: Color, kind: FaultKind, detail: String, opponent_can_mate: bool) -> Ending {
        let who = side_name(loser);
        let (reason, termination) = match kind {
            FaultKind::Crash => (format!("{who} disconnects"), Termination::Abandoned),
            FaultKind::Disconnect => (format!("{who}'s connection stalls"), Termination::Abandoned),
            FaultKind::Startup => (format!("{who} fails to start"), Termination::Abandoned),
            FaultKind::TimeLoss => (format!("{who} loses on time"), Termination::TimeForfeit),
            FaultKind::IllegalMove => (
                format!("{who} makes an illegal move"),
                Termination::RulesInfraction,
            ),
        };
        let fault = Some(Fault {
            white: loser == Color::White,
            kind,
            detail,
        });
        if kind == FaultKind::TimeLoss && !opponent_can_mate {
            let reason = format!("{who} loses on time, but the opponent cannot mate: draw");
            return Ending {
                outcome: Outcome::Draw,
                reason,
                termination,
                fault,
                at: None,
            };
        }
        Ending {
            outcome: Outcome::win_for(!loser),
            reason,
            termination,
            fault,
            at: None,
        }
    }

    /// The ending with the place of its fault.
    fn at(mut self, point: FailurePoint) -> Ending {
        self.at = Some(point);
        self
    }

    fn rules(outcome: Outcome, reason: &str) -> Ending {
        Ending {
            outcome,
            reason: reason.to_owned(),
            termination: Termination::Normal,
            fault: None,
            at: None,
        }
    }
}

/// Plays one game between `white` and `black` from `opening`. Every engine fault ends the game
/// with a result and a reason; a player whose engine must be replaced is left without one. An
/// engine that cannot be started and made ready is no game at all: the error names it, with its
/// command line and last output, and nothing is scored.
///
/// Every line to and from both engines goes into the game's flight recorder; a game that ends by
/// a fault gets its [`FailureCase`] (with that transcript) in [`GameRecord::case`], any other
/// drops the transcript unread.
pub fn play_game(
    white: &mut Player,
    black: &mut Player,
    opening: &Opening,
    settings: &GameSettings,
) -> Result<GameRecord, NotPlayed> {
    let transcript = Transcript::new(Bounds::default());
    white.set_recorder(Some(transcript.recorder(case::side_label(true))));
    black.set_recorder(Some(transcript.recorder(case::side_label(false))));
    let played = play_recorded(white, black, opening, settings, &transcript);
    white.set_recorder(None);
    black.set_recorder(None);
    played
}

/// [`play_game`] with the recorders attached.
fn play_recorded(
    white: &mut Player,
    black: &mut Player,
    opening: &Opening,
    settings: &GameSettings,
    transcript: &Transcript,
) -> Result<GameRecord, NotPlayed> {
    let start_time = std::time::SystemTime::now();
    let started = Instant::now();
    let mut moves: Vec<MoveRecord> = Vec::new();
    let mut ending = match run(white, black, opening, settings, &mut moves) {
        Ok(ending) => ending,
        Err(Unplayed::Start(Color::White, cause)) => {
            return Err(NotPlayed::Start(white.start_error(cause)))
        }
        Err(Unplayed::Start(Color::Black, cause)) => {
            return Err(NotPlayed::Start(black.start_error(cause)))
        }
        Err(Unplayed::Abandoned) => return Err(NotPlayed::Abandoned),
    };
    let fault_output = match &ending.fault {
        Some(f) => faulty_output(if f.white { white } else { black }, f),
        None => Vec::new(),
    };
    let case = match (&ending.fault, ending.at.take()) {
        (Some(fault), Some(at)) => {
            let mut case = failure_case(white, black, opening, settings, fault, at, transcript);
            case.started = crate::report::dates::utc_timestamp(start_time);
            if fault.kind == FaultKind::IllegalMove {
                ending.reason = illegal_move_reason(fault, &case);
            }
            case.reason = ending.reason.clone();
            Some(Box::new(case))
        }
        _ => None,
    };
    Ok(GameRecord {
        white: white.name(),
        black: black.name(),
        start_fen: opening.fen.clone(),
        moves,
        outcome: ending.outcome,
        reason: ending.reason,
        termination: ending.termination,
        fault: ending.fault,
        fault_output,
        case,
        time_control: settings.white_limits.pgn_tag(),
        black_time_control: settings.black_limits.pgn_tag(),
        start_time,
        duration_ms: started.elapsed().as_millis() as u64,
        variant: settings.variant,
    })
}

/// The last output of the engine whose fault ended the game (discarded first when it must be
/// replaced).
fn faulty_output(player: &mut Player, fault: &Fault) -> Vec<String> {
    if fault.kind.needs_restart() {
        player.discard();
    }
    // Waits for a dying engine's last stderr lines, which the transcript gets too.
    player.output_tail()
}

/// The game from `opening` to its end, its moves (book moves first) into `moves`.
fn run(
    white: &mut Player,
    black: &mut Player,
    opening: &Opening,
    settings: &GameSettings,
    moves: &mut Vec<MoveRecord>,
) -> Result<Ending, Unplayed> {
    let mut game = match Game::from_opening(opening, settings, moves) {
        Ok(game) => game,
        Err(unusable) => return Ok(unusable),
    };
    for (color, p) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        // A failure here means that even a freshly started process would not get ready.
        p.new_game().map_err(|e| Unplayed::Start(color, e))?;
    }
    play_moves(white, black, &mut game)
}

/// A game under way: the position and its history, the moves so far (book moves first) and
/// the moves as sent to the engines.
struct Game<'a> {
    opening: &'a Opening,
    settings: &'a GameSettings,
    pos: Chess,
    history: History,
    moves: &'a mut Vec<MoveRecord>,
    /// Every move so far in the variant's UCI notation, as the `position` command sends them.
    played: Vec<String>,
}

impl<'a> Game<'a> {
    /// The game after the opening's book moves, or a draw ending when the opening is unusable.
    fn from_opening(
        opening: &'a Opening,
        settings: &'a GameSettings,
        moves: &'a mut Vec<MoveRecord>,
    ) -> Result<Game<'a>, Ending> {
        let unusable =
            |why: OpeningError| Ending::rules(Outcome::Draw, &format!("Unusable opening: {why}"));
        let pos: Chess = match &opening.fen {
            None => Chess::default(),
            // Books are checked when loaded; this is only a last line of defence.
            Some(_) => Opening {
                fen: opening.fen.clone(),
                ..Opening::default()
            }
            .position(settings.variant)
            .map_err(unusable)?,
        };
        let history = History::new(&pos);
        let mut game = Game {
            opening,
            settings,
            pos,
            history,
            moves,
            played: Vec::new(),
        };
        for m in &opening.moves {
            let mv = m.parse::<UciMove>().ok();
            let Some(mv) = mv.and_then(|u| u.to_move(&game.pos).ok()) else {
                return Err(unusable(OpeningError::Move(m.clone())));
            };
            game.push(mv, None);
        }
        Ok(game)
    }

    /// Plays `mv` (legal here) and records it, with the engine's search when it is not a
    /// book move.
    fn push(&mut self, mv: shakmaty::Move, search: Option<&SearchResult>) {
        // Sent to the engines in the variant's notation (king takes rook for castling in
        // Chess960), whatever form the book or the engine wrote.
        let uci = UciMove::from_move(mv, self.settings.variant.castling_mode()).to_string();
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, mv).to_string();
        self.history.push(&self.pos);
        let info = search.map(|r| &r.info);
        self.moves.push(MoveRecord {
            uci: uci.clone(),
            san,
            score: info.and_then(|i| i.score),
            depth: info.and_then(|i| i.depth),
            seldepth: info.and_then(|i| i.seldepth),
            nodes: info.and_then(|i| i.nodes),
            time_ms: search.map_or(0, |r| r.elapsed.as_millis() as u64),
            book: search.is_none(),
            lines: search.map_or_else(Vec::new, |r| kept_lines(&self.settings.match_lines, r)),
        });
        self.played.push(uci);
    }

    /// Where a fault leaves the game: the position before the failing engine's move.
    fn failure_point(&self, deadline: Duration, hung: bool) -> FailurePoint {
        FailurePoint {
            fen: Fen::from_position(&self.pos, EnPassantMode::Legal).to_string(),
            deadline_ms: deadline.as_millis() as u64,
            hung,
        }
    }
}

/// For each pattern, the search's last `info string` line that matches it (fastchess keeps the
/// last match of each pattern).
fn kept_lines(patterns: &[LinePattern], search: &SearchResult) -> Vec<String> {
    patterns
        .iter()
        .filter_map(|p| search.strings.iter().rev().find(|l| p.is_match(l)).cloned())
        .collect()
}

/// The case of a game lost by `fault` at `at`, from the game's transcript (its `reason` and
/// `started` are filled in by the caller).
fn failure_case(
    white: &Player,
    black: &Player,
    opening: &Opening,
    settings: &GameSettings,
    fault: &Fault,
    at: FailurePoint,
    transcript: &Transcript,
) -> FailureCase {
    let side = case::side_label(fault.white);
    let kind = FailureKind::of(fault.kind, at.hung);
    // The verdict closes the transcript, so that it reads to its end without the header.
    transcript.push(side, Kind::Note, &format!("{kind}: {}", fault.detail));
    let snapshot = transcript.snapshot();
    let (position, go) = case::last_search(&snapshot, side);
    let info = snapshot
        .last(side, Kind::Received, "info", case::INFO_LINES)
        .into_iter()
        .map(str::to_owned)
        .collect();
    let player = if fault.white { white } else { black };
    let engine = |p: &Player| EngineCase {
        name: p.name(),
        spec: p.spec.clone(),
    };
    FailureCase {
        game: 0,
        kind,
        white_failed: fault.white,
        reason: String::new(),
        detail: fault.detail.clone(),
        started: String::new(),
        variant: settings.variant,
        opening: opening.clone(),
        book: String::new(),
        fen: at.fen,
        position,
        go,
        deadline_ms: at.deadline_ms,
        startup_ms: player.startup.as_millis() as u64,
        ping_ms: player.ping.as_millis() as u64,
        engines: [engine(white), engine(black)],
        info,
        transcript: snapshot,
    }
}

/// The reason of a game lost by an illegal move, with what the engine was asked and said.
fn illegal_move_reason(fault: &Fault, case: &FailureCase) -> String {
    let side = if fault.white {
        Color::White
    } else {
        Color::Black
    };
    case::illegal_move_reason(
        side_name(side),
        &fault.detail,
        &case.fen,
        &case.go,
        case.info.last().map(String::as_str),
    )
}

/// [`NotPlayed`] before the failing player's details are added.
enum Unplayed {
    Start(Color, UciError),
    Abandoned,
}

/// The moves of the game from the book position to its end.
fn play_moves(white: &mut Player, black: &mut Player, game: &mut Game) -> Result<Ending, Unplayed> {
    let settings = game.settings;
    let mut clocks = [
        Clock::new(settings.white_limits),
        Clock::new(settings.black_limits),
    ];
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    loop {
        if let Some(end) = game.history.ending(&game.pos) {
            return Ok(Ending::rules(end.outcome, &end.reason));
        }
        if (settings.abandon)() {
            return Err(Unplayed::Abandoned);
        }
        let turn = game.pos.turn();
        let player = if turn == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let result = match engine_move(player, game, &mut clocks) {
            Ok(result) => result,
            Err(lost) => return Ok(lost),
        };
        let fullmove = game.pos.fullmoves().get();
        game.push(result.1, Some(&result.0));
        if let Some(tb) = adjudicator.tablebase(&game.pos, &game.history) {
            return Ok(adjudicated(tb.outcome, &tb.reason));
        }
        if let Some(verdict) = adjudicator.after_move(turn, fullmove, result.0.info.score) {
            return Ok(adjudication_ending(verdict));
        }
    }
}

/// The move of the side to move, searched by `player` on its clock and judged: its search and
/// the legal move, or the ending its fault gives the game (a loss on time, a crash, an illegal
/// move).
fn engine_move(
    player: &mut Player,
    game: &Game,
    clocks: &mut [Clock; 2],
) -> Result<(SearchResult, shakmaty::Move), Ending> {
    let (pos, settings) = (&game.pos, game.settings);
    let turn = pos.turn();
    let limits = if turn == Color::White {
        settings.white_limits
    } else {
        settings.black_limits
    };
    let params = go_params(&limits, &clocks[0], &clocks[1], turn == Color::White);
    let clock = &mut clocks[if turn == Color::White { 0 } else { 1 }];
    let opponent_can_mate = !pos.has_insufficient_material(!turn);
    let deadline = clock.deadline();
    // Computed only when the engine fails: the position is still the one before its move.
    let at = |hung: bool| game.failure_point(deadline, hung);
    let ping = player.ping;
    let searched = player.engine().and_then(|e| {
        e.set_position(game.opening.fen.as_deref(), &game.played)?;
        e.go(&params, clock.wait(), |_| {})
    });
    let result = match searched {
        Ok(r) => r,
        Err(UciError::Timeout(_)) => {
            // No move in time: a loss on time. Keep the engine only if it recovers promptly.
            let recovered = player.engine().is_ok_and(|e| judge::recovers(e, ping));
            let detail = no_move_in_time(player, deadline, recovered);
            let lost = Ending::fault(turn, FaultKind::TimeLoss, detail, opponent_can_mate);
            return Err(lost.at(at(!recovered)));
        }
        Err(e) => {
            let kind = judge::fault_kind(&e);
            return Err(Ending::fault(turn, kind, e.to_string(), true).at(at(false)));
        }
    };
    if clock.charge(result.elapsed) == ClockVerdict::Flagged {
        let detail = format!("used {} ms", result.elapsed.as_millis());
        let lost = Ending::fault(turn, FaultKind::TimeLoss, detail, opponent_can_mate);
        return Err(lost.at(at(false)));
    }
    let sent = result.best.mv.clone().unwrap_or_else(|| "0000".to_owned());
    let Some(mv) = judge::legal_move(pos, &sent) else {
        return Err(Ending::fault(turn, FaultKind::IllegalMove, sent, true).at(at(false)));
    };
    Ok((result, mv))
}

/// What a loss on time without a move says; an engine that did not recover is discarded.
fn no_move_in_time(player: &mut Player, deadline: Duration, recovered: bool) -> String {
    let mut detail = format!("no move within {} ms", deadline.as_millis());
    if !recovered {
        player.discard();
        detail.push_str(", and no answer to stop/isready (hung)");
    }
    detail
}

/// The ending of a game adjudicated after a move.
fn adjudication_ending(verdict: Verdict) -> Ending {
    match verdict {
        Verdict::Draw => adjudicated(Outcome::Draw, "Draw by adjudication"),
        Verdict::MaxMoves => adjudicated(Outcome::Draw, "Draw by adjudication: maximum moves"),
        Verdict::Resign(loser) => {
            let reason = format!("{} wins by adjudication", side_name(!loser));
            adjudicated(Outcome::win_for(!loser), &reason)
        }
    }
}

fn adjudicated(outcome: Outcome, reason: &str) -> Ending {
    Ending {
        outcome,
        reason: reason.to_owned(),
        termination: Termination::Adjudication,
        fault: None,
        at: None,
    }
}
