//! `harness match --variant fischerandom`: a double Fischer random book in Shredder-FEN and
//! X-FEN, UCI_Chess960 set on every engine (and an engine without it refused), and a PGN that
//! an independent reader replays under Chess960 rules (shakmaty, through pgn-reader).

use crate::common;

use common::temp_dir;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::ops::ControlFlow;
use std::process::Command;

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
const FAULTY: &str = env!("CARGO_BIN_EXE_faulty-engine");

/// Replays each game of a PGN under Chess960 rules; returns (plies, castlings) per game.
struct Replay {
    pos: Chess,
    plies: usize,
    castles: usize,
    chess960: bool,
}

impl pgn_reader::Visitor for Replay {
    type Tags = Option<String>;
    type Movetext = ();
    type Output = Result<(usize, usize), String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.chess960 = false;
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        fen: &mut Self::Tags,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        match name {
            b"FEN" => *fen = Some(value.decode_utf8_lossy().into_owned()),
            b"Variant" => self.chess960 = value.decode_utf8_lossy() == "Chess960",
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, fen: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        if !self.chess960 {
            return ControlFlow::Break(Err("no [Variant \"Chess960\"] tag".into()));
        }
        let Some(fen) = fen else {
            return ControlFlow::Break(Err("no FEN tag".into()));
        };
        match fen.parse::<Fen>().map_err(|e| e.to_string()).and_then(|f| {
            f.into_position(CastlingMode::Chess960)
                .map_err(|e| e.to_string())
        }) {
            Ok(p) => self.pos = p,
            Err(e) => return ControlFlow::Break(Err(format!("{fen}: {e}"))),
        }
        self.plies = 0;
        self.castles = 0;
        ControlFlow::Continue(())
    }

    fn san(
        &mut self,
        _: &mut Self::Movetext,
        san: pgn_reader::SanPlus,
    ) -> ControlFlow<Self::Output> {
        match san.san.to_move(&self.pos) {
            Ok(m) => {
                self.castles += usize::from(m.is_castle());
                self.pos.play_unchecked(m);
                self.plies += 1;
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(format!("ply {}: {san}: {e}", self.plies + 1))),
        }
    }

    fn end_game(&mut self, _: Self::Movetext) -> Self::Output {
        Ok((self.plies, self.castles))
    }
}

#[test]
fn a_dfrc_match_sets_uci_chess960_and_its_pgn_replays_under_chess960_rules() {
    let dir = temp_dir("960", "dfrc");
    // Position 0 against itself (Shredder-FEN), 0 against 959 (double Fischer random), an
    // X-FEN `KQkq` start, and a position with castling near (rooks beside kings).
    std::fs::write(
        dir.join("dfrc.epd"),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -\n\
         rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca -\n\
         nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq -\n\
         1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb -\n",
    )
    .unwrap();
    let out = Command::new(HARNESS)
        .args(["match", "--variant", "fischerandom", "--engine"])
        .args([
            &format!("cmd={FAULTY}"),
            "name=a",
            "args=--chess960 --seed 3",
        ])
        .args(["--engine", &format!("cmd={FAULTY}"), "name=b"])
        .arg("args=--chess960 --seed 4")
        .args([
            "--each",
            "tc=inf",
            "nodes=1",
            "--rounds",
            "8",
            "--concurrency",
            "2",
        ])
        .args([
            "--openings",
            "file=dfrc.epd",
            "--pgnout",
            "g.pgn",
            "--quiet",
        ])
        .args(["--log", "uci.log", "--maxmoves", "60"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("Finished 16 of 16 games"), "{text}");
    let log = std::fs::read_to_string(dir.join("uci.log")).unwrap();
    assert!(
        log.contains("> setoption name UCI_Chess960 value true"),
        "the engines are told"
    );
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    assert_eq!(pgn.matches("[Variant \"Chess960\"]").count(), 16);
    let mut reader = pgn_reader::Reader::new(std::io::Cursor::new(pgn.as_bytes()));
    let mut replay = Replay {
        pos: Chess::default(),
        plies: 0,
        castles: 0,
        chess960: false,
    };
    let games: Vec<(usize, usize)> = reader
        .read_games(&mut replay)
        .map(|g| g.unwrap().unwrap())
        .collect();
    assert_eq!(games.len(), 16);
    assert!(games.iter().all(|&(plies, _)| plies > 0));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_without_uci_chess960_is_refused() {
    let dir = temp_dir("960", "refuse");
    let out = Command::new(HARNESS)
        .args(["match", "--variant", "fischerandom", "--engine"])
        .args([&format!("cmd={FAULTY}"), "name=a", "args=--chess960"])
        .args(["--engine", &format!("cmd={FAULTY}"), "name=plain"])
        .args(["--each", "nodes=1", "--quiet"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("engine plain does not offer UCI_Chess960"),
        "{text}"
    );
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "nothing written, no lock left: {left:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_default_chess960_book_is_the_960_start_positions() {
    let dir = temp_dir("960", "starts");
    let out = Command::new(HARNESS)
        .args(["match", "--variant", "fischerandom", "--engine"])
        .args([&format!("cmd={FAULTY}"), "name=a", "args=--chess960"])
        .args([
            "--engine",
            &format!("cmd={FAULTY}"),
            "name=b",
            "args=--chess960",
        ])
        .args(["--each", "nodes=1", "--rounds", "3", "--maxmoves", "5"])
        .args(["--pgnout", "g.pgn", "--quiet"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    let fens: std::collections::HashSet<&str> =
        pgn.lines().filter(|l| l.starts_with("[FEN ")).collect();
    assert_eq!(fens.len(), 3);
    assert!(
        pgn.contains("[Opening \"chess960 starts position "),
        "{pgn}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
