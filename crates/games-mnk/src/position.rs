//! The m,n,k position and its [`Game`] implementation.

use core::fmt;
use core::str::FromStr;
use std::sync::LazyLock;

use arrayvec::ArrayVec;
use gametree_game::{Game, Knowledge, MoveHint, Outcome, Player, Score};
use gametree_zobrist::{Extra, ZobristTable};

use crate::board::{Bits, Plane, SQUARES, STRIDE};
use crate::text::{ParseError, ParseErrorKind};

/// The largest board side (19, the Go board).
pub const MAX_SIDE: u8 = 19;

/// The move list: one entry per empty square, at most 19 × 19.
pub type Moves = ArrayVec<Move, 361>;

/// The four line directions `(column step, row step)`.
pub(crate) const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Zobrist keys: one per square of the 19 × 19 layout per colour, the side
/// to move, and one key per value of `m`, of `n` and of `k` (the rules: the
/// empty board's hash), from `gametree_zobrist::ZobristTable::with_extras(361, 2,
/// [m, n, k: 19 each])`.
struct Keys {
    stone: [[u64; 2]; SQUARES],
    side: u64,
    /// `rules[0][m - 1]`, `rules[1][n - 1]`, `rules[2][k - 1]`.
    rules: [[u64; MAX_SIDE as usize]; 3],
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let side = Extra {
        name: "m, n or k",
        count: MAX_SIDE as usize,
    };
    let t: ZobristTable = ZobristTable::with_extras(SQUARES, 2, &[side, side, side]);
    let mut stone = [[0; 2]; SQUARES];
    for (s, k) in stone.iter_mut().enumerate() {
        *k = [t.piece(s, 0), t.piece(s, 1)];
    }
    let mut rules = [[0; MAX_SIDE as usize]; 3];
    for (group, keys) in rules.iter_mut().enumerate() {
        keys.copy_from_slice(t.extra(group));
    }
    Keys {
        stone,
        side: t.side(),
        rules,
    }
});

/// The squares `e` whose column plus `c` is still a column of the 19-wide
/// layout (`c` in `-18..=18`; empty otherwise).
fn column_mask(c: isize) -> Bits {
    static MASKS: LazyLock<[Bits; 2 * STRIDE - 1]> = LazyLock::new(|| {
        let mut masks = [Bits::default(); 2 * STRIDE - 1];
        for (i, mask) in masks.iter_mut().enumerate() {
            let c = i as isize - (STRIDE as isize - 1);
            for sq in 0..SQUARES {
                let col = (sq % STRIDE) as isize + c;
                if (0..STRIDE as isize).contains(&col) {
                    mask.set(sq);
                }
            }
        }
        masks
    });
    let i = c + (STRIDE as isize - 1);
    if (0..2 * STRIDE as isize - 1).contains(&i) {
        MASKS[i as usize]
    } else {
        Bits::default()
    }
}

/// The hash of the empty `m`,`n`,`k` board: boards of different sizes or
/// `k` never share hashes by construction, so one table can serve several.
fn rules_key(m: u8, n: u8, k: u8) -> u64 {
    let r = &KEYS.rules;
    r[0][usize::from(m) - 1] ^ r[1][usize::from(n) - 1] ^ r[2][usize::from(k) - 1]
}

/// A square, also the move that puts a stone there: column `a`.. and row
/// `1`.. counted from the bottom-left corner, as in Go-Moku notation
/// (`h8` is the centre of 15 × 15). Columns run `a` to `s` without skipping
/// `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u16);

impl Move {
    /// The move at `column` and `row` (both from 0), or `None` when either
    /// is 19 or more. Whether it is on a given board is checked when played.
    #[inline]
    #[must_use]
    pub const fn new(column: u8, row: u8) -> Option<Move> {
        if column < MAX_SIDE && row < MAX_SIDE {
            Some(Move(row as u16 * STRIDE as u16 + column as u16))
        } else {
            None
        }
    }

    /// The column, from 0 (`a`).
    #[inline]
    #[must_use]
    pub const fn column(self) -> u8 {
        (self.0 % STRIDE as u16) as u8
    }

    /// The row, from 0 (the bottom row, `1`).
    #[inline]
    #[must_use]
    pub const fn row(self) -> u8 {
        (self.0 / STRIDE as u16) as u8
    }

    #[inline]
    pub(crate) const fn sq(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Move {
    /// `a1`, `h8`, `s19`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

impl FromStr for Move {
    type Err = ParseError;
    /// A column letter `a`..`s` (either case) and a row number `1`..`19`.
    fn from_str(s: &str) -> Result<Move, ParseError> {
        let bad = || ParseError::new(ParseErrorKind::BadMove(s.to_owned()));
        let mut chars = s.chars();
        let column = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        let digits = chars.as_str();
        if !column.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(bad());
        }
        let row: u8 = digits.parse().map_err(|_| bad())?;
        Move::new(column as u8 - b'a', row - 1).ok_or_else(bad)
    }
}

/// An m,n,k-game position: `m` columns, `n` rows, `k` in a row wins; the
/// first player (`x`) moves first. The game ends when the player who just
/// moved has `k` (or more) in a row horizontally, vertically or
/// diagonally, or when the board is full (a draw).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mnk {
    pub(crate) m: u8,
    pub(crate) n: u8,
    pub(crate) k: u8,
    /// Stones by player index (0 = x, 1 = o).
    pub(crate) stones: [Bits; 2],
    /// The empty squares of the board.
    pub(crate) empty: Bits,
    pub(crate) side: Player,
    /// Did the last move complete a line?
    pub(crate) won: bool,
    pub(crate) hash: u64,
}

impl Mnk {
    /// The empty `m` × `n` board (`m` columns, `n` rows) where `k` in a row
    /// wins.
    ///
    /// # Errors
    ///
    /// [`ParseErrorKind::SizeOutOfRange`] unless `1 <= m, n, k <= 19`.
    pub fn new(m: u8, n: u8, k: u8) -> Result<Mnk, ParseError> {
        let ok = |v: u8| (1..=MAX_SIDE).contains(&v);
        if !(ok(m) && ok(n) && ok(k)) {
            return Err(ParseError::new(ParseErrorKind::SizeOutOfRange { m, n, k }));
        }
        Ok(Mnk {
            m,
            n,
            k,
            stones: [Bits::default(); 2],
            empty: Bits::rectangle(m.into(), n.into()),
            side: Player::First,
            won: false,
            hash: rules_key(m, n, k),
        })
    }

    /// Tic-tac-toe: 3,3,3.
    #[must_use]
    pub fn tictactoe() -> Mnk {
        Mnk::new(3, 3, 3).expect("3,3,3 is in range")
    }

    /// Free-style Go-Moku: 15,15,5 (five or more in a row wins).
    #[must_use]
    pub fn gomoku() -> Mnk {
        Mnk::new(15, 15, 5).expect("15,15,5 is in range")
    }

    /// The number of columns.
    #[must_use]
    pub fn m(&self) -> u8 {
        self.m
    }

    /// The number of rows.
    #[must_use]
    pub fn n(&self) -> u8 {
        self.n
    }

    /// How many in a row win.
    #[must_use]
    pub fn k(&self) -> u8 {
        self.k
    }

    /// Who holds the square of `mv`, if anyone (`None` also off the board).
    #[must_use]
    pub fn stone(&self, mv: Move) -> Option<Player> {
        if self.stones[0].get(mv.sq()) {
            Some(Player::First)
        } else if self.stones[1].get(mv.sq()) {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// Is the square of `mv` on this board?
    #[inline]
    #[must_use]
    pub fn on_board(&self, mv: Move) -> bool {
        mv.column() < self.m && mv.row() < self.n
    }

    /// The number of stones on the board.
    #[must_use]
    pub fn stones_played(&self) -> u32 {
        self.stones[0].count() + self.stones[1].count()
    }

    /// Has the player who just moved completed a line?
    #[must_use]
    pub fn is_won(&self) -> bool {
        self.won
    }

    /// The number of consecutive stones of `bits` from `(c, r)` (excluded)
    /// in direction `(dc, dr)`, stopping at `limit`.
    #[inline]
    fn run(&self, bits: &Bits, c: i32, r: i32, dc: i32, dr: i32, limit: u32) -> u32 {
        let (m, n) = (i32::from(self.m), i32::from(self.n));
        let (mut c, mut r) = (c + dc, r + dr);
        let mut len = 0;
        while len < limit && c >= 0 && c < m && r >= 0 && r < n {
            if !bits.get(r as usize * STRIDE + c as usize) {
                break;
            }
            len += 1;
            c += dc;
            r += dr;
        }
        len
    }

    /// Would a stone of `player` on `mv` make `k` in a row (counting the
    /// stones already there, `mv` itself as if it were `player`'s)? Looks
    /// only at the four lines through `mv`.
    #[must_use]
    pub fn makes_line(&self, mv: Move, player: Player) -> bool {
        let bits = &self.stones[player.index()];
        let (c, r) = (i32::from(mv.column()), i32::from(mv.row()));
        let need = u32::from(self.k) - 1;
        DIRECTIONS.iter().any(|&(dc, dr)| {
            let (dc, dr) = (i32::from(dc), i32::from(dr));
            let a = self.run(bits, c, r, dc, dr, need);
            a >= need || a + self.run(bits, c, r, -dc, -dr, need - a) >= need
        })
    }

    /// Puts a stone of `player` on `sq` (a free square) without any rule
    /// check, updating the hash; for parsers.
    pub(crate) fn place(&mut self, sq: usize, player: Player) {
        self.stones[player.index()].set(sq);
        self.empty.toggle(sq);
        self.hash ^= KEYS.stone[sq][player.index()];
    }

    /// Fixes the side to move from the stone counts (and the hash with it).
    pub(crate) fn set_side(&mut self, side: Player) {
        if side != self.side {
            self.hash ^= KEYS.side;
            self.side = side;
        }
    }

    /// Does `player` have `k` in a row anywhere (full scan)?
    pub(crate) fn has_line(&self, player: Player) -> bool {
        self.stones[player.index()].iter().any(|sq| {
            let mv = Move(sq as u16);
            let bits = &self.stones[player.index()];
            let (c, r) = (i32::from(mv.column()), i32::from(mv.row()));
            let need = u32::from(self.k) - 1;
            DIRECTIONS
                .iter()
                .any(|&(dc, dr)| self.run(bits, c, r, i32::from(dc), i32::from(dr), need) >= need)
        })
    }

    /// The empty squares where `player` would complete a line now.
    pub fn winning_moves(&self, player: Player) -> impl Iterator<Item = Move> + '_ {
        self.completion_squares(player)
            .iter()
            .map(|sq| Move(sq as u16))
    }

    /// The empty squares where a stone of `player` makes `k` in a row, all
    /// at once: per direction, the squares with a run of `j` stones behind
    /// and `k − 1 − j` ahead for some `j`, from shifted copies of the
    /// player's stones (columns masked so that rows do not wrap).
    pub(crate) fn completion_squares(&self, player: Player) -> Bits {
        let stones = &self.stones[player.index()];
        let need = usize::from(self.k) - 1;
        if need == 0 {
            return self.empty;
        }
        let out = match (self.fits_128(), self.rows_may_wrap()) {
            (true, false) => {
                Bits::from_low128(completions::<u128, false>(u128::from_bits(stones), need))
            }
            (true, true) => {
                Bits::from_low128(completions::<u128, true>(u128::from_bits(stones), need))
            }
            (false, false) => completions::<Bits, false>(*stones, need),
            (false, true) => completions::<Bits, true>(*stones, need),
        };
        out.and(self.empty)
    }

    /// Can a scan along a line of `k` squares run off one row of the 19-wide
    /// layout into the next one's board squares? Not when `m + k ≤ 20`: a
    /// line from a board square stays within its row's first `m + k − 1`
    /// columns, or meets only the empty columns past `m`, in both
    /// directions; the column masks are then not needed.
    #[inline]
    pub(crate) fn rows_may_wrap(&self) -> bool {
        usize::from(self.m) + usize::from(self.k) > STRIDE + 1
    }

    /// Are all the board's squares below 128 (rows of 19)?
    #[inline]
    pub(crate) fn fits_128(&self) -> bool {
        (usize::from(self.n) - 1) * STRIDE + usize::from(self.m) <= 128
    }
}

/// The squares (empty or not) where a stone would complete `need + 1` in a
/// row with `stones` (see [`Mnk::completion_squares`]).
/// `MASK`: mask the columns so that rows do not wrap (see
/// [`Mnk::rows_may_wrap`]).
fn completions<P: Plane, const MASK: bool>(stones: P, need: usize) -> P {
    let mut out = P::ZERO;
    for &(dc, dr) in &DIRECTIONS {
        let step = isize::from(dr) * STRIDE as isize + isize::from(dc);
        let column = |a: isize| {
            if MASK {
                P::from_bits(&column_mask(isize::from(dc) * a))
            } else {
                P::ONES
            }
        };
        // `at(a)`: the squares whose `a`-th neighbour along the direction
        // holds a stone (none across a row end).
        let at = |a: isize| stones.offset(step * a).and(column(a));
        // ahead[a]: the `a` squares ahead all hold stones (an ArrayVec:
        // nothing to fill for the unused lengths).
        let mut ahead: ArrayVec<P, { MAX_SIDE as usize }> = ArrayVec::new();
        ahead.push(P::ONES);
        for a in 1..=need {
            let next = ahead[a - 1].and(at(a as isize));
            ahead.push(next);
        }
        // behind: the `j` squares behind all hold stones.
        let mut behind = P::ONES;
        out = out.or(ahead[need]);
        for j in 1..=need {
            behind = behind.and(at(-(j as isize)));
            out = out.or(behind.and(ahead[need - j]));
        }
    }
    out
}

/// The squares of every window of `k` squares that holds no stone outside
/// `free` (the maker's stones and the empty squares) and exactly two
/// squares of `empty` (see [`Mnk::threat_squares`]), empty or not; `MASK`
/// as for [`completions`].
pub(crate) fn threat_windows<P: Plane, const MASK: bool>(free: P, empty: P, k: usize) -> P {
    let mut out = P::ZERO;
    for &(dc, dr) in &DIRECTIONS {
        let step = isize::from(dr) * STRIDE as isize + isize::from(dc);
        // Per window start (its first square), over the window's squares:
        // all free (and on the board), and how many empty: 0, 1, 2 or more.
        let mut valid = P::ONES;
        let (mut none, mut one, mut two) = (P::ONES, P::ZERO, P::ZERO);
        for j in 0..k as isize {
            let column = if MASK {
                P::from_bits(&column_mask(isize::from(dc) * j))
            } else {
                P::ONES
            };
            valid = valid.and(free.offset(step * j).and(column));
            let e = empty.offset(step * j);
            two = two.and_not(e).or(one.and(e));
            one = one.and_not(e).or(none.and(e));
            none = none.and_not(e);
        }
        let starts = valid.and(two);
        // Every square of those windows: the starts moved `j` steps on
        // (a valid window lies on the board, so nothing wraps).
        for j in 0..k as isize {
            out = out.or(starts.offset(-step * j));
        }
    }
    out
}

impl Game for Mnk {
    type Move = Move;
    type Undo = ();
    type Moves = Moves;

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate(&self, out: &mut Moves) {
        out.clear();
        if self.won {
            return;
        }
        for sq in self.empty.iter() {
            out.push(Move(sq as u16));
        }
    }

    fn make(&mut self, mv: Move) {
        let sq = mv.sq();
        let p = self.side.index();
        self.won = self.makes_line(mv, self.side);
        self.stones[p].set(sq);
        self.empty.toggle(sq);
        self.hash ^= KEYS.stone[sq][p] ^ KEYS.side;
        self.side = self.side.opponent();
    }

    fn unmake(&mut self, mv: Move, (): ()) {
        let sq = mv.sq();
        self.side = self.side.opponent();
        let p = self.side.index();
        self.stones[p].toggle(sq);
        self.empty.toggle(sq);
        self.hash ^= KEYS.stone[sq][p] ^ KEYS.side;
        // Moves are only made in positions where the game goes on.
        self.won = false;
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.won {
            Some(Outcome::Loss)
        } else if self.empty.is_empty() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let keys = &*KEYS;
        let mut h = rules_key(self.m, self.n, self.k);
        if self.side == Player::Second {
            h ^= keys.side;
        }
        for p in 0..2 {
            for sq in self.stones[p].iter() {
                h ^= keys.stone[sq][p];
            }
        }
        h
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        !self.won && self.empty.get(mv.sq())
    }

    const KNOWLEDGE: Knowledge = Knowledge::NONE
        .evaluation()
        .tactics()
        .order_hints()
        .forcing()
        .length_bound()
        .proof_hints()
        .move_numbers()
        .win_bounds()
        .threats();

    /// Patterns and threats (see the crate documentation).
    #[inline]
    fn evaluate(&self) -> Score {
        self.pattern_evaluation()
    }

    /// Immediate wins are tactical with priority 2, forced blocks (the
    /// squares where the opponent would complete a line) with priority 1; a
    /// quiet move's hint counts the stones next to its square (own stones
    /// double): play where the fight is.
    #[inline]
    fn move_hint(&self, m: Move) -> MoveHint {
        match self.tactical_priority(m) {
            Some(p) => MoveHint::Tactical(p),
            None => MoveHint::Quiet(self.potential_hint(m.sq())),
        }
    }

    /// The quiet hints of a whole move list from one scan of the windows.
    #[inline]
    fn quiet_hints(&self, moves: &[Move], out: &mut [i32]) {
        self.potential_hints(moves, out);
    }

    /// Wins first, then blocks, each in square order.
    #[inline]
    fn generate_tactical(&self, out: &mut Moves) {
        self.tactical_moves(out);
    }

    #[inline]
    fn winning_move(&self) -> Option<Move> {
        self.first_winning_move()
    }

    /// A stone never helps the opponent, so: every move when the opponent
    /// has no winning square, the block when it has one, nothing when it
    /// has two or more.
    #[inline]
    fn non_losing_moves(&self, out: &mut Moves) {
        self.non_losing_into(out);
    }

    /// The empty squares (none once the game is won).
    #[inline]
    fn remaining_plies(&self) -> Option<u32> {
        Some(if self.won { 0 } else { self.empty.count() })
    }

    /// Cheap threat-based hints: a side to move that can complete a line is
    /// proved in one move; one that cannot, facing two or more completion
    /// squares of the opponent, is almost surely lost; otherwise `(1, 1)`.
    #[inline]
    fn proof_hints(&self) -> (u32, u32) {
        self.threat_proof_hints()
    }

    /// The Erdős–Selfridge potential of `player`'s open windows (see the
    /// crate documentation): `true` when the opponent can keep it from
    /// ever completing a line.
    #[inline]
    fn cannot_win(&self, player: Player) -> bool {
        self.blocked_by_potential(player)
    }

    /// The squares where the side to move makes `k − 1` in a line that
    /// the opponent has not blocked (a "four"), in square order.
    #[inline]
    fn threat_moves(&self, out: &mut Moves) {
        out.clear();
        if self.won {
            return;
        }
        for sq in self.threat_squares(self.side).iter() {
            out.push(Move(sq as u16));
        }
    }

    /// Indices `row * 19 + column`, `0..361`, whatever the board size.
    const MOVE_NUMBERS: usize = SQUARES;

    #[inline]
    fn move_number(m: Move) -> usize {
        m.0 as usize
    }
}
