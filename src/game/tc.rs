//! Search limits of a game (`tc=`, `st=`, `nodes=`, `depth=`, `timemargin=`) and the clocks the
//! runner keeps itself.

use crate::uci::GoParams;
use std::fmt;
use std::time::Duration;

/// A classical or incremental time control: `moves/time+inc` (`moves == 0`: whole game).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TimeControl {
    /// Moves per period; 0 = the base time is for the whole game.
    pub moves: u32,
    /// Base time per period.
    pub base_ms: u64,
    /// Increment added after each move.
    pub inc_ms: u64,
}

/// Why a time control does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TcError {
    /// Not of the form `[moves/]seconds[+increment]`.
    Malformed(String),
    /// Neither base time nor increment.
    NoTime(String),
}

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TcError::Malformed(s) => write!(
                f,
                "malformed time control `{s}` (expected [moves/]seconds[+increment], e.g. 10+0.1)"
            ),
            TcError::NoTime(s) => write!(f, "time control `{s}` gives no time"),
        }
    }
}

impl std::error::Error for TcError {}

impl std::str::FromStr for TimeControl {
    type Err = TcError;

    /// `40/60`, `10+0.1`, `40/60+0.5`, `0.5+0.005`, `inf` is not accepted. Seconds, decimals allowed;
    /// `1:30+1` (minutes:seconds) too.
    fn from_str(s: &str) -> Result<TimeControl, TcError> {
        let bad = || TcError::Malformed(s.to_owned());
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (m.parse::<u32>().map_err(|_| bad())?, r),
            None => (0, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = match base.split_once(':') {
            Some((m, sec)) => {
                let m: u64 = m.parse().map_err(|_| bad())?;
                m * 60_000 + seconds_to_ms(sec).ok_or_else(bad)?
            }
            None => seconds_to_ms(base).ok_or_else(bad)?,
        };
        let inc_ms = match inc {
            Some(i) => seconds_to_ms(i).ok_or_else(bad)?,
            None => 0,
        };
        if base_ms == 0 && inc_ms == 0 {
            return Err(TcError::NoTime(s.to_owned()));
        }
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

/// Parses non-negative decimal seconds into milliseconds.
pub fn seconds_to_ms(s: &str) -> Option<u64> {
    let v: f64 = s.trim().parse().ok()?;
    (v.is_finite() && v >= 0.0).then(|| (v * 1000.0).round() as u64)
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag form: `40/60+0.5`, `10+0.1`, `60`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.moves > 0 {
            write!(f, "{}/", self.moves)?;
        }
        write!(f, "{}", self.base_ms as f64 / 1000.0)?;
        if self.inc_ms > 0 {
            write!(f, "+{}", self.inc_ms as f64 / 1000.0)?;
        }
        Ok(())
    }
}

/// Every limit of one engine's searches. At least one of `tc`, `movetime_ms`, `nodes`, `depth`
/// must be set; they combine (e.g. `tc=10+0.1 nodes=5000`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Limits {
    /// The game clock, if any.
    pub tc: Option<TimeControl>,
    /// Fixed time per move (`st=`).
    pub movetime_ms: Option<u64>,
    /// Node limit per move (`nodes=`).
    pub nodes: Option<u64>,
    /// Depth limit per move (`depth=`).
    pub depth: Option<u32>,
    /// Grace beyond the clock before a loss on time (`timemargin=`, milliseconds).
    pub margin_ms: u64,
    /// Longest wait for a move when no clock bounds it (node or depth limits only).
    pub unclocked_timeout_ms: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            tc: None,
            movetime_ms: None,
            nodes: None,
            depth: None,
            margin_ms: 0,
            unclocked_timeout_ms: 60_000,
        }
    }
}

impl Limits {
    /// Whether any limit stops the engine's search.
    pub fn is_bounded(&self) -> bool {
        self.tc.is_some()
            || self.movetime_ms.is_some()
            || self.nodes.is_some()
            || self.depth.is_some()
    }

    /// The PGN `TimeControl` tag value (`-` for unclocked games, `N/move` style for `st=`).
    pub fn pgn_tag(&self) -> String {
        match (self.tc, self.movetime_ms) {
            (Some(tc), _) => tc.to_string(),
            (None, Some(st)) => format!("{}/move", st as f64 / 1000.0),
            (None, None) => "-".to_owned(),
        }
    }

    /// A short description for reports: `10+0.1`, `st=0.1`, `nodes=5000`, ...
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(tc.to_string());
        }
        if let Some(st) = self.movetime_ms {
            parts.push(format!("st={}", st as f64 / 1000.0));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        parts.join(" ")
    }
}

/// One side's clock: remaining time and moves played in the current period. The increment is
/// added before each move, the first included (FIDE's Laws 6.1, and what fastchess and cutechess
/// do): the time an engine is told it has, `wtime`/`btime`, already holds this move's increment.
/// Book moves are not clocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    limits: Limits,
    remaining_ms: u64,
    moves_in_period: u32,
}

/// What a move did to the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockVerdict {
    /// The move was in time.
    InTime,
    /// The move took longer than the clock (plus margin) allowed.
    Flagged,
}

impl Clock {
    /// A full clock for these limits.
    pub fn new(limits: Limits) -> Clock {
        Clock {
            limits,
            remaining_ms: limits.tc.map_or(0, |t| t.base_ms + t.inc_ms),
            moves_in_period: 0,
        }
    }

    /// Remaining time in milliseconds (0 without a clock).
    pub fn remaining_ms(&self) -> u64 {
        self.remaining_ms
    }

    /// Moves to go until the next period, for `moves/time` controls.
    pub fn moves_to_go(&self) -> Option<u32> {
        let tc = self.limits.tc?;
        (tc.moves > 0).then(|| tc.moves - self.moves_in_period)
    }

    /// How long to wait for the engine's move before declaring it lost on time (or hung).
    pub fn deadline(&self) -> Duration {
        let margin = self.limits.margin_ms;
        let ms = match (self.limits.tc, self.limits.movetime_ms) {
            (Some(_), Some(st)) => self.remaining_ms.min(st) + margin,
            (Some(_), None) => self.remaining_ms + margin,
            (None, Some(st)) => st + margin,
            (None, None) => self.limits.unclocked_timeout_ms,
        };
        Duration::from_millis(ms.max(1))
    }

    /// How long to wait for the move: the deadline and the millisecond that still counts as in
    /// time (see [`Clock::charge`]).
    pub fn wait(&self) -> Duration {
        self.deadline() + Duration::from_millis(1)
    }

    /// Charges `elapsed` for a move; adds the increment and starts a new period as due. The
    /// clock counts whole milliseconds, as fastchess does: a move flags when its whole
    /// milliseconds exceed the time left plus the margin.
    pub fn charge(&mut self, elapsed: Duration) -> ClockVerdict {
        let ms = elapsed.as_millis().min(u64::MAX as u128) as u64;
        if ms > self.deadline().as_millis() as u64
            && (self.limits.tc.is_some() || self.limits.movetime_ms.is_some())
        {
            return ClockVerdict::Flagged;
        }
        if let Some(tc) = self.limits.tc {
            self.remaining_ms = self.remaining_ms.saturating_sub(ms) + tc.inc_ms;
            self.moves_in_period += 1;
            if tc.moves > 0 && self.moves_in_period == tc.moves {
                self.moves_in_period = 0;
                self.remaining_ms += tc.base_ms;
            }
        }
        ClockVerdict::InTime
    }
}

/// The `go` command for the side to move, given both clocks (`white`, `black`).
pub fn go_params(limits: &Limits, white: &Clock, black: &Clock, white_to_move: bool) -> GoParams {
    let mut g = GoParams {
        movetime: limits.movetime_ms,
        nodes: limits.nodes,
        depth: limits.depth,
        ..GoParams::default()
    };
    if let Some(tc) = limits.tc {
        g.wtime = Some(white.remaining_ms());
        g.btime = Some(black.remaining_ms());
        g.winc = (tc.inc_ms > 0).then_some(tc.inc_ms);
        g.binc = g.winc;
        g.movestogo = if white_to_move {
            white.moves_to_go()
        } else {
            black.moves_to_go()
        };
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            tc("10+0.1"),
            TimeControl {
                moves: 0,
                base_ms: 10_000,
                inc_ms: 100
            }
        );
        assert_eq!(
            tc("40/60"),
            TimeControl {
                moves: 40,
                base_ms: 60_000,
                inc_ms: 0
            }
        );
        assert_eq!(
            tc("1:30+1"),
            TimeControl {
                moves: 0,
                base_ms: 90_000,
                inc_ms: 1000
            }
        );
        assert_eq!(tc("1+0.01").to_string(), "1+0.01");
        assert_eq!(tc("40/60+0.5").to_string(), "40/60+0.5");
        for bad in ["", "abc", "10+x", "x/10", "0", "-5+1", "10+0.1+3"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_adds_increment_and_flags_beyond_margin() {
        let limits = Limits {
            tc: Some(tc("1+0.1")),
            margin_ms: 50,
            ..Limits::default()
        };
        let mut c = Clock::new(limits);
        // The first move's increment is on the clock before it is played.
        assert_eq!(c.remaining_ms(), 1100);
        assert_eq!(c.deadline(), Duration::from_millis(1150));
        assert_eq!(c.charge(Duration::from_millis(300)), ClockVerdict::InTime);
        assert_eq!(c.remaining_ms(), 900);
        assert_eq!(c.deadline(), Duration::from_millis(950));
        assert_eq!(c.charge(Duration::from_millis(840)), ClockVerdict::InTime);
        assert_eq!(c.remaining_ms(), 160);
        // 210.9 ms is 210 whole milliseconds: in time, as the wait allows for.
        assert_eq!(c.wait(), Duration::from_millis(211));
        let mut late = c;
        assert_eq!(
            late.charge(Duration::from_micros(210_900)),
            ClockVerdict::InTime
        );
        assert_eq!(c.charge(Duration::from_millis(211)), ClockVerdict::Flagged);
    }

    #[test]
    fn moves_per_period_restore_the_base_time() {
        let limits = Limits {
            tc: Some(tc("2/10")),
            ..Limits::default()
        };
        let mut c = Clock::new(limits);
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(Duration::from_millis(4000));
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(Duration::from_millis(4000));
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (12_000, Some(2)));
    }

    #[test]
    fn go_params_follow_the_clocks() {
        let limits = Limits {
            tc: Some(tc("40/5+0.05")),
            nodes: Some(99),
            ..Limits::default()
        };
        let (w, mut b) = (Clock::new(limits), Clock::new(limits));
        b.charge(Duration::from_millis(1000));
        let g = go_params(&limits, &w, &b, false);
        assert_eq!(
            g.to_command(),
            "go wtime 5050 btime 4100 winc 50 binc 50 movestogo 39 nodes 99"
        );
        let st = Limits {
            movetime_ms: Some(100),
            ..Limits::default()
        };
        assert_eq!(
            go_params(&st, &Clock::new(st), &Clock::new(st), true).to_command(),
            "go movetime 100"
        );
        assert_eq!(Clock::new(st).deadline(), Duration::from_millis(100));
    }
}
