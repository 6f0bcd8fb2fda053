//! The board: [`Size`], [`Line`], and the position [`Dots`] with its
//! [`Game`] implementation.

use core::fmt;
use std::sync::LazyLock;

use arrayvec::ArrayVec;
use gametree_game::{Game, Knowledge, MoveHint, Outcome, Player, Score};
use gametree_zobrist::{Extra, ZobristTable};

/// The most lines a board may have (one bit each in a `u64`).
pub const MAX_LINES: usize = 64;

/// The largest box difference a target may ask for (boards have at most
/// 32 boxes; see [`Size::new`]).
const MAX_DIFF: i32 = 32;

/// A board of `width × height` boxes, that is `(width + 1) × (height + 1)`
/// dots and `width·(height + 1) + height·(width + 1)` lines, at most 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Size {
    width: u8,
    height: u8,
}

/// Why a size was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeError {
    width: usize,
    height: usize,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, h) = (self.width, self.height);
        if w == 0 || h == 0 {
            write!(f, "a board of {w}x{h} boxes is too small (min 1x1)")
        } else {
            write!(
                f,
                "a board of {w}x{h} boxes has {} lines: too large (max {MAX_LINES} lines, e.g. 5x5 or 4x6)",
                w * (h + 1) + h * (w + 1)
            )
        }
    }
}

impl std::error::Error for SizeError {}

impl Size {
    /// The 3 × 3 boxes board (4 × 4 dots).
    pub const STANDARD: Size = Size {
        width: 3,
        height: 3,
    };

    /// A board of `width × height` boxes.
    ///
    /// # Errors
    ///
    /// [`SizeError`] when a side is zero or the board has more than
    /// [`MAX_LINES`] lines.
    pub fn new(width: usize, height: usize) -> Result<Size, SizeError> {
        let err = SizeError { width, height };
        if width == 0 || height == 0 || width > MAX_LINES || height > MAX_LINES {
            return Err(err);
        }
        if width * (height + 1) + height * (width + 1) > MAX_LINES {
            return Err(err);
        }
        Ok(Size {
            width: width as u8,
            height: height as u8,
        })
    }

    /// Boxes across.
    #[must_use]
    pub const fn width(self) -> usize {
        self.width as usize
    }

    /// Boxes down.
    #[must_use]
    pub const fn height(self) -> usize {
        self.height as usize
    }

    /// The number of boxes.
    #[must_use]
    pub const fn boxes(self) -> usize {
        self.width() * self.height()
    }

    /// The number of lines.
    #[must_use]
    pub const fn lines(self) -> usize {
        self.horizontal_lines() + self.height() * (self.width() + 1)
    }

    /// Horizontal lines come first in the numbering.
    const fn horizontal_lines(self) -> usize {
        self.width() * (self.height() + 1)
    }

    /// Every line drawn.
    const fn all(self) -> u64 {
        if self.lines() == 64 {
            u64::MAX
        } else {
            (1u64 << self.lines()) - 1
        }
    }

    /// The horizontal line from dot `(c, r)` to `(c + 1, r)`.
    fn horizontal(self, c: usize, r: usize) -> usize {
        r * self.width() + c
    }

    /// The vertical line from dot `(c, r)` to `(c, r + 1)`.
    fn vertical(self, c: usize, r: usize) -> usize {
        self.horizontal_lines() + r * (self.width() + 1) + c
    }

    /// The four lines of box `(c, r)`, as a mask.
    fn box_mask(self, c: usize, r: usize) -> u64 {
        1 << self.horizontal(c, r)
            | 1 << self.horizontal(c, r + 1)
            | 1 << self.vertical(c, r)
            | 1 << self.vertical(c + 1, r)
    }

    /// The boxes a line borders (one or two), as masks of their lines.
    fn boxes_of(self, line: usize) -> ArrayVec<u64, 2> {
        let mut out = ArrayVec::new();
        let (w, h) = (self.width(), self.height());
        if line < self.horizontal_lines() {
            let (r, c) = (line / w, line % w);
            if r > 0 {
                out.push(self.box_mask(c, r - 1));
            }
            if r < h {
                out.push(self.box_mask(c, r));
            }
        } else {
            let v = line - self.horizontal_lines();
            let (r, c) = (v / (w + 1), v % (w + 1));
            if c > 0 {
                out.push(self.box_mask(c - 1, r));
            }
            if c < w {
                out.push(self.box_mask(c, r));
            }
        }
        out
    }

    /// The line's two dots: `((column, row), horizontal?)` of its left or
    /// bottom dot.
    pub(crate) fn dots_of(self, line: usize) -> ((usize, usize), bool) {
        if line < self.horizontal_lines() {
            ((line % self.width(), line / self.width()), true)
        } else {
            let v = line - self.horizontal_lines();
            ((v % (self.width() + 1), v / (self.width() + 1)), false)
        }
    }

    /// The line from dot `(c, r)` to the right (`horizontal`) or up, if it
    /// is on the board.
    pub(crate) fn line_at(self, c: usize, r: usize, horizontal: bool) -> Option<usize> {
        let (w, h) = (self.width(), self.height());
        if horizontal && c < w && r <= h {
            Some(self.horizontal(c, r))
        } else if !horizontal && c <= w && r < h {
            Some(self.vertical(c, r))
        } else {
            None
        }
    }
}

impl fmt::Display for Size {
    /// `WxH`, e.g. `3x3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl core::str::FromStr for Size {
    type Err = crate::ParseError;
    /// `WxH` boxes, e.g. `3x3` or `2x4`.
    fn from_str(s: &str) -> Result<Size, crate::ParseError> {
        let bad = || crate::ParseError::new(crate::ParseErrorKind::BadSize(s.to_string()));
        let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let parse = |t: &str| -> Result<usize, crate::ParseError> {
            let t = t.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            t.parse().map_err(|_| {
                crate::ParseError::new(crate::ParseErrorKind::Size(SizeError {
                    width: usize::MAX,
                    height: usize::MAX,
                }))
            })
        };
        Size::new(parse(w)?, parse(h)?)
            .map_err(|e| crate::ParseError::new(crate::ParseErrorKind::Size(e)))
    }
}

/// A move: one line, numbered horizontals first (row by row from the
/// bottom, left to right), then verticals. Printed in the notation of
/// [`Dots`]: its left or bottom dot and `-` (to the right) or `|` (up),
/// e.g. `a1-` or `c2|`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Line {
    index: u8,
    size: Size,
}

impl Line {
    /// The line's number (`0..size.lines()`).
    #[must_use]
    pub const fn index(self) -> usize {
        self.index as usize
    }

    /// Line `index` of a board of `size`, if there is one.
    #[must_use]
    pub fn new(size: Size, index: usize) -> Option<Line> {
        (index < size.lines()).then_some(Line {
            index: index as u8,
            size,
        })
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ((c, r), horizontal) = self.size.dots_of(self.index());
        write!(
            f,
            "{}{}{}",
            (b'a' + c as u8) as char,
            r + 1,
            if horizontal { '-' } else { '|' }
        )
    }
}

/// The move list: one entry per line at most.
pub type Moves = ArrayVec<Line, MAX_LINES>;

/// What [`Game::unmake`] needs: the boxes the move completed and who moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    completed: u8,
    mover: Player,
}

/// Zobrist keys: one per line, the side to move, and one per value of the
/// box difference relative to the target (`-64..=64`), and one per size.
struct Keys {
    line: [u64; MAX_LINES],
    side: u64,
    diff: [u64; 2 * MAX_LINES + 1],
    size: [u64; MAX_LINES * MAX_LINES],
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let diff = Extra {
        name: "box difference minus target",
        count: 2 * MAX_LINES + 1,
    };
    let size = Extra {
        name: "board size",
        count: MAX_LINES * MAX_LINES,
    };
    let t: ZobristTable = ZobristTable::with_extras(MAX_LINES, 1, &[diff, size]);
    let mut line = [0; MAX_LINES];
    for (i, k) in line.iter_mut().enumerate() {
        *k = t.piece(i, 0);
    }
    let mut d = [0; 2 * MAX_LINES + 1];
    d.copy_from_slice(t.extra(0));
    let mut s = [0; MAX_LINES * MAX_LINES];
    s.copy_from_slice(t.extra(1));
    Keys {
        line,
        side: t.side(),
        diff: d,
        size: s,
    }
});

/// A Dots-and-Boxes position: the lines drawn, who is to move, and the box
/// difference so far (the first player's boxes minus the second's).
///
/// Players draw one line per move; a player who completes one or two boxes
/// with it scores them and **moves again** (so turns do not alternate);
/// the game ends when every line is drawn. The result compares the final
/// box difference with a **target** (0 by default: more boxes wins, equal
/// boxes draw): the first player wins when its difference exceeds the
/// target, draws when it equals it. Searching with targets (see
/// [`exact_score`](crate::exact_score)) turns any win/draw/loss solver into
/// one for the exact final difference.
///
/// Hash: a Zobrist key per drawn line, the side to move, the difference
/// relative to the target and the board size (the future of a position
/// depends on nothing else).
///
/// ```
/// use gametree_game::{Game, Outcome, Player};
/// use gametree_games_dots::{Dots, Size};
///
/// // 1x1: the four sides of one box; whoever draws the fourth takes it.
/// let mut g = Dots::new(Size::new(1, 1)?);
/// g.play_str("a1- a1| b1|")?;              // first, second, first
/// assert_eq!(g.side_to_move(), Player::Second);
/// g.play_str("a2-")?;                       // completes the box
/// assert_eq!(g.box_difference(), -1);       // one box to the second player
/// assert_eq!(g.outcome(), Some(Outcome::Win)); // still to move: won
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Dots {
    size: Size,
    lines: u64,
    side: Player,
    /// First player's boxes minus second player's.
    diff: i8,
    target: i8,
    hash: u64,
    history: ArrayVec<u8, MAX_LINES>,
}

impl Dots {
    /// The empty board of `size`, first player to move, target 0.
    #[must_use]
    pub fn new(size: Size) -> Dots {
        let mut d = Dots {
            size,
            lines: 0,
            side: Player::First,
            diff: 0,
            target: 0,
            hash: 0,
            history: ArrayVec::new(),
        };
        d.hash = d.compute_hash();
        d
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        self.size
    }

    /// The first player's boxes minus the second player's, so far.
    #[must_use]
    pub fn box_difference(&self) -> i32 {
        i32::from(self.diff)
    }

    /// The target the first player's final difference is compared with.
    #[must_use]
    pub fn target(&self) -> i32 {
        i32::from(self.target)
    }

    /// The same position with another target, clamped to `±32`: the first
    /// player wins when its final box difference is above it, draws when
    /// equal.
    #[must_use]
    pub fn with_target(&self, target: i32) -> Dots {
        let mut d = self.clone();
        d.target = target.clamp(-MAX_DIFF, MAX_DIFF) as i8;
        d.hash = d.compute_hash();
        d
    }

    /// The boxes not completed yet.
    #[must_use]
    pub fn boxes_left(&self) -> u32 {
        let mut n = 0;
        for r in 0..self.size.height() {
            for c in 0..self.size.width() {
                let m = self.size.box_mask(c, r);
                if self.lines & m != m {
                    n += 1;
                }
            }
        }
        n
    }

    /// The lines not drawn yet.
    #[must_use]
    pub fn lines_left(&self) -> u32 {
        (self.size.all() & !self.lines).count_ones()
    }

    /// The drawn lines as a mask (bit `i` for line `i`).
    #[must_use]
    pub fn lines_mask(&self) -> u64 {
        self.lines
    }

    /// The boxes `line` borders, as masks of their four lines.
    #[must_use]
    pub fn boxes_of_line(&self, line: Line) -> Vec<u64> {
        self.size.boxes_of(line.index()).to_vec()
    }

    /// Is line `line` drawn?
    #[must_use]
    pub fn is_drawn(&self, line: Line) -> bool {
        self.lines >> line.index() & 1 == 1
    }

    /// The moves played from the empty board, in order.
    pub fn history(&self) -> impl Iterator<Item = Line> + '_ {
        self.history.iter().map(|&i| Line {
            index: i,
            size: self.size,
        })
    }

    /// The difference relative to the target, seen by the side to move.
    fn margin_for_mover(&self) -> i32 {
        let d = i32::from(self.diff) - i32::from(self.target);
        match self.side {
            Player::First => d,
            Player::Second => -d,
        }
    }

    fn compute_hash(&self) -> u64 {
        let k = &*KEYS;
        let mut h = k.size[self.size.width() * MAX_LINES + self.size.height()];
        let mut rest = self.lines;
        while rest != 0 {
            h ^= k.line[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        if self.side == Player::Second {
            h ^= k.side;
        }
        h ^ k.diff[(i32::from(self.diff) - i32::from(self.target) + MAX_LINES as i32) as usize]
    }

    /// The boxes `line` completes when drawn on `lines` (0, 1 or 2).
    fn completes(&self, line: usize, lines: u64) -> u8 {
        let after = lines | 1 << line;
        self.size
            .boxes_of(line)
            .iter()
            .filter(|&&m| after & m == m)
            .count() as u8
    }

    /// The sides drawn around the boxes `line` borders, before it is drawn.
    fn sides_around(&self, line: usize) -> ArrayVec<u32, 2> {
        self.size
            .boxes_of(line)
            .iter()
            .map(|&m| (self.lines & m).count_ones())
            .collect()
    }

    fn diff_key(&self) -> u64 {
        KEYS.diff[(i32::from(self.diff) - i32::from(self.target) + MAX_LINES as i32) as usize]
    }
}

impl PartialEq for Dots {
    /// Positions are equal when their lines, side to move, box difference,
    /// target and size are (the order of the moves does not matter).
    fn eq(&self, other: &Dots) -> bool {
        (self.size, self.lines, self.side, self.diff, self.target)
            == (
                other.size,
                other.lines,
                other.side,
                other.diff,
                other.target,
            )
    }
}

impl Eq for Dots {}

impl Game for Dots {
    type Move = Line;
    type Undo = Undo;
    type Moves = Moves;

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate(&self, out: &mut Moves) {
        out.clear();
        let mut free = self.size.all() & !self.lines;
        while free != 0 {
            let i = free.trailing_zeros() as u8;
            out.push(Line {
                index: i,
                size: self.size,
            });
            free &= free - 1;
        }
    }

    fn make(&mut self, m: Line) -> Undo {
        let i = m.index();
        debug_assert!(self.lines >> i & 1 == 0, "line {m} is drawn");
        let completed = self.completes(i, self.lines);
        let mover = self.side;
        self.hash ^= KEYS.line[i] ^ self.diff_key();
        self.lines |= 1 << i;
        self.history.push(m.index);
        if completed > 0 {
            let k = completed as i8;
            self.diff += if mover == Player::First { k } else { -k };
        } else {
            self.side = mover.opponent();
            self.hash ^= KEYS.side;
        }
        self.hash ^= self.diff_key();
        Undo { completed, mover }
    }

    fn unmake(&mut self, m: Line, undo: Undo) {
        let i = m.index();
        self.hash ^= KEYS.line[i] ^ self.diff_key();
        self.lines &= !(1 << i);
        self.history.pop();
        if undo.completed > 0 {
            let k = undo.completed as i8;
            self.diff -= if undo.mover == Player::First { k } else { -k };
        } else {
            self.hash ^= KEYS.side;
        }
        self.side = undo.mover;
        self.hash ^= self.diff_key();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.lines != self.size.all() {
            return None;
        }
        Some(match self.margin_for_mover().signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        })
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_hash()
    }

    fn is_legal(&self, m: Line) -> bool {
        m.size == self.size && m.index() < self.size.lines() && self.lines >> m.index() & 1 == 0
    }

    const KNOWLEDGE: Knowledge = Knowledge::NONE
        .evaluation()
        .tactics()
        .order_hints()
        .length_bound()
        .move_numbers();

    /// The box difference so far, relative to the target, for the side to
    /// move, in boxes × 100.
    fn evaluate(&self) -> Score {
        Score::heuristic(100 * self.margin_for_mover())
    }

    /// A line that completes boxes is tactical (priority: the boxes it
    /// takes). A quiet line that gives the opponent a box (draws the third
    /// side of one) comes last (hint -1 per such box); the others are
    /// neutral.
    fn move_hint(&self, m: Line) -> MoveHint {
        let sides = self.sides_around(m.index());
        let taken = sides.iter().filter(|&&s| s == 3).count() as i32;
        if taken > 0 {
            MoveHint::Tactical(taken)
        } else {
            MoveHint::Quiet(-(sides.iter().filter(|&&s| s == 2).count() as i32))
        }
    }

    /// The lines not drawn yet.
    fn remaining_plies(&self) -> Option<u32> {
        Some(self.lines_left())
    }

    const MOVE_NUMBERS: usize = MAX_LINES;

    /// The line's number.
    fn move_number(m: Line) -> usize {
        m.index()
    }
}
