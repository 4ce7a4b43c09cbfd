//! Board invariants on random games: Zobrist keys, make/unmake, captures-only generation, move
//! validation, check detection, UCI parsing; plus FEN errors and draw rules.

use crate::common;

use common::{random_positions, Rng};
use sable::board::{Board, FenError};
use sable::types::{Color, Move, MoveList, Square};

/// Plays random games with our own generator, checking keys after every make and unmake.
#[test]
fn incremental_keys_equal_keys_from_scratch_in_random_games() {
    let mut rng = Rng::new(7);
    let mut exact_guesses = 0;
    for game in 0..200 {
        let mut board = Board::from_fen(common::SEEDS[game % common::SEEDS.len()]).unwrap();
        let mut keys = vec![board.key()];
        let mut fens = vec![board.to_fen()];
        for _ in 0..80 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            if !board.in_check() && rng.below(10) == 0 {
                board.make_null();
                assert_eq!(board.key(), board.compute_key(), "after null move");
                board.unmake_null();
            }
            let m = moves[rng.below(moves.len())];
            let (guess, rights) = (board.key_after(m), board.castling());
            board.make(m);
            assert_eq!(
                board.key(),
                board.compute_key(),
                "after {m} in {}",
                board.to_fen()
            );
            // The prefetch guess is exact unless castling rights or en passant change.
            let special = m.is_castling() || m.is_en_passant() || m.is_promotion();
            if !special && rights == board.castling() && board.en_passant().is_none() {
                assert_eq!(guess, board.key(), "key_after({m})");
                exact_guesses += 1;
            }
            assert_eq!(board.pawn_key(), board.compute_pawn_key());
            // A board set up from the FEN gets the same key (en passant normalised the same way).
            assert_eq!(Board::from_fen(&board.to_fen()).unwrap().key(), board.key());
            keys.push(board.key());
            fens.push(board.to_fen());
        }
        while board.history_len() > 0 {
            keys.pop();
            fens.pop();
            board.unmake();
            assert_eq!(Some(&board.key()), keys.last());
            assert_eq!(Some(&board.to_fen()), fens.last());
        }
    }
    assert!(
        exact_guesses > 5000,
        "{exact_guesses} ordinary moves checked"
    );
}

fn play(board: &mut Board, moves: &str) {
    for text in moves.split_whitespace() {
        let m = board
            .parse_uci_move(text)
            .unwrap_or_else(|| panic!("{text} illegal in {board}"));
        board.make(m);
    }
}

#[test]
fn transpositions_get_equal_keys() {
    let mut a = Board::startpos();
    let mut b = Board::startpos();
    play(&mut a, "g1f3 g8f6 b1c3 b8c6");
    play(&mut b, "b1c3 b8c6 g1f3 g8f6");
    assert_eq!(a.key(), b.key());
    // Same placement, other side to move: different keys.
    let mut c = Board::startpos();
    play(&mut c, "g1f3 g8f6 b1c3 b8c6 f3g1");
    assert_ne!(c.key(), a.key());
    // A double step no pawn can capture leaves no en passant square, so 1.e4 e5 2.d3 and
    // 1.d3 e5 2.e4... reach the same key as each other.
    let mut d = Board::startpos();
    let mut e = Board::startpos();
    play(&mut d, "e2e4 e7e5 d2d3");
    play(&mut e, "d2d3 e7e5 e2e4");
    assert_eq!(d.key(), e.key());
    // A capturable double step does change the key.
    let mut f = Board::from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1").unwrap();
    let mut g = f.clone();
    play(&mut f, "e2e4");
    play(&mut g, "e2e3 e8d8 e3e4 d8e8");
    assert_eq!(f.en_passant(), Some("e3".parse().unwrap()));
    assert_ne!(f.key(), g.key());
}

#[test]
fn partial_generators_equal_the_filtered_full_list_in_order() {
    // One list reused throughout: `_into` must replace what a previous position left.
    let mut list = MoveList::new();
    for fen in random_positions(5_000, 0xcafe) {
        let board = Board::from_fen(&fen).unwrap();
        let all = board.legal_moves();
        let tactical = |m: &&Move| board.is_capture(**m) || m.is_promotion();
        let captures: Vec<Move> = all.iter().filter(tactical).copied().collect();
        let quiets: Vec<Move> = all.iter().filter(|m| !tactical(m)).copied().collect();
        assert_eq!(board.legal_captures().as_slice(), &captures[..], "{fen}");
        board.legal_captures_into(&mut list);
        assert_eq!(list.as_slice(), &captures[..], "{fen}");
        board.legal_quiets_into(&mut list);
        assert_eq!(list.as_slice(), &quiets[..], "{fen}");
    }
}

#[test]
fn single_move_checks_agree_with_generation() {
    let positions = random_positions(3_000, 0xbeef);
    let mut rng = Rng::new(99);
    let mut other_moves: Vec<Move> = Vec::new();
    for fen in &positions {
        let mut board = Board::from_fen(fen).unwrap();
        let legal = board.legal_moves();
        let checks = board.check_squares();
        for &m in legal.iter() {
            assert!(
                board.is_pseudo_legal(m) && board.is_legal(m),
                "{m} in {fen}"
            );
            assert_eq!(board.parse_uci_move(&m.to_string()), Some(m), "{fen}");
            let gives = board.gives_check(m);
            assert_eq!(checks.gives_check(&board, m), gives, "{m} in {fen}");
            board.make(m);
            assert_eq!(gives, board.in_check(), "gives_check({m}) in {fen}");
            board.unmake();
        }
        // Moves from other positions and random bits: legal exactly when generated here.
        for _ in 0..40 {
            let m = if other_moves.is_empty() || rng.below(2) == 0 {
                Move::from_raw(rng.next_u64() as u16)
            } else {
                other_moves[rng.below(other_moves.len())]
            };
            assert_eq!(
                board.is_legal(m),
                legal.contains(m),
                "is_legal({m:?}) in {fen}"
            );
        }
        other_moves.extend(legal.iter().copied());
        if other_moves.len() > 5_000 {
            other_moves.drain(..2_500);
        }
    }
    let board = Board::startpos();
    for junk in [
        "", "e2", "e2e5", "e7e5", "e2e4x", "i2i4", "e2e4 ", "e1g1", "ä2e4",
    ] {
        let parsed = board.parse_uci_move(junk);
        assert!(
            parsed.is_none() || junk.trim() == "e2e4",
            "{junk:?} parsed as {parsed:?}"
        );
    }
}

#[test]
fn fen_round_trips() {
    for fen in common::SEEDS
        .iter()
        .map(|s| s.to_string())
        .chain(random_positions(500, 3))
    {
        assert_eq!(Board::from_fen(&fen).unwrap().to_fen(), fen);
        assert_eq!(fen.parse::<Board>().unwrap().to_string(), fen);
    }
    // Four-field EPD-style FENs get the default counters.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 b - -").unwrap();
    assert_eq!(b.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(b.side_to_move(), Color::Black);
}

/// A predicate saying whether an error is the expected kind.
type ErrorCheck = fn(&FenError) -> bool;

#[test]
fn each_kind_of_bad_fen_gets_its_own_error() {
    use FenError::*;
    let cases: &[(&str, ErrorCheck)] = &[
        ("8/8/8 w - -", |e| matches!(e, RankCount(3))),
        ("4k3/8/8/8/8/8/8/4K3", |e| matches!(e, FieldCount(1))),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", |e| {
            matches!(e, FieldCount(7))
        }),
        ("4k3/8/8/8/8/8/8/4X2 w - - 0 1", |e| {
            matches!(e, BadPiece { ch: 'X', rank: 1 })
        }),
        ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", |e| {
            matches!(
                e,
                RankLength {
                    rank: 1,
                    squares: 9
                }
            )
        }),
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", |e| {
            matches!(
                e,
                RankLength {
                    rank: 1,
                    squares: 7
                }
            )
        }),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", |e| {
            matches!(e, BadSideToMove(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w KX - 0 1", |e| {
            matches!(e, BadCastling(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", |e| {
            matches!(e, CastlingWithoutPieces('K'))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", |e| {
            matches!(e, BadEnPassant(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", |e| {
            matches!(e, BadEnPassant(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", |e| {
            matches!(e, EnPassantWithoutPawn(_))
        }),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
            matches!(
                e,
                KingCount {
                    color: Color::Black,
                    count: 0
                }
            )
        }),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", |e| {
            matches!(
                e,
                KingCount {
                    color: Color::White,
                    count: 2
                }
            )
        }),
        ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
            matches!(e, PawnOnBackRank(_))
        }),
        ("4k3/8/8/8/8/8/8/p3K3 b - - 0 1", |e| {
            matches!(e, PawnOnBackRank(_))
        }),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", |e| {
            matches!(e, OpponentInCheck)
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", |e| {
            matches!(e, BadHalfmoveClock(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", |e| {
            matches!(e, BadHalfmoveClock(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 one", |e| {
            matches!(e, BadFullmoveNumber(_))
        }),
    ];
    for (fen, is_expected) in cases {
        match Board::from_fen(fen) {
            Err(e) => {
                assert!(is_expected(&e), "{fen}: unexpected error {e:?}");
                assert!(!e.to_string().is_empty());
            }
            Ok(b) => panic!("{fen} was accepted as {b}"),
        }
    }
    // The side to move may be in check.
    assert!(Board::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1")
        .unwrap()
        .in_check());
    // Never a panic on garbage.
    for junk in [
        "",
        " ",
        "////////",
        "9/8/8/8/8/8/8/8 w - - 0 1",
        "\u{1F600} w - -",
        "8/8/8/8/8/8/8/8/8 w - -",
    ] {
        assert!(Board::from_fen(junk).is_err(), "{junk:?}");
    }
}

#[test]
fn repetition_fifty_moves_and_material() {
    let mut b = Board::startpos();
    assert!(!b.is_repetition());
    play(&mut b, "g1f3 g8f6 f3g1 f6g8");
    assert!(b.is_repetition());
    assert_eq!(b.repetition_count(), 1);
    play(&mut b, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(b.repetition_count(), 2);
    // A pawn move resets the window.
    play(&mut b, "e2e4 e7e5");
    assert!(!b.is_repetition());
    b.unmake();
    b.unmake();
    assert!(b.is_repetition());

    let fifty = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
    assert!(fifty.is_fifty_move_draw());
    let not_yet = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
    assert!(!not_yet.is_fifty_move_draw());
    // Checkmate on the 100th ply is still checkmate.
    let mated = Board::from_fen("R3k3/8/4K3/8/8/8/8/8 b - - 100 80").unwrap();
    assert!(mated.in_check() && !mated.is_fifty_move_draw());

    let insufficient = [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1",
    ];
    for fen in insufficient {
        assert!(
            Board::from_fen(fen).unwrap().has_insufficient_material(),
            "{fen}"
        );
    }
    let sufficient = [
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1",
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1",
    ];
    for fen in sufficient {
        assert!(
            !Board::from_fen(fen).unwrap().has_insufficient_material(),
            "{fen}"
        );
    }
}

#[test]
fn square_and_move_text() {
    assert_eq!("e4".parse::<Square>().unwrap(), Square::new(4, 3));
    assert_eq!(Square::new(4, 3).to_string(), "e4");
    assert_eq!(Square::A1.flip(), Square::A8);
    assert!("i9".parse::<Square>().is_err());
    let b = Board::from_fen("r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1").unwrap();
    assert_eq!(b.parse_uci_move("b7a8q").unwrap().to_string(), "b7a8q");
    assert!(b.parse_uci_move("e1g1").unwrap().is_castling());
    assert_eq!(Move::NULL.to_string(), "0000");
}
