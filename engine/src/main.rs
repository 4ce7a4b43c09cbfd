//! The `sable` binary: UCI engine by default; `sable perft DEPTH [FEN]`,
//! `sable bench [DEPTH [SYZYGY_PATH]]`, `sable tbprobe PATH` (FENs on stdin), `sable spsa`
//! (tuning build) and OpenBench's `sable "genfens N seed S book B" "quit"` as tools.

mod perft_cmd;
mod tbprobe_cmd;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("perft") => perft_cmd::run(&args[1..]),
        Some("bench") => sable::bench::main(&args[1..]),
        Some("tbprobe") => tbprobe_cmd::run(&args[1..]),
        Some("spsa") => spsa(),
        // OpenBench passes the command and its arguments as one word, then "quit".
        Some(cmd) if cmd.starts_with("genfens") => sable::genfens::main(cmd),
        _ => {
            sable::uci::Uci::new().run();
            0
        }
    };
    std::process::exit(code);
}

/// `sable spsa`: the search parameters in OpenBench's SPSA input format, one per line. Only the
/// tuning build (`make TUNE=1`) has them as options; the shipping build says so and fails.
fn spsa() -> i32 {
    if !cfg!(feature = "tune") {
        eprintln!("sable spsa: this build has no tunable options; build with `make TUNE=1`");
        return 1;
    }
    for p in sable::search::params::PARAMS {
        println!("{}", p.spsa_line());
    }
    0
}
