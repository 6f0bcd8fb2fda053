//! Pons's move notation (`4453`: the 1-based columns played from the empty
//! board) and the text board display.

use std::fmt;
use std::str::FromStr;

use gametree_game::{Game, Player};

use crate::{Board, Column, Size};

/// Why a move string was refused. See [`NotationError::kind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotationErrorKind {
    /// A character that is not a column (`1`..`9`, `a`..`w`).
    BadCharacter(char),
    /// A column (1-based) beyond the board's width.
    ColumnOutOfRange(usize),
    /// A column (1-based) that is already full.
    FullColumn(usize),
    /// A move after a player connected four or the board filled up.
    GameOver,
}

/// A move string that is not a legal game: what went wrong and at which
/// character (0-based index of the offending move in the string).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotationError {
    kind: NotationErrorKind,
    index: usize,
}

impl NotationError {
    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> NotationErrorKind {
        self.kind
    }

    /// The 0-based position of the offending character in the string (its
    /// index among the characters, not the bytes).
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = self.index + 1;
        match self.kind {
            NotationErrorKind::BadCharacter(c) => {
                write!(f, "move {i}: {c:?} is not a column (1-9, a-w)")
            }
            NotationErrorKind::ColumnOutOfRange(c) => {
                write!(f, "move {i}: column {c} is not on the board")
            }
            NotationErrorKind::FullColumn(c) => write!(f, "move {i}: column {c} is full"),
            NotationErrorKind::GameOver => write!(f, "move {i}: the game is already over"),
        }
    }
}

impl std::error::Error for NotationError {}

impl Board {
    /// The position reached by playing `moves` (Pons's notation) from the
    /// empty board of size `size`.
    ///
    /// ```
    /// use gametree_games_connect4::{Board, Size};
    /// let b = Board::from_moves(Size::new(5, 4)?, "3321")?;
    /// assert_eq!(b.plies(), 4);
    /// assert!(Board::from_moves(Size::new(5, 4)?, "36").is_err()); // no column 6
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`NotationError`] for a bad character, a column off the board or
    /// full, or a move after the game ended.
    pub fn from_moves(size: Size, moves: &str) -> Result<Board, NotationError> {
        let mut b = Board::new(size);
        b.play_str(moves)?;
        Ok(b)
    }

    /// Plays the moves of `moves` (Pons's notation) from this position.
    /// On error the position is unchanged.
    ///
    /// # Errors
    ///
    /// [`NotationError`] for a bad character, a column off the board or
    /// full, or a move after the game ended; its index counts from the
    /// start of `moves`.
    pub fn play_str(&mut self, moves: &str) -> Result<(), NotationError> {
        let start = *self;
        for (index, ch) in moves.chars().enumerate() {
            if let Err(kind) = self.try_play_char(ch) {
                *self = start;
                return Err(NotationError { kind, index });
            }
        }
        Ok(())
    }

    fn try_play_char(&mut self, ch: char) -> Result<(), NotationErrorKind> {
        let col = Column::from_char(ch).ok_or(NotationErrorKind::BadCharacter(ch))?;
        if col.index() >= self.size().width() {
            return Err(NotationErrorKind::ColumnOutOfRange(col.index() + 1));
        }
        if self.is_over() {
            return Err(NotationErrorKind::GameOver);
        }
        if !self.can_play(col) {
            return Err(NotationErrorKind::FullColumn(col.index() + 1));
        }
        self.play(col);
        Ok(())
    }

    /// The board as text: one line per row, top row first, `X` for the
    /// first player's stones, `O` for the second's, `.` for empty cells,
    /// then a line of column labels. The same as `format!("{board:#}")`.
    ///
    /// ```
    /// let b: gametree_games_connect4::Board = "4453".parse()?;
    /// assert_eq!(
    ///     b.pretty(),
    ///     ".......\n.......\n.......\n.......\n...O...\n..OXX..\n1234567\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn pretty(&self) -> String {
        format!("{self:#}")
    }

    /// Who is to move, and the outcome if the game is over, as a short
    /// sentence (for command-line tools).
    #[must_use]
    pub fn status(&self) -> String {
        match self.outcome() {
            Some(gametree_game::Outcome::Draw) => "draw: the board is full".to_owned(),
            Some(_) => format!("{} player connected four", self.side_to_move().opponent()),
            None => format!("{} player to move", self.side_to_move()),
        }
    }
}

/// Prints a board's move list (used by `Debug` too).
pub(crate) struct Notation<'a>(pub(crate) &'a Board);

impl fmt::Display for Notation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.history() {
            write!(f, "{}", c.to_char())?;
        }
        Ok(())
    }
}

impl fmt::Display for Board {
    /// The moves played, in Pons's notation (`4453`; empty for the empty
    /// board). With `{:#}`, the board as text (see [`Board::pretty`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return Notation(self).fmt(f);
        }
        let s = self.size();
        for row in (0..s.height()).rev() {
            for col in 0..s.width() {
                let ch = match self.stone_at(col, row) {
                    Some(Player::First) => 'X',
                    Some(Player::Second) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        for col in 0..s.width() {
            write!(f, "{}", Column::new(col).expect("width ≤ 32").to_char())?;
        }
        writeln!(f)
    }
}

impl FromStr for Board {
    type Err = NotationError;

    /// A standard 7 × 6 position in Pons's notation; use
    /// [`Board::from_moves`] for other sizes.
    fn from_str(s: &str) -> Result<Board, NotationError> {
        Board::from_moves(Size::STANDARD, s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> NotationError {
        s.parse::<Board>().unwrap_err()
    }

    #[test]
    fn errors() {
        assert_eq!(err("44x").kind(), NotationErrorKind::BadCharacter('x'));
        assert_eq!(err("44x").index(), 2);
        assert_eq!(err("0").kind(), NotationErrorKind::BadCharacter('0'));
        assert_eq!(err("4 4").kind(), NotationErrorKind::BadCharacter(' '));
        assert_eq!(err("48").kind(), NotationErrorKind::ColumnOutOfRange(8));
        assert_eq!(err("4a").kind(), NotationErrorKind::ColumnOutOfRange(10));
        assert_eq!(err("4444444").kind(), NotationErrorKind::FullColumn(4));
        assert_eq!(err("4444444").index(), 6);
        // First player: 1,1,1,1 vertically (second plays 2s): game over after ply 7.
        assert_eq!(err("12121211").kind(), NotationErrorKind::GameOver);
        assert_eq!(err("12121211").index(), 7);
        assert!("1212121".parse::<Board>().unwrap().is_over());
        // Out of range is reported even after the game ended.
        assert_eq!(
            err("12121219").kind(),
            NotationErrorKind::ColumnOutOfRange(9)
        );
        let e = err("44x");
        assert_eq!(e.to_string(), "move 3: 'x' is not a column (1-9, a-w)");
    }

    #[test]
    fn failed_play_leaves_board_unchanged() {
        let mut b: Board = "4453".parse().unwrap();
        let before = b;
        assert!(b.play_str("12x").is_err());
        assert_eq!(b, before);
        assert_eq!(b.to_string(), "4453");
    }

    #[test]
    fn round_trip_and_display() {
        for s in ["", "4", "4453", "2252576253462244111563365343671351441"] {
            let b: Board = s.parse().unwrap();
            assert_eq!(b.to_string(), s);
            assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
        }
        let b: Board = "4453".parse().unwrap();
        assert_eq!(format!("{b:?}"), "Board(7x6 \"4453\")");
        assert_eq!(b.status(), "first player to move");
        let won: Board = "1212121".parse().unwrap();
        assert_eq!(won.status(), "first player connected four");
        let wide = Board::from_moves(Size::new(12, 4).unwrap(), "abc1").unwrap();
        assert_eq!(wide.to_string(), "abc1");
        assert!(wide.pretty().ends_with("123456789abc\n"));
    }
}
