//! The text format: `m,n,k`, then optionally a board, then optionally moves.
//!
//! * `15,15,5` — the empty board.
//! * `3,3,3 b2 a1 c3` — moves from the empty board, `x` first.
//! * `3,3,3 x.o/.x./..o` — a board: `n` rows separated by `/`, the top row
//!   first, each `m` characters among `x`, `o`, `.`; the side to move follows
//!   from the counts (`x` moves when they are equal).
//! * `3,3,3 x.o/.../... b2` — a board and then moves.
//!
//! A board token has no digits and a move token always has one, so the two
//! cannot be confused. [`Mnk`]'s `Display` prints the first or third form
//! (no history is kept), which parses back to an equal position.

use core::fmt;
use core::str::FromStr;

use gametree_game::{Game, Player};

use crate::board::STRIDE;
use crate::position::{Mnk, Move};

/// Why a text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    kind: ParseErrorKind,
}

/// The kinds of [`ParseError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The first field is not `m,n,k` (three integers separated by commas).
    BadSize(String),
    /// `m`, `n` or `k` is 0 or above 19.
    SizeOutOfRange {
        /// Columns.
        m: u8,
        /// Rows.
        n: u8,
        /// Stones in a row to win.
        k: u8,
    },
    /// A move that is not a column letter and a row number (`h8`).
    BadMove(String),
    /// A move outside the board.
    OffBoard(String),
    /// A move on an occupied square.
    Occupied(String),
    /// A move after the game was over.
    AfterEnd(String),
    /// The board does not have `n` rows.
    RowCount {
        /// Rows the size calls for.
        expected: u8,
        /// Rows found.
        found: usize,
    },
    /// A row does not have `m` squares.
    RowLength {
        /// The row, counted from the top (1-based), as written.
        row: usize,
        /// Squares the size calls for.
        expected: u8,
        /// Squares found.
        found: usize,
    },
    /// A board character other than `x`, `o`, `.`.
    BadCharacter(char),
    /// `x` must have as many stones as `o`, or one more.
    ImpossibleCounts {
        /// Stones of `x`.
        x: u32,
        /// Stones of `o`.
        o: u32,
    },
    /// Both sides have a line, or the side to move has one (play went on
    /// after the game was won).
    PlayAfterWin,
}

impl ParseError {
    pub(crate) fn new(kind: ParseErrorKind) -> Self {
        ParseError { kind }
    }
    /// What was wrong.
    #[must_use]
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseErrorKind::BadSize(s) => write!(f, "expected m,n,k, found {s:?}"),
            ParseErrorKind::SizeOutOfRange { m, n, k } => {
                write!(f, "size {m},{n},{k} out of range (each 1 to 19)")
            }
            ParseErrorKind::BadMove(s) => write!(f, "bad move {s:?} (column letter, row number)"),
            ParseErrorKind::OffBoard(s) => write!(f, "move {s} is off the board"),
            ParseErrorKind::Occupied(s) => write!(f, "move {s} is on an occupied square"),
            ParseErrorKind::AfterEnd(s) => write!(f, "move {s} comes after the end of the game"),
            ParseErrorKind::RowCount { expected, found } => {
                write!(f, "expected {expected} rows, found {found}")
            }
            ParseErrorKind::RowLength {
                row,
                expected,
                found,
            } => write!(
                f,
                "row {row} from the top has {found} squares, expected {expected}"
            ),
            ParseErrorKind::BadCharacter(c) => write!(f, "bad board character {c:?} (x, o, .)"),
            ParseErrorKind::ImpossibleCounts { x, o } => {
                write!(
                    f,
                    "{x} x stones and {o} o stones cannot happen (x moves first)"
                )
            }
            ParseErrorKind::PlayAfterWin => {
                f.write_str("a line was completed before the last move")
            }
        }
    }
}

impl std::error::Error for ParseError {}

fn parse_size(s: &str) -> Result<Mnk, ParseError> {
    let bad = || ParseError::new(ParseErrorKind::BadSize(s.to_owned()));
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != 3 {
        return Err(bad());
    }
    let mut v = [0u8; 3];
    for (slot, p) in v.iter_mut().zip(&parts) {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        // Large numbers are out of range rather than malformed.
        *slot = p.parse::<u32>().map_or(u8::MAX, |x| x.min(255) as u8);
    }
    Mnk::new(v[0], v[1], v[2])
}

fn is_board_token(t: &str) -> bool {
    !t.bytes().any(|b| b.is_ascii_digit())
}

impl Mnk {
    fn set_board(&mut self, token: &str) -> Result<(), ParseError> {
        let rows: Vec<&str> = token.split('/').collect();
        if rows.len() != usize::from(self.n) {
            return Err(ParseError::new(ParseErrorKind::RowCount {
                expected: self.n,
                found: rows.len(),
            }));
        }
        for (i, row_text) in rows.iter().enumerate() {
            let row = usize::from(self.n) - 1 - i;
            let mut col = 0;
            for ch in row_text.chars() {
                let who = match ch {
                    'x' | 'X' => Some(Player::First),
                    'o' | 'O' => Some(Player::Second),
                    '.' => None,
                    _ => return Err(ParseError::new(ParseErrorKind::BadCharacter(ch))),
                };
                if let (Some(p), true) = (who, col < usize::from(self.m)) {
                    self.place(row * STRIDE + col, p);
                }
                col += 1;
            }
            if col != usize::from(self.m) {
                return Err(ParseError::new(ParseErrorKind::RowLength {
                    row: i + 1,
                    expected: self.m,
                    found: col,
                }));
            }
        }
        let (x, o) = (self.stones[0].count(), self.stones[1].count());
        if x != o && x != o + 1 {
            return Err(ParseError::new(ParseErrorKind::ImpossibleCounts { x, o }));
        }
        let to_move = if x == o {
            Player::First
        } else {
            Player::Second
        };
        self.set_side(to_move);
        if self.has_line(to_move) {
            return Err(ParseError::new(ParseErrorKind::PlayAfterWin));
        }
        self.won = self.has_line(to_move.opponent());
        Ok(())
    }

    /// Plays `mv` after checking it.
    ///
    /// # Errors
    ///
    /// [`ParseErrorKind::OffBoard`], [`ParseErrorKind::Occupied`] or
    /// [`ParseErrorKind::AfterEnd`]; the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), ParseError> {
        let kind = if !self.on_board(mv) {
            ParseErrorKind::OffBoard(mv.to_string())
        } else if self.stone(mv).is_some() {
            ParseErrorKind::Occupied(mv.to_string())
        } else if self.outcome().is_some() {
            ParseErrorKind::AfterEnd(mv.to_string())
        } else {
            self.make(mv);
            return Ok(());
        };
        Err(ParseError::new(kind))
    }
}

impl FromStr for Mnk {
    type Err = ParseError;
    /// Parses the format described in the [module docs](crate::text).
    fn from_str(s: &str) -> Result<Mnk, ParseError> {
        let mut tokens = s.split_ascii_whitespace().peekable();
        let mut game = parse_size(tokens.next().unwrap_or(""))?;
        if let Some(t) = tokens.next_if(|t| is_board_token(t)) {
            game.set_board(t)?;
        }
        for t in tokens {
            game.play(t.parse()?)?;
        }
        Ok(game)
    }
}

impl fmt::Display for Mnk {
    /// `m,n,k`, then the board (top row first, rows separated by `/`) unless
    /// it is empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.m, self.n, self.k)?;
        if self.stones_played() == 0 {
            return Ok(());
        }
        f.write_str(" ")?;
        for row in (0..self.n).rev() {
            for col in 0..self.m {
                let mv = Move::new(col, row).expect("on the board");
                f.write_str(match self.stone(mv) {
                    Some(Player::First) => "x",
                    Some(Player::Second) => "o",
                    None => ".",
                })?;
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}
