//! The bodies of the check steps. Each uses the suites embedded in the binary.

use super::{run_step, Profile, StepOutcome, Verdict};

/// Runs the named step under the profile.
pub fn run(step: &str, profile: Profile) -> StepOutcome {
    let _ = profile;
    run_step(step, || -> anyhow::Result<Verdict> {
        anyhow::bail!("step {step} is not wired yet")
    })
}
