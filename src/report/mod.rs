//! What several rooms show a person: SVG line charts (`plot`), UTC dates for PGN tags and logs
//! (`dates`), and "did you mean" hints for mistyped words (`suggest`). Progress bars are drawn
//! where the work is (docs/architecture.md says where).

pub mod dates;
pub mod plot;
pub mod suggest;
