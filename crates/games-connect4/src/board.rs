//! The bitboard position and its [`Game`] implementation.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::LazyLock;

use arrayvec::ArrayVec;
use gametree_game::{Game, Knowledge, MoveHint, Outcome, Player, Score};
use gametree_zobrist::ZobristTable;

use crate::Size;

/// Zobrist keys: one per (bit index, player), for every board size (a bit
/// index is `column · (height + 1) + row`). No side-to-move key: in Connect
/// Four the side to move follows from the number of stones.
static KEYS: LazyLock<ZobristTable> = LazyLock::new(|| ZobristTable::new(64, 2));

/// The Zobrist table behind [`Board::zobrist`]: `piece(bit, player)` for
/// the stone of `player` (`0` first, `1` second) on bitboard bit `bit`.
#[must_use]
pub fn zobrist_keys() -> &'static ZobristTable {
    &KEYS
}

/// A bijective mix of a 64-bit key: a multiplication by an odd constant
/// (invertible modulo 2^64) spreads every bit of the key upwards, and the
/// xor of the high half into the low half (invertible too) brings them down
/// to the bits tables index with. Distinct keys give distinct hashes.
#[inline(always)]
#[must_use]
pub(crate) const fn mix(key: u64) -> u64 {
    let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 32)
}

/// The board size's part of [`Game::hash`]: the mix of `width · 256 +
/// height` offset by a constant, xored into the mixed key, so that boards of
/// different sizes (whose keys can coincide: every empty `1 × h` board has
/// key 1) do not share hashes and one table can serve several sizes.
/// Xoring a constant keeps the hash unique among the positions of one size.
#[inline(always)]
const fn size_salt(size: Size) -> u64 {
    mix(((size.width() as u64) << 8 | size.height() as u64) ^ 0x5A17_C0DE_F00D_0001)
}

/// A move: the column a stone is dropped into (0-based inside, printed
/// 1-based in Pons's notation: `1`..`9`, then `a`..`w` for columns 10..32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Column(pub(crate) u8);

impl Column {
    /// The column with 0-based index `index`, if `index < Size::MAX_WIDTH`.
    #[inline]
    #[must_use]
    pub const fn new(index: usize) -> Option<Column> {
        if index < Size::MAX_WIDTH {
            Some(Column(index as u8))
        } else {
            None
        }
    }

    /// The 0-based column index.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column's character in Pons's notation: `'1'`..`'9'` for the first
    /// nine columns, `'a'`..`'w'` for columns 10..32 (an extension for wide
    /// boards).
    #[inline]
    #[must_use]
    pub const fn to_char(self) -> char {
        if self.0 < 9 {
            (b'1' + self.0) as char
        } else {
            (b'a' + self.0 - 9) as char
        }
    }

    /// The column a notation character stands for (the inverse of
    /// [`Column::to_char`]), or `None` for any other character (`'0'`
    /// included).
    #[inline]
    #[must_use]
    pub const fn from_char(c: char) -> Option<Column> {
        match c {
            '1'..='9' => Some(Column(c as u8 - b'1')),
            'a'..='w' => Some(Column(c as u8 - b'a' + 9)),
            _ => None,
        }
    }
}

impl fmt::Display for Column {
    /// The notation character, e.g. `4` for the middle column of 7 × 6.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// The move list: one entry per column at most.
pub type Moves = ArrayVec<Column, { Size::MAX_WIDTH }>;

/// A Connect Four position on a board of any [`Size`], as two bitboards.
///
/// Bit `c · (height + 1) + r` is the cell of column `c`, row `r` (row 0 at
/// the bottom); the top bit of every column is an always-empty sentinel.
/// The position is `current` (the stones of the side to move) and `mask`
/// (all stones). The board also records its move sequence so that it can be
/// printed back in Pons's notation ([`fmt::Display`]); equality and
/// [`Hash`] ignore the order of the moves and compare positions only.
///
/// Hashing: [`Board::key`] is a **provably unique** 64-bit key
/// (`current + mask + bottom`) among positions of one board size, and
/// [`Game::hash`] is that key through a bijective mix (a multiplication by
/// an odd constant, then the high half xored into the low half) xored with
/// a constant per board size (boards of different sizes never share a
/// hash by accident, so one table can serve several sizes), because
/// generic transposition tables index by the low bits of the hash and need
/// well-mixed bits: as unique as the key, and nothing to maintain in
/// `make`/`unmake`. A Zobrist hash from the `zobrist` crate (XOR of one key
/// per stone; see [`zobrist_keys`]) is available as [`Board::zobrist`].
///
/// ```
/// use gametree_game::{Game, Outcome};
/// use gametree_games_connect4::Board;
///
/// let mut b: Board = "4455".parse()?;     // Pons's notation, 7 × 6
/// assert!(!b.can_win_now());
/// b = "445566".parse()?;
/// assert!(b.can_win_now());               // 7 or 3 completes the row
/// b.play_str("7")?;
/// assert_eq!(b.outcome(), Some(Outcome::Loss)); // second player to move has lost
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Board {
    pub(crate) current: u64,
    pub(crate) mask: u64,
    pub(crate) bottom: u64,
    pub(crate) full: u64,
    pub(crate) size: Size,
    pub(crate) plies: u8,
    pub(crate) history: [u8; 64],
}

/// Positions with at most this many stones share their table key
/// ([`Game::table_key`]) with their mirror image. The empty 7 × 6 board's
/// solve (1 GiB table, full layout) searches 1.81 G nodes with no symmetric keys, 0.99 G
/// with them up to 12 stones, 0.95 G up to 20 and 0.89 G at every depth.
/// The cap is there because the mirror is computed at every node that uses
/// it (and for every child the search prefetches), while searches from
/// positions that are not symmetric (Pons's test sets) gain no nodes from
/// it: their node counts are the same with and without it.
pub const SYMMETRIC_TABLE_PLIES: u8 = 12;

/// `p << s`, or 0 when `s ≥ 64`.
#[inline(always)]
pub(crate) const fn shl(p: u64, s: u32) -> u64 {
    if s < 64 { p << s } else { 0 }
}

/// Has `stones` four in a row on a board with column stride `stride`?
#[inline]
pub(crate) const fn has_four(stones: u64, stride: u32) -> bool {
    // The standard board gets its own copy with constant shifts.
    if stride == 7 {
        four_in_line(stones, 7)
    } else {
        four_in_line(stones, stride)
    }
}

/// [`has_four`] for one stride, inlined so that a constant stride folds.
#[inline(always)]
const fn four_in_line(stones: u64, stride: u32) -> bool {
    let m = stones & (stones >> 1);
    if m & (m >> 2) != 0 {
        return true; // vertical
    }
    // A stride above 20 means at most 3 columns: only vertical fours fit
    // (and the shifts below could reach 64).
    if stride > 20 {
        return false;
    }
    // diagonal down-right, horizontal, diagonal up-right
    let shifts = [stride - 1, stride, stride + 1];
    let mut i = 0;
    while i < 3 {
        let s = shifts[i];
        let m = stones & (stones >> s);
        if m & (m >> (2 * s)) != 0 {
            return true;
        }
        i += 1;
    }
    false
}

impl Board {
    /// The empty board of the given size.
    #[must_use]
    pub const fn new(size: Size) -> Board {
        Board {
            current: 0,
            mask: 0,
            bottom: size.bottom_mask(),
            full: size.board_mask(),
            size,
            plies: 0,
            history: [0; 64],
        }
    }

    /// The empty standard 7 × 6 board.
    #[must_use]
    pub const fn standard() -> Board {
        Board::new(Size::STANDARD)
    }

    /// The board size.
    #[inline]
    #[must_use]
    pub const fn size(&self) -> Size {
        self.size
    }

    /// The number of stones on the board (plies played).
    #[inline]
    #[must_use]
    pub const fn plies(&self) -> usize {
        self.plies as usize
    }

    /// The number of empty cells: the most plies the game can still last
    /// (a bound on the distance to any win, loss or draw, which searches
    /// use to bound scores).
    #[inline]
    #[must_use]
    pub const fn empty_cells(&self) -> usize {
        self.size.cells() - self.plies()
    }

    /// The stones of the side to move, as a bitboard.
    #[inline]
    #[must_use]
    pub const fn current_stones(&self) -> u64 {
        self.current
    }

    /// The stones of the player who just moved, as a bitboard.
    #[inline]
    #[must_use]
    pub const fn opponent_stones(&self) -> u64 {
        self.current ^ self.mask
    }

    /// Every stone on the board, as a bitboard.
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> u64 {
        self.mask
    }

    /// The stones of `player`, as a bitboard.
    #[inline]
    #[must_use]
    pub const fn stones_of(&self, player: Player) -> u64 {
        if (self.plies & 1 == 0) == matches!(player, Player::First) {
            self.current
        } else {
            self.current ^ self.mask
        }
    }

    /// The moves played from the empty board, in order.
    #[must_use]
    pub fn history(&self) -> impl ExactSizeIterator<Item = Column> + '_ {
        self.history[..self.plies()].iter().map(|&c| Column(c))
    }

    /// The last move played, if any.
    #[must_use]
    pub const fn last_move(&self) -> Option<Column> {
        if self.plies == 0 {
            None
        } else {
            Some(Column(self.history[self.plies as usize - 1]))
        }
    }

    /// Can a stone be dropped into `col` (on the board and not full)? Says
    /// nothing about whether the game is over.
    #[inline]
    #[must_use]
    pub const fn can_play(&self, col: Column) -> bool {
        col.index() < self.size.width()
            && self.mask & self.size.cell(col.index(), self.size.height() - 1) == 0
    }

    /// Has the player who just moved connected four?
    #[inline]
    #[must_use]
    pub const fn opponent_has_four(&self) -> bool {
        has_four(self.current ^ self.mask, self.size.stride())
    }

    /// Is the game over (four connected, or the board full)?
    #[inline]
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.mask == self.full || self.opponent_has_four()
    }

    /// The bit of the cell where a stone dropped into `col` lands (0 if the
    /// column is full).
    ///
    /// # Panics
    ///
    /// In debug builds, if `col` is off the board.
    #[inline]
    #[must_use]
    pub const fn landing_cell(&self, col: Column) -> u64 {
        (self.mask + self.size.cell(col.index(), 0)) & self.size.column_mask(col.index())
    }

    /// Drops a stone of the side to move on `cell` (one bit of
    /// [`Board::possible`]), recording it as a move in column `col`.
    #[inline]
    fn play_cell(&mut self, cell: u64, col: u8) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.history[self.plies as usize] = col;
        self.plies += 1;
    }

    /// Plays the column's move. This is [`Game::make`] without the `Undo`.
    ///
    /// # Panics
    ///
    /// In debug builds, if the column is off the board or full. The game
    /// being over is not checked: use [`Game::try_make`] for untrusted moves.
    #[inline]
    pub fn play(&mut self, col: Column) {
        debug_assert!(self.can_play(col), "column {col} is not playable");
        let cell = self.landing_cell(col);
        self.play_cell(cell, col.0);
    }

    /// Takes back the last move, if any, and returns it.
    pub fn undo(&mut self) -> Option<Column> {
        let col = self.last_move()?;
        self.unmake(col, ());
        Some(col)
    }

    /// The Zobrist hash of the position (the `zobrist` crate's keys, see
    /// [`zobrist_keys`]), computed from the stones: equal for equal
    /// positions of one size, whatever the move order.
    #[must_use]
    pub fn zobrist(&self) -> u64 {
        let first = self.stones_of(Player::First);
        let mut h = 0;
        let mut m = self.mask;
        while m != 0 {
            let bit = m.trailing_zeros();
            let player = usize::from(first & (1 << bit) == 0);
            h ^= KEYS.piece(bit as usize, player);
            m &= m - 1;
        }
        h
    }

    /// The column holding the cell `cell` (one bit).
    #[inline]
    pub(crate) const fn column_of(&self, cell: u64) -> u8 {
        (cell.trailing_zeros() / self.size.stride()) as u8
    }

    /// The stone at column `col`, row `row` (0-based, row 0 at the bottom):
    /// `Some(player)` or `None` for an empty cell or one off the board.
    #[must_use]
    pub fn stone_at(&self, col: usize, row: usize) -> Option<Player> {
        if col >= self.size.width() || row >= self.size.height() {
            return None;
        }
        let cell = self.size.cell(col, row);
        if self.mask & cell == 0 {
            None
        } else if self.stones_of(Player::First) & cell != 0 {
            Some(Player::First)
        } else {
            Some(Player::Second)
        }
    }
}

impl Default for Board {
    /// The empty standard 7 × 6 board.
    fn default() -> Self {
        Board::standard()
    }
}

impl PartialEq for Board {
    /// Same size and same stones (the move order is ignored).
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.current == other.current && self.mask == other.mask
    }
}

impl Eq for Board {}

impl Hash for Board {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.size.hash(state);
        self.key().hash(state);
    }
}

impl fmt::Debug for Board {
    /// `Board(7x6 "4453")`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({} \"{}\")",
            self.size,
            crate::notation::Notation(self)
        )
    }
}

/// The columns of a board of width `w`, centre first, then alternating
/// outwards (for 7: 3, 2, 4, 1, 5, 0, 6 — 0-based).
#[inline]
pub(crate) const fn centre_order(w: usize, i: usize) -> usize {
    let half = w / 2;
    let step = i.div_ceil(2);
    if i % 2 == 1 { half - step } else { half + step }
}

/// The position of column `c` in the centre-first order of a board `w`
/// columns wide: the inverse of `centre_order`.
#[inline]
pub(crate) const fn centre_rank(w: usize, c: usize) -> usize {
    let half = w / 2;
    if c < half {
        2 * (half - c) - 1
    } else {
        2 * (c - half)
    }
}

impl Game for Board {
    type Move = Column;
    type Undo = ();
    type Moves = Moves;

    /// Connect Four declares every kind of knowledge: its threats give the
    /// evaluation, the order hints, the tactical moves and the proof hints.
    const KNOWLEDGE: Knowledge = Knowledge::NONE
        .evaluation()
        .tactics()
        .order_hints()
        .forcing()
        .length_bound()
        .proof_hints()
        .move_numbers()
        .win_bounds();

    #[inline]
    fn side_to_move(&self) -> Player {
        if self.plies & 1 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The playable columns, centre first (the usual good order for
    /// Connect Four searches); none when the game is over.
    #[inline]
    fn generate(&self, out: &mut Moves) {
        if self.is_over() {
            out.clear();
            return;
        }
        self.columns_of(self.possible(), out);
    }

    #[inline]
    fn make(&mut self, m: Column) {
        self.play(m);
    }

    #[inline]
    fn unmake(&mut self, m: Column, (): ()) {
        let c = m.index();
        let col_bits = self.mask & self.size.column_mask(c);
        debug_assert!(col_bits != 0, "unmake of empty column {m}");
        let top = (col_bits + self.size.cell(c, 0)) >> 1;
        self.mask ^= top;
        self.current ^= self.mask;
        self.plies -= 1;
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.opponent_has_four() {
            Some(Outcome::Loss)
        } else if self.mask == self.full {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// After a move that did not connect four, only a full board ends the
    /// game: the four test is skipped.
    #[inline]
    fn outcome_unless_won(&self) -> Option<Outcome> {
        if self.mask == self.full {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// The mixed unique key xored with the size's salt (see [`Board`]).
    #[inline]
    fn hash(&self) -> u64 {
        mix(self.key()) ^ size_salt(self.size)
    }

    /// For a position of at most [`SYMMETRIC_TABLE_PLIES`] stones, shared
    /// with its mirror image (equal values): the [`Board::symmetric_key`]
    /// through the same mix as the hash. Deeper, the hash itself: mirror
    /// transpositions pay near the root (a solve from a symmetric position
    /// meets every mirrored line), while the mirror costs time at every
    /// node. Both are bijective images of a position's key, so no two
    /// positions share a table key unless they are mirror images.
    #[inline]
    fn table_key(&self) -> u64 {
        if self.plies <= SYMMETRIC_TABLE_PLIES {
            mix(self.symmetric_key()) ^ size_salt(self.size)
        } else {
            Game::hash(self)
        }
    }

    /// The child's table key from the bitboards, past the plies where
    /// the key is shared with the mirror image (there: `None`, the child
    /// made).
    #[inline]
    fn table_key_after(&self, m: Column) -> Option<u64> {
        if self.plies < SYMMETRIC_TABLE_PLIES {
            return None;
        }
        let cell = self.landing_cell(m);
        let key = (self.current ^ self.mask) + (self.mask | cell) + self.bottom;
        Some(mix(key) ^ size_salt(self.size))
    }

    /// The column as the table keeps it: mirrored when the table key is
    /// the mirror image's (at most [`SYMMETRIC_TABLE_PLIES`] stones, the
    /// mirror's [`Board::key`] the smaller), so that a best move stored by
    /// one image names the same move for the other.
    #[inline]
    fn table_move(&self, m: Column) -> Column {
        if self.plies <= SYMMETRIC_TABLE_PLIES && self.mirror_key() < self.key() {
            let last = self.size.width() - 1;
            last.checked_sub(m.index())
                .and_then(Column::new)
                .unwrap_or(m)
        } else {
            m
        }
    }

    /// The same from scratch: the recorded moves replayed on an empty board.
    fn recompute_hash(&self) -> u64 {
        let mut b = Board::new(self.size);
        for c in self.history() {
            b.play(c);
        }
        mix(b.key()) ^ size_salt(b.size)
    }

    #[inline]
    fn is_legal(&self, m: Column) -> bool {
        self.can_play(m) && !self.is_over()
    }

    /// Threats: the side to move's threat value minus the opponent's
    /// (good-parity threats count triple), minus a little for each opponent
    /// threat the side to move must block now.
    #[inline]
    fn evaluate(&self) -> Score {
        self.threat_evaluation()
    }

    /// A move that connects four is tactical with priority 2, one that
    /// blocks a cell where the opponent would connect four with priority 1;
    /// a quiet move's hint is the number of threats the side to move owns
    /// after it, times 64, plus a centre bonus that breaks ties (63 for the
    /// centre column, one less per step of the centre-first order).
    #[inline]
    fn move_hint(&self, m: Column) -> MoveHint {
        self.column_hint(m)
    }

    /// The threats of the position computed once for all the moves.
    #[inline]
    fn quiet_hints(&self, moves: &[Column], out: &mut [i32]) {
        self.quiet_column_hints(moves, out);
    }

    /// The immediate wins (centre first), then the forced blocks (centre
    /// first); nothing when the game is over.
    #[inline]
    fn generate_tactical(&self, out: &mut Moves) {
        self.tactical_columns(out);
    }

    /// A column that connects four now (the leftmost), if any.
    #[inline]
    fn winning_move(&self) -> Option<Column> {
        self.first_winning_column()
    }

    /// [`Board::non_losing_moves`] as columns, centre first.
    #[inline]
    fn non_losing_moves(&self, out: &mut Moves) {
        self.non_losing_columns_into(out);
    }

    /// The empty cells.
    #[inline]
    fn remaining_plies(&self) -> Option<u32> {
        Some(self.empty_cells() as u32)
    }

    /// No room for a four in the player's stones and the empty cells, or,
    /// on boards of even height with `player` to move and an even number of
    /// empty cells in every column, none in its stones and the lower cell
    /// of each pair that the opponent's claimeven leaves it
    /// ([`Board::no_win_left`]).
    #[inline]
    fn cannot_win(&self, player: Player) -> bool {
        self.no_win_left(player)
    }

    /// The opponent's claimeven completes a four and `player`'s cells hold
    /// none ([`Board::lost_to_claimeven`]).
    #[inline]
    fn cannot_draw(&self, player: Player) -> bool {
        self.lost_to_claimeven(player)
    }

    /// For "can the side to move win?": an immediate win is proven in one
    /// move, a position with no move that survives the opponent's reply is
    /// disproven in one; otherwise `(1, n)` with `n` the number of
    /// non-losing moves.
    #[inline]
    fn proof_hints(&self) -> (u32, u32) {
        self.threat_proof_hints()
    }

    const MOVE_NUMBERS: usize = Size::MAX_WIDTH;

    /// The column's index.
    #[inline]
    fn move_number(m: Column) -> usize {
        usize::from(m.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_orders() {
        for w in 1..=32 {
            let mut seen: Vec<usize> = (0..w).map(|i| centre_order(w, i)).collect();
            assert_eq!(seen[0], w / 2);
            seen.sort_unstable();
            assert_eq!(seen, (0..w).collect::<Vec<_>>(), "width {w}");
        }
        for w in 1..=32 {
            for i in 0..w {
                assert_eq!(centre_rank(w, centre_order(w, i)), i, "width {w}");
            }
        }
        let seven: Vec<usize> = (0..7).map(|i| centre_order(7, i)).collect();
        assert_eq!(seven, [3, 2, 4, 1, 5, 0, 6]);
    }

    #[test]
    fn empty_cells_count_down() {
        let mut b = Board::new(Size::new(3, 2).unwrap());
        for c in [0, 0, 1, 1, 2, 2] {
            assert_eq!(b.empty_cells(), 6 - b.plies());
            b.play(Column::new(c).unwrap());
        }
        assert_eq!(b.empty_cells(), 0);
        assert_eq!(b.mask.count_ones(), 6);
    }

    #[test]
    fn column_chars() {
        for i in 0..32 {
            let c = Column::new(i).unwrap();
            assert_eq!(Column::from_char(c.to_char()), Some(c));
            assert_eq!(Board::move_number(c), i);
            assert!(Board::move_number(c) < Board::MOVE_NUMBERS);
        }
        assert_eq!(Column::new(32), None);
        assert_eq!(Column::from_char('0'), None);
        assert_eq!(Column::from_char('x'), None);
        assert_eq!(Column::new(3).unwrap().to_string(), "4");
    }
}
