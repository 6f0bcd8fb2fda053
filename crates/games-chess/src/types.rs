//! Vocabulary: [`Color`], [`Role`], [`Piece`], [`Square`].

use core::fmt;
use core::str::FromStr;

/// A side: White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// White (`gametree_game::Player::First`).
    White,
    /// Black (`gametree_game::Player::Second`).
    Black,
}

impl Color {
    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `0` for White, `1` for Black.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour with index `i & 1`.
    #[inline]
    pub(crate) const fn from_index(i: usize) -> Color {
        if i & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// The kind of a piece, whatever its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Role {
    /// All roles, by index.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// `0` (pawn) to `5` (king).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter: `p n b r q k`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The role of a letter, either case.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// Its colour.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// `color * 6 + role`, in `0..12` (the Zobrist piece number).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.role.index()
    }

    /// The piece with [`index`](Self::index) `i`, for `i < 12`.
    #[inline]
    pub(crate) const fn from_index(i: usize) -> Piece {
        Piece {
            color: Color::from_index(i / 6),
            role: Role::ALL[i % 6],
        }
    }

    /// The FEN letter: upper case for White.
    #[must_use]
    pub const fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece of a FEN letter.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}

/// A square, `0` = a1, `7` = h1, `63` = h8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with this number.
    ///
    /// # Panics
    ///
    /// If `index >= 64`.
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64, "square index out of range");
        Square(index)
    }

    /// The square on `file` (0 = a) and `rank` (0 = first rank), if both are below 8.
    #[inline]
    #[must_use]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Its number, `0..64`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its file, `0` (a) to `7` (h).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Its rank, `0` (first) to `7` (eighth).
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// A string that is not a square name like `e4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareError;

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square name (expected a file a-h and a rank 1-8)")
    }
}

impl std::error::Error for SquareError {}

impl FromStr for Square {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Square, SquareError> {
        match s.as_bytes() {
            &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square((r - b'1') * 8 + (f - b'a'))),
            _ => Err(SquareError),
        }
    }
}
