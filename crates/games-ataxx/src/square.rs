//! Squares, moves and their text notation.

use core::fmt;
use core::str::FromStr;

use crate::bitboard::{JUMP_DIRS, jump_dir};

/// One of the 49 squares, `a1` (0) to `g7` (48): index `rank * 7 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The number of squares.
    pub const COUNT: usize = 49;

    /// The square with this index, or `None` when `index >= 49`.
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < Self::COUNT {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), or `None` off the board.
    #[inline]
    #[must_use]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 7 && rank < 7 {
            Some(Square(rank * 7 + file))
        } else {
            None
        }
    }

    /// The index, `0..49`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, `0..7` (0 = a).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % 7
    }

    /// The rank, `0..7` (0 = rank 1).
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / 7
    }

    /// The Chebyshev (king-move) distance to `other`.
    #[inline]
    #[must_use]
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        if df > dr { df } else { dr }
    }

    /// The one-bit bitboard of this square.
    #[inline]
    pub(crate) const fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    /// `a1` .. `g7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A square or move that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    text: String,
    reason: &'static str,
}

impl ParseMoveError {
    fn new(text: &str, reason: &'static str) -> Self {
        ParseMoveError {
            text: text.to_owned(),
            reason,
        }
    }
    /// The text that was refused.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }
    /// Why it was refused, in a few words.
    #[must_use]
    pub fn reason(&self) -> &'static str {
        self.reason
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot parse {:?} as an Ataxx move: {}",
            self.text, self.reason
        )
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Square {
    type Err = ParseMoveError;
    /// Parses `a1` .. `g7` (lower or upper case file).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(ParseMoveError::new(
                s,
                "a square is a file a-g and a rank 1-7",
            ));
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        Square::from_coords(file, rank)
            .ok_or_else(|| ParseMoveError::new(s, "a square is a file a-g and a rank 1-7"))
    }
}

/// An Ataxx move: a single (clone) move to a square, a jump from one square
/// to another at distance exactly 2, or a pass.
///
/// Notation (libataxx, UAI): a single move is its destination (`f2`), a jump
/// is origin and destination (`a1c3`), a pass is `0000`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    // `from == to` for a single move; both `PASS_CODE` for a pass.
    from: u8,
    to: u8,
}

const PASS_CODE: u8 = 49;

impl Move {
    /// The pass, legal only when the side to move has no other move and the
    /// game is not over.
    pub const PASS: Move = Move {
        from: PASS_CODE,
        to: PASS_CODE,
    };

    /// A single (clone) move to `to`: a new stone appears there.
    #[inline]
    #[must_use]
    pub const fn single(to: Square) -> Move {
        Move {
            from: to.0,
            to: to.0,
        }
    }

    /// A jump from `from` to `to`, or `None` unless they are at distance
    /// exactly 2.
    #[inline]
    #[must_use]
    pub const fn jump(from: Square, to: Square) -> Option<Move> {
        if from.distance(to) == 2 {
            Some(Move {
                from: from.0,
                to: to.0,
            })
        } else {
            None
        }
    }

    /// A jump without the distance check (for the move generator).
    #[inline]
    pub(crate) const fn jump_unchecked(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// Is this the pass?
    #[inline]
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.from == PASS_CODE
    }

    /// Is this a single (clone) move?
    #[inline]
    #[must_use]
    pub const fn is_single(self) -> bool {
        self.from == self.to && self.from != PASS_CODE
    }

    /// Is this a jump?
    #[inline]
    #[must_use]
    pub const fn is_jump(self) -> bool {
        self.from != self.to
    }

    /// The destination square (`None` for the pass).
    #[inline]
    #[must_use]
    pub const fn to(self) -> Option<Square> {
        if self.is_pass() {
            None
        } else {
            Some(Square(self.to))
        }
    }

    /// The origin of a jump (`None` for single moves and the pass).
    #[inline]
    #[must_use]
    pub const fn from(self) -> Option<Square> {
        if self.is_jump() {
            Some(Square(self.from))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) const fn raw(self) -> (u8, u8) {
        (self.from, self.to)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("0000")
        } else if self.is_single() {
            write!(f, "{}", Square(self.to))
        } else {
            write!(f, "{}{}", Square(self.from), Square(self.to))
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;
    /// Parses `0000` (pass), a square (single move) or two squares at
    /// distance exactly 2 (jump). A two-square text at distance 1 is
    /// refused rather than read as a single move, so that printing and
    /// parsing round-trip.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "0000" {
            return Ok(Move::PASS);
        }
        match s.len() {
            2 => Ok(Move::single(s.parse()?)),
            4 if s.is_char_boundary(2) => {
                let from: Square = s[..2].parse()?;
                let to: Square = s[2..].parse()?;
                Move::jump(from, to)
                    .ok_or_else(|| ParseMoveError::new(s, "a jump goes exactly two squares"))
            }
            _ => Err(ParseMoveError::new(
                s,
                "expected a square (f2), two squares (a1c3) or 0000",
            )),
        }
    }
}

impl Move {
    /// The number of move numbers: 49 singles, 49 × 16 jumps, the pass.
    pub const NUMBERS: usize = 49 + 49 * 16 + 1;

    /// The move's number (the game's move numbering): single moves `0..49`
    /// by destination, jumps `49 + from * 16 + direction` (the 16
    /// directions at distance 2), the pass `833`. One-to-one.
    #[inline]
    #[must_use]
    pub fn number(self) -> usize {
        if self.is_pass() {
            Self::NUMBERS - 1
        } else if self.is_single() {
            self.to as usize
        } else {
            49 + self.from as usize * 16 + jump_dir(self.from, self.to)
        }
    }

    /// The move with number `n`, if there is one (for building moves from
    /// untrusted numbers, e.g. in fuzzing).
    #[must_use]
    pub fn from_number(n: usize) -> Option<Move> {
        if n < 49 {
            Some(Move::single(Square(n as u8)))
        } else if n == Self::NUMBERS - 1 {
            Some(Move::PASS)
        } else if n < Self::NUMBERS {
            let from = Square(((n - 49) / 16) as u8);
            let (df, dr) = JUMP_DIRS[(n - 49) % 16];
            let to = Square::from_coords(
                from.file().wrapping_add_signed(df),
                from.rank().wrapping_add_signed(dr),
            )?;
            Move::jump(from, to)
        } else {
            None
        }
    }
}
