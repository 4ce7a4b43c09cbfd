//! Progress bars, tables, CSV/JSON output and plots.

pub mod plot;
