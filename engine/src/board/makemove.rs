//! make / unmake (and null moves), keeping the Zobrist keys and the checkers set up to date.

use super::{zobrist, Board, Undo};
use crate::attacks;
use crate::types::{Bitboard, CastlingRights, Color, Move, Piece, PieceType, Square};

impl Board {
    /// The key after `m`, cheaply, for prefetching the transposition table: exact for quiet
    /// moves and ordinary captures; a change of castling rights, a new en-passant square, a
    /// promotion or an en-passant victim is left out, so after those the guess may miss.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mut key = self.key ^ zobrist::side();
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep);
        }
        if let Some(piece) = self.piece_on(from) {
            key ^= zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
        }
        if let Some(victim) = self.piece_on(to) {
            key ^= zobrist::piece_square(victim, to);
        }
        key
    }

    /// Plays a legal move (from `legal_moves`, `parse_uci_move`, or checked by `is_legal`).
    /// Playing an illegal move leaves the board inconsistent; a move from an empty square is
    /// ignored.
    pub fn make(&mut self, m: Move) {
        let us = self.side;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_on(from) else {
            debug_assert!(false, "make: no piece on {from} for {m} in {self:?}");
            return;
        };
        let captured = if m.is_en_passant() {
            Some(Piece::new(them, PieceType::Pawn))
        } else if m.is_castling() {
            None
        } else {
            self.piece_on(to)
        };
        self.save_state(m, captured);

        let mut key = self.key ^ zobrist::side();
        if let Some(ep) = self.en_passant.take() {
            key ^= zobrist::en_passant(ep);
        }
        self.halfmove_clock += 1;
        self.plies_from_null += 1;

        if m.is_castling() {
            // Lift both pieces before placing them: in Chess960 the king may stay put or land
            // on the rook's square.
            let (rook_from, rook_to) = self.castling_rook(m);
            let rook = Piece::new(us, PieceType::Rook);
            self.remove_piece(from, piece);
            self.remove_piece(rook_from, rook);
            self.put_piece(to, piece);
            self.put_piece(rook_to, rook);
            key ^= zobrist::piece_square(piece, from)
                ^ zobrist::piece_square(piece, to)
                ^ zobrist::piece_square(rook, rook_from)
                ^ zobrist::piece_square(rook, rook_to);
        } else {
            if let Some(cap) = captured {
                let cap_sq = if m.is_en_passant() {
                    m.en_passant_victim()
                } else {
                    to
                };
                self.remove_piece(cap_sq, cap);
                let cap_key = zobrist::piece_square(cap, cap_sq);
                key ^= cap_key;
                if cap.kind() == PieceType::Pawn {
                    self.pawn_key ^= cap_key;
                }
                self.halfmove_clock = 0;
            }
            self.move_piece(from, to, piece);
            key ^= zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
            if piece.kind() == PieceType::Pawn {
                self.halfmove_clock = 0;
                self.pawn_key ^= zobrist::piece_square(piece, from);
                if let Some(promo) = m.promotion() {
                    let promoted = Piece::new(us, promo);
                    self.remove_piece(to, piece);
                    self.put_piece(to, promoted);
                    key ^= zobrist::piece_square(piece, to) ^ zobrist::piece_square(promoted, to);
                } else {
                    self.pawn_key ^= zobrist::piece_square(piece, to);
                    if from.index() ^ to.index() == 16 {
                        let ep = Square::from_index((from.index() + to.index()) / 2);
                        if (attacks::pawn(us, ep) & self.pieces(them, PieceType::Pawn)).any() {
                            self.en_passant = Some(ep);
                            key ^= zobrist::en_passant(ep);
                        }
                    }
                }
            }
        }

        let rights = CastlingRights(
            self.castling.0 & self.castle.mask[from.index()] & self.castle.mask[to.index()],
        );
        if rights != self.castling {
            key ^= self.castling_key(self.castling) ^ self.castling_key(rights);
            self.castling = rights;
        }
        if us == Color::Black {
            self.fullmove_number += 1;
        }
        self.side = them;
        self.key = key;
        self.checkers =
            self.attackers_to(self.king_square(them), self.occupied()) & self.by_color(us);
    }

    /// Takes back the last move or null move; does nothing at the root.
    pub fn unmake(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        self.side = !self.side;
        let us = self.side;
        let m = u.mv;
        if !m.is_null() {
            if us == Color::Black {
                self.fullmove_number -= 1;
            }
            let (from, to) = (m.from(), m.to());
            if m.is_castling() {
                let (rook_from, rook_to) = self.castling_rook(m);
                let (king, rook) = (
                    Piece::new(us, PieceType::King),
                    Piece::new(us, PieceType::Rook),
                );
                self.remove_piece(to, king);
                self.remove_piece(rook_to, rook);
                self.put_piece(from, king);
                self.put_piece(rook_from, rook);
            } else {
                if let Some(promo) = m.promotion() {
                    self.remove_piece(to, Piece::new(us, promo));
                    self.put_piece(to, Piece::new(us, PieceType::Pawn));
                }
                if let Some(piece) = self.piece_on(to) {
                    self.move_piece(to, from, piece);
                }
                if let Some(cap) = u.captured {
                    let cap_sq = if m.is_en_passant() {
                        m.en_passant_victim()
                    } else {
                        to
                    };
                    self.put_piece(cap_sq, cap);
                }
            }
        } else if us == Color::Black {
            self.fullmove_number -= 1;
        }
        self.castling = u.castling;
        self.en_passant = u.en_passant;
        self.halfmove_clock = u.halfmove_clock;
        self.plies_from_null = u.plies_from_null;
        self.key = u.key;
        self.pawn_key = u.pawn_key;
        self.checkers = u.checkers;
    }

    /// Pushes what `unmake` needs to restore the position before `mv` (a move or the null move).
    #[inline]
    fn save_state(&mut self, mv: Move, captured: Option<Piece>) {
        self.history.push(Undo {
            mv,
            captured,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove_clock: self.halfmove_clock,
            plies_from_null: self.plies_from_null,
            key: self.key,
            pawn_key: self.pawn_key,
            checkers: self.checkers,
        });
    }

    /// Passes the turn (for null-move pruning). Must not be called when in check.
    pub fn make_null(&mut self) {
        self.save_state(Move::NULL, None);
        self.key ^= zobrist::side();
        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant(ep);
        }
        self.halfmove_clock += 1;
        self.plies_from_null = 0;
        if self.side == Color::Black {
            self.fullmove_number += 1;
        }
        self.side = !self.side;
        self.checkers = Bitboard::EMPTY;
    }

    /// Takes back a null move (same as `unmake`).
    pub fn unmake_null(&mut self) {
        self.unmake();
    }
}
