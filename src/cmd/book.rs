//! `harness book`: generate an opening book of random legal openings that a short engine search
//! finds roughly balanced.

use crate::game::variant::start_fen;
use crate::game::Variant;
use crate::tournament::book::shuffle;
use crate::tournament::engine_args::engine_from_words;
use crate::uci::{Engine, GoParams, Score};
use anyhow::{bail, Context};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Options of this subcommand.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The judging engine as key=value words (cmd=..., option.Hash=16, ...). Default: sable built
    /// in this workspace (target/release/sable).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// Number of openings to write.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// Random plies played from the start position.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Keep an opening when the engine's score is within ±this many centipawns.
    #[arg(long, default_value_t = 60)]
    pub max_cp: i32,
    /// Search depth of the judging engine.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output EPD file.
    #[arg(long, default_value = "suites/openings.epd")]
    pub out: PathBuf,
    /// standard, or fischerandom: start from the 960 Chess960 positions (in order, so a count of
    /// 960 with --plies 0 is every start position) instead of the standard one.
    #[arg(long, default_value = "standard")]
    pub variant: Variant,
    /// With fischerandom: double Fischer random starts (White's and Black's back ranks drawn
    /// independently).
    #[arg(long)]
    pub dfrc: bool,
}

/// Where the random plies start: the standard position, the `index`-th of the 960 (FRC), or a
/// random pair of back ranks (DFRC).
fn start_position(args: &Args, index: usize, state: &mut u64) -> Option<Chess> {
    if args.variant == Variant::Standard {
        return Some(Chess::default());
    }
    let (white, black) = if args.dfrc {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (((*state >> 33) % 960) as u16, ((*state >> 13) % 960) as u16)
    } else {
        let n = (index % 960) as u16;
        (n, n)
    };
    let fen: Fen = start_fen(white, black).parse().ok()?;
    fen.into_position(CastlingMode::Chess960).ok()
}

/// A random legal opening of `plies` plies from `pos`, or None if the game ended on the way.
fn random_opening(mut pos: Chess, plies: usize, state: &mut u64) -> Option<Chess> {
    for _ in 0..plies {
        let mut moves: Vec<_> = pos.legal_moves().into_iter().collect();
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        shuffle(&mut moves, *state);
        pos.play_unchecked(*moves.first()?);
    }
    (!pos.is_game_over()).then_some(pos)
}

/// Runs the subcommand; returns the process exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let words = if args.engine.is_empty() {
        vec!["cmd=target/release/sable".to_owned()]
    } else {
        args.engine.clone()
    };
    let mut cfg = engine_from_words(&[], &words).map_err(anyhow::Error::msg)?;
    if args.variant == Variant::Chess960 {
        cfg.spec.set_option("UCI_Chess960", "true");
    }
    let mut engine =
        Engine::start(&cfg.spec, Duration::from_secs(10)).context("starting the judging engine")?;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut state = args.seed;
    let bar = indicatif::ProgressBar::new(args.count as u64);
    let mut tries = 0usize;
    while out.len() < args.count {
        tries += 1;
        if tries > args.count * 100 {
            bail!(
                "only {} balanced openings after {tries} tries: raise --max-cp or lower --plies",
                out.len()
            );
        }
        let Some(start) = start_position(&args, tries - 1, &mut state) else {
            continue;
        };
        let Some(pos) = random_opening(start, args.plies, &mut state) else {
            continue;
        };
        let epd = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let key: String = epd.split(' ').take(4).collect::<Vec<_>>().join(" ");
        if !seen.insert(key.clone()) {
            continue;
        }
        engine.new_game()?;
        engine.set_position(Some(&epd), &[] as &[&str])?;
        let go = GoParams {
            depth: Some(args.depth),
            ..GoParams::default()
        };
        let r = engine.go(&go, Duration::from_secs(60), |_| {})?;
        if let Some(Score::Cp(cp)) = r.info.score {
            if cp.abs() <= args.max_cp {
                out.push(format!("{key} c0 \"{cp} cp at depth {}\";", args.depth));
                bar.inc(1);
            }
        }
    }
    bar.finish_and_clear();
    engine.quit(Duration::from_millis(500));
    let mut f = std::fs::File::create(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    writeln!(f, "{}", out.join("\n"))?;
    eprintln!(
        "{} openings ({} tried) written to {}",
        out.len(),
        tries,
        args.out.display()
    );
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(variant: Variant, dfrc: bool) -> Args {
        Args {
            engine: Vec::new(),
            count: 10,
            plies: 0,
            max_cp: 60,
            depth: 1,
            seed: 1,
            out: PathBuf::from("x.epd"),
            variant,
            dfrc,
        }
    }

    fn fen(pos: &Chess) -> String {
        Fen::from_position(pos, EnPassantMode::Legal).to_string()
    }

    #[test]
    fn frc_books_walk_the_960_starts_in_order_and_dfrc_books_mix_back_ranks() {
        let mut state = 1;
        let standard = start_position(&args(Variant::Standard, false), 7, &mut state).unwrap();
        assert_eq!(standard, Chess::default());
        let frc = args(Variant::Chess960, false);
        // Scharnagl's 518 is the standard array; 0 is BBQNNRKR (both colours alike).
        assert_eq!(
            fen(&start_position(&frc, 518, &mut state).unwrap()),
            fen(&Chess::default())
        );
        let zero = fen(&start_position(&frc, 960, &mut state).unwrap());
        assert!(
            zero.starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w"),
            "{zero}"
        );
        let dfrc = args(Variant::Chess960, true);
        let mixed = (0..20)
            .filter_map(|i| start_position(&dfrc, i, &mut state))
            .filter(|p| {
                let f = fen(p);
                let ranks: Vec<&str> = f.split(['/', ' ']).collect();
                ranks[0].to_ascii_uppercase() != ranks[7]
            })
            .count();
        assert!(
            mixed >= 15,
            "{mixed} of 20 DFRC starts have different back ranks"
        );
    }

    #[test]
    fn random_openings_are_legal_reproducible_and_ongoing() {
        let (mut a, mut b) = (7u64, 7u64);
        for _ in 0..20 {
            let (pa, pb) = (
                random_opening(Chess::default(), 8, &mut a),
                random_opening(Chess::default(), 8, &mut b),
            );
            assert_eq!(pa.is_some(), pb.is_some());
            if let (Some(pa), Some(pb)) = (pa, pb) {
                assert_eq!(
                    Fen::from_position(&pa, EnPassantMode::Legal).to_string(),
                    Fen::from_position(&pb, EnPassantMode::Legal).to_string()
                );
                assert!(!pa.is_game_over());
                assert_eq!(
                    pa.fullmoves().get(),
                    5,
                    "8 plies from the start: move 5, White to move"
                );
            }
        }
    }
}
