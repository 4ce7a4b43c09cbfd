//! The `sable` binary: UCI engine by default; `sable perft DEPTH [FEN]` and `sable bench` as tools.

mod perft_cmd;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("perft") => perft_cmd::run(&args[1..]),
        _ => 0,
    };
    std::process::exit(code);
}
