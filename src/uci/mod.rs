//! UCI client: spawn an engine process, handshake, options, go/stop, timeouts, crash detection;
//! the one pool of engines for jobs that search many positions ([`pool`]).
//!
//! ```text
//! let mut e = Engine::start(&EngineSpec::new("/usr/games/stockfish").option("Hash", "16"), secs(10))?;
//! e.new_game()?; e.is_ready(secs(5))?;
//! e.set_position(None, &["e2e4"])?;
//! let r = e.go(&GoParams { nodes: Some(10_000), ..Default::default() }, secs(5), |info| ...)?;
//! ```
//! The thread that talks to an engine reads its pipes itself with poll() (see [`reader`]): no
//! thread per engine, every wait has a deadline, and no engine output can exhaust memory.

pub mod cpus;
pub mod direction;
mod engine;
mod error;
pub mod flight;
mod info;
pub mod limit;
pub mod log;
pub mod option;
pub mod pool;
pub mod reader;
mod spec;

pub use engine::{command_line, Engine, SearchResult, StartError};
pub use error::UciError;
pub use info::{BestMove, Info, Score};
pub use log::TrafficLog;
pub use spec::{
    apply_engine_word, engine_spec, unknown_setting, EngineSpec, GoParams, SpecError, ENGINE_KEYS,
};

#[cfg(test)]
pub(crate) mod tests;
