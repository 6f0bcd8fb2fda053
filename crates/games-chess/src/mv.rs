//! [`Move`]: from, to and promotion in 15 bits, printed in UCI notation.

use core::fmt;
use core::str::FromStr;

use crate::types::{Role, Square};

/// A chess move: origin, destination and promotion piece.
///
/// Castling is the king's two-square move (`e1g1`) and en passant the
/// pawn's diagonal move to the empty square, exactly as UCI writes them;
/// the position tells them apart when the move is made. Printing and
/// parsing ([`Display`](fmt::Display), [`FromStr`]) use UCI notation
/// (`e2e4`, `e7e8q`); [`Position::parse_uci`](crate::Position::parse_uci)
/// also checks legality.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// A move from `from` to `to`, promoting to `promotion` (a knight,
    /// bishop, rook or queen; `None` otherwise).
    ///
    /// # Panics
    ///
    /// If `promotion` is a pawn or a king.
    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square, promotion: Option<Role>) -> Move {
        let p = match promotion {
            None => 0,
            Some(Role::Knight) => 1,
            Some(Role::Bishop) => 2,
            Some(Role::Rook) => 3,
            Some(Role::Queen) => 4,
            Some(_) => panic!("promotion to a pawn or a king"),
        };
        Move::raw(from.index(), to.index(), p)
    }

    #[inline(always)]
    pub(crate) const fn raw(from: usize, to: usize, promo: u16) -> Move {
        Move(from as u16 | (to as u16) << 6 | promo << 12)
    }

    /// The origin square.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// The destination square.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    #[inline(always)]
    pub(crate) const fn orig_idx(self) -> usize {
        (self.0 & 63) as usize
    }

    #[inline(always)]
    pub(crate) const fn to_idx(self) -> usize {
        (self.0 >> 6 & 63) as usize
    }

    /// `0` for no promotion, `1..=4` for knight, bishop, rook, queen.
    #[inline(always)]
    pub(crate) const fn promo_code(self) -> u16 {
        self.0 >> 12
    }

    /// The promotion piece, if any.
    #[inline]
    #[must_use]
    pub const fn promotion(self) -> Option<Role> {
        match self.promo_code() {
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a UCI move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciError {
    kind: UciErrorKind,
    text: String,
}

/// The kinds of [`UciError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UciErrorKind {
    /// Not 4 or 5 characters.
    Length,
    /// The origin or destination is not a square name.
    Square,
    /// The fifth character is not `n`, `b`, `r` or `q`.
    Promotion,
    /// Origin and destination are the same square.
    NullMove,
    /// Well formed, but not a legal move in the position.
    Illegal,
}

impl UciError {
    pub(crate) fn new(kind: UciErrorKind, text: &str) -> UciError {
        UciError {
            kind,
            text: text.to_owned(),
        }
    }
    /// What was wrong.
    #[must_use]
    pub fn kind(&self) -> UciErrorKind {
        self.kind
    }
    /// The refused text.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.kind {
            UciErrorKind::Length => "expected 4 or 5 characters",
            UciErrorKind::Square => "bad square name",
            UciErrorKind::Promotion => "promotion piece must be one of n, b, r, q",
            UciErrorKind::NullMove => "origin and destination are the same square",
            UciErrorKind::Illegal => "illegal in this position",
        };
        write!(f, "invalid UCI move {:?}: {why}", self.text)
    }
}

impl std::error::Error for UciError {}

impl Move {
    /// `from × 64 + to`, plus `4096 ×` the promotion code (0 none, 1 knight
    /// .. 4 queen): one-to-one, below `5 × 4096` (the game's move number).
    #[inline]
    #[must_use]
    pub const fn number(self) -> usize {
        self.0 as usize
    }

    /// The move whose [`number`](Move::number) is `n`, if a move has it
    /// (distinct squares and a promotion code `0..=4`): for building moves
    /// from untrusted numbers, e.g. in fuzzing.
    #[must_use]
    pub const fn from_number(n: usize) -> Option<Move> {
        if n >= 5 * 4096 {
            return None;
        }
        let m = Move(n as u16);
        if m.orig_idx() != m.to_idx() {
            Some(m)
        } else {
            None
        }
    }
}

impl FromStr for Move {
    type Err = UciError;
    /// Parses UCI notation without a position: checks the syntax only.
    fn from_str(s: &str) -> Result<Move, UciError> {
        if !(4..=5).contains(&s.len()) || !s.is_ascii() {
            return Err(UciError::new(UciErrorKind::Length, s));
        }
        let from: Square = s[0..2]
            .parse()
            .map_err(|_| UciError::new(UciErrorKind::Square, s))?;
        let to: Square = s[2..4]
            .parse()
            .map_err(|_| UciError::new(UciErrorKind::Square, s))?;
        if from == to {
            return Err(UciError::new(UciErrorKind::NullMove, s));
        }
        let promotion = match s.as_bytes().get(4) {
            None => None,
            Some(b'n') => Some(Role::Knight),
            Some(b'b') => Some(Role::Bishop),
            Some(b'r') => Some(Role::Rook),
            Some(b'q') => Some(Role::Queen),
            Some(_) => return Err(UciError::new(UciErrorKind::Promotion, s)),
        };
        Ok(Move::new(from, to, promotion))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_round_trip_and_errors() {
        for s in ["e2e4", "e7e8q", "a7b8n", "h2h1r", "c2c1b", "e1g1"] {
            let m: Move = s.parse().unwrap();
            assert_eq!(m.to_string(), s);
            assert!(m.number() < 5 * 4096);
        }
        let kind = |s: &str| s.parse::<Move>().unwrap_err().kind();
        assert_eq!(kind("e2e"), UciErrorKind::Length);
        assert_eq!(kind("e2e4qq"), UciErrorKind::Length);
        assert_eq!(kind("é2e4"), UciErrorKind::Length);
        assert_eq!(kind("i2e4"), UciErrorKind::Square);
        assert_eq!(kind("e2e9"), UciErrorKind::Square);
        assert_eq!(kind("e7e8k"), UciErrorKind::Promotion);
        assert_eq!(kind("e7e8Q"), UciErrorKind::Promotion);
        assert_eq!(kind("e2e2"), UciErrorKind::NullMove);
    }

    #[test]
    fn from_number_accepts_exactly_move_numbers() {
        let mut n = 0;
        for code in 0..=usize::from(u16::MAX) {
            if let Some(m) = Move::from_number(code) {
                assert_eq!(m.number(), code);
                n += 1;
            }
        }
        assert_eq!(n, 5 * 64 * 63);
        assert_eq!(Move::from_number(usize::from(u16::MAX)), None);
    }
}
