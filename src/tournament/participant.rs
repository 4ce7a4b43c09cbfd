//! One participant of a match: how to start it and how it may search. A leaf of the runner,
//! read by its configuration, its record and the two-stage SPRT's stages alike.

use crate::game::Limits;
use crate::uci::EngineSpec;
use serde::{Deserialize, Serialize};

/// One participant: how to start it and how it may search. As data, it is an engine of a run's
/// record ([`super::record::RunRecord`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineConfig {
    /// Command, arguments, name, directory and UCI options.
    pub spec: EngineSpec,
    /// Its time control or other limits.
    pub limits: Limits,
    /// The git revision `spec.cmd` was built from, for an engine given as `rev:REV` (a resumed
    /// run rebuilds it there when the cached build is gone).
    #[serde(default)]
    pub revision: Option<super::revision::Revision>,
}
