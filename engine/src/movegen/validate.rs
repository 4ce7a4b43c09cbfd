//! Checking single moves cheaply (moves from the transposition table or killer slots, or typed
//! by a user): pseudo-legality, legality, captures, checks, and UCI move parsing.

use crate::attacks;
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, Piece, PieceType, Square};

impl Board {
    /// Whether `m` is a move of the side to move that obeys the movement rules of its piece in
    /// this position, ignoring whether it leaves the own king in check (castling is checked
    /// fully). Safe to call with any 16 bits.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        // Promotion-piece bits on a non-promotion would be a second encoding of the same move.
        if m.is_null() || (!m.is_promotion() && m.raw() & 0x3000 != 0) {
            return false;
        }
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_on(from) else {
            return false;
        };
        if piece.color() != us {
            return false;
        }
        let occ = self.occupied();
        if m.is_castling() {
            // Checked before the own-piece test: in Chess960 the king may land on its rook's
            // square or stay where it is.
            return piece.kind() == PieceType::King && self.castling_is_legal(from, to, occ);
        }
        if self.by_color(us).contains(to) {
            return false;
        }
        if piece.kind() != PieceType::Pawn {
            return !m.is_promotion()
                && !m.is_en_passant()
                && attacks::piece(piece.kind(), us, from, occ).contains(to);
        }
        if m.is_en_passant() {
            return self.en_passant() == Some(to) && attacks::pawn(us, from).contains(to);
        }
        if m.is_promotion() != (to.rank() == us.promotion_rank()) {
            return false;
        }
        if self.by_color(!us).contains(to) {
            return attacks::pawn(us, from).contains(to);
        }
        let up: i8 = if us == Color::White { 8 } else { -8 };
        let start_rank = if us == Color::White { 1 } else { 6 };
        let one = from.offset(up);
        if one == Some(to) {
            return !occ.contains(to);
        }
        from.rank() == start_rank
            && one.is_some_and(|s| !occ.contains(s))
            && one.and_then(|s| s.offset(up)) == Some(to)
            && !occ.contains(to)
    }

    fn castling_is_legal(&self, from: Square, to: Square, occ: Bitboard) -> bool {
        if self.in_check() {
            return false;
        }
        let king_side = match to.file() {
            6 => true,
            2 => false,
            _ => return false,
        };
        self.castling_move(king_side, occ)
            .is_some_and(|m| m.from() == from && m.to() == to)
    }

    /// Whether `m` is legal here: pseudo-legal and not leaving the own king in check. Much
    /// cheaper than generating all moves. Safe to call with any 16 bits.
    pub fn is_legal(&self, m: Move) -> bool {
        if !self.is_pseudo_legal(m) {
            return false;
        }
        if m.is_castling() {
            return true;
        }
        let us = self.side_to_move();
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let ksq = self.king_square(us);
        let occ = self.occupied();
        if from == ksq {
            return !self.is_attacked_by(them, to, occ ^ from);
        }
        if m.is_en_passant() {
            let cap_sq = m.en_passant_victim();
            let occ_after = (occ ^ from ^ cap_sq) | to;
            return (self.attackers_to(ksq, occ_after) & self.by_color(them))
                .without(cap_sq)
                .is_empty();
        }
        let checkers = self.checkers();
        if checkers.more_than_one() {
            return false;
        }
        if checkers.any() && !(attacks::between(ksq, checkers.lsb()) | checkers).contains(to) {
            return false;
        }
        !self.pinned(us).contains(from) || attacks::line(ksq, from).contains(to)
    }

    /// Whether `m` captures something (en passant included).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m.is_en_passant() || (!m.is_castling() && self.piece_on(m.to()).is_some())
    }

    /// The piece `m` captures, if any.
    #[inline]
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        if m.is_en_passant() {
            Some(Piece::new(!self.side_to_move(), PieceType::Pawn))
        } else if m.is_castling() {
            None
        } else {
            self.piece_on(m.to())
        }
    }

    /// Whether the legal move `m` gives check (directly or by discovery).
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_on(from) else {
            return false;
        };
        let eksq = self.king_square(them);
        let mut occ = self.occupied() ^ from;
        let mut moved_from = Bitboard::from_square(from);
        // The piece that ends up on a new square, and where.
        let (kind, sq) = if m.is_castling() {
            // Both pieces lifted before either lands (Chess960 squares may coincide).
            let (rook_from, rook_to) = self.castling_rook(m);
            occ = (occ ^ rook_from) | to | rook_to;
            moved_from |= rook_from;
            (PieceType::Rook, rook_to)
        } else {
            occ |= to;
            if m.is_en_passant() {
                occ ^= m.en_passant_victim();
            }
            (m.promotion().unwrap_or(piece.kind()), to)
        };
        if attacks::piece(kind, us, sq, occ).contains(eksq) {
            return true;
        }
        let ours = self.by_color(us) - moved_from;
        let bq = (self.by_kind(PieceType::Bishop) | self.by_kind(PieceType::Queen)) & ours;
        let rq = (self.by_kind(PieceType::Rook) | self.by_kind(PieceType::Queen)) & ours;
        (attacks::bishop(eksq, occ) & bq).any() || (attacks::rook(eksq, occ) & rq).any()
    }

    /// The legal move written as UCI text ("e2e4", "e7e8q", castling "e1g1"); `None` if the text
    /// is not a move or the move is not legal here. Castling may also be written as the king
    /// taking its own rook ("e1h1"), which is never ambiguous. Same as
    /// [`Board::parse_uci_move_as`] with `chess960` false.
    pub fn parse_uci_move(&self, text: &str) -> Option<Move> {
        self.parse_uci_move_as(text, false)
    }

    /// [`Board::parse_uci_move`] in either notation: with `chess960`, castling is only read as
    /// the king taking its own rook (UCI_Chess960), so "f1g1" is a plain king move even where a
    /// castling would also put the king on g1; without, the king's destination ("e1g1") is read
    /// as castling too.
    pub fn parse_uci_move_as(&self, text: &str, chess960: bool) -> Option<Move> {
        let text = text.trim();
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return None;
        }
        let from: Square = text[0..2].parse().ok()?;
        let to: Square = text[2..4].parse().ok()?;
        let promo = match text.get(4..5) {
            None => None,
            Some(p) => match PieceType::from_char(p.chars().next()?) {
                Some(
                    k
                    @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen),
                ) => Some(k),
                _ => return None,
            },
        };
        let moves = self.legal_moves();
        // A plain move first: "f1g1" is a king move even where castling also lands on g1.
        let plain = |m: &&Move| {
            !m.is_castling() && m.from() == from && m.to() == to && m.promotion() == promo
        };
        let castling = |m: &&Move| {
            m.is_castling()
                && m.from() == from
                && promo.is_none()
                && (self.castling_rook(**m).0 == to || (!chess960 && m.to() == to))
        };
        moves
            .iter()
            .find(plain)
            .or_else(|| moves.iter().find(castling))
            .copied()
    }

    /// The move as UCI text: castling as the king's destination ("e1g1"), or with `chess960`
    /// as the king taking its own rook ("e1h1", UCI_Chess960). Other moves as
    /// [`Move`]'s `Display` writes them.
    pub fn move_to_uci(&self, m: Move, chess960: bool) -> String {
        if chess960 && m.is_castling() {
            format!("{}{}", m.from(), self.castling_rook(m).0)
        } else {
            m.to_string()
        }
    }
}
