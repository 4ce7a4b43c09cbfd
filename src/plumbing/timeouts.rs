//! One policy for how long an engine may take to start and to say it is ready. Every command
//! that starts engines takes these (a match's `--startup-ms` and `--ping-ms` default to them), so
//! an engine slow to load its network is treated alike by `match`, `epd`, `book` and `label`.

use std::time::Duration;

/// How long one engine may take to start: `uci` -> `uciok`, then `isready` -> `readyok`, each
/// (a match's `--startup-ms` default, book generation's judge), and to answer `isready` after
/// `ucinewgame` between the positions of a suite.
pub const STARTUP: Duration = Duration::from_secs(10);

/// The same for the engines of a pool (`epd`, `suite-gen`, `label`): they start all at once, as
/// many as the machine has cores, and load their tables and networks side by side, so each
/// gets twice as long.
pub const POOL_STARTUP: Duration = Duration::from_secs(2 * STARTUP.as_secs());

/// How long a started engine may take to answer `isready` between games (a match's
/// `--ping-ms` default).
pub const PING: Duration = Duration::from_secs(5);
