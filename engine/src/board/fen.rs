//! FEN in and out, with a typed error for every way a FEN can be wrong, including positions
//! that are well formed but cannot arise in a game (`reachable.rs` holds those rules).

use super::{castling, Board};
use crate::attacks;
use crate::types::{Bitboard, CastlingRights, Color, Piece, PieceType, Square};
use std::fmt;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    FieldCount(usize),
    /// The board field does not have 8 ranks separated by '/'.
    RankCount(usize),
    /// A character in the board field that is neither a piece letter nor a digit 1-8.
    BadPiece {
        /// The offending character.
        ch: char,
        /// Rank number 1..8 where it occurs.
        rank: u8,
    },
    /// A rank that does not describe exactly 8 squares.
    RankLength {
        /// Rank number 1..8.
        rank: u8,
        /// How many squares it describes.
        squares: usize,
    },
    /// The side-to-move field is not "w" or "b".
    BadSideToMove(String),
    /// The castling field is not "-" or up to four letters among KQkq and the files A-H, a-h,
    /// or names one right twice.
    BadCastling(String),
    /// A castling right without its king on the back rank and a rook where the letter says.
    CastlingWithoutPieces(char),
    /// The en passant field is not "-" or a square on the right rank.
    BadEnPassant(String),
    /// An en passant square with no pawn that could just have made a double step.
    EnPassantWithoutPawn(Square),
    /// A side without exactly one king.
    KingCount {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// A pawn on the first or last rank.
    PawnOnBackRank(Square),
    /// The side that just moved is in check (its king could be captured).
    OpponentInCheck,
    /// The side to move is checked by more than two pieces, which no legal move can cause.
    TooManyCheckers(u32),
    /// Checks that no last move could have given (the reason in words).
    ImpossibleCheck(&'static str),
    /// More than the 16 pieces a side starts with.
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many pieces it has, king and pawns included.
        count: u32,
    },
    /// More than 8 pawns on one side.
    TooManyPawns {
        /// The side.
        color: Color,
        /// How many pawns it has.
        count: u32,
    },
    /// More pieces beyond the starting set (a second queen, a third rook, two bishops on one
    /// square colour, ...) than the side has missing pawns to have promoted.
    TooManyPromoted {
        /// The side.
        color: Color,
        /// Pieces beyond the starting set, each of which must be a promoted pawn.
        promoted: u32,
        /// Pawns missing from the side's 8, the most it can have promoted.
        missing_pawns: u32,
    },
    /// The halfmove clock is not a non-negative number.
    BadHalfmoveClock(String),
    /// The fullmove number is not a non-negative number.
    BadFullmoveNumber(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(
                f,
                "expected 4 to 6 fields (board, side, castling, en passant, halfmove, fullmove), found {n}"
            ),
            FenError::RankCount(n) => {
                write!(f, "the board field must have 8 ranks separated by '/', found {n}")
            }
            FenError::BadPiece { ch, rank } => {
                write!(f, "'{ch}' on rank {rank} is not a piece letter (PNBRQKpnbrqk) or digit 1-8")
            }
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares instead of 8")
            }
            FenError::BadSideToMove(s) => write!(f, "side to move must be 'w' or 'b', found '{s}'"),
            FenError::BadCastling(s) => {
                write!(
                    f,
                    "castling field must be '-', letters from 'KQkq' (X-FEN) or rook files 'A'-'H', 'a'-'h' (Shredder-FEN), each right once; found '{s}'"
                )
            }
            FenError::CastlingWithoutPieces(c) => write!(
                f,
                "castling right '{c}' needs the king on its back rank and a rook on that side of it (or on the file named)"
            ),
            FenError::BadEnPassant(s) => write!(
                f,
                "en passant field must be '-' or a square on rank 6 (White to move) or 3 (Black to move), found '{s}'"
            ),
            FenError::EnPassantWithoutPawn(sq) => write!(
                f,
                "en passant square {sq} has no pawn in front of it that could have just moved two squares"
            ),
            FenError::KingCount { color, count } => {
                write!(f, "{color} must have exactly one king, found {count}")
            }
            FenError::PawnOnBackRank(sq) => {
                write!(f, "pawn on {sq}: pawns cannot stand on the first or last rank")
            }
            FenError::OpponentInCheck => {
                write!(f, "the side not to move is in check (its king could be captured)")
            }
            FenError::TooManyCheckers(n) => {
                write!(f, "the side to move is checked by {n} pieces; at most 2 is possible")
            }
            FenError::ImpossibleCheck(why) => {
                write!(f, "no last move could give this check: {why}")
            }
            FenError::TooManyPieces { color, count } => {
                write!(f, "{color} has {count} pieces; a side has at most 16")
            }
            FenError::TooManyPawns { color, count } => {
                write!(f, "{color} has {count} pawns; a side has at most 8")
            }
            FenError::TooManyPromoted {
                color,
                promoted,
                missing_pawns,
            } => write!(
                f,
                "{color} has {promoted} pieces beyond the starting set (a second queen, a third rook, knight or same-coloured bishop, ...), each a promoted pawn, but only {missing_pawns} of its pawns are missing"
            ),
            FenError::BadHalfmoveClock(s) => {
                write!(f, "halfmove clock must be a non-negative number, found '{s}'")
            }
            FenError::BadFullmoveNumber(s) => {
                write!(f, "fullmove number must be a non-negative number, found '{s}'")
            }
        }
    }
}

impl std::error::Error for FenError {}

impl Board {
    /// Parses a FEN. The two counters may be left out (EPD style); they default to 0 and 1.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut board = Board::empty();
        board.parse_placement(fields[0])?;
        board.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::BadSideToMove(s.to_string())),
        };
        board.castling = board.parse_castling(fields[2])?;
        let ep = board.parse_en_passant(fields[3])?;
        if let Some(s) = fields.get(4) {
            board.halfmove_clock = s
                .parse()
                .map_err(|_| FenError::BadHalfmoveClock(s.to_string()))?;
        }
        if let Some(s) = fields.get(5) {
            let n: u32 = s
                .parse()
                .map_err(|_| FenError::BadFullmoveNumber(s.to_string()))?;
            board.fullmove_number = n.max(1);
        }
        board.validate()?;
        let us = board.side;
        board.checkers =
            board.attackers_to(board.king_square(us), board.occupied()) & board.by_color(!us);
        board.check_checkers(ep)?;
        // Record the en passant square only if a pawn of the side to move can capture there.
        board.en_passant = ep.filter(|&sq| {
            (attacks::pawn(!board.side, sq) & board.pieces(board.side, PieceType::Pawn)).any()
        });
        board.key = board.compute_key();
        board.pawn_key = board.compute_pawn_key();
        Ok(board)
    }

    fn parse_placement(&mut self, field: &str) -> Result<(), FenError> {
        let ranks: Vec<&str> = field.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d as usize;
                } else if let Some(p) = Piece::from_fen_char(ch) {
                    if file < 8 {
                        self.put_piece(Square::new(file as u8, rank), p);
                    }
                    file += 1;
                } else {
                    return Err(FenError::BadPiece { ch, rank: rank + 1 });
                }
            }
            if file != 8 {
                return Err(FenError::RankLength {
                    rank: rank + 1,
                    squares: file,
                });
            }
        }
        Ok(())
    }

    /// Reads the castling field: "-", or per right a letter: K/Q/k/q (X-FEN: the outermost
    /// rook on that side of the king) or the rook's file A-H/a-h (Shredder-FEN; X-FEN uses it
    /// when the rook is not the outermost). Records the castling set-up as it goes.
    fn parse_castling(&mut self, field: &str) -> Result<CastlingRights, FenError> {
        if field == "-" {
            return Ok(CastlingRights::NONE);
        }
        let letter = |c: char| matches!(c.to_ascii_lowercase(), 'a'..='h' | 'k' | 'q');
        if field.is_empty() || field.len() > 4 || !field.chars().all(letter) {
            return Err(FenError::BadCastling(field.to_string()));
        }
        let mut rights = CastlingRights::NONE;
        for ch in field.chars() {
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let rank = castling::back_rank(color);
            let king = self.pieces(color, PieceType::King) & Bitboard::rank(rank);
            let rooks = self.pieces(color, PieceType::Rook) & Bitboard::rank(rank);
            let (king_side, rook) = match ch.to_ascii_lowercase() {
                'k' | 'q' => {
                    let king_side = ch.eq_ignore_ascii_case(&'k');
                    let Some(ksq) = king.any().then(|| king.lsb()) else {
                        return Err(FenError::CastlingWithoutPieces(ch));
                    };
                    // The outermost rook on that side of the king.
                    let outer = (0..8u8)
                        .map(|f| if king_side { 7 - f } else { f })
                        .map(|f| Square::new(f, rank))
                        .take_while(|&sq| sq != ksq)
                        .find(|&sq| rooks.contains(sq));
                    match outer {
                        Some(r) => (king_side, r),
                        None => return Err(FenError::CastlingWithoutPieces(ch)),
                    }
                }
                f @ 'a'..='h' => {
                    let rook = Square::new(f as u8 - b'a', rank);
                    let Some(ksq) = king.any().then(|| king.lsb()) else {
                        return Err(FenError::CastlingWithoutPieces(ch));
                    };
                    if !rooks.contains(rook) || ksq.file() == rook.file() {
                        return Err(FenError::CastlingWithoutPieces(ch));
                    }
                    (rook.file() > ksq.file(), rook)
                }
                _ => return Err(FenError::BadCastling(field.to_string())),
            };
            let right = if king_side {
                CastlingRights::king_side(color)
            } else {
                CastlingRights::queen_side(color)
            };
            if rights.contains(right) {
                return Err(FenError::BadCastling(field.to_string()));
            }
            self.castle.set(color, king_side, king.lsb(), rook);
            rights = rights.with(right);
        }
        Ok(rights)
    }

    /// The castling field as X-FEN: K/Q/k/q where the castling rook is the outermost one on
    /// its side of the king (always so in standard chess, which thus gets "KQkq"), otherwise
    /// the rook's file letter; with `shredder`, always the file letters (Shredder-FEN).
    fn castling_field(&self, shredder: bool) -> String {
        if self.castling.is_empty() {
            return "-".to_string();
        }
        let mut s = String::with_capacity(4);
        for color in Color::ALL {
            for king_side in [true, false] {
                let Some(rook) = self.castling_rook_square(color, king_side) else {
                    continue;
                };
                let rooks = self.pieces(color, PieceType::Rook) & Bitboard::rank(rook.rank());
                let outermost = (0..8u8)
                    .filter(|&f| {
                        if king_side {
                            f > rook.file()
                        } else {
                            f < rook.file()
                        }
                    })
                    .all(|f| !rooks.contains(Square::new(f, rook.rank())));
                let ch = if outermost && !shredder {
                    if king_side {
                        'k'
                    } else {
                        'q'
                    }
                } else {
                    char::from(b'a' + rook.file())
                };
                s.push(if color == Color::White {
                    ch.to_ascii_uppercase()
                } else {
                    ch
                });
            }
        }
        s
    }

    fn parse_en_passant(&self, field: &str) -> Result<Option<Square>, FenError> {
        if field == "-" {
            return Ok(None);
        }
        let sq: Square = field
            .parse()
            .map_err(|_| FenError::BadEnPassant(field.to_string()))?;
        let us = self.side;
        let expected_rank = if us == Color::White { 5 } else { 2 };
        if sq.rank() != expected_rank {
            return Err(FenError::BadEnPassant(field.to_string()));
        }
        // The pawn that just moved stands one rank "behind" the square (from our side's view),
        // and the square and the pawn's origin square are empty.
        let pawn_sq = Square::new(sq.file(), if us == Color::White { 4 } else { 3 });
        let origin = Square::new(sq.file(), if us == Color::White { 6 } else { 1 });
        if self.piece_on(pawn_sq) != Some(Piece::new(!us, PieceType::Pawn))
            || self.piece_on(sq).is_some()
            || self.piece_on(origin).is_some()
        {
            return Err(FenError::EnPassantWithoutPawn(sq));
        }
        Ok(Some(sq))
    }

    fn validate(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            let count = self.pieces(color, PieceType::King).count();
            if count != 1 {
                return Err(FenError::KingCount { color, count });
            }
        }
        let back = (Bitboard::RANK_1 | Bitboard::RANK_8) & self.by_kind(PieceType::Pawn);
        if back.any() {
            return Err(FenError::PawnOnBackRank(back.lsb()));
        }
        for color in Color::ALL {
            self.check_material(color)?;
        }
        let them = !self.side;
        if self.is_attacked_by(self.side, self.king_square(them), self.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(())
    }

    /// The FEN of the position (en passant square only when a capture there is possible), the
    /// castling field in X-FEN: "KQkq" in standard chess, a rook's file letter only where a
    /// Chess960 castling rook is not the outermost rook on its side.
    pub fn to_fen(&self) -> String {
        self.fen_with(false)
    }

    /// The FEN with the castling field in Shredder-FEN (rook file letters, "HAha" for the
    /// standard start position).
    pub fn to_shredder_fen(&self) -> String {
        self.fen_with(true)
    }

    fn fen_with(&self, shredder: bool) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_on(Square::new(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.to_fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let ep = self
            .en_passant
            .map_or_else(|| "-".to_string(), |sq| sq.to_string());
        format!(
            "{s} {} {} {ep} {} {}",
            self.side.to_char(),
            self.castling_field(shredder),
            self.halfmove_clock,
            self.fullmove_number
        )
    }
}
