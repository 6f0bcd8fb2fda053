//! Tic-tac-toe for gametree: the textbook's smallest complete example.
//!
//! The board is two 9-bit masks (one per mark); X moves first; the game
//! stops when a player has three in a row or the board is full. The
//! Zobrist hash uses exactly **18 random numbers**, one per square per
//! colour and none for empty squares, as the textbook's exercise asks: the
//! side to move needs no key, since it follows from the number of marks.
//!
//! Every published tic-tac-toe number is reproduced by this crate's tests
//! (5,478 reachable positions with the per-ply split, 958 terminal, 765 and
//! 138 up to symmetry, 255,168 games with the 131,184 / 77,904 / 46,080
//! split, and a draw from the empty board).
//!
//! # Text format
//!
//! Nine characters, the rows from top to bottom: `X`/`x`, `O`/`o` and `.`
//! (`-` and `_` are also read as empty). Squares are numbered 0 to 8 in the
//! same reading order, and a move prints as its square number.
//!
//! ```
//! use gametree_game::{Game, Outcome, MoveBuffer};
//! use gametree_games_tictactoe::{Square, TicTacToe};
//!
//! let mut board: TicTacToe = "XX.OO....".parse()?;
//! let mut moves = <TicTacToe as Game>::Moves::default();
//! board.generate(&mut moves);
//! assert_eq!(moves.len(), 5);
//! board.make(Square::new(2).unwrap()); // X completes the top row
//! assert_eq!(board.outcome(), Some(Outcome::Loss)); // O, to move, has lost
//! assert_eq!(board.to_string(), "XXXOO....");
//! assert!("XXXOO...O".parse::<TicTacToe>().is_err()); // O played after X won
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use arrayvec::ArrayVec;
use gametree_game::{Game, Knowledge, MoveHint, Outcome, Player, Score};
use gametree_zobrist::ZobristTable;

pub mod index;

/// The eight lines of three, as 9-bit masks.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// The 18 Zobrist keys: `piece(square, 0)` for X, `piece(square, 1)` for O.
static KEYS: LazyLock<ZobristTable> = LazyLock::new(|| ZobristTable::new(9, 2));

/// The 8 symmetries of the square, as permutations: `SYMMETRIES[t][s]` is
/// where square `s` goes under transformation `t` (`t = 0` is the identity).
pub const SYMMETRIES: [[u8; 9]; 8] = {
    let mut out = [[0u8; 9]; 8];
    let mut t = 0;
    while t < 8 {
        let mut s = 0;
        while s < 9 {
            let (r, c) = (s / 3, s % 3);
            // rotate t % 4 times by 90°, then mirror if t >= 4
            let (mut r2, mut c2) = (r, c);
            let mut k = 0;
            while k < t % 4 {
                let nr = c2;
                let nc = 2 - r2;
                r2 = nr;
                c2 = nc;
                k += 1;
            }
            if t >= 4 {
                c2 = 2 - c2;
            }
            out[t][s] = (r2 * 3 + c2) as u8;
            s += 1;
        }
        t += 1;
    }
    out
};

/// A square, 0 to 8 in reading order (top-left 0, bottom-right 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with this number, if it is below 9.
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 9 { Some(Square(index)) } else { None }
    }

    /// The square's number, 0 to 8.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    const fn bit(self) -> u16 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Square {
    type Err = ParseError;
    /// A single digit `0`..`8`.
    fn from_str(s: &str) -> Result<Square, ParseError> {
        match s.trim().as_bytes() {
            [d @ b'0'..=b'8'] => Ok(Square(d - b'0')),
            _ => Err(ParseError::new(ParseErrorKind::BadSquare)),
        }
    }
}

/// A tic-tac-toe position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    x: u16,
    o: u16,
    hash: u64,
}

impl TicTacToe {
    /// The empty board, X to move.
    #[must_use]
    pub fn new() -> TicTacToe {
        TicTacToe::default()
    }

    /// Builds a position from the two masks (bit `s` = square `s`), checking
    /// that it is reachable.
    ///
    /// # Errors
    ///
    /// [`ParseErrorKind::Overlap`], [`ParseErrorKind::ImpossibleCounts`] or
    /// [`ParseErrorKind::PlayAfterWin`].
    pub fn from_masks(x: u16, o: u16) -> Result<TicTacToe, ParseError> {
        if (x | o) & !FULL != 0 || x & o != 0 {
            return Err(ParseError::new(ParseErrorKind::Overlap));
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(ParseError::new(ParseErrorKind::ImpossibleCounts {
                x: nx,
                o: no,
            }));
        }
        let (xw, ow) = (has_line(x), has_line(o));
        // The winner must have made the last move, and only one side can win.
        if (xw && (ow || nx != no + 1)) || (ow && nx != no) {
            return Err(ParseError::new(ParseErrorKind::PlayAfterWin));
        }
        let hash = hash_of(x, o);
        Ok(TicTacToe { x, o, hash })
    }

    /// The squares holding an X, as a 9-bit mask.
    #[must_use]
    pub fn x_mask(&self) -> u16 {
        self.x
    }

    /// The squares holding an O, as a 9-bit mask.
    #[must_use]
    pub fn o_mask(&self) -> u16 {
        self.o
    }

    /// The number of marks on the board.
    #[must_use]
    pub fn marks(&self) -> u32 {
        (self.x | self.o).count_ones()
    }

    /// The position transformed by symmetry `t` (see [`SYMMETRIES`]).
    ///
    /// # Panics
    ///
    /// If `t >= 8`.
    #[must_use]
    pub fn transformed(&self, t: usize) -> TicTacToe {
        let map = |m: u16| {
            (0..9)
                .filter(|&s| m & (1 << s) != 0)
                .fold(0u16, |acc, s| acc | 1 << SYMMETRIES[t][s])
        };
        let (x, o) = (map(self.x), map(self.o));
        TicTacToe {
            x,
            o,
            hash: hash_of(x, o),
        }
    }

    /// The representative of the position's symmetry class: the
    /// transformation with the smallest `(x, o)` masks.
    #[must_use]
    pub fn canonical(&self) -> TicTacToe {
        (0..8)
            .map(|t| self.transformed(t))
            .min_by_key(|b| (b.x, b.o))
            .unwrap_or(*self)
    }

    fn mover_mask(&self) -> u16 {
        match self.side_to_move() {
            Player::First => self.x,
            Player::Second => self.o,
        }
    }

    fn other_mask(&self) -> u16 {
        match self.side_to_move() {
            Player::First => self.o,
            Player::Second => self.x,
        }
    }

    /// Squares where `mask`'s owner would complete a line.
    fn completions(mask: u16, blockers: u16) -> u16 {
        LINES.iter().fold(0, |acc, &l| {
            let missing = l & !mask;
            if missing.count_ones() == 1 && missing & blockers == 0 {
                acc | missing
            } else {
                acc
            }
        })
    }
}

const fn has_line(m: u16) -> bool {
    let mut i = 0;
    while i < LINES.len() {
        if m & LINES[i] == LINES[i] {
            return true;
        }
        i += 1;
    }
    false
}

fn hash_of(x: u16, o: u16) -> u64 {
    (0..9usize).fold(0, |h, s| {
        let mut h = h;
        if x & (1 << s) != 0 {
            h ^= KEYS.piece(s, 0);
        }
        if o & (1 << s) != 0 {
            h ^= KEYS.piece(s, 1);
        }
        h
    })
}

impl Game for TicTacToe {
    type Move = Square;
    type Undo = ();
    type Moves = ArrayVec<Square, 9>;

    fn side_to_move(&self) -> Player {
        if self.x.count_ones() == self.o.count_ones() {
            Player::First
        } else {
            Player::Second
        }
    }

    fn generate(&self, out: &mut Self::Moves) {
        out.clear();
        if has_line(self.x) || has_line(self.o) {
            return;
        }
        let mut empty = FULL & !(self.x | self.o);
        while empty != 0 {
            let s = empty.trailing_zeros() as u8;
            out.push(Square(s));
            empty &= empty - 1;
        }
    }

    fn make(&mut self, m: Square) {
        debug_assert!((self.x | self.o) & m.bit() == 0, "square {m} is taken");
        match self.side_to_move() {
            Player::First => {
                self.x |= m.bit();
                self.hash ^= KEYS.piece(usize::from(m.0), 0);
            }
            Player::Second => {
                self.o |= m.bit();
                self.hash ^= KEYS.piece(usize::from(m.0), 1);
            }
        }
    }

    fn unmake(&mut self, m: Square, (): ()) {
        if self.x & m.bit() != 0 {
            self.x &= !m.bit();
            self.hash ^= KEYS.piece(usize::from(m.0), 0);
        } else {
            self.o &= !m.bit();
            self.hash ^= KEYS.piece(usize::from(m.0), 1);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if has_line(self.other_mask()) {
            Some(Outcome::Loss)
        } else if self.x | self.o == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        hash_of(self.x, self.o)
    }

    fn is_legal(&self, m: Square) -> bool {
        m.0 < 9 && (self.x | self.o) & m.bit() == 0 && self.outcome().is_none()
    }

    const KNOWLEDGE: Knowledge = Knowledge::NONE
        .evaluation()
        .tactics()
        .order_hints()
        .forcing()
        .length_bound()
        .move_numbers();

    /// Lines still open for the side to move minus lines still open for the
    /// opponent.
    fn evaluate(&self) -> Score {
        let (me, them) = (self.mover_mask(), self.other_mask());
        let open = |blockers: u16| LINES.iter().filter(|&&l| l & blockers == 0).count() as i32;
        Score::heuristic(open(them) - open(me))
    }

    /// Immediate wins (tactical, priority 2), then blocks of the opponent's
    /// win (1); a quiet move's hint is the number of lines through its
    /// square that the opponent has not blocked (centre 4, corners 3, edges
    /// 2 on an empty board).
    fn move_hint(&self, m: Square) -> MoveHint {
        let (me, them) = (self.mover_mask(), self.other_mask());
        if Self::completions(me, them) & m.bit() != 0 {
            MoveHint::Tactical(2)
        } else if Self::completions(them, me) & m.bit() != 0 {
            MoveHint::Tactical(1)
        } else {
            let open = LINES
                .iter()
                .filter(|&&l| l & m.bit() != 0 && l & them == 0)
                .count();
            MoveHint::Quiet(open as i32)
        }
    }

    fn winning_move(&self) -> Option<Square> {
        if self.outcome().is_some() {
            return None;
        }
        let wins = Self::completions(self.mover_mask(), self.other_mask());
        (wins != 0).then(|| Square(wins.trailing_zeros() as u8))
    }

    /// A mark never helps the opponent, so: every move when the opponent
    /// has no threat, the block when it has one, nothing when it has two.
    fn non_losing_moves(&self, out: &mut Self::Moves) {
        self.generate(out);
        let threats = Self::completions(self.other_mask(), self.mover_mask());
        match threats.count_ones() {
            0 => {}
            1 => out.retain(|m| m.bit() == threats),
            _ => out.clear(),
        }
    }

    /// The empty squares.
    fn remaining_plies(&self) -> Option<u32> {
        Some(9 - (self.x | self.o).count_ones())
    }

    const MOVE_NUMBERS: usize = 9;

    /// The square number.
    fn move_number(m: Square) -> usize {
        usize::from(m.0)
    }
}

impl fmt::Display for TicTacToe {
    /// The 9-character text (`X`, `O`, `.`); with `{:#}`, three rows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in 0..9 {
            if f.alternate() && s > 0 && s % 3 == 0 {
                f.write_str("\n")?;
            }
            let c = if self.x & (1 << s) != 0 {
                'X'
            } else if self.o & (1 << s) != 0 {
                'O'
            } else {
                '.'
            };
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl FromStr for TicTacToe {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<TicTacToe, ParseError> {
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != 9 {
            return Err(ParseError::new(ParseErrorKind::WrongLength(chars.len())));
        }
        let (mut x, mut o) = (0u16, 0u16);
        for (i, &c) in chars.iter().enumerate() {
            match c {
                'X' | 'x' => x |= 1 << i,
                'O' | 'o' => o |= 1 << i,
                '.' | '-' | '_' => {}
                _ => {
                    return Err(ParseError::new(ParseErrorKind::BadCharacter {
                        character: c,
                        index: i,
                    }));
                }
            }
        }
        TicTacToe::from_masks(x, o)
    }
}

/// Why a board text or a square was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    kind: ParseErrorKind,
}

/// The kinds of [`ParseError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The text is not 9 characters long (the length found).
    WrongLength(usize),
    /// A character other than `X`, `O`, `.`, `-`, `_` (either case).
    BadCharacter {
        /// The character.
        character: char,
        /// Its position in the text.
        index: usize,
    },
    /// X must have as many marks as O, or one more.
    ImpossibleCounts {
        /// Number of X marks.
        x: u32,
        /// Number of O marks.
        o: u32,
    },
    /// A mark was played after the game was won (or both sides have a line).
    PlayAfterWin,
    /// Two marks on one square, or a mask bit beyond square 8.
    Overlap,
    /// A square must be one digit from 0 to 8.
    BadSquare,
}

impl ParseError {
    fn new(kind: ParseErrorKind) -> Self {
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
            ParseErrorKind::WrongLength(n) => {
                write!(f, "a tic-tac-toe board has 9 characters, found {n}")
            }
            ParseErrorKind::BadCharacter { character, index } => write!(
                f,
                "bad character {character:?} at position {index} (expected X, O or .)"
            ),
            ParseErrorKind::ImpossibleCounts { x, o } => write!(
                f,
                "impossible mark counts: {x} X and {o} O (X moves first, so X = O or O + 1)"
            ),
            ParseErrorKind::PlayAfterWin => f.write_str("a mark was played after the game was won"),
            ParseErrorKind::Overlap => f.write_str("two marks on one square"),
            ParseErrorKind::BadSquare => f.write_str("a square is one digit from 0 to 8"),
        }
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_distinct_permutations() {
        for t in 0..8 {
            let mut seen = [false; 9];
            for s in 0..9 {
                seen[usize::from(SYMMETRIES[t][s])] = true;
            }
            assert!(seen.iter().all(|&b| b));
            assert!(!SYMMETRIES[..t].contains(&SYMMETRIES[t]));
        }
        assert_eq!(SYMMETRIES[0], [0, 1, 2, 3, 4, 5, 6, 7, 8]);
        // lines map to lines under every symmetry
        for t in 0..8 {
            for &l in &LINES {
                let img = TicTacToe {
                    x: l,
                    o: 0,
                    hash: 0,
                }
                .transformed(t);
                assert!(LINES.contains(&img.x));
            }
        }
    }

    #[test]
    fn parse_errors() {
        let kind = |s: &str| s.parse::<TicTacToe>().unwrap_err().kind().clone();
        assert_eq!(kind("XO"), ParseErrorKind::WrongLength(2));
        assert_eq!(
            kind("XO.....Z."),
            ParseErrorKind::BadCharacter {
                character: 'Z',
                index: 7
            }
        );
        assert_eq!(
            kind("OO......."),
            ParseErrorKind::ImpossibleCounts { x: 0, o: 2 }
        );
        assert_eq!(
            kind("XXX......"),
            ParseErrorKind::ImpossibleCounts { x: 3, o: 0 }
        );
        assert_eq!(kind("XXXOO...O"), ParseErrorKind::PlayAfterWin);
        assert_eq!(kind("OOOXX.X.X"), ParseErrorKind::PlayAfterWin);
        assert_eq!(kind("XXXOOO..."), ParseErrorKind::PlayAfterWin);
        assert!("xo.......".parse::<TicTacToe>().is_ok());
        assert!("é........".parse::<TicTacToe>().is_err());
        assert_eq!(
            "9".parse::<Square>().unwrap_err().kind(),
            &ParseErrorKind::BadSquare
        );
        assert!(TicTacToe::from_masks(1, 1).is_err());
        assert!(TicTacToe::from_masks(1 << 9, 0).is_err());
    }

    #[test]
    fn round_trip_text() {
        for s in [
            ".........",
            "X........",
            "XO.......",
            "XXXOO....",
            "XOXXOOOXX",
        ] {
            let b: TicTacToe = s.parse().unwrap();
            assert_eq!(b.to_string(), s);
            assert_eq!(b.hash(), b.recompute_hash());
        }
    }
}

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
