//! `harness replay FILE`: replays a failure case written by `harness match` or `harness sprt`.

use crate::forensics::format::read;
use crate::forensics::replay::{replay, replay_spec, ReplayOptions};
use crate::uci::command_line;
use std::path::PathBuf;

/// Options of `harness replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A failure case (`<results>.failures/game-NNNNNN-KIND.txt`).
    pub file: PathBuf,
    /// Tries before concluding that the failure does not reproduce (for failures that do not
    /// happen every time).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub repeat: u32,
    /// Start a new engine process for every try (by default one process is kept while it is
    /// healthy, as the runner keeps it from game to game).
    #[arg(long)]
    pub fresh: bool,
    /// Run this program instead of the recorded one (same arguments, folder and options): does
    /// the new build still fail?
    #[arg(long, value_name = "PATH")]
    pub cmd: Option<String>,
}

/// Exit code: the failure was reproduced.
pub const EXIT_REPRODUCED: i32 = 0;
/// Exit code: no try reproduced it.
pub const EXIT_NOT_REPRODUCED: i32 = 1;

/// Runs the subcommand: 0 = reproduced, 1 = not reproduced in `--repeat` tries; a bad file or an
/// engine that cannot start is an error (exit code 2).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let case = read(&args.file)?;
    let opts = ReplayOptions {
        tries: args.repeat.max(1),
        fresh: args.fresh,
        cmd: args.cmd,
    };
    let spec = replay_spec(&case, &opts);
    outln!(
        "Replaying game {}: {} ({}), {}",
        case.game,
        if case.white_failed { "White" } else { "Black" },
        case.failing().name,
        case.kind
    );
    outln!("  recorded: {}", case.reason);
    outln!("  engine:   {}", command_line(&spec));
    if let Some(dir) = &spec.dir {
        outln!("  in:       {}", dir.display());
    }
    for (name, value) in &spec.options {
        outln!("  option:   {name}={value}");
    }
    outln!("  {}", case.position);
    outln!("  {} (deadline {} ms)", case.go, case.deadline_ms);
    let reproduced = replay(&case, &opts, |n, seen| {
        outln!("try {n}/{}: {seen}", opts.tries);
    })?;
    Ok(match reproduced {
        Some(n) => {
            outln!("Reproduced ({}) on try {n} of {}", case.kind, opts.tries);
            EXIT_REPRODUCED
        }
        None => {
            outln!(
                "Not reproduced in {} {}",
                opts.tries,
                if opts.tries == 1 { "try" } else { "tries" }
            );
            EXIT_NOT_REPRODUCED
        }
    })
}
