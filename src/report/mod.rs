//! Progress bars, tables, CSV/JSON output and plots.

pub mod dates;
pub mod plot;
pub mod suggest;
