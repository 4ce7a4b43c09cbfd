//! The board: bitboards per piece kind and colour plus a mailbox, the game state (side to move,
//! castling rights, en passant square, counters), an incremental Zobrist key, and a history stack
//! for unmake and repetition detection.

mod castling;
mod draw;
mod fen;
mod makemove;
mod reachable;
pub mod zobrist;

pub use castling::CastlingSetup;
pub use fen::FenError;

use crate::attacks;
use crate::types::{Bitboard, CastlingRights, Color, Move, Piece, PieceType, Square};
use std::fmt;
use std::str::FromStr;

/// The state needed to undo one move (or null move), pushed by `make` and popped by `unmake`.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    castling: CastlingRights,
    en_passant: Option<Square>,
    halfmove_clock: u32,
    plies_from_null: u32,
    key: u64,
    pawn_key: u64,
    checkers: Bitboard,
}

/// A chess position with its history since it was set up.
///
/// The en passant square is only recorded when a pawn of the side to move could capture there,
/// so positions that differ only by a useless en passant square get equal keys and equal FENs.
#[derive(Clone)]
pub struct Board {
    by_kind: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    side: Color,
    castling: CastlingRights,
    en_passant: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    plies_from_null: u32,
    key: u64,
    pawn_key: u64,
    checkers: Bitboard,
    /// Where castling kings and rooks start (fixed for the game; standard unless a Chess960
    /// FEN said otherwise).
    castle: CastlingSetup,
    history: Vec<Undo>,
}

/// The standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Board {
    /// An empty board (no pieces, White to move): the starting point of the FEN parser.
    fn empty() -> Board {
        Board {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            plies_from_null: 0,
            key: 0,
            pawn_key: 0,
            checkers: Bitboard::EMPTY,
            castle: CastlingSetup::default(),
            history: Vec::with_capacity(256),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(STARTPOS_FEN).expect("the start position FEN is valid")
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    /// The squares holding pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// The squares holding pieces of `kind`, both colours.
    #[inline(always)]
    pub fn by_kind(&self, kind: PieceType) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The squares holding pieces of `color`.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Where the king of `color` stands.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceType::King).lsb()
    }

    /// The castling rights.
    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The Zobrist key of a set of castling rights with this game's castling rooks.
    #[inline(always)]
    fn castling_key(&self, rights: CastlingRights) -> u64 {
        self.castle.keys[rights.index()]
    }

    /// Whether the castling rights use Chess960 start squares (a king off the e-file or a
    /// castling rook off the a- and h-files). Such positions print castling moves as
    /// king-takes-rook wherever a move could otherwise be ambiguous.
    pub fn is_chess960(&self) -> bool {
        self.castle.is_chess960(self.castling)
    }

    /// The start square of the rook of the castling right of `color` on the king side
    /// (`king_side`) or queen side, if that right is still held.
    pub fn castling_rook_square(&self, color: Color, king_side: bool) -> Option<Square> {
        let i = castling::right_index(color, king_side);
        (self.castling.0 >> i & 1 != 0).then_some(self.castle.rook_from[i])
    }

    /// For a castling move (the king's move, as generated), the rook's from and to squares.
    #[inline]
    pub fn castling_rook(&self, m: Move) -> (Square, Square) {
        let to = m.to();
        let king_side = to.file() == 6;
        let color = if to.rank() == 0 {
            Color::White
        } else {
            Color::Black
        };
        let rook_to = Square::new(if king_side { 5 } else { 3 }, to.rank());
        (
            self.castle.rook_from[castling::right_index(color, king_side)],
            rook_to,
        )
    }

    /// The en passant target square, only when a pawn of the side to move attacks it.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move (for the fifty-move rule).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The Zobrist key, updated incrementally by make/unmake.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// A Zobrist key of the pawns only (for a pawn-structure cache).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// The enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Number of moves (and null moves) made since the board was set up.
    #[inline(always)]
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Same as [`Board::history_len`]: plies made on this board.
    #[inline(always)]
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    /// The last move made (`None` at the root or after a null move).
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv).filter(|m| !m.is_null())
    }

    /// Pieces of both colours attacking `sq`, with `occupied` as the blockers for sliders.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let bq = self.by_kind(PieceType::Bishop) | self.by_kind(PieceType::Queen);
        let rq = self.by_kind(PieceType::Rook) | self.by_kind(PieceType::Queen);
        (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, PieceType::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, PieceType::Pawn))
            | (attacks::knight(sq) & self.by_kind(PieceType::Knight))
            | (attacks::king(sq) & self.by_kind(PieceType::King))
            | (attacks::bishop(sq, occupied) & bq)
            | (attacks::rook(sq, occupied) & rq)
    }

    /// Every square a piece of `by` attacks (kings included; pieces of either colour block
    /// sliders): the threats the search reads a quiet move's history by.
    pub fn attacks_by(&self, by: Color) -> Bitboard {
        let them = self.by_color(by);
        let occupied = self.occupied();
        let mut attacked = attacks::pawns(by, self.by_kind(PieceType::Pawn) & them)
            | attacks::king(self.king_square(by));
        for sq in self.by_kind(PieceType::Knight) & them {
            attacked |= attacks::knight(sq);
        }
        let queens = self.by_kind(PieceType::Queen);
        for sq in (self.by_kind(PieceType::Bishop) | queens) & them {
            attacked |= attacks::bishop(sq, occupied);
        }
        for sq in (self.by_kind(PieceType::Rook) | queens) & them {
            attacked |= attacks::rook(sq, occupied);
        }
        attacked
    }

    /// Whether a piece of `by` attacks `sq`, with `occupied` as the blockers.
    #[inline]
    pub fn is_attacked_by(&self, by: Color, sq: Square, occupied: Bitboard) -> bool {
        let them = self.by_color(by);
        let bq = (self.by_kind(PieceType::Bishop) | self.by_kind(PieceType::Queen)) & them;
        let rq = (self.by_kind(PieceType::Rook) | self.by_kind(PieceType::Queen)) & them;
        (attacks::pawn(!by, sq) & self.by_kind(PieceType::Pawn) & them).any()
            || (attacks::knight(sq) & self.by_kind(PieceType::Knight) & them).any()
            || (attacks::king(sq) & self.by_kind(PieceType::King) & them).any()
            || (attacks::bishop(sq, occupied) & bq).any()
            || (attacks::rook(sq, occupied) & rq).any()
    }

    /// Our pieces that are the only blocker between our king and an enemy slider.
    #[inline]
    pub fn pinned(&self, us: Color) -> Bitboard {
        let them = !us;
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let snipers = (attacks::rook(ksq, Bitboard::EMPTY)
            & (self.pieces(them, PieceType::Rook) | self.pieces(them, PieceType::Queen)))
            | (attacks::bishop(ksq, Bitboard::EMPTY)
                & (self.pieces(them, PieceType::Bishop) | self.pieces(them, PieceType::Queen)));
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(ksq, s) & occ;
            if blockers.any() && !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.by_color(us)
    }

    /// Computes the Zobrist key from scratch (the incremental key must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = self.pieces_key(self.occupied());
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        key ^= self.castling_key(self.castling);
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep);
        }
        key
    }

    /// Computes the pawn key from scratch.
    pub fn compute_pawn_key(&self) -> u64 {
        self.pieces_key(self.by_kind(PieceType::Pawn))
    }

    /// The Zobrist piece-square key of the pieces on `squares`.
    fn pieces_key(&self, squares: Bitboard) -> u64 {
        let mut key = 0;
        for sq in squares {
            if let Some(p) = self.piece_on(sq) {
                key ^= zobrist::piece_square(p, sq);
            }
        }
        key
    }

    #[inline(always)]
    fn put_piece(&mut self, sq: Square, p: Piece) {
        self.by_kind[p.kind().index()] |= sq;
        self.by_color[p.color().index()] |= sq;
        self.mailbox[sq.index()] = Some(p);
    }

    #[inline(always)]
    fn remove_piece(&mut self, sq: Square, p: Piece) {
        self.by_kind[p.kind().index()] ^= sq;
        self.by_color[p.color().index()] ^= sq;
        self.mailbox[sq.index()] = None;
    }

    #[inline(always)]
    fn move_piece(&mut self, from: Square, to: Square, p: Piece) {
        let b = Bitboard::from_square(from) | to;
        self.by_kind[p.kind().index()] ^= b;
        self.by_color[p.color().index()] ^= b;
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(p);
    }
}

impl FromStr for Board {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Board, FenError> {
        Board::from_fen(s)
    }
}

impl fmt::Display for Board {
    /// The FEN of the position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::startpos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attacks_by_is_every_square_is_attacked_by_says() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "7k/P6p/8/8/8/8/p6P/K7 b - - 0 1",
        ];
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            for by in [Color::White, Color::Black] {
                let expected: Bitboard = (0..64)
                    .map(Square::from_index)
                    .filter(|&sq| board.is_attacked_by(by, sq, board.occupied()))
                    .collect();
                assert_eq!(board.attacks_by(by), expected, "{fen} by {by:?}");
            }
        }
    }
}
