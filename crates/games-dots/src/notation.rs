//! The position text: the moves from the empty board, and typed errors.

use core::fmt;

use gametree_game::Game;

use crate::board::{Dots, Line, Size, SizeError};

/// What was wrong with a size, a move or a position text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A size that is not `WxH`.
    BadSize(String),
    /// A size out of range.
    Size(SizeError),
    /// A move that is not `<column letter><row number><- or |>`.
    BadMove(String),
    /// A move off the board.
    OffBoard(String),
    /// A line drawn twice.
    Drawn(String),
}

/// A size, move or position text that could not be read, with the move's
/// position in the text (1-based) where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    kind: ParseErrorKind,
    index: Option<usize>,
}

impl ParseError {
    pub(crate) fn new(kind: ParseErrorKind) -> ParseError {
        ParseError { kind, index: None }
    }

    /// What was wrong.
    #[must_use]
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }

    /// The 1-based number of the offending move in a position text.
    #[must_use]
    pub fn index(&self) -> Option<usize> {
        self.index
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.index {
            write!(f, "move {i}: ")?;
        }
        match &self.kind {
            ParseErrorKind::BadSize(s) => {
                write!(f, "bad board size {s:?} (expected WxH boxes, e.g. 3x3)")
            }
            ParseErrorKind::Size(e) => write!(f, "{e}"),
            ParseErrorKind::BadMove(s) => write!(
                f,
                "bad move {s:?} (expected a dot and a direction: a1- for the line to the right of a1, a1| for the line up)"
            ),
            ParseErrorKind::OffBoard(s) => write!(f, "the line {s} is not on the board"),
            ParseErrorKind::Drawn(s) => write!(f, "the line {s} is already drawn"),
        }
    }
}

impl std::error::Error for ParseError {}

impl Dots {
    /// Parses one move in this position's notation (`a1-`: the line from
    /// dot a1 to the right; `a1|`: from a1 up; columns from `a`, rows from
    /// 1 at the bottom) and checks that the line is free.
    ///
    /// # Errors
    ///
    /// [`ParseError`] for bad syntax, a line off the board, or a line
    /// already drawn.
    pub fn parse_move(&self, text: &str) -> Result<Line, ParseError> {
        let t = text.trim();
        let bad = || ParseError::new(ParseErrorKind::BadMove(t.to_string()));
        let bytes = t.as_bytes();
        if bytes.len() < 3 {
            return Err(bad());
        }
        let column = bytes[0].to_ascii_lowercase();
        if !column.is_ascii_lowercase() {
            return Err(bad());
        }
        let horizontal = match bytes[bytes.len() - 1] {
            b'-' => true,
            b'|' => false,
            _ => return Err(bad()),
        };
        let digits = &t[1..t.len() - 1];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(bad());
        }
        let row: usize = digits.parse().map_err(|_| bad())?;
        if row == 0 {
            return Err(bad());
        }
        let size = self.size();
        let line = size
            .line_at(usize::from(column - b'a'), row - 1, horizontal)
            .and_then(|i| Line::new(size, i))
            .ok_or_else(|| ParseError::new(ParseErrorKind::OffBoard(t.to_string())))?;
        if self.is_drawn(line) {
            return Err(ParseError::new(ParseErrorKind::Drawn(t.to_string())));
        }
        Ok(line)
    }

    /// Plays the moves of `moves` (separated by spaces or commas).
    ///
    /// # Errors
    ///
    /// The first bad move, with its number; the position is then unchanged.
    pub fn play_str(&mut self, moves: &str) -> Result<(), ParseError> {
        let mut copy = self.clone();
        for (i, word) in moves
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .enumerate()
        {
            let m = copy.parse_move(word).map_err(|mut e| {
                e.index = Some(i + 1);
                e
            })?;
            copy.make(m);
        }
        *self = copy;
        Ok(())
    }

    /// The position reached by `moves` from the empty board of `size`.
    ///
    /// # Errors
    ///
    /// As [`play_str`](Self::play_str).
    pub fn from_moves(size: Size, moves: &str) -> Result<Dots, ParseError> {
        let mut d = Dots::new(size);
        d.play_str(moves)?;
        Ok(d)
    }

    /// The board drawn with `+`, `---` and `|`, the boxes taken marked by
    /// nothing (the score is in [`box_difference`](Self::box_difference)),
    /// top row first.
    #[must_use]
    pub fn pretty(&self) -> String {
        let size = self.size();
        let drawn = |c: usize, r: usize, h: bool| {
            size.line_at(c, r, h)
                .and_then(|i| Line::new(size, i))
                .is_some_and(|l| self.is_drawn(l))
        };
        let mut s = String::new();
        for r in (0..=size.height()).rev() {
            for c in 0..=size.width() {
                s.push('+');
                if c < size.width() {
                    s.push_str(if drawn(c, r, true) { "---" } else { "   " });
                }
            }
            s.push('\n');
            if r > 0 {
                for c in 0..=size.width() {
                    s.push(if drawn(c, r - 1, false) { '|' } else { ' ' });
                    if c < size.width() {
                        s.push_str("   ");
                    }
                }
                s.push('\n');
            }
        }
        s
    }
}

impl fmt::Display for Dots {
    /// The moves from the empty board, separated by spaces (`""` for the
    /// empty board).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.history().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{m}")?;
        }
        Ok(())
    }
}
