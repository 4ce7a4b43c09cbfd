//! The parser of fastchess's command line: every option taken into its typed value, every
//! refused one refused by name.

use super::*;

fn w(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

fn ok(s: &str) -> FastchessArgs {
    parse(&w(s)).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn err(s: &str) -> String {
    parse(&w(s)).expect_err(s).to_string()
}

/// The command line OpenBench's client builds (worker.py's MatchRunner), with the quoted
/// match_line as one word, as shlex.split gives it.
fn openbench_line() -> Vec<String> {
    let mut v = w("-recover -variant standard -testEnv -concurrency 2 -rounds 8 -games 2 \
        -resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10 \
        -tb /tb -tbpieces 5 \
        -engine dir=Engines/ cmd=./a proto=uci tc=8.00+0.08 timemargin=250 option.Threads=1 option.Hash=16 name=Sable-dev \
        -engine dir=Engines/ cmd=./b proto=uci tc=inf nodes=5000 option.Hash=16 name=Sable-base \
        -openings file=Books/UHO.epd format=epd order=random start=17 -srand 42 \
        -pgnout file=PGNs/1.2.3.0.pgn seldepth=true nodes=true");
    v.push("match_line=^info string pgncomment .*".to_owned());
    v
}

#[test]
fn openbench_client_command_line_is_read_whole() {
    let a = parse(&openbench_line()).unwrap();
    assert!(a.recover && a.test_env && !a.fischer_random);
    assert_eq!(
        (a.concurrency, a.rounds, a.games),
        (Some(2), Some(8), Some(2))
    );
    assert_eq!(a.resign, w("movecount=3 score=400"));
    assert_eq!(a.draw, w("movenumber=40 movecount=8 score=10"));
    assert_eq!((a.tb.as_deref(), a.tbpieces), (Some("/tb"), Some(5)));
    assert_eq!(a.engines.len(), 2);
    assert_eq!(
        a.engines[0],
        w("dir=Engines/ cmd=./a proto=uci tc=8.00+0.08 timemargin=250 option.Threads=1 option.Hash=16 name=Sable-dev")
    );
    assert!(a.engines[1].contains(&"tc=inf".to_owned()));
    let o = a.openings.unwrap();
    assert_eq!(o.file.as_deref(), Some("Books/UHO.epd"));
    assert_eq!(
        (o.format.as_deref(), o.order.as_deref()),
        (Some("epd"), Some("random"))
    );
    assert_eq!((o.start, a.srand), (Some(17), Some(42)));
    let p = a.pgnout.unwrap();
    assert_eq!(p.file.as_deref(), Some("PGNs/1.2.3.0.pgn"));
    assert!(p.nodes && p.seldepth);
    assert_eq!(p.match_lines, ["^info string pgncomment .*"]);
}

#[test]
fn every_other_option_is_taken_into_its_value() {
    let a = ok(
        "-engine cmd=x plies=7 restart=off tc=infinite st=0.5 depth=3 -engine cmd=y \
        -each proto=uci nodes=100 option.Hash=8 \
        -openings file=b.pgn format=pgn order=sequential plies=6 policy=round \
        -maxmoves 120 -tbadjudicate WIN_LOSS -tbignore50 \
        -sprt elo0=-1.5 elo1=3 alpha=0.1 beta=0.2 model=logistic \
        -log file=uci.log level=info engine=true -ratinginterval 5 -output format=fastchess \
        -config outname=run.json -use-affinity -force-concurrency -event Test \
        -tournament gauntlet -startup-ms 2000 -ping-ms 3000 -variant fischerandom -repeat",
    );
    assert_eq!(a.engines[0], w("cmd=x depth=7 tc=inf st=0.5 depth=3"));
    assert_eq!(a.each, w("proto=uci nodes=100 option.Hash=8"));
    let o = a.openings.unwrap();
    assert_eq!(
        (o.format.as_deref(), o.order.as_deref(), o.plies),
        (Some("pgn"), Some("sequential"), Some(6))
    );
    assert_eq!(a.maxmoves, Some(120));
    assert_eq!(a.tbadjudicate, Some("win-loss"));
    assert!(a.tbignore50);
    let s = a.sprt.unwrap();
    assert_eq!(
        (s.elo0, s.elo1, s.alpha, s.beta, s.logistic),
        (-1.5, 3.0, 0.1, 0.2, true)
    );
    assert_eq!(a.log, Some(PathBuf::from("uci.log")));
    assert_eq!(a.ratinginterval, Some(5));
    assert_eq!(a.config.unwrap().outname, Some(PathBuf::from("run.json")));
    assert!(a.affinity && a.force_concurrency && a.fischer_random);
    assert_eq!(a.event.as_deref(), Some("Test"));
    assert_eq!(a.tournament.as_deref(), Some("gauntlet"));
    assert_eq!((a.startup_ms, a.ping_ms), (Some(2000), Some(3000)));
    assert_eq!(a.games, Some(2));
    assert_eq!(ok("-repeat 1").games, Some(1));
    assert_eq!(
        ok("-config file=old.json").config.unwrap().file,
        Some(PathBuf::from("old.json"))
    );
    assert_eq!(
        ok("-pgnout out.pgn").pgnout.unwrap().file.as_deref(),
        Some("out.pgn")
    );
    // The SPRT's defaults are fastchess's.
    let s = ok("-sprt elo0=0 elo1=5").sprt.unwrap();
    assert_eq!((s.alpha, s.beta, s.logistic), (0.05, 0.05, false));
}

#[test]
fn version_and_help_in_every_spelling() {
    for v in ["-version", "--version", "-v", "version"] {
        assert_eq!(ok(v).action, Action::Version, "{v}");
    }
    for h in ["-help", "--help"] {
        assert_eq!(ok(h).action, Action::Help, "{h}");
    }
    assert_eq!(ok("-rounds 3").action, Action::Run);
}

#[test]
fn refused_options_are_named_with_the_harness_spelling() {
    for (name, instead) in REFUSED {
        let e = err(&format!("-rounds 2 -{name} 1"));
        assert!(e.contains(&format!("`-{name}`")), "{e}");
        assert!(e.contains(instead), "{e}");
    }
    assert!(err("-scoreinterval 3").contains("-ratinginterval"));
    assert!(err("-debug").contains("-log file="));
}

#[test]
fn mistyped_options_get_the_nearest_one() {
    assert_eq!(
        err("-concurency 2"),
        "unknown option `-concurency`; did you mean `-concurrency`?"
    );
    assert!(err("-pgnot file=x").contains("did you mean `-pgnout`?"));
    assert!(err("-zzzzzzzz").contains("-help lists"));
    assert!(err("stray -rounds 2").contains("`stray` is not an option"));
}

#[test]
fn bad_values_are_refused_with_what_is_taken() {
    for (line, needle) in [
        ("-rounds x", "a number of rounds"),
        ("-rounds", "needs a number of rounds"),
        ("-rounds 1 2", "one value"),
        ("-recover yes", "takes no value"),
        ("-variant chess", "standard or fischerandom"),
        ("-tbadjudicate win", "WIN_LOSS, DRAW or BOTH"),
        ("-sprt elo0=0", "elo0= and elo1="),
        ("-sprt elo0=0 elo1=5 model=bayesian", "no bayesian"),
        ("-sprt elo0=0 elo1=5 alphaa=0.1", "did you mean `alpha=`?"),
        ("-openings file=a format=bin", "format=epd or format=pgn"),
        ("-openings file=a ordr=random", "did you mean `order=`?"),
        ("-pgnout file=a nodes=yes", "nodes=true or nodes=false"),
        ("-log level=info", "file=FILE"),
        ("-output format=cutechess", "no cutechess output"),
        ("-use-affinity 0-3", "without a CPU list"),
        ("-engine cmd=x restart=on", "restart=off"),
        ("-engine cmd=x proto=xboard", "proto=uci"),
        ("-engine cmd", "key=value"),
        ("-tournament knockout", "gauntlet or roundrobin"),
        ("-config discard=true", "one of file=, outname="),
    ] {
        let e = err(line);
        assert!(e.contains(needle), "{line}: {e}");
    }
}

#[test]
fn negative_numbers_are_values_not_options() {
    assert_eq!(ok("-srand 5").srand, Some(5));
    let a = ok("-sprt elo0=-3 elo1=-1");
    assert_eq!(a.sprt.unwrap().elo0, -3.0);
    assert!(err("-maxmoves -5").contains("a number of moves"));
}
