//! Evaluation tests: trace exactness, colour symmetry, end-game behaviour, the EvalFile format.

use sable::board::Board;
use sable::eval::{
    evaluate, evaluate_cached, psq, psq_delta, taper, trace, Params, PawnCache, Trace, PHASE_MAX,
    S, SCALE_MAX,
};
use sable::types::Color;
use std::path::PathBuf;

/// Small deterministic xorshift generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// FENs of every position met in `games` random playouts of at most `plies` plies.
fn playout_fens(seed: u64, games: usize, plies: usize) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut fens = Vec::new();
    for _ in 0..games {
        let mut b = Board::startpos();
        for _ in 0..plies {
            fens.push(b.to_fen());
            let moves = b.legal_moves();
            if moves.is_empty() || b.is_fifty_move_draw() || b.has_insufficient_material() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            b.make(m);
        }
    }
    fens
}

/// The colour-flipped position: ranks mirrored, colours and side to move swapped.
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap_case = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = f[0].split('/').rev().map(swap_case).collect();
    let stm = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let swapped = swap_case(f[2]);
        "KQkq".chars().filter(|&c| swapped.contains(c)).collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
    };
    format!(
        "{} {} {} {} {} {}",
        board.join("/"),
        stm,
        castling,
        ep,
        f[4],
        f[5]
    )
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
}

fn eval_fen(fen: &str) -> i32 {
    evaluate(&board(fen), &Params::default())
}

/// White-POV evaluation.
fn white_eval(fen: &str) -> i32 {
    let b = board(fen);
    let e = evaluate(&b, &Params::default());
    if b.side_to_move() == Color::White {
        e
    } else {
        -e
    }
}

/// Params with every weight random in -200..200: exactness must not depend on the defaults.
fn random_params(seed: u64) -> Params {
    let mut rng = Rng(seed);
    let w: Vec<S> = (0..Params::len())
        .map(|_| S::new(rng.below(400) as i32 - 200, rng.below(400) as i32 - 200))
        .collect();
    Params::from_weights(&w)
}

#[test]
fn trace_equals_evaluate_on_random_playouts() {
    let fens = playout_fens(0x5eed_cafe, 40, 160);
    assert!(fens.len() > 3000, "only {} positions", fens.len());
    let params = [Params::default(), random_params(7), Params::material_only()];
    let weights: Vec<Vec<S>> = params.iter().map(|p| p.weights()).collect();
    for fen in &fens {
        let b = board(fen);
        let t = trace(&b);
        assert!(
            t.terms.windows(2).all(|w| w[0].0 < w[1].0),
            "terms not sorted: {fen}"
        );
        assert!(
            t.terms.iter().all(|&(_, c)| c != 0),
            "zero coefficient kept: {fen}"
        );
        let sign = if b.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        for (p, w) in params.iter().zip(&weights) {
            assert_eq!(
                evaluate(&b, p),
                sign * t.white_eval(w),
                "trace mismatch on {fen}"
            );
        }
    }
}

/// Mop-up (the untunable part of the evaluation, `Trace::fixed`) appears only in won endgames
/// against a bare king, which random playouts rarely reach: the trace must carry it there too.
#[test]
fn trace_equals_evaluate_in_mop_up_endgames() {
    let p = Params::default();
    let mut with_mop_up = 0;
    for white in ["Q", "R", "BN"] {
        for (wk, bk) in [("e1", "e8"), ("d4", "h8"), ("b2", "a8"), ("g6", "e4")] {
            for stm in ["w", "b"] {
                let b = board(&lone_king_fen(wk, bk, white, stm));
                let t = trace(&b);
                with_mop_up += usize::from(t.fixed != 0);
                let sign = if b.side_to_move() == Color::White {
                    1
                } else {
                    -1
                };
                assert_eq!(
                    evaluate(&b, &p),
                    sign * t.white_eval(&p.weights()),
                    "trace mismatch on {}",
                    b.to_fen()
                );
            }
        }
    }
    assert!(with_mop_up > 0, "no position had a mop-up term");
}

/// The middle-game and end-game sums of `t`'s terms under `w`, before the complexity term.
fn sums(t: &Trace, w: &[S]) -> (i32, i32) {
    t.terms.iter().fold((0, 0), |(mg, eg), &(i, c)| {
        let x = w[i as usize];
        (mg + x.mg() * c as i32, eg + x.eg() * c as i32)
    })
}

/// A pawn ending, White a pawn up, with pawns on both flanks: 9 pawns, complexity
/// 3 * 9 + 26 + 57 - 47 = 63.
const COMPLEX_PAWN_ENDING: &str = "4k3/pp4pp/8/8/8/8/PPP3PP/4K3 w - - 0 1";
/// Rooks and three pawns a side on the king's flank, placed alike: the end-game sum is the
/// tempo's 7 alone, complexity 3 * 6 - 47 = -29.
const DRAWISH_ROOK_ENDING: &str = "r3k3/5ppp/8/8/8/8/5PPP/R3K3 w - - 0 1";

#[test]
fn complexity_pushes_a_pawn_ending_on_both_flanks_away_from_zero() {
    let w = Params::default().weights();
    for (fen, sign) in [
        (COMPLEX_PAWN_ENDING.to_string(), 1),
        (mirror_fen(COMPLEX_PAWN_ENDING), -1),
    ] {
        let t = trace(&board(&fen));
        assert_eq!(t.complexity, 63, "{fen}");
        assert_eq!((t.phase, t.scale, t.scale_black), (0, SCALE_MAX, SCALE_MAX));
        let (_, eg) = sums(&t, &w);
        assert_eq!(eg.signum(), sign, "{fen}: end-game sum {eg}");
        assert_eq!(t.eg_adjustment(&w), sign * 63, "{fen}");
        // A pure end game: the evaluation is the moved end-game sum itself.
        assert_eq!(white_eval(&fen), eg + sign * 63, "{fen}");
        assert_eq!(t.white_eval(&w), eg + sign * 63, "{fen}");
    }
}

#[test]
fn complexity_pulls_a_small_edge_to_zero_but_never_past_it() {
    let p = Params::default();
    let w = p.weights();
    let tempo = p.get(Params::index_of("tempo").unwrap());
    for (fen, sign) in [
        (DRAWISH_ROOK_ENDING.to_string(), 1),
        (DRAWISH_ROOK_ENDING.replace(" w ", " b "), -1),
    ] {
        let t = trace(&board(&fen));
        assert_eq!((t.complexity, t.phase), (-29, 4), "{fen}");
        let (mg, eg) = sums(&t, &w);
        assert_eq!((mg, eg), (sign * tempo.mg(), sign * tempo.eg()), "{fen}");
        assert!(
            eg.abs() < 29,
            "{fen}: the test needs an edge the term cancels"
        );
        // Exactly 0 is left of the end-game part: only the middle game's tempo counts.
        assert_eq!(t.eg_adjustment(&w), -eg, "{fen}");
        assert_eq!(white_eval(&fen), taper(mg, 0, 4, SCALE_MAX), "{fen}");
        assert_eq!(white_eval(&fen), sign * tempo.mg() * 4 / 24, "{fen}");
    }
    // On random playouts, under the defaults and under random weights, the moved end-game sum
    // keeps the sign of the sum or is 0; it moves by the complexity unless that would cross 0.
    let fens = playout_fens(0xc0ff_ee00, 20, 200);
    let (mut zeroed, mut pushed) = (0, 0);
    for weights in [w.clone(), random_params(11).weights()] {
        for fen in &fens {
            let t = trace(&board(fen));
            let (_, eg) = sums(&t, &weights);
            let moved = eg + t.eg_adjustment(&weights);
            assert!(
                moved == 0 || moved.signum() == eg.signum(),
                "{fen}: {eg} -> {moved}"
            );
            if moved != 0 {
                assert_eq!(moved - eg, eg.signum() * t.complexity, "{fen}");
            } else if eg != 0 {
                assert!(t.complexity <= -eg.abs(), "{fen}");
                zeroed += 1;
            }
            pushed += usize::from(moved.abs() > eg.abs());
        }
    }
    assert!(zeroed > 0 && pushed > 0, "{zeroed} zeroed, {pushed} pushed");
}

#[test]
fn trace_equals_evaluate_with_the_complexity_term() {
    let params = [Params::default(), random_params(5), Params::material_only()];
    let mut fens = vec![
        COMPLEX_PAWN_ENDING.to_string(),
        DRAWISH_ROOK_ENDING.to_string(),
        DRAWISH_ROOK_ENDING.replace(" w ", " b "),
        // Pawnless, material ahead, few pieces: the scale factor reads the moved sum.
        "8/8/4k3/5b2/8/3RK3/8/8 w - - 0 1".to_string(),
        "8/8/8/8/8/2k5/1pp5/6NK w - - 0 1".to_string(),
        "8/5pk1/6p1/8/8/1P6/P1B2K2/2b5 w - - 0 1".to_string(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1".to_string(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(),
    ];
    fens.extend(fens.clone().iter().map(|f| mirror_fen(f)));
    for fen in &fens {
        let b = board(fen);
        let t = trace(&b);
        let sign = if b.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        for p in &params {
            let w = p.weights();
            assert_eq!(evaluate(&b, p), sign * t.white_eval(&w), "{fen}");
            // The scale factor the trace reports is the one for the moved sum's sign.
            let eg = sums(&t, &w).1 + t.eg_adjustment(&w);
            let want = if eg < 0 { t.scale_black } else { t.scale };
            assert_eq!(t.scale_under(&w), want, "{fen}");
        }
    }
}

/// The FEN of the white king on `wk`, the black king on `bk` and White's `pieces` on c3 and f3.
fn lone_king_fen(wk: &str, bk: &str, pieces: &str, stm: &str) -> String {
    let mut grid = [None; 64];
    let index = |sq: &str| {
        let (f, r) = (sq.as_bytes()[0] - b'a', sq.as_bytes()[1] - b'1');
        usize::from(r) * 8 + usize::from(f)
    };
    grid[index(wk)] = Some('K');
    grid[index(bk)] = Some('k');
    for (c, sq) in pieces.chars().zip(["c3", "f3"]) {
        grid[index(sq)] = Some(c);
    }
    let mut rows = Vec::new();
    for r in (0..8).rev() {
        let (mut row, mut empty) = (String::new(), 0);
        for f in 0..8 {
            match grid[r * 8 + f] {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {stm} - - 0 1", rows.join("/"))
}

#[test]
fn the_pawn_cache_changes_no_score() {
    // Each position twice in a row (a miss, then a hit) and the playouts again (hits on
    // structures stored long ago), under two weight sets, each with its own cache.
    let fens = playout_fens(0x9a11_cace, 40, 160);
    assert!(fens.len() > 3000, "only {} positions", fens.len());
    for p in [Params::default(), random_params(11)] {
        let mut cache = PawnCache::default();
        for pass in 0..2 {
            for fen in &fens {
                let b = board(fen);
                let want = evaluate(&b, &p);
                let sum = psq(&b, &p);
                assert_eq!(
                    evaluate_cached(&b, &p, &mut cache, sum),
                    want,
                    "pass {pass}: {fen}"
                );
                assert_eq!(evaluate_cached(&b, &p, &mut cache, sum), want, "hit: {fen}");
            }
        }
    }
}

#[test]
fn a_cleared_pawn_cache_forgets_the_old_weights() {
    let b = board("r1bqk2r/pp3ppp/2n1pn2/3p4/1bPP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 7");
    let (old, new) = (Params::default(), random_params(12));
    let mut cache = PawnCache::default();
    evaluate_cached(&b, &old, &mut cache, psq(&b, &old));
    cache.clear();
    assert_eq!(
        evaluate_cached(&b, &new, &mut cache, psq(&b, &new)),
        evaluate(&b, &new)
    );
}

#[test]
fn the_incremental_material_and_table_sum_equals_the_full_one() {
    // Every legal move of the playout positions, plus positions with castling, en passant,
    // promotions (quiet and capturing) and bare kings on the board, under two weight sets.
    let mut fens = playout_fens(0x95_9d17, 30, 160);
    fens.extend(
        [
            "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 9",
            "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R b KQkq - 0 9",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2",
            "1n2k3/P7/8/8/8/8/7p/4K1N1 w - - 0 1",
            "1n2k3/P7/8/8/8/8/7p/4K1N1 b - - 0 1",
            "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
            "8/8/3k4/8/8/8/6r1/K7 b - - 0 1",
        ]
        .map(String::from),
    );
    let mut cache = PawnCache::default();
    for p in [Params::default(), random_params(13)] {
        cache.clear();
        for fen in &fens {
            let mut b = board(fen);
            let sum = psq(&b, &p);
            assert_eq!(
                evaluate_cached(&b, &p, &mut cache, sum),
                evaluate(&b, &p),
                "{fen}"
            );
            for &m in b.legal_moves().iter() {
                let after = sum + psq_delta(&b, m, &p);
                b.make(m);
                assert_eq!(after, psq(&b, &p), "{m} in {fen}");
                b.unmake();
            }
        }
    }
}

#[test]
fn colour_flip_gives_the_same_evaluation() {
    assert_eq!(
        mirror_fen("r3k2r/pp3ppp/8/3pP3/8/8/PPP2PPP/R3K1R1 w Qkq d6 0 12"),
        "r3k1r1/ppp2ppp/8/8/3Pp3/8/PP3PPP/R3K2R b KQq d3 0 12"
    );
    let random = random_params(99);
    for fen in playout_fens(0xabcdef, 20, 160) {
        let (a, b) = (board(&fen), board(&mirror_fen(&fen)));
        assert_eq!(
            evaluate(&a, &Params::default()),
            evaluate(&b, &Params::default()),
            "{fen}"
        );
        assert_eq!(evaluate(&a, &random), evaluate(&b, &random), "{fen}");
    }
}

#[test]
fn taper_formula() {
    assert_eq!(taper(100, 200, PHASE_MAX, SCALE_MAX), 100);
    assert_eq!(taper(100, 200, 0, SCALE_MAX), 200);
    assert_eq!(taper(100, 200, 0, SCALE_MAX / 2), 100);
    assert_eq!(taper(100, 200, 12, SCALE_MAX), 150);
    assert_eq!(taper(-100, -200, 12, SCALE_MAX), -150);
}

#[test]
fn start_position_is_the_tempo_bonus() {
    let tempo = Params::default().get(Params::index_of("tempo").unwrap());
    assert_eq!(
        eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        tempo.mg()
    );
    assert_eq!(
        eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
        tempo.mg()
    );
    // A queen up is worth roughly a queen.
    let e = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!((800..1300).contains(&e), "queen odds evaluated as {e}");
}

/// The coefficient of the named weight in the trace of `fen`.
fn coef(fen: &str, name: &str) -> i32 {
    let i = Params::index_of(name).unwrap_or_else(|| panic!("no weight {name}")) as u16;
    let t = trace(&board(fen));
    t.terms
        .iter()
        .find(|&&(j, _)| j == i)
        .map_or(0, |&(_, c)| c as i32)
}

#[test]
fn terms_detect_their_features() {
    // White: isolated doubled pawns on the c-file (both passed) and a passed e6 pawn;
    // Black: g7 and h7 side by side in front of the g8 king.
    let fen = "6k1/6pp/4P3/8/2P5/2P5/8/6K1 w - - 0 1";
    assert_eq!(
        coef(fen, "pawns.isolated"),
        3,
        "c3, c4, e6 are isolated; g7, h7 are not"
    );
    assert_eq!(coef(fen, "pawns.doubled"), 1, "c3 has c4 ahead");
    assert_eq!(coef(fen, "passed.rank6"), 1);
    assert_eq!(coef(fen, "passed.rank4"), 1);
    assert_eq!(coef(fen, "passed.rank3"), 1);
    assert_eq!(
        coef(fen, "pawns.phalanx"),
        -2,
        "g7 and h7 stand side by side"
    );
    assert_eq!(
        coef(fen, "king.shield_near"),
        -2,
        "black king g8 behind g7 h7"
    );
    assert_eq!(
        coef(fen, "king.open_file"),
        3 - 1,
        "f, g, h open for White; f for Black"
    );
    // Stop squares e7, c4, c5: white king g1 is 6, 4, 4 away, black king g8 is 2, 4, 4 away.
    // Black's g7 and h7 are passed too (stops g6, h6): black king 2 + 2, white king 5 + 5 away.
    assert_eq!(coef(fen, "passed.rank2"), -2);
    assert_eq!(coef(fen, "passed.own_king_distance"), (6 + 4 + 4) - (2 + 2));
    assert_eq!(
        coef(fen, "passed.enemy_king_distance"),
        (2 + 4 + 4) - (5 + 5)
    );
    assert_eq!(coef(fen, "pawns.supported"), 0);
    assert_eq!(
        coef("8/8/8/8/3P4/2P5/8/k1K5 w - - 0 1", "pawns.supported"),
        1,
        "d4 is defended by c3"
    );
    assert_eq!(coef(fen, "material.pawn"), 3 - 2);
    // Rooks: Rd1 faces only the black d7 pawn (half-open), Re8 an empty file (open).
    let fen = "4r1k1/3p1ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    assert_eq!(coef(fen, "pieces.rook_open_file"), -1);
    assert_eq!(coef(fen, "pieces.rook_half_open_file"), 1);
    // And the other way round.
    let fen = "4r1k1/5ppp/8/8/8/8/4PPPP/3R2K1 w - - 0 1";
    assert_eq!(coef(fen, "pieces.rook_open_file"), 1);
    assert_eq!(coef(fen, "pieces.rook_half_open_file"), -1);
    // Bishop pair and king attacks: Qh5 hits f7 and h7 next to the g8 king.
    let fen = "6k1/5p1p/8/7Q/8/8/8/2BBK3 w - - 0 1";
    assert_eq!(coef(fen, "pieces.bishop_pair"), 1);
    assert!(
        coef(fen, "king.attack.queen") >= 2,
        "Qh5 attacks f7 and h7 next to the king"
    );
    assert_eq!(coef(fen, "tempo"), 1);
    assert_eq!(coef("6k1/8/8/8/8/8/8/6K1 b - - 0 1", "tempo"), -1);
}

#[test]
fn threat_safety_and_outpost_terms_detect_their_features() {
    // e4 attacks the d5 knight; nothing else attacks anything.
    let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coef(fen, "threat.minor_by_pawn"), 1);
    assert_eq!(coef(fen, "threat.weak_pawn"), 0);
    // Nd2 attacks the c4 rook.
    assert_eq!(
        coef("4k3/8/8/8/2r5/8/3N4/4K3 w - - 0 1", "threat.rook_by_lesser"),
        1
    );
    // Rd1 attacks the d5 queen (which attacks the rook back, but it is not a lesser piece).
    let fen = "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1";
    assert_eq!(coef(fen, "threat.queen"), 1);
    assert_eq!(coef(fen, "threat.rook_by_lesser"), 0);
    // e3-e4 would attack the d5 knight, and e4 is safe; the knight attacks the bare e3 pawn.
    let fen = "4k3/8/8/3n4/8/4P3/8/4K3 w - - 0 1";
    assert_eq!(coef(fen, "threat.pawn_push"), 1);
    assert_eq!(coef(fen, "threat.weak_pawn"), -1);
    // Qd1 can check the g8 king safely from d8, d5, b3 and g4: 3 units, bucket 3 for White;
    // Black (a7 pawn, so not a bare king) attacks nothing: bucket 0.
    let fen = "6k1/p7/8/8/8/8/8/3QK3 w - - 0 1";
    assert_eq!(coef(fen, "king.safe_check.queen"), 4);
    assert_eq!(coef(fen, "king.danger.3"), 1);
    assert_eq!(coef(fen, "king.danger.0"), -1);
    // A knight on d5 defended by c4 is an outpost, unless an enemy pawn can still chase it.
    assert_eq!(
        coef("4k3/8/8/3N4/2P5/8/8/4K3 w - - 0 1", "pieces.outpost.knight"),
        1
    );
    assert_eq!(
        coef(
            "4k3/4p3/8/3N4/2P5/8/8/4K3 w - - 0 1",
            "pieces.outpost.knight"
        ),
        0
    );
    // A passed e5 pawn: blocked by a bishop on e6, or free with e6 empty and unattacked.
    assert_eq!(
        coef("4k3/8/4b3/4P3/8/8/8/4K3 w - - 0 1", "passed.blocked.rank5"),
        1
    );
    let fen = "4k3/8/8/4P3/8/8/8/K7 w - - 0 1";
    assert_eq!(coef(fen, "passed.free.rank5"), 1);
    assert_eq!(coef(fen, "passed.blocked.rank5"), 0);
    // d3 has its only neighbour (c4) ahead, and e5 guards its stop square d4.
    assert_eq!(
        coef("4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1", "pawns.backward"),
        1
    );
}

#[test]
fn shelter_and_storm_read_the_files_around_the_king() {
    // White Kg1 sees f, g, h (edge distances 2, 1, 0): f2 and h2 one rank ahead, g3 two, and a
    // black pawn on h4 three ranks ahead, not blocked (h2 is not right behind it). Black Kb8
    // sees a, b, c (centred off the edge: 0, 1, 2): a7 one rank ahead, no b pawn, a white c6
    // pawn two ranks ahead and blocked by c7.
    let fen = "1k6/p1p5/2P5/8/7p/6P1/5P1P/6K1 w - - 0 1";
    assert_eq!(
        coef(fen, "king.shelter.edge2.rank1"),
        1 - 1,
        "white f2, black c7"
    );
    assert_eq!(coef(fen, "king.shelter.edge1.rank2"), 1, "white g3");
    assert_eq!(
        coef(fen, "king.shelter.edge0.rank1"),
        1 - 1,
        "white h2, black a7"
    );
    assert_eq!(coef(fen, "king.shelter.edge1.none"), -1, "no black b pawn");
    assert_eq!(
        coef(fen, "king.storm.edge0.rank3"),
        1,
        "h4 against the white king"
    );
    assert_eq!(coef(fen, "king.storm.edge2.none"), 1, "no black f pawn");
    assert_eq!(
        coef(fen, "king.storm.edge1.none"),
        1 - 1,
        "no g pawn, no b pawn"
    );
    assert_eq!(
        coef(fen, "king.storm.blocked.edge2.rank2"),
        -1,
        "c6 against c7"
    );
    assert_eq!(coef(fen, "king.storm.edge0.none"), -1, "no white a pawn");
}

#[test]
fn lone_king_is_driven_to_the_edge_and_the_kings_approach() {
    // KQK and KRK, Black to move (so a check is legal): the defending king nearer the
    // edge and corner, and the attacking king nearer to it, are better for White.
    for piece in ["Q", "R"] {
        let centre = white_eval(&format!("8/8/8/4k3/8/8/8/{piece}6K b - - 0 1"));
        let edge = white_eval(&format!("8/4k3/8/8/8/8/8/{piece}6K b - - 0 1"));
        let corner = white_eval(&format!("7k/8/8/8/8/8/8/{piece}6K b - - 0 1"));
        assert!(
            centre < edge && edge < corner,
            "{piece}: {centre} {edge} {corner}"
        );
        let far = white_eval(&format!("7k/8/8/8/8/8/8/{piece}1K5 b - - 0 1"));
        let mid = white_eval(&format!("7k/8/8/8/3K4/8/8/{piece}7 b - - 0 1"));
        let near = white_eval(&format!("7k/8/5K2/8/8/8/8/{piece}7 b - - 0 1"));
        assert!(far < mid && mid < near, "{piece}: {far} {mid} {near}");
        assert!(far > 400, "{piece}: a lone king is lost ({far})");
    }
    // Bishop and knight: the corner of the bishop's colour (a dark-squared bishop: a1, h8).
    let right = white_eval("7k/8/5K2/8/8/8/8/2B1N3 b - - 0 1");
    let wrong = white_eval("k7/8/2K5/8/8/8/8/2B1N3 b - - 0 1");
    assert!(
        right > wrong,
        "KBNK: right corner {right}, wrong corner {wrong}"
    );
}

#[test]
fn drawish_material_is_scaled_down() {
    for fen in [
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",  // KNK
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",  // KBK
        "8/8/4k3/8/8/2NNK3/8/8 w - - 0 1", // KNNK
    ] {
        // The middle-game part (phase 1 or 2 of 24) is not scaled: well under a pawn is left.
        let e = eval_fen(fen);
        assert!(e.abs() <= 80, "{fen} evaluated as {e}");
        assert_eq!(trace(&board(fen)).scale, 0, "{fen}");
    }
    for fen in [
        "8/8/4k3/5n2/8/3BK3/8/8 w - - 0 1", // KBKN
        "8/8/4k3/5b2/8/3RK3/8/8 w - - 0 1", // KRKB
    ] {
        let e = eval_fen(fen);
        assert!(e.abs() <= 80, "{fen} evaluated as {e}");
        assert!(trace(&board(fen)).scale < SCALE_MAX / 4, "{fen}");
    }
    // Opposite-coloured bishops halve the end-game part; same-coloured ones do not.
    // Bc2 is light-squared, bc1 dark-squared, bd1 light-squared.
    let opposite = "8/5pk1/6p1/8/8/1P6/P1B2K2/2b5 w - - 0 1";
    assert_eq!(trace(&board(opposite)).scale, SCALE_MAX / 2);
    let same = opposite.replace("2b5", "3b4");
    assert_eq!(trace(&board(&same)).scale, SCALE_MAX);
    // Winning material keeps its full value.
    assert_eq!(
        trace(&board("8/8/4k3/8/8/3RK3/8/8 w - - 0 1")).scale,
        SCALE_MAX
    );
    assert!(eval_fen("8/8/4k3/8/8/3RK3/8/8 w - - 0 1") > 400);
    // Rook pawn and the bishop that does not cover a8, with the black king in the corner: a
    // dead draw. The right bishop (d1, light like a8) keeps the win; so does the wrong one
    // when the defending king is far away.
    let wrong = "k7/8/8/8/P7/8/8/2B3K1 w - - 0 1";
    assert_eq!(trace(&board(wrong)).scale, 0);
    assert!(eval_fen(wrong).abs() < 50, "{}", eval_fen(wrong));
    assert_eq!(
        trace(&board("k7/8/8/8/P7/8/8/3B2K1 w - - 0 1")).scale,
        SCALE_MAX
    );
    assert_eq!(
        trace(&board("7k/8/8/8/P7/8/8/2B3K1 w - - 0 1")).scale,
        SCALE_MAX
    );
    // Seen from Black: h-pawn going to h1 (light), dark-squared bishop, white king on g1.
    assert_eq!(trace(&board("3b2k1/8/8/8/7p/8/8/6K1 b - - 0 1")).scale, 0);
}

#[test]
fn the_scale_factor_looks_at_the_side_the_score_favours() {
    // A knight against two connected passers on the second rank, the white king and knight far
    // away: the pawns win. White has more material (3 against 2) but no pawns; the scale
    // factor picked the strong side by material and scaled the pawns' win to 0.
    let pawns_win = "8/8/8/8/8/2k5/1pp5/6NK w - - 0 1";
    let e = white_eval(pawns_win);
    assert!(e < -300, "{pawns_win} evaluated as {e} (White's view)");
    let t = trace(&board(pawns_win));
    assert_eq!(
        t.scale_black, SCALE_MAX,
        "Black ahead: the pawns keep their value"
    );
    assert_eq!(t.scale, 0, "were White ahead, a lone knight could not win");
    // The same from the other side of the board.
    let mirrored = mirror_fen(pawns_win);
    assert_eq!(white_eval(&mirrored), -e, "{mirrored}");
    // A lone minor that is ahead in the score still cannot win without pawns: KNK stays 0,
    // whichever side has the knight.
    for fen in [
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "8/8/4k3/3n4/8/4K3/8/8 w - - 0 1",
    ] {
        assert!(white_eval(fen).abs() <= 80, "{fen}");
    }
}

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("sable-eval-test-{}-{name}", std::process::id()))
}

#[test]
fn params_file_round_trip() {
    let p = random_params(3);
    let path = temp_file("roundtrip.json");
    p.save(&path).expect("save");
    let q = Params::load(&path).expect("load");
    let _ = std::fs::remove_file(&path);
    assert_eq!(p, q);
    // serde (as other tools embed it) gives the same object.
    let text = serde_json::to_string(&Params::default()).unwrap();
    let back: Params = serde_json::from_str(&text).unwrap();
    assert_eq!(back, Params::default());
    assert_eq!(
        Params::from_json(&Params::default().to_json()).unwrap(),
        Params::default()
    );
}

/// This thread's on-CPU time in nanoseconds (Linux `schedstat`), so that timings on a busy
/// machine count only the time we actually ran; `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Speed of `evaluate` on playout positions:
/// `cargo test --release -p sable --test integration eval::eval_speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn eval_speed() {
    let boards: Vec<Board> = playout_fens(42, 100, 200)
        .iter()
        .map(|f| board(f))
        .collect();
    let p = Params::default();
    let rounds = 200;
    let n = (rounds * boards.len()) as f64;
    let (wall, cpu) = (std::time::Instant::now(), thread_cpu_ns());
    let mut sum = 0i64;
    let mut round_sums = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let before = sum;
        for b in &boards {
            sum += evaluate(std::hint::black_box(b), &p) as i64;
        }
        round_sums.push(sum - before);
    }
    // evaluate is pure: no cache or hidden state may change a score between rounds.
    assert!(
        round_sums.iter().all(|&s| s == round_sums[0]),
        "{round_sums:?}"
    );
    let wall = wall.elapsed().as_secs_f64();
    let cpu = cpu
        .zip(thread_cpu_ns())
        .map(|(a, b)| (b - a) as f64 / 1e9)
        .unwrap_or(wall);
    println!(
        "evaluate: {} positions x {rounds}: {:.2} M evals/s of CPU time ({:.0} ns/eval; wall {:.0} ns) [checksum {sum}]",
        boards.len(),
        n / cpu / 1e6,
        cpu * 1e9 / n,
        wall * 1e9 / n
    );
    let cpu0 = thread_cpu_ns();
    let wall = std::time::Instant::now();
    let mut terms = 0usize;
    for b in &boards {
        terms += trace(b).terms.len();
    }
    assert!(terms >= boards.len(), "every position has material terms");
    let wall = wall.elapsed().as_secs_f64();
    let cpu = cpu0
        .zip(thread_cpu_ns())
        .map(|(a, b)| (b - a) as f64 / 1e9)
        .unwrap_or(wall);
    println!(
        "trace: {:.0} ns/position of CPU time, {:.1} terms on average",
        cpu * 1e9 / boards.len() as f64,
        terms as f64 / boards.len() as f64
    );
}
