//! Legal move generation with check and pin masks (no make/unmake legality test).
//!
//! One generic generator serves four uses: all legal moves into a `MoveList`, captures and
//! promotions only (for quiescence search and the move picker's first stage), the rest only (the
//! picker's quiet stage), and counting without storing (perft's last ply). Each pass emits its
//! moves in the order the full pass would, so a filtered full list equals the partial one.

use crate::attacks;
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, MoveList, PieceType, Square};

/// Generation modes (the const parameter of `generate`).
const ALL: u8 = 0;
/// Captures (en passant included) and every promotion.
const TACTICAL: u8 = 1;
/// Everything `TACTICAL` leaves out: quiet non-promoting moves and castling.
const QUIET: u8 = 2;

/// Where generated moves go.
trait MoveSink {
    fn push(&mut self, m: Move);

    /// Normal moves from one square to each of `targets`.
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }

    /// Pawn moves to each of `targets` from `delta` squares back (set-wise generation).
    #[inline(always)]
    fn push_pawn_set(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::from_index((to.index() as i8 - delta) as usize);
            self.push(Move::new(from, to));
        }
    }

    /// The four promotions onto each of `targets` from `delta` squares back.
    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::from_index((to.index() as i8 - delta) as usize);
            for p in [
                PieceType::Queen,
                PieceType::Knight,
                PieceType::Rook,
                PieceType::Bishop,
            ] {
                self.push(Move::new_promotion(from, to, p));
            }
        }
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Counts moves without storing them.
struct Counter(u64);

impl MoveSink for Counter {
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_targets(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn push_pawn_set(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += 4 * targets.count() as u64;
    }
}

impl Board {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, ALL>(&mut list);
        list
    }

    /// Legal captures (en passant included) and all legal promotions, quiet ones too, generated
    /// directly (not by filtering `legal_moves`), for quiescence search.
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, TACTICAL>(&mut list);
        list
    }

    /// Replaces `list` with what [`Board::legal_captures`] returns, without a copy.
    pub fn legal_captures_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate::<_, TACTICAL>(list);
    }

    /// Replaces `list` with the legal moves that are neither captures nor promotions (castling
    /// included), in the order [`Board::legal_moves`] has them.
    pub fn legal_quiets_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate::<_, QUIET>(list);
    }

    /// Number of legal moves, without building the list (perft's bulk counting).
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate::<_, ALL>(&mut counter);
        counter.0
    }

    /// Whether the side to move has no legal move (checkmate or stalemate).
    pub fn has_no_legal_moves(&self) -> bool {
        self.count_legal_moves() == 0
    }

    #[inline(always)]
    fn generate<S: MoveSink, const MODE: u8>(&self, sink: &mut S) {
        let us = self.side_to_move();
        let them = !us;
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occ = ours | theirs;
        let ksq = self.king_square(us);

        // King moves: the destination must not be attacked once the king has left its square
        // (so a slider's ray through the king still counts).
        let mut king_targets = attacks::king(ksq) - ours;
        match MODE {
            TACTICAL => king_targets &= theirs,
            QUIET => king_targets = king_targets - theirs,
            _ => {}
        }
        let occ_without_king = occ ^ ksq;
        let mut safe = Bitboard::EMPTY;
        for to in king_targets {
            if !self.is_attacked_by(them, to, occ_without_king) {
                safe |= to;
            }
        }
        sink.push_targets(ksq, safe);

        let checkers = self.checkers();
        if checkers.more_than_one() {
            return;
        }
        // In check, other pieces must capture the checker or block its ray.
        let evasion = if checkers.any() {
            attacks::between(ksq, checkers.lsb()) | checkers
        } else {
            Bitboard::ALL
        };
        let target = evasion
            & match MODE {
                TACTICAL => theirs,
                QUIET => !occ,
                _ => !ours,
            };
        let pinned = self.pinned(us);

        for from in self.pieces(us, PieceType::Knight) - pinned {
            sink.push_targets(from, attacks::knight(from) & target);
        }
        let queens = self.pieces(us, PieceType::Queen);
        for from in self.pieces(us, PieceType::Bishop) | queens {
            let mut t = attacks::bishop(from, occ) & target;
            if pinned.contains(from) {
                t &= attacks::line(ksq, from);
            }
            sink.push_targets(from, t);
        }
        for from in self.pieces(us, PieceType::Rook) | queens {
            let mut t = attacks::rook(from, occ) & target;
            if pinned.contains(from) {
                t &= attacks::line(ksq, from);
            }
            sink.push_targets(from, t);
        }
        self.generate_pawns::<S, MODE>(sink, evasion, pinned);
        if MODE != TACTICAL && checkers.is_empty() {
            self.generate_castling(sink, occ);
        }
    }

    #[inline(always)]
    fn generate_pawns<S: MoveSink, const MODE: u8>(
        &self,
        sink: &mut S,
        evasion: Bitboard,
        pinned: Bitboard,
    ) {
        let us = self.side_to_move();
        let them = !us;
        let theirs = self.by_color(them);
        let occ = self.occupied();
        let empty = !occ;
        let ksq = self.king_square(us);
        let pawns = self.pieces(us, PieceType::Pawn);
        let free = pawns - pinned;
        let promo_rank = Bitboard::rank(us.promotion_rank());
        let (up, third_rank) = match us {
            Color::White => (8i8, Bitboard::RANK_3),
            Color::Black => (-8i8, Bitboard::RANK_6),
        };

        // Pushes, set-wise for unpinned pawns.
        let single = free.forward(us) & empty;
        let single_ok = single & evasion;
        if MODE != QUIET {
            sink.push_promotions(single_ok & promo_rank, up);
        }
        if MODE != TACTICAL {
            sink.push_pawn_set(single_ok - promo_rank, up);
            let double = (single & third_rank).forward(us) & empty & evasion;
            sink.push_pawn_set(double, 2 * up);
        }

        // Captures towards the a-file and towards the h-file.
        let victims = theirs & evasion;
        let (west, west_delta, east, east_delta) = match us {
            Color::White => (
                (free - Bitboard::FILE_A) << 7,
                7i8,
                (free - Bitboard::FILE_H) << 9,
                9i8,
            ),
            Color::Black => (
                (free - Bitboard::FILE_A) >> 9,
                -9i8,
                (free - Bitboard::FILE_H) >> 7,
                -7i8,
            ),
        };
        if MODE != QUIET {
            for (t, delta) in [(west & victims, west_delta), (east & victims, east_delta)] {
                sink.push_promotions(t & promo_rank, delta);
                sink.push_pawn_set(t - promo_rank, delta);
            }
        }

        // Pinned pawns move only along the pin line, and never while in check.
        if self.checkers().is_empty() {
            for from in pawns & pinned {
                let pin_line = attacks::line(ksq, from);
                let mut t = if MODE == QUIET {
                    Bitboard::EMPTY
                } else {
                    attacks::pawn(us, from) & theirs & pin_line
                };
                if let Some(to) = from.offset(up).filter(|&to| empty.contains(to)) {
                    let start_rank = if us == Color::White { 1 } else { 6 };
                    let promotes = promo_rank.contains(to);
                    let wanted = match MODE {
                        TACTICAL => promotes,
                        QUIET => !promotes,
                        _ => true,
                    };
                    if wanted {
                        t |= Bitboard::from_square(to) & pin_line;
                    }
                    if MODE != TACTICAL && from.rank() == start_rank {
                        if let Some(to2) = to.offset(up).filter(|&s| empty.contains(s)) {
                            t |= Bitboard::from_square(to2) & pin_line;
                        }
                    }
                }
                for to in t {
                    let delta = to.index() as i8 - from.index() as i8;
                    if promo_rank.contains(to) {
                        sink.push_promotions(Bitboard::from_square(to), delta);
                    } else {
                        sink.push(Move::new(from, to));
                    }
                }
            }
        }

        // En passant: test by removing both pawns and checking the king's safety directly,
        // which covers the rank pin through both pawns and captures of a checking pawn.
        if let Some(ep) = self.en_passant().filter(|_| MODE != QUIET) {
            for from in attacks::pawn(them, ep) & pawns {
                let cap_sq = Square::new(ep.file(), from.rank());
                let occ_after = (occ ^ from ^ cap_sq) | ep;
                let attackers = self.attackers_to(ksq, occ_after) & theirs;
                if attackers.without(cap_sq).is_empty() {
                    sink.push(Move::new_en_passant(from, ep));
                }
            }
        }
    }

    #[inline(always)]
    fn generate_castling<S: MoveSink>(&self, sink: &mut S, occ: Bitboard) {
        for king_side in [true, false] {
            if let Some(m) = self.castling_move(king_side, occ) {
                sink.push(m);
            }
        }
    }
}
