//! `harness`: perft suites, tactical EPD suites, SPRT matches and Texel tuning for chess engines.
//! The command line only: the subcommands are in the library (`sable_harness::cmd`).

use clap::{Parser, Subcommand};
use sable_harness::{cmd, errln};

/// Test harness for chess engines: move generation, tactics, matches and SPRT, tuning.
#[derive(Parser, Debug)]
#[command(name = "harness", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a perft suite (EPD with ;D1 ;D2 ... counts) against the engine's move generator.
    Perft(cmd::perft::Args),
    /// Run tactical EPD suites (bm, am, dm, c0) against any UCI engine.
    Epd(cmd::epd::Args),
    /// Make an EPD test suite from a PGN of games with a reference engine.
    SuiteGen(cmd::suite_gen::Args),
    /// Play a match between UCI engines.
    // The usage is written out: clap's own would list every option given on the command line
    // as if it were required (an error for `--round` showed `--each ... --rounds ...`).
    #[command(
        override_usage = "harness match --engine cmd=PATH [KEY=VALUE]... --engine cmd=PATH [KEY=VALUE]... [OPTIONS]\n       harness match --resume FILE [--rounds N]"
    )]
    Match(cmd::match_cmd::Args),
    /// Play an SPRT between two engines (or two revisions of sable).
    #[command(
        override_usage = "harness sprt --dev CMD|rev:REV --base CMD|rev:REV [OPTIONS]\n       harness sprt --engine cmd=PATH [KEY=VALUE]... --engine cmd=PATH [KEY=VALUE]... [OPTIONS]\n       harness sprt --resume FILE"
    )]
    Sprt(cmd::sprt::Args),
    /// Find the first commit between two revisions where the engine got weaker (or a test fails).
    Bisect(cmd::bisect::Args),
    /// Tune an engine's search parameters by SPSA over self-play games (OpenBench's method).
    #[command(override_usage = "harness spsa --engine cmd=PATH [KEY=VALUE]... [OPTIONS]")]
    Spsa(cmd::spsa::Args),
    /// Elo, normalized Elo, LOS and LLR from game or game-pair counts.
    Stats(cmd::stats::Args),
    /// One rating list (maximum likelihood, error bars, LOS) for all engines of PGN files.
    Ratings(cmd::ratings::Args),
    /// Generate an opening book of balanced random openings.
    Book(cmd::book::Args),
    /// Texel-tune the evaluation weights on labelled positions.
    Tune(cmd::tune::Args),
    /// Generate labelled positions by self-play.
    Datagen(cmd::datagen::Args),
    /// Extract labelled positions from a PGN file.
    Extract(cmd::extract::Args),
    /// Score labelled positions with a reference engine (kept beside their results, for tune --lambda)
    Label(cmd::label::Args),
    /// Replay a failed game's case (written beside a match's results): exit 0 if the failure
    /// reproduces, 1 if not, 2 for a bad file.
    Replay(cmd::replay::Args),
    /// Syzygy tablebases: probe positions (WDL, DTZ, best move), as the fathom prober does.
    Tb(cmd::tb::Args),
    /// The regression gate: perft, bench signature, tactical baselines, sanity match.
    Check(cmd::check::Args),
    /// Play a match or SPRT from fastchess's command line (-engine, -each, -openings, -sprt,
    /// -pgnout, ...) with fastchess's output, as the harness does when started under the name
    /// fastchess or fastchess-ob (for OpenBench's client). See docs/openbench.md.
    #[command(disable_help_flag = true, disable_version_flag = true)]
    Fastchess {
        /// fastchess's options, e.g. -engine cmd=A -engine cmd=B -each tc=8+0.08 -rounds 100
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        words: Vec<String>,
    },
    /// Run the sable engine (UCI on stdin/stdout), the same library the `sable` binary wraps;
    /// `harness check` plays it without needing a separate build of the binary.
    #[command(hide = true)]
    Engine,
}

fn main() {
    // Started as fastchess (a link named fastchess-ob, as OpenBench's client runs it) or as
    // `harness fastchess`: fastchess's single-dash command line, which clap cannot read.
    let argv: Vec<String> = std::env::args().collect();
    let as_fastchess = argv
        .first()
        .is_some_and(|a| sable_harness::fastchess::is_fastchess_name(a));
    if as_fastchess || argv.get(1).is_some_and(|a| a == "fastchess") {
        let skip = if as_fastchess { 1 } else { 2 };
        exit_with(cmd::fastchess::run(&argv[skip..]));
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Epd(a) => cmd::epd::run(a),
        Command::SuiteGen(a) => cmd::suite_gen::run(a),
        Command::Match(a) => cmd::match_cmd::run(a),
        Command::Sprt(a) => cmd::sprt::run(a),
        Command::Bisect(a) => cmd::bisect::run(a),
        Command::Stats(a) => cmd::stats::run(a),
        Command::Ratings(a) => cmd::ratings::run(a),
        Command::Spsa(a) => cmd::spsa::run(a),
        Command::Book(a) => cmd::book::run(a),
        Command::Tune(a) => cmd::tune::run(a),
        Command::Datagen(a) => cmd::datagen::run(a),
        Command::Extract(a) => cmd::extract::run(a),
        Command::Label(a) => cmd::label::run(a),
        Command::Tb(a) => cmd::tb::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Fastchess { words } => cmd::fastchess::run(&words),
        Command::Engine => {
            sable::uci::Uci::new().run();
            Ok(0)
        }
    };
    exit_with(result);
}

/// Exits with the command's code, or 2 after printing its error.
fn exit_with(result: anyhow::Result<i32>) -> ! {
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e:#}");
            2
        }
    };
    std::process::exit(code);
}
