//! Static exchange evaluation: the material outcome of the capture sequence on one square,
//! each side recapturing with its least valuable attacker and free to stop. Handles x-rays
//! (sliders behind the capturers join in) and absolute pins (a piece pinned to its king by a
//! slider that is still on the board does not take part).

use crate::attacks;
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, PieceType, Square};

/// Exchange values of the pieces, indexed by `PieceType::index()`.
pub const SEE_VALUE: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

/// Value of a piece kind for SEE and MVV-LVA.
#[inline]
pub fn value(kind: PieceType) -> i32 {
    SEE_VALUE[kind.index()]
}

/// The kind captured by `mv` (a pawn for en passant), if any.
#[inline]
pub fn captured_kind(board: &Board, mv: Move) -> Option<PieceType> {
    if mv.is_en_passant() {
        Some(PieceType::Pawn)
    } else if mv.is_castling() {
        None
    } else {
        board.piece_on(mv.to()).map(|p| p.kind())
    }
}

/// Pieces of `c` pinned to their king, and the enemy sliders that pin them.
fn pins(board: &Board, c: Color) -> (Bitboard, Bitboard) {
    let ksq = board.king_square(c);
    let them = !c;
    let diag = board.pieces(them, PieceType::Bishop) | board.pieces(them, PieceType::Queen);
    let orth = board.pieces(them, PieceType::Rook) | board.pieces(them, PieceType::Queen);
    let snipers = (attacks::bishop(ksq, Bitboard::EMPTY) & diag)
        | (attacks::rook(ksq, Bitboard::EMPTY) & orth);
    let occ = board.occupied();
    let mut pinned = Bitboard::EMPTY;
    let mut pinners = Bitboard::EMPTY;
    for s in snipers {
        let b = attacks::between(ksq, s) & occ;
        if b.count() == 1 && (b & board.by_color(c)).any() {
            pinned |= b;
            pinners |= s;
        }
    }
    (pinned, pinners)
}

/// The exchange value of `mv` for the side making it, in centipawns.
pub fn see(board: &Board, mv: Move) -> i32 {
    if mv.is_castling() {
        return 0;
    }
    let from = mv.from();
    let to = mv.to();
    let Some(mover) = board.piece_on(from) else {
        return 0;
    };
    let us = mover.color();
    // The swap list: the first capture, then one entry per recapture. Each piece recaptures at
    // most once, and the board holds at most 32 pieces (the FEN reader refuses more than 16 a
    // side and moves never add one), so there are at most 31 entries after the first.
    let mut gain = [0i32; 32];
    gain[0] = captured_kind(board, mv).map_or(0, value);
    let mut on_square = mover.kind();
    if let Some(promo) = mv.promotion() {
        gain[0] += value(promo) - value(PieceType::Pawn);
        on_square = promo;
    }
    let mut occ = board.occupied() ^ Bitboard::from_square(from);
    if mv.is_en_passant() {
        occ ^= Bitboard::from_square(mv.en_passant_victim());
    }
    // A side's pins are found when it first has a capturer: most exchanges end before that
    // (nothing defends the victim), and finding pins is half the cost of the rest.
    let mut pin_info: [Option<(Bitboard, Bitboard)>; 2] = [None; 2];
    let diag = board.by_kind(PieceType::Bishop) | board.by_kind(PieceType::Queen);
    let orth = board.by_kind(PieceType::Rook) | board.by_kind(PieceType::Queen);
    let mut attackers = board.attackers_to(to, occ) & occ;
    let mut stm = !us;
    let mut d = 0;
    loop {
        let mut mine = attackers & board.by_color(stm);
        if mine.is_empty() {
            break;
        }
        let (pinned, pinners) = *pin_info[stm.index()].get_or_insert_with(|| pins(board, stm));
        if (pinners & occ).any() {
            mine &= !pinned;
        }
        // None when every attacker is pinned.
        let Some((kind, sq)) = least_valuable(board, mine) else {
            break;
        };
        if kind == PieceType::King && (attackers & board.by_color(!stm) & occ).any() {
            // The king may not capture into a defended square.
            break;
        }
        d += 1;
        gain[d] = value(on_square) - gain[d - 1];
        on_square = kind;
        occ ^= Bitboard::from_square(sq);
        // Sliders behind the piece that just moved join the exchange.
        attackers |= (attacks::bishop(to, occ) & diag) | (attacks::rook(to, occ) & orth);
        attackers &= occ;
        stm = !stm;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// The cheapest of `set`'s pieces and its square.
fn least_valuable(board: &Board, set: Bitboard) -> Option<(PieceType, Square)> {
    PieceType::ALL.iter().find_map(|&k| {
        let b = set & board.by_kind(k);
        b.any().then(|| (k, b.lsb()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let board = Board::from_fen(fen).expect("valid fen");
        let mv = board.parse_uci_move(uci).expect("legal move");
        see(&board, mv)
    }

    // Exchange values written out, so a changed SEE_VALUE fails below rather than moving the
    // expectations with it: pawn 100, knight 300, bishop 300, queen 900.
    const P: i32 = 100;
    const N: i32 = 300;
    const B: i32 = 300;
    const Q: i32 = 900;

    #[test]
    fn knight_exchanges_by_hand() {
        // NxB, the bishop defended by a pawn: bishop won, knight lost, B - N = 0.
        assert_eq!(see_of("4k3/8/4p3/3b4/8/2N5/8/4K3 w - - 0 1", "c3d5"), B - N);
        // PxN defended by a pawn: N - P = 200.
        assert_eq!(see_of("4k3/8/4p3/3n4/2P5/8/8/4K3 w - - 0 1", "c4d5"), N - P);
        // NxP defended by a pawn: P - N = -200.
        assert_eq!(see_of("4k3/8/4p3/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5"), P - N);
        // QxN defended by a pawn: N - Q = -600.
        assert_eq!(see_of("4k3/8/4p3/3n4/8/8/8/3QK3 w - - 0 1", "d1d5"), N - Q);
        // NxN defended by the knight on f6, recaptured by the one on e3: N - N + N = 300.
        assert_eq!(
            see_of("4k3/8/5n2/3n4/8/2N1N3/8/4K3 w - - 0 1", "c3d5"),
            N - N + N
        );
    }

    #[test]
    fn pinned_recapturer_does_not_count() {
        assert_eq!(see_of("6k1/6b1/8/4p3/3P4/8/8/1K4R1 w - - 0 1", "d4e5"), 100);
    }

    #[test]
    fn stops_before_losing_the_queen() {
        assert_eq!(
            see_of("6k1/6b1/5p2/4q3/3P4/8/8/1K2Q3 w - - 0 1", "d4e5"),
            800
        );
    }

    #[test]
    fn xray_rooks_defend() {
        // Rxd5 with doubled black rooks behind: R for P.
        assert_eq!(
            see_of("3r2k1/3r4/8/3p4/8/8/8/3R2K1 w - - 0 1", "d1d5"),
            100 - 500
        );
        // Doubled white rooks win the pawn against one defender.
        assert_eq!(see_of("3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "d2d5"), 100);
    }

    #[test]
    fn quiet_move_to_attacked_square_loses_the_piece() {
        assert_eq!(see_of("4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "d1d5"), -900);
        assert_eq!(see_of("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d5"), 0);
    }

    #[test]
    fn king_cannot_recapture_into_defence() {
        // Qxf7+ defended by the bishop on b3: the king may not take back.
        assert_eq!(see_of("4k3/5p2/8/8/8/1B6/8/4KQ2 w - - 0 1", "f1f7"), 100);
    }

    // Each case below guards one rule of the exchange; the values are worked out by hand from
    // the literal piece values above (rook 500).
    const R: i32 = 500;

    #[test]
    fn pins_by_bishops_count_and_pins_of_others_do_not() {
        // Rxe5+: the knight on d7 that guards e5 is pinned by the bishop on b5: a pawn won.
        assert_eq!(see_of("4k3/3n4/8/1B2p3/8/8/8/4RK2 w - - 0 1", "e1e5"), P);
        // Rxd4: the knight on e6 is between its king and a white knight, not a slider: it
        // takes back.
        assert_eq!(see_of("4k3/8/4n3/8/3pN3/8/8/3R3K w - - 0 1", "d1d4"), P - R);
        // The same on a diagonal: the knight on d7 stands between its king and a white knight.
        assert_eq!(
            see_of("4k3/3n4/8/1N2p3/8/8/8/4RK2 w - - 0 1", "e1e5"),
            P - R
        );
        // Two black pieces between the king and the rook on e1: neither is pinned.
        assert_eq!(
            see_of("4k3/4p3/4n3/8/3p4/8/8/3RR2K w - - 0 1", "d1d4"),
            P - R
        );
        // The pinner itself captures and leaves the line: the knight is free to take back, and
        // a bishop behind a white pawn (a pin of nothing) changes nothing.
        assert_eq!(see_of("4k3/8/4n3/8/3pR3/8/8/4K3 w - - 0 1", "e4d4"), P - R);
        assert_eq!(
            see_of("4k3/8/2P1n3/8/B2pR3/8/8/4K3 w - - 0 1", "e4d4"),
            P - R
        );
    }

    #[test]
    fn sliders_join_from_behind_the_recapturer() {
        // Nxd5 Rxd5 Rxd5 Rxd5: the rook on d8 joins once the one on d7 has gone; white stops
        // after losing the knight for a pawn (P - N) rather than going on.
        assert_eq!(
            see_of("3r2k1/3r4/8/3p4/8/2N5/8/3R2K1 w - - 0 1", "c3d5"),
            P - N
        );
        // The same on a diagonal: Nxd5 Bxd5 Bxd5 Qxd5, the queen on a8 behind the bishop.
        assert_eq!(
            see_of("q5k1/1b6/8/3p4/8/2N2B2/8/6K1 w - - 0 1", "c3d5"),
            P - N
        );
    }

    #[test]
    fn bystanders_take_no_part() {
        // NxB defended by a pawn, with pieces of both sides that attack nothing on d5.
        assert_eq!(
            see_of("4k3/p7/4p3/3b4/8/2N5/7P/4K3 w - - 0 1", "c3d5"),
            B - N
        );
    }

    #[test]
    fn promotions_add_the_new_piece() {
        // b8=Q on an empty square: queen for pawn; taking a rook on a8 adds the rook.
        assert_eq!(see_of("7k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), Q - P);
        assert_eq!(
            see_of("r6k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q"),
            R + Q - P
        );
        // Defended by a rook: the new queen is taken, and the pawn is all white has lost.
        assert_eq!(see_of("1r5k/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7c8q"), -P);
    }

    #[test]
    fn en_passant_opens_the_file_behind_the_victim() {
        // exd6 e.p. with a black rook on d1: the captured pawn on d5 no longer blocks it, and it
        // takes back: pawn for pawn.
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/7K/3r4 w - d6 0 1", "e5d6"), P - P);
    }

    #[test]
    fn an_undefended_king_takes_back() {
        // Qxf7+ with nothing behind the queen: the king takes it.
        assert_eq!(see_of("4k3/5p2/8/8/8/8/8/4KQ2 w - - 0 1", "f1f7"), P - Q);
    }
}
