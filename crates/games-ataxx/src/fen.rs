//! FEN: parsing with typed errors, and printing.

use core::fmt;
use core::str::FromStr;

use gametree_game::Player;

use crate::position::{Cell, Position};
use crate::square::Square;

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// The text is empty (no board field).
    Empty,
    /// The board does not have exactly 7 ranks separated by `/`.
    RankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// A rank does not describe exactly 7 squares.
    RankLength {
        /// The rank (1..=7) as printed on the board.
        rank: u8,
        /// How many squares it described.
        squares: usize,
    },
    /// A character that is none of `x`, `o`, `-`, `1`..`7`.
    BadCharacter {
        /// The character.
        found: char,
    },
    /// The side to move is not `x` or `o` (or is missing).
    BadSide {
        /// The text found (empty when missing).
        found: String,
    },
    /// The half-move clock is not a non-negative integer.
    BadHalfmoves {
        /// The text found.
        found: String,
    },
    /// The full-move number is not a positive integer.
    BadFullmoves {
        /// The text found.
        found: String,
    },
    /// More than four fields.
    TrailingText {
        /// The first extra field.
        found: String,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::RankCount { found } => write!(f, "expected 7 ranks, found {found}"),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares instead of 7")
            }
            FenError::BadCharacter { found } => {
                write!(f, "bad character {found:?} in the board (x, o, -, 1-7)")
            }
            FenError::BadSide { found } => write!(f, "bad side to move {found:?} (x or o)"),
            FenError::BadHalfmoves { found } => write!(f, "bad half-move clock {found:?}"),
            FenError::BadFullmoves { found } => write!(f, "bad full-move number {found:?}"),
            FenError::TrailingText { found } => write!(f, "unexpected text {found:?} after FEN"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses a FEN: the board (ranks 7 to 1 separated by `/`, `x` and `o`
    /// stones, `-` blocked, digits `1`..`7` for runs of empty squares), the
    /// side to move (`x` or `o`), and optionally the half-move clock and the
    /// full-move number (defaults `0` and `1`).
    ///
    /// # Errors
    ///
    /// A [`FenError`] saying what is wrong; nothing panics.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 7 {
            return Err(FenError::RankCount { found: ranks.len() });
        }
        let mut stones = [0u64; 2];
        let mut blocked = 0u64;
        for (i, text) in ranks.iter().enumerate() {
            let rank = 6 - i as u8;
            let mut file = 0usize;
            for c in text.chars() {
                let cell = match c {
                    'x' | 'X' => Cell::X,
                    'o' | 'O' => Cell::O,
                    '-' => Cell::Blocked,
                    '1'..='7' => {
                        file += c as usize - '0' as usize;
                        continue;
                    }
                    _ => return Err(FenError::BadCharacter { found: c }),
                };
                if file < 7 {
                    let bit = 1u64 << (rank as usize * 7 + file);
                    match cell {
                        Cell::X => stones[0] |= bit,
                        Cell::O => stones[1] |= bit,
                        Cell::Blocked => blocked |= bit,
                        Cell::Empty => {}
                    }
                }
                file += 1;
            }
            if file != 7 {
                return Err(FenError::RankLength {
                    rank: rank + 1,
                    squares: file,
                });
            }
        }
        let side = match fields.next() {
            Some("x" | "X" | "b" | "B") => Player::First,
            Some("o" | "O" | "w" | "W") => Player::Second,
            other => {
                return Err(FenError::BadSide {
                    found: other.unwrap_or("").to_owned(),
                });
            }
        };
        let halfmoves = match fields.next() {
            None => 0,
            Some(t) => t.parse::<u32>().map_err(|_| FenError::BadHalfmoves {
                found: t.to_owned(),
            })?,
        };
        let fullmoves = match fields.next() {
            None => 1,
            Some(t) => match t.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(FenError::BadFullmoves {
                        found: t.to_owned(),
                    });
                }
            },
        };
        if let Some(t) = fields.next() {
            return Err(FenError::TrailingText {
                found: t.to_owned(),
            });
        }
        Ok(Position::from_parts(
            stones, blocked, side, halfmoves, fullmoves,
        ))
    }

    /// The position's FEN, e.g. `x5o/7/7/7/7/7/o5x x 0 1`. Parsing it gives
    /// back an equal position.
    #[must_use]
    pub fn to_fen(&self) -> String {
        self.to_string()
    }
}

impl FromStr for Position {
    type Err = FenError;
    /// Same as [`Position::from_fen`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for rank in (0..7u8).rev() {
            let mut run = 0;
            for file in 0..7u8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                let c = match self.cell(sq) {
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::X => 'x',
                    Cell::O => 'o',
                    Cell::Blocked => '-',
                };
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                f.write_char(c)?;
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if rank > 0 {
                f.write_char('/')?;
            }
        }
        let side = if self.side == Player::First { 'x' } else { 'o' };
        write!(f, " {side} {} {}", self.halfmoves, self.fullmoves)
    }
}
