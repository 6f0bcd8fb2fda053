//! Forsyth–Edwards Notation: [`Position::from_fen`], `Display`, [`FenError`].

use core::fmt;
use core::str::FromStr;

use crate::position::{BK, BQ, EMPTY, KING_R, NO_EP, PAWN_R, Position, ROOK_R, WK, WQ};
use crate::types::{Color, Piece, Square};

/// Why a FEN string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    kind: FenErrorKind,
}

/// The kinds of [`FenError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// Not 6 space-separated fields (4 are accepted: the counters default to `0 1`).
    FieldCount(usize),
    /// The board does not have 8 ranks separated by `/`.
    RankCount(usize),
    /// A rank (1 = first) does not describe exactly 8 squares.
    RankLength(u8),
    /// A character that is neither a piece letter nor a digit 1–8.
    PieceLetter(char),
    /// A pawn on the first or eighth rank.
    PawnOnBackRank(Square),
    /// More pawns or promoted pieces than a game can produce.
    TooManyPieces(Color),
    /// Each side needs exactly one king.
    KingCount(Color),
    /// The side to move is neither `w` nor `b`.
    Side,
    /// The castling field is not `-` or a subset of `KQkq` in that order.
    CastlingSyntax,
    /// A castling right whose king or rook is not on its original square.
    CastlingPlacement(char),
    /// The en-passant field is not `-` or a square.
    EnPassantSyntax,
    /// An en-passant square that no double pawn push just produced (wrong
    /// rank, no pawn in front of it, or the squares it passed are occupied).
    EnPassantPlacement(Square),
    /// The half-move clock is not a number in `0..=65535`.
    HalfmoveClock,
    /// The full-move number is not a number in `0..=65535` (0 is accepted
    /// because some tools write it).
    FullmoveNumber,
    /// The side not to move is in check: the previous move was illegal.
    OpponentInCheck,
    /// Two pieces on one square ([`Position::from_pieces`] only: FEN
    /// cannot say so).
    SquareTaken(Square),
}

impl FenError {
    fn new(kind: FenErrorKind) -> FenError {
        FenError { kind }
    }
    /// What was wrong.
    #[must_use]
    pub fn kind(&self) -> FenErrorKind {
        self.kind
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid FEN: ")?;
        match self.kind {
            FenErrorKind::FieldCount(n) => write!(f, "{n} fields, expected 6 (or 4)"),
            FenErrorKind::RankCount(n) => write!(f, "{n} ranks, expected 8"),
            FenErrorKind::RankLength(r) => write!(f, "rank {r} does not have 8 squares"),
            FenErrorKind::PieceLetter(c) => write!(f, "unknown piece letter {c:?}"),
            FenErrorKind::PawnOnBackRank(s) => write!(f, "pawn on back rank square {s}"),
            FenErrorKind::TooManyPieces(c) => {
                write!(f, "too many pawns or promoted pieces for {c:?}")
            }
            FenErrorKind::KingCount(c) => write!(f, "{c:?} must have exactly one king"),
            FenErrorKind::Side => f.write_str("side to move must be 'w' or 'b'"),
            FenErrorKind::CastlingSyntax => {
                f.write_str("castling field must be '-' or a subset of 'KQkq'")
            }
            FenErrorKind::CastlingPlacement(c) => {
                write!(
                    f,
                    "castling right {c:?} without king and rook on their original squares"
                )
            }
            FenErrorKind::EnPassantSyntax => {
                f.write_str("en-passant field must be '-' or a square")
            }
            FenErrorKind::EnPassantPlacement(s) => {
                write!(
                    f,
                    "en-passant square {s} does not follow a double pawn push"
                )
            }
            FenErrorKind::HalfmoveClock => {
                f.write_str("half-move clock must be a number 0..=65535")
            }
            FenErrorKind::FullmoveNumber => {
                f.write_str("full-move number must be a number 1..=65535")
            }
            FenErrorKind::OpponentInCheck => f.write_str("the side not to move is in check"),
            FenErrorKind::SquareTaken(s) => write!(f, "two pieces on square {s}"),
        }
    }
}

impl std::error::Error for FenError {}

fn err<T>(kind: FenErrorKind) -> Result<T, FenError> {
    Err(FenError::new(kind))
}

impl Position {
    /// Parses a FEN string (6 fields, or 4 with counters `0 1`).
    ///
    /// # Errors
    ///
    /// A [`FenError`] saying which field is wrong; see [`FenErrorKind`].
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return err(FenErrorKind::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return err(FenErrorKind::RankCount(ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d as u8;
                } else if let Some(p) = Piece::from_char(c) {
                    if file >= 8 {
                        return err(FenErrorKind::RankLength(rank + 1));
                    }
                    let sq = Square::new(rank * 8 + file);
                    if p.role.index() == PAWN_R && (rank == 0 || rank == 7) {
                        return err(FenErrorKind::PawnOnBackRank(sq));
                    }
                    pos.put(sq.index(), p.index());
                    file += 1;
                } else {
                    return err(FenErrorKind::PieceLetter(c));
                }
                if file > 8 {
                    return err(FenErrorKind::RankLength(rank + 1));
                }
            }
            if file != 8 {
                return err(FenErrorKind::RankLength(rank + 1));
            }
        }
        pos.check_material()?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return err(FenErrorKind::Side),
        };
        if fields[2] != "-" {
            let mut last = 0;
            for c in fields[2].chars() {
                let (bit, king, rook, piece) = match c {
                    'K' => (WK, 4, 7, 0),
                    'Q' => (WQ, 4, 0, 0),
                    'k' => (BK, 60, 63, 6),
                    'q' => (BQ, 60, 56, 6),
                    _ => return err(FenErrorKind::CastlingSyntax),
                };
                if bit <= last {
                    return err(FenErrorKind::CastlingSyntax);
                }
                last = bit;
                if pos.board[king] as usize != piece + KING_R
                    || pos.board[rook] as usize != piece + ROOK_R
                {
                    return err(FenErrorKind::CastlingPlacement(c));
                }
                pos.castling |= bit;
            }
            if last == 0 {
                return err(FenErrorKind::CastlingSyntax);
            }
        }
        if fields[3] != "-" {
            let sq: Square = fields[3]
                .parse()
                .map_err(|_| FenError::new(FenErrorKind::EnPassantSyntax))?;
            pos.set_en_passant(sq)?;
        }
        if fields.len() == 6 {
            pos.halfmove = fields[4]
                .parse()
                .map_err(|_| FenError::new(FenErrorKind::HalfmoveClock))?;
            pos.fullmove = fields[5]
                .parse()
                .map_err(|_| FenError::new(FenErrorKind::FullmoveNumber))?;
        }
        if pos.opponent_in_check() {
            return err(FenErrorKind::OpponentInCheck);
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }
}

impl Position {
    /// Sets the en-passant square `sq` after checking that a double pawn
    /// push just produced it; keeps it only if a pawn of the side to move
    /// stands next to the pawn that moved (as FEN parsing does). The hash
    /// is not updated.
    fn set_en_passant(&mut self, sq: Square) -> Result<(), FenError> {
        let e = sq.index();
        // White to move: a black pawn went from e+8 to e-8 over e.
        let (rank, pawn_sq, origin, pawn) = match self.side {
            Color::White => (5, e.wrapping_sub(8), e + 8, 6 + PAWN_R),
            Color::Black => (2, e + 8, e.wrapping_sub(8), PAWN_R),
        };
        if sq.rank() != rank
            || self.board[pawn_sq] as usize != pawn
            || self.board[e] != EMPTY
            || self.board[origin] != EMPTY
        {
            return err(FenErrorKind::EnPassantPlacement(sq));
        }
        self.ep = e as u8;
        self.normalise_ep();
        Ok(())
    }

    /// The same position with the en-passant square `sq`: the square a
    /// pawn of the side not to move just passed over with a double push.
    /// As in FEN, the square is kept only when a pawn of the side to move
    /// stands next to the pawn that moved; otherwise the position is
    /// returned without one. Endgame tables use it to build the positions
    /// in which an en-passant capture is possible.
    ///
    /// ```
    /// use gametree_games_chess::{Position, Square};
    ///
    /// let p: Position = "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1".parse()?;
    /// let d6: Square = "d6".parse()?;
    /// let q = p.clone().with_en_passant(d6)?;
    /// assert_eq!(q.en_passant(), Some(d6));
    /// assert_eq!(q.to_string(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    /// // No pawn on d5 for the square c6: refused.
    /// assert!(p.with_en_passant("c6".parse()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`FenErrorKind::EnPassantPlacement`] when `sq` is not on the third
    /// rank of the side not to move (the sixth for White to move), or no
    /// pawn of that side stands just beyond it, or it or the square the
    /// pawn came from is occupied.
    pub fn with_en_passant(mut self, sq: Square) -> Result<Position, FenError> {
        self.set_en_passant(sq)?;
        self.hash = self.compute_hash();
        Ok(self)
    }

    /// A position with `pieces` on the board and `turn` to move, without
    /// castling rights or en-passant square, the half-move clock at 0 and
    /// the full-move number at 1, no history. The board is checked as
    /// [`from_fen`](Self::from_fen) checks it.
    ///
    /// ```
    /// use gametree_games_chess::{Color, Piece, Position, Square};
    ///
    /// let piece = |c: char| Piece::from_char(c).unwrap();
    /// let at = |s: &str| s.parse::<Square>().unwrap();
    /// let p = Position::from_pieces(
    ///     Color::Black,
    ///     [(at("b1"), piece('K')), (at("c3"), piece('k')), (at("d1"), piece('Q'))],
    /// )?;
    /// assert_eq!(p.to_string(), "8/8/8/8/8/2k5/8/1K1Q4 b - - 0 1");
    /// // White to move with Black in check: refused.
    /// let check = [(at("b1"), piece('K')), (at("c3"), piece('k')), (at("c1"), piece('Q'))];
    /// assert!(Position::from_pieces(Color::White, check).is_err());
    /// # Ok::<(), gametree_games_chess::FenError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`FenError`] of kind [`SquareTaken`](FenErrorKind::SquareTaken)
    /// when two pieces share a square, else as [`from_fen`](Self::from_fen):
    /// [`PawnOnBackRank`](FenErrorKind::PawnOnBackRank),
    /// [`KingCount`](FenErrorKind::KingCount),
    /// [`TooManyPieces`](FenErrorKind::TooManyPieces),
    /// [`OpponentInCheck`](FenErrorKind::OpponentInCheck).
    pub fn from_pieces(
        turn: Color,
        pieces: impl IntoIterator<Item = (Square, Piece)>,
    ) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        for (sq, p) in pieces {
            if pos.board[sq.index()] != EMPTY {
                return err(FenErrorKind::SquareTaken(sq));
            }
            if p.role.index() == PAWN_R && (sq.rank() == 0 || sq.rank() == 7) {
                return err(FenErrorKind::PawnOnBackRank(sq));
            }
            pos.put(sq.index(), p.index());
        }
        pos.check_material()?;
        pos.side = turn;
        if pos.opponent_in_check() {
            return err(FenErrorKind::OpponentInCheck);
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// One king each, and no more pawns and promoted pieces than a game
    /// can produce.
    fn check_material(&self) -> Result<(), FenError> {
        for color in [Color::White, Color::Black] {
            let c = color.index();
            if self.pieces(c, KING_R).count_ones() != 1 {
                return err(FenErrorKind::KingCount(color));
            }
            let pawns = self.pieces(c, PAWN_R).count_ones();
            let initial = [8, 2, 2, 2, 1];
            let extra: u32 = (1..5)
                .map(|r| self.pieces(c, r).count_ones().saturating_sub(initial[r]))
                .sum();
            if pawns > 8 || extra > 8 - pawns {
                return err(FenErrorKind::TooManyPieces(color));
            }
        }
        Ok(())
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    /// The position in FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut gap = 0;
            for file in 0..8 {
                let p = self.board[rank * 8 + file];
                if p == EMPTY {
                    gap += 1;
                } else {
                    if gap > 0 {
                        write!(f, "{gap}")?;
                        gap = 0;
                    }
                    write!(f, "{}", Piece::from_index(p as usize).char())?;
                }
            }
            if gap > 0 {
                write!(f, "{gap}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        })?;
        if self.castling == 0 {
            f.write_str("-")?;
        }
        for (bit, c) in [(WK, 'K'), (WQ, 'Q'), (BK, 'k'), (BQ, 'q')] {
            if self.castling & bit != 0 {
                write!(f, "{c}")?;
            }
        }
        if self.ep == NO_EP {
            f.write_str(" -")?;
        } else {
            write!(f, " {}", Square::new(self.ep))?;
        }
        write!(f, " {} {}", self.halfmove, self.fullmove)
    }
}
