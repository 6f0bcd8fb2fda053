//! Connect Four knowledge as bitboard functions: playable cells, winning
//! cells ("threats"), immediate wins, moves that do not lose at once,
//! threat counts for move ordering, and the mirror symmetry.
//!
//! Every function here is checked against a brute-force version (try each
//! move, look at the result) in `tests/knowledge.rs`.

use gametree_game::{MoveHint, Score};

use crate::board::{Board, Column, Moves, centre_order, shl};

/// The empty cells of the board (`full & !mask`) where a stone would
/// complete four in a row for the player owning `stones`, on a board with
/// column stride `stride`. Cells need not be playable yet.
#[inline(always)]
#[must_use]
pub const fn winning_cells(stones: u64, mask: u64, full: u64, stride: u32) -> u64 {
    // The standard board gets its own copy with constant shifts.
    let r = if stride == 7 {
        aligned_threes(stones, 7)
    } else {
        aligned_threes(stones, stride)
    };
    r & full & !mask
}

/// The cells completing four with three of `p` (occupied or not), for a
/// column stride `stride`; inlined so that a constant stride folds.
#[inline(always)]
const fn aligned_threes(p: u64, stride: u32) -> u64 {
    // vertical: three stones below
    let mut r = (p << 1) & (p << 2) & (p << 3);
    // A stride above 20 means at most 3 columns (width · stride ≤ 64): no
    // horizontal or diagonal four fits, and the shifts below could reach 64.
    if stride <= 20 {
        let shifts = [stride - 1, stride, stride + 1];
        let mut i = 0;
        while i < 3 {
            let s = shifts[i];
            // two stones on one side ...
            let left2 = (p << s) & (p << (2 * s));
            r |= left2 & (p << (3 * s)); // ... and a third beyond them
            r |= left2 & (p >> s); // ... and one on the other side
            let right2 = (p >> s) & (p >> (2 * s));
            r |= right2 & (p << s);
            r |= right2 & (p >> (3 * s));
            i += 1;
        }
    }
    r
}

/// `key` with its `w` columns of `s` bits in reverse order; inlined so that
/// constant sizes fold.
#[inline(always)]
const fn mirror_columns(key: u64, s: u32, w: u32) -> u64 {
    let col = shl(1, s).wrapping_sub(1);
    let mut m = 0;
    let mut c = 0;
    while c < w {
        m |= ((key >> (c * s)) & col) << ((w - 1 - c) * s);
        c += 1;
    }
    m
}

/// On the 7 × 6 board (stride 7): bit `c` set when column `c` holds a bit
/// of `cells`. Adding 63 to each column's 7-bit field (rows 0..5 hold at
/// most 63, so no carry crosses into the next column) sets the sentinel row
/// exactly for the non-empty columns; the multiplication moves sentinel `c`
/// (bit `7c + 6`, shifted down to `7c`) to bit `49 + c`. Every product term
/// `7a · 2^(49 - 6b)` lands on a distinct bit (`7a - 6b` determines `a` and
/// `b` in `0..7`), so nothing carries into bits 49..55.
#[inline(always)]
const fn column_set_7(cells: u64) -> usize {
    const BOTTOM: u64 = 0x0000_0408_1020_4081; // bit 7c for c in 0..7
    const GATHER: u64 =
        (1 << 49) | (1 << 43) | (1 << 37) | (1 << 31) | (1 << 25) | (1 << 19) | (1 << 13);
    let tops = ((cells & (BOTTOM * 0x3F)) + BOTTOM * 0x3F) & (BOTTOM << 6);
    ((tops >> 6).wrapping_mul(GATHER) >> 49) as usize & 0x7F
}

/// For each set of the 7 columns of the standard board (bit `c` = column
/// `c`), its columns in centre-first order (3, 2, 4, 1, 5, 0, 6), then at
/// index 7 how many there are.
static CENTRE_FIRST_7: [[u8; 8]; 128] = {
    let mut t = [[0u8; 8]; 128];
    let mut set = 0;
    while set < 128 {
        let mut n = 0;
        let mut i = 0;
        while i < 7 {
            let c = centre_order(7, i);
            if set >> c & 1 == 1 {
                t[set][n] = c as u8;
                n += 1;
            }
            i += 1;
        }
        t[set][7] = n as u8;
        set += 1;
    }
    t
};

impl Board {
    /// The cells where a stone can be dropped now: the lowest empty cell of
    /// every column that is not full (one bit per playable column). Says
    /// nothing about whether the game is over.
    #[inline]
    #[must_use]
    pub const fn possible(&self) -> u64 {
        (self.mask + self.bottom) & self.full
    }

    /// The empty cells (playable or not) where the side to move would
    /// complete four: its threats.
    #[inline(always)]
    #[must_use]
    pub const fn own_threats(&self) -> u64 {
        winning_cells(self.current, self.mask, self.full, self.size.stride())
    }

    /// The empty cells (playable or not) where the player who just moved
    /// would complete four: the threats the side to move must watch.
    #[inline(always)]
    #[must_use]
    pub const fn opponent_threats(&self) -> u64 {
        winning_cells(
            self.current ^ self.mask,
            self.mask,
            self.full,
            self.size.stride(),
        )
    }

    /// The playable cells where the side to move connects four at once.
    #[inline]
    #[must_use]
    pub const fn winning_moves(&self) -> u64 {
        self.possible() & self.own_threats()
    }

    /// Can the side to move connect four with its next stone?
    #[inline]
    #[must_use]
    pub const fn can_win_now(&self) -> bool {
        self.winning_moves() != 0
    }

    /// Does dropping a stone into `col` connect four for the side to move?
    /// `false` for a full or off-board column.
    #[inline]
    #[must_use]
    pub const fn is_winning_move(&self, col: Column) -> bool {
        col.index() < self.size.width() && self.landing_cell(col) & self.own_threats() != 0
    }

    /// The playable cells where the opponent would connect four if the
    /// side to move did not block: the forced blocks. Two or more mean the
    /// side to move cannot stop the opponent (unless it wins first).
    #[inline]
    #[must_use]
    pub const fn forced_blocks(&self) -> u64 {
        self.possible() & self.opponent_threats()
    }

    /// The playable cells whose move does not let the opponent connect four
    /// on the next ply: if the opponent threatens a playable cell, only that
    /// block (none if it threatens two), and never a cell right below an
    /// opponent threat.
    ///
    /// Precondition: the game is not over and the side to move cannot win at
    /// once ([`Board::can_win_now`] is `false`); otherwise a winning move
    /// may be missing from the set. An empty set means every move loses
    /// within two plies.
    #[inline(always)]
    #[must_use]
    pub const fn non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let threats = self.opponent_threats();
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(threats >> 1)
    }

    /// The number of threats (empty cells completing four) the side to
    /// move would own after dropping a stone on `cell`, one bit of
    /// [`Board::possible`]: the usual move-ordering score. Meant for moves
    /// that do not connect four themselves (a winning move needs no score).
    #[inline(always)]
    #[must_use]
    pub const fn threats_after(&self, cell: u64) -> u32 {
        winning_cells(
            self.current | cell,
            self.mask | cell,
            self.full,
            self.size.stride(),
        )
        .count_ones()
    }

    /// The column holding the cell `cell` (one bit of the board).
    #[inline]
    #[must_use]
    pub const fn column_of_cell(&self, cell: u64) -> Column {
        match Column::new(self.column_of(cell) as usize) {
            Some(c) => c,
            None => panic!("cell off the board"),
        }
    }

    /// Writes the columns of the cells in `cells` (a subset of
    /// [`Board::possible`]) into `out`, centre first.
    #[inline(always)]
    pub fn columns_of(&self, cells: u64, out: &mut Moves) {
        out.clear();
        if cells == 0 {
            return;
        }
        let w = self.size.width();
        let stride = self.size.stride();
        if w == 7 && stride == 7 {
            // The standard board: the set of columns as 7 bits, then its
            // centre-first list from a table.
            let list = &CENTRE_FIRST_7[column_set_7(cells)];
            for &c in &list[..usize::from(list[7])] {
                // At most 7 < `Moves::CAPACITY`: never full.
                let _ = out.try_push(Column(c));
            }
            return;
        }
        let column = shl(1, self.size.height() as u32).wrapping_sub(1);
        for i in 0..w {
            let c = centre_order(w, i);
            if (cells >> (c as u32 * stride)) & column != 0
                && let Some(col) = Column::new(c)
            {
                // `c < width ≤ 32 = Moves::CAPACITY`: never full.
                let _ = out.try_push(col);
            }
        }
    }

    /// A unique key of the position among positions of the same board
    /// size: `current + mask + bottom`. Column by column, `mask + bottom`
    /// has a single bit just above the column's stones and `current` lies
    /// below it, so the sum never carries between columns and the key
    /// determines both the height of every column (its highest bit) and the
    /// side-to-move stones (the bits below). Different sizes may share keys.
    #[inline]
    #[must_use]
    pub const fn key(&self) -> u64 {
        self.current + self.mask + self.bottom
    }

    /// The [`Board::key`] of the left–right mirror image of the position.
    #[inline]
    #[must_use]
    pub const fn mirror_key(&self) -> u64 {
        let (s, w) = (self.size.stride(), self.size.width() as u32);
        // The standard board gets its own copy with constant shifts (the
        // table key asks for it at every node).
        if s == 7 && w == 7 {
            mirror_columns(self.key(), 7, 7)
        } else {
            mirror_columns(self.key(), s, w)
        }
    }

    /// The smaller of [`Board::key`] and [`Board::mirror_key`]: the same
    /// for a position and its mirror image, for tables that store one entry
    /// per symmetry class.
    #[inline]
    #[must_use]
    pub const fn symmetric_key(&self) -> u64 {
        let k = self.key();
        let m = self.mirror_key();
        if k < m { k } else { m }
    }

    /// The left–right mirror image of the position (its recorded moves
    /// mirrored too).
    #[must_use]
    pub fn mirrored(&self) -> Board {
        let mut b = Board::new(self.size);
        let w = self.size.width();
        for c in self.history() {
            b.play(Column::new(w - 1 - c.index()).expect("on the board"));
        }
        b
    }

    /// The Pons score of a decisive or draw [`Score`] found for this
    /// position (a win or loss counted in plies from here, as
    /// [`Score::win_in`]). `None` for heuristic scores and for distances
    /// that cannot end the game on this board.
    ///
    /// Pascal Pons's convention (his blog *Solving Connect 4: how to build
    /// a perfect AI*, blog.gamesolver.org), from the side to move's view: a
    /// win scores `(width · height + 2 − N) div 2` when the winning stone is
    /// ply `N` of the game (the first stone is ply 1), i.e. one more than
    /// the number of cells the winner had left; a draw scores 0; a loss is
    /// the negation of the opponent's win. On 7 × 6 scores range over
    /// −18..=18 ([`Size::min_pons_score`](crate::Size::min_pons_score),
    /// [`Size::max_pons_score`](crate::Size::max_pons_score)); see also
    /// [`Size::pons_score_of_win_on_ply`](crate::Size::pons_score_of_win_on_ply).
    ///
    /// ```
    /// use gametree_game::Score;
    /// use gametree_games_connect4::Board;
    ///
    /// let b: Board = "4455".parse()?;
    /// // X, to move, wins with its 4th stone (ply 7): the largest score.
    /// assert_eq!(b.pons_score(Score::win_in(3)), Some(18));
    /// assert_eq!(b.score_from_pons(18), Some(Score::win_in(3)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn pons_score(&self, score: Score) -> Option<i32> {
        if score == Score::DRAW {
            return Some(0);
        }
        let d = score.plies_to_end()?;
        let n = self.plies() as u32 + d;
        // The side to move wins on an odd distance, loses on an even one.
        let parity_ok = (d % 2 == 1) == score.is_win();
        // A win needs four stones of the winner: ply 7 at the earliest.
        if n < 7 || n as usize > self.size.cells() || !parity_ok {
            return None;
        }
        let v = self.size.pons_score_of_win_on_ply(n);
        Some(if score.is_win() { v } else { -v })
    }

    /// The [`Score`] (plies from this position, as [`Score::win_in`]) of a
    /// Pons score for this position: the inverse of [`Board::pons_score`].
    /// A win by the side to move comes on a ply of its own parity, which
    /// makes the distance unique. `None` when `pons` is out of range for the
    /// position.
    #[must_use]
    pub fn score_from_pons(&self, pons: i32) -> Option<Score> {
        if pons == 0 {
            return Some(Score::DRAW);
        }
        let cells = self.size.cells() as i64;
        let p = self.plies() as i64;
        let v = i64::from(pons.unsigned_abs());
        // The winner moves on plies p+1, p+3, ... (the side to move) or on
        // p, p+2, ... (the player who just moved; ply p is the last stone).
        let first_winner_ply = if pons > 0 {
            p + 1
        } else if p >= 1 {
            p
        } else {
            2
        };
        for n in [cells + 2 - 2 * v, cells + 1 - 2 * v] {
            if n >= first_winner_ply.max(7) && n <= cells && (n - first_winner_ply) % 2 == 0 {
                let d = (n - p) as u32;
                return Some(if pons > 0 {
                    Score::win_in(d)
                } else {
                    Score::loss_in(d)
                });
            }
        }
        None
    }
}

/// Weight of a threat on a row of the owner's good parity (odd rows, 1-based,
/// for the first player; even rows for the second).
const GOOD_PARITY_THREAT: i32 = 3;
/// Weight of any other threat.
const OTHER_THREAT: i32 = 1;
/// Weight of a playable threat of the player who just moved (the side to
/// move must block it).
const PLAYABLE_THREAT: i32 = 2;

impl Board {
    /// The threat score of one player: each empty cell that completes four
    /// for it counts [`GOOD_PARITY_THREAT`] on rows of its parity (rows
    /// 1, 3, 5 from the bottom for the first player, 2, 4, 6 for the second;
    /// Allis's zugzwang rule) and [`OTHER_THREAT`] elsewhere.
    const fn threat_value(&self, threats: u64, first_player: bool) -> i32 {
        // Bits of rows 0, 2, 4, ... (0-based), i.e. odd rows 1-based.
        let mut odd_rows = 0u64;
        let mut r = 0;
        while r < self.size.height() {
            odd_rows |= self.bottom << r;
            r += 2;
        }
        let good = if first_player {
            odd_rows
        } else {
            self.full & !odd_rows
        };
        let g = (threats & good).count_ones() as i32;
        let o = (threats & !good).count_ones() as i32;
        g * GOOD_PARITY_THREAT + o * OTHER_THREAT
    }
}

impl Board {
    /// Threats: the side to move's threat value minus the opponent's (see
    /// the weights in the source: good-parity threats count triple), minus
    /// a little for each opponent threat the side to move must block now.
    /// A decisive position is not recognised here; searches score it from
    /// [`gametree_game::Game::outcome`] and immediate wins from the move list.
    pub(crate) fn threat_evaluation(&self) -> Score {
        let first_to_move = self.plies & 1 == 0;
        let mine = self.threat_value(self.own_threats(), first_to_move);
        let opp_threats = self.opponent_threats();
        let theirs = self.threat_value(opp_threats, !first_to_move);
        let blocks = (opp_threats & self.possible()).count_ones() as i32;
        Score::heuristic(mine - theirs - blocks * PLAYABLE_THREAT)
    }
}

impl Board {
    /// `Some(2)` for a move that connects four, `Some(1)` for one that
    /// blocks a cell where the opponent would connect four, `None` for a
    /// quiet move (or a column that cannot be played).
    #[inline]
    pub(crate) fn tactical_priority(&self, m: Column) -> Option<i32> {
        if !self.can_play(m) {
            return None;
        }
        let cell = self.landing_cell(m);
        if cell & self.own_threats() != 0 {
            Some(2)
        } else if cell & self.opponent_threats() != 0 {
            Some(1)
        } else {
            None
        }
    }

    /// The order hint of a column: tactical with [`Self::tactical_priority`],
    /// quiet with [`Self::threat_hint`].
    #[inline]
    pub(crate) fn column_hint(&self, m: Column) -> MoveHint {
        match self.tactical_priority(m) {
            Some(p) => MoveHint::Tactical(p),
            None => MoveHint::Quiet(self.threat_hint(m)),
        }
    }

    /// [`Self::column_hint`]'s quiet values for several columns, with the
    /// position's threats computed once.
    #[inline]
    pub(crate) fn quiet_column_hints(&self, moves: &[Column], out: &mut [i32]) {
        let tactical = self.own_threats() | self.opponent_threats();
        for (o, &m) in out.iter_mut().zip(moves) {
            *o = if self.can_play(m) && self.landing_cell(m) & tactical != 0 {
                MoveHint::Tactical(0).quiet()
            } else {
                MoveHint::Quiet(self.threat_hint(m)).quiet()
            };
        }
    }

    /// The immediate wins (centre first), then the forced blocks (centre
    /// first); nothing when the game is over.
    pub(crate) fn tactical_columns(&self, out: &mut Moves) {
        out.clear();
        if self.is_over() {
            return;
        }
        let wins = self.winning_moves();
        let blocks = self.forced_blocks() & !wins;
        let mut tmp = Moves::new();
        self.columns_of(wins, out);
        self.columns_of(blocks, &mut tmp);
        for &c in tmp.as_slice() {
            out.push(c);
        }
    }
}

impl Board {
    /// For "can the side to move win?": an immediate win is proven in one
    /// move (`(1, 1_000_000)`); a position with no move that survives the
    /// opponent's reply is disproven in one (`(1_000_000, 1)`); otherwise
    /// `(1, n)` with `n` the number of non-losing moves (an OR node needs
    /// one of them to win and all of them refuted to lose).
    pub(crate) fn threat_proof_hints(&self) -> (u32, u32) {
        const MANY: u32 = 1_000_000;
        if self.can_win_now() {
            return (1, MANY);
        }
        let n = self.non_losing_moves().count_ones();
        if n == 0 { (MANY, 1) } else { (1, n) }
    }
}

/// The moves of `board` that are [`Board::non_losing_moves`], as columns
/// centre first (a convenience for searches over the [`gametree_game::Game`] trait).
pub fn non_losing_columns(board: &Board, out: &mut Moves) {
    board.columns_of(board.non_losing_moves(), out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use gametree_game::Game;

    #[test]
    fn pons_score_conversions_are_inverse() {
        // Every position of a few games, every Pons score in range.
        for moves in ["", "4", "4455", "2252576253462244111563365343671351441"] {
            let b: Board = moves.parse().unwrap();
            let mut round_trips = 0;
            for pons in -30..=30 {
                if let Some(s) = b.score_from_pons(pons) {
                    assert_eq!(b.pons_score(s), Some(pons), "{moves} {pons}");
                    round_trips += 1;
                }
            }
            assert!(round_trips > 0);
            for d in 0..50 {
                for s in [Score::win_in(d), Score::loss_in(d)] {
                    if let Some(p) = b.pons_score(s) {
                        assert_eq!(b.score_from_pons(p), Some(s), "{moves} {s}");
                    }
                }
            }
        }
        let empty = Board::standard();
        assert_eq!(empty.pons_score(Score::win_in(41)), Some(1));
        assert_eq!(empty.pons_score(Score::win_in(7)), Some(18));
        assert_eq!(empty.pons_score(Score::loss_in(8)), Some(-18));
        assert_eq!(empty.pons_score(Score::win_in(8)), None); // wrong parity
        assert_eq!(empty.pons_score(Score::new(5)), None); // heuristic
        assert_eq!(empty.score_from_pons(19), None);
        assert_eq!(empty.score_from_pons(-18), Some(Score::loss_in(8)));
    }

    #[test]
    fn simple_threats() {
        let b: Board = "445566".parse().unwrap();
        // First to move: cells (col 2 or 6, row 0) complete 3-4-5-6 / 4-5-6-7.
        let s = b.size();
        assert_eq!(b.winning_moves(), s.cell(2, 0) | s.cell(6, 0));
        assert_eq!(
            b.non_losing_moves(),
            b.possible() & !b.opponent_threats() >> 1
        );
        let t = b.move_hint(Column::new(2).unwrap());
        assert_eq!(t, gametree_game::MoveHint::Tactical(2));
        let mut m = Moves::new();
        b.generate_tactical(&mut m);
        assert_eq!(
            m.as_slice(),
            [Column::new(2).unwrap(), Column::new(6).unwrap()]
        );
        // Both sides own two threats on rows of their parity: level.
        assert_eq!(b.evaluate(), Score::DRAW);
        // X owns two playable threats, O none: bad for O, to move.
        let b: Board = "41516".parse().unwrap();
        assert!(b.evaluate() < Score::DRAW);
    }
}
