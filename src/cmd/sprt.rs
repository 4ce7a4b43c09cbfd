//! `harness sprt` (not implemented yet).

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand; returns the process exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("not implemented yet")
}
