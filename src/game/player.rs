//! A seat at the board: an engine spec and, while it is healthy, its running process.

use crate::uci::flight::FlightRecorder;
use crate::uci::log::OutputTail;
use crate::uci::{Engine, EngineSpec, StartError, TrafficLog, UciError};
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
    /// Where the UCI traffic is logged (`--log`), if anywhere.
    pub log: Option<TrafficLog>,
    /// The cores the engine is pinned to (`--affinity`); empty = not pinned.
    pub cpus: Vec<usize>,
    engine: Option<Engine>,
    /// How many times the process was started; the tests check the restarts with it.
    #[cfg(test)]
    starts: u32,
    start_error: Option<StartError>,
    last_tail: Option<OutputTail>,
    /// The current game's flight recorder: attached to the running engine and to every engine
    /// started during the game.
    recorder: Option<FlightRecorder>,
}

impl Player {
    /// A player whose engine is not started yet.
    pub fn new(spec: EngineSpec, startup: Duration, ping: Duration) -> Player {
        Player {
            spec,
            startup,
            ping,
            log: None,
            cpus: Vec::new(),
            engine: None,
            #[cfg(test)]
            starts: 0,
            start_error: None,
            last_tail: None,
            recorder: None,
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
    #[cfg(test)]
    pub fn starts(&self) -> u32 {
        self.starts
    }

    /// The running engine, started now if there is none.
    pub fn engine(&mut self) -> Result<&mut Engine, UciError> {
        if self.engine.is_none() {
            #[cfg(test)]
            {
                self.starts += 1;
            }
            match Engine::start_pinned(&self.spec, self.startup, self.log.as_ref(), &self.cpus) {
                Ok(mut e) => {
                    if let Some(r) = &self.recorder {
                        // The handshake happened before the recorder could see it.
                        r.note(&format!(
                            "started `{}` (uci, its setoption lines and isready done)",
                            crate::uci::command_line(&self.spec)
                        ));
                    }
                    e.set_recorder(self.recorder.clone());
                    self.engine = Some(e);
                }
                Err(e) => {
                    let cause = e.error.clone();
                    self.last_tail = None;
                    self.start_error = Some(e);
                    return Err(cause);
                }
            }
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// Why the last start failed, with the engine's command line and last output; taken once.
    /// Without a failed start, `cause` is described with the engine's last output.
    pub fn start_error(&mut self, cause: UciError) -> StartError {
        self.start_error.take().unwrap_or_else(|| StartError {
            engine: self.name(),
            command: crate::uci::command_line(&self.spec),
            error: cause,
            output: self.output_tail(),
        })
    }

    /// The last lines the engine printed (of the running process, else of the last one).
    pub fn output_tail(&self) -> Vec<String> {
        match (&self.engine, &self.last_tail, &self.start_error) {
            (Some(e), _, _) => e.output_tail(),
            (None, Some(t), _) => t.lines(),
            (None, None, Some(e)) => e.output.clone(),
            (None, None, None) => Vec::new(),
        }
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

    /// Attaches a game's flight recorder to this seat (its running engine and any engine started
    /// until it is detached with `None`).
    pub fn set_recorder(&mut self, recorder: Option<FlightRecorder>) {
        if let Some(e) = self.engine.as_mut() {
            e.set_recorder(recorder.clone());
        }
        self.recorder = recorder;
    }

    /// Kills the process; the next game starts a new one.
    pub fn discard(&mut self) {
        if let Some(e) = self.engine.take() {
            self.last_tail = Some(e.tail_handle());
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
