//! A seat at the board: an engine spec and, while it is healthy, its running process.

use crate::uci::{Engine, EngineSpec, UciError};
use std::time::Duration;

/// One engine of a match with its (re)start policy. The process is started lazily and replaced
/// after a fault, so a crash costs one game.
pub struct Player {
    /// What to run.
    pub spec: EngineSpec,
    /// Allowance for the `uci`/`isready` handshake (`startup-ms`).
    pub startup: Duration,
    /// Allowance for `isready` between games and `stop` after a timeout (`ping-ms`).
    pub ping: Duration,
    engine: Option<Engine>,
    starts: u32,
}

impl Player {
    /// A player whose engine is not started yet.
    pub fn new(spec: EngineSpec, startup: Duration, ping: Duration) -> Player {
        Player {
            spec,
            startup,
            ping,
            engine: None,
            starts: 0,
        }
    }

    /// The display name: the spec's name, else the running engine's id name, else the file name.
    pub fn name(&self) -> String {
        match (&self.spec.name, &self.engine) {
            (Some(n), _) => n.clone(),
            (None, Some(e)) => e.name().to_owned(),
            (None, None) => self.spec.display_name(),
        }
    }

    /// How many times the process was started (1 + restarts).
    pub fn starts(&self) -> u32 {
        self.starts
    }

    /// The running engine, started now if there is none.
    pub fn engine(&mut self) -> Result<&mut Engine, UciError> {
        if self.engine.is_none() {
            self.starts += 1;
            self.engine = Some(Engine::start(&self.spec, self.startup)?);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// Prepares for a new game: `ucinewgame` and `isready`. A running engine that fails this is
    /// replaced once before giving up.
    pub fn new_game(&mut self) -> Result<(), UciError> {
        let wait = self.ping.max(self.startup);
        let fresh = self.engine.is_none();
        let attempt = |p: &mut Player| -> Result<(), UciError> {
            let e = p.engine()?;
            e.new_game()?;
            e.is_ready(wait)
        };
        match attempt(self) {
            Err(_) if !fresh => {
                self.discard();
                attempt(self)
            }
            other => other,
        }
    }

    /// Kills the process; the next game starts a new one.
    pub fn discard(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit(Duration::ZERO);
        }
    }

    /// Asks the engine to quit politely (end of match).
    pub fn shutdown(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit(Duration::from_millis(500));
        }
    }
}
