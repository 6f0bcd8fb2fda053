//! Numbering the Connect Four positions of a small board for retrograde
//! analysis ([`gametree_game::IndexSpace`] and [`gametree_game::Predecessors`]).
//!
//! A column of height `h` holding `k` stones is the digit `(1 << k) | bits`
//! (below `2^(h+1)`), where bit `r` of `bits` is set when the stone on row
//! `r` belongs to the first player. The index of a position is the number
//! whose base-`2^(h+1)` digits are its columns, column 0 lowest: the space
//! has `2^(w·(h+1))` indices (`2^20` for 4 × 4, `2^25` for 5 × 4). Spaces
//! above `2^25` indices are refused with [`IndexTooLarge`].
//!
//! Most digit combinations are not positions: wrong stone counts, stones
//! played after a four, a last mover with no stone on top of a column. The
//! constructor marks the reachable positions (terminal ones included) by a
//! depth-first walk from the empty board, one bit per index; every other
//! index is invalid. [`BoardIndex::plain`] gives every reachable position
//! its own index; [`BoardIndex::symmetric`] maps a position and its
//! left–right mirror image to the smaller of their two indices (whose
//! position is the class's representative) and marks the other invalid.
//!
//! [`position`](gametree_game::IndexSpace::position) rebuilds a [`Board`] with a
//! legal move history (found by taking back stones through reachable
//! positions), so it prints in Pons's notation and can be undone.
//!
//! ```
//! use gametree_game::IndexSpace;
//! use gametree_games_connect4::{Board, Size};
//! use gametree_games_connect4::index::BoardIndex;
//!
//! let size = Size::new(4, 4)?;
//! let plain = BoardIndex::plain(size)?;
//! let mirror = BoardIndex::symmetric(size)?;
//! assert_eq!(plain.size(), 1 << 20);
//! let b = Board::from_moves(size, "1123")?;
//! let i = plain.index_of(&b).unwrap();
//! let p = plain.position(i).unwrap();
//! assert_eq!(p, b);                        // same stones
//! assert_eq!(Board::from_moves(size, &p.to_string())?, b); // a legal history
//! // A position and its mirror image share one index in the symmetric space.
//! let m = Board::from_moves(size, "4432")?;
//! assert_eq!(mirror.index_of(&b), mirror.index_of(&m));
//! assert!(mirror.positions() < plain.positions());
//! assert!(BoardIndex::plain(Size::new(7, 6)?).is_err()); // 2^49 indices
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use gametree_game::{Game, IndexSpace, Player, Predecessors};

use crate::board::has_four;
use crate::{Board, Column, Size};

/// The largest space accepted, in bits of index: `2^25` indices (5 × 4:
/// 32 MiB for a one-byte-per-index table).
pub const MAX_INDEX_BITS: u32 = 25;

/// A board whose index space would have more than `2^`[`MAX_INDEX_BITS`]
/// indices. Returned by [`BoardIndex::plain`] and [`BoardIndex::symmetric`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexTooLarge {
    /// The board size asked for.
    pub size: Size,
    /// Bits of index it would need: `width · (height + 1)`.
    pub bits: u32,
}

impl fmt::Display for IndexTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {} board needs 2^{} indices, more than the 2^{MAX_INDEX_BITS} an index space allows",
            self.size, self.bits
        )
    }
}

impl std::error::Error for IndexTooLarge {}

/// An index space over the Connect Four positions of one small board, with
/// or without mirror reduction (see the [module docs](self)).
#[derive(Clone, PartialEq, Eq)]
pub struct BoardIndex {
    size: Size,
    symmetric: bool,
    /// One bit per index: is it a reachable position (terminal included)?
    reachable: Vec<u64>,
    /// Valid indices (reachable, and canonical when symmetric).
    positions: u64,
}

impl fmt::Debug for BoardIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoardIndex")
            .field("size", &self.size)
            .field("symmetric", &self.symmetric)
            .field("positions", &self.positions)
            .finish_non_exhaustive()
    }
}

impl BoardIndex {
    /// Every reachable position of a `size` board has its own index.
    ///
    /// # Errors
    ///
    /// [`IndexTooLarge`] when `width · (height + 1)` exceeds
    /// [`MAX_INDEX_BITS`].
    pub fn plain(size: Size) -> Result<BoardIndex, IndexTooLarge> {
        BoardIndex::new(size, false)
    }

    /// One index per class of a position and its mirror image.
    ///
    /// # Errors
    ///
    /// [`IndexTooLarge`] when `width · (height + 1)` exceeds
    /// [`MAX_INDEX_BITS`].
    pub fn symmetric(size: Size) -> Result<BoardIndex, IndexTooLarge> {
        BoardIndex::new(size, true)
    }

    fn new(size: Size, symmetric: bool) -> Result<BoardIndex, IndexTooLarge> {
        let bits = size.stride() * size.width() as u32;
        if bits > MAX_INDEX_BITS {
            return Err(IndexTooLarge { size, bits });
        }
        let n = 1usize << bits;
        let mut space = BoardIndex {
            size,
            symmetric,
            reachable: vec![0u64; n.div_ceil(64)],
            positions: 0,
        };
        let mut b = Board::new(size);
        let mut count = 0;
        mark(&mut space, &mut b, &mut count);
        space.positions = count;
        Ok(space)
    }

    /// The board size.
    #[must_use]
    pub const fn board_size(&self) -> Size {
        self.size
    }

    /// Does this space merge mirror images?
    #[must_use]
    pub const fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// The number of valid indices: reachable positions (terminal ones
    /// included), counted once per mirror class when symmetric.
    #[must_use]
    pub const fn positions(&self) -> u64 {
        self.positions
    }

    /// The number of stones of the position at a valid `index` (its side
    /// to move is the first player when even), or `None` for an invalid
    /// index. Cheaper than [`position`](IndexSpace::position).
    #[must_use]
    pub fn stones(&self, index: u64) -> Option<u32> {
        if !self.is_valid(index) {
            return None;
        }
        let s = self.size.stride();
        Some(
            (0..self.size.width() as u32)
                .map(|c| digit_len((index >> (c * s)) & digit_mask(s)))
                .sum(),
        )
    }

    /// The number of positions a valid `index` stands for: 2 in a symmetric
    /// space when the position differs from its mirror image, else 1;
    /// `None` for an invalid index.
    #[must_use]
    pub fn class_size(&self, index: u64) -> Option<u64> {
        if !self.is_valid(index) {
            return None;
        }
        Some(if self.symmetric && self.mirror_index(index) != index {
            2
        } else {
            1
        })
    }

    /// Is `index` a valid index (a reachable position, canonical when
    /// symmetric)?
    #[must_use]
    pub fn is_valid(&self, index: u64) -> bool {
        index < self.size()
            && self.is_reachable(index)
            && (!self.symmetric || index <= self.mirror_index(index))
    }

    fn is_reachable(&self, index: u64) -> bool {
        self.reachable
            .get((index / 64) as usize)
            .is_some_and(|w| w >> (index % 64) & 1 == 1)
    }

    /// The index of the mirror image: the digits in reverse order.
    fn mirror_index(&self, index: u64) -> u64 {
        let s = self.size.stride();
        let w = self.size.width() as u32;
        (0..w).fold(0, |acc, c| {
            acc | (((index >> (c * s)) & digit_mask(s)) << ((w - 1 - c) * s))
        })
    }

    /// The plain index of a board of this size (no reachability check).
    fn raw_index(&self, b: &Board) -> u64 {
        let s = self.size.stride();
        let first = b.stones_of(Player::First);
        let mut index = 0u64;
        for c in 0..self.size.width() as u32 {
            let col = (b.occupied() >> (c * s)) & digit_mask(s);
            let k = col.count_ones();
            let digit = (1 << k) | ((first >> (c * s)) & col);
            index |= digit << (c * s);
        }
        index
    }

    /// The board for a reachable plain index, without a move history.
    fn bare_board(&self, index: u64) -> Board {
        let s = self.size.stride();
        let (mut first, mut mask, mut plies) = (0u64, 0u64, 0u32);
        for c in 0..self.size.width() as u32 {
            let d = (index >> (c * s)) & digit_mask(s);
            let k = digit_len(d);
            let col = (1u64 << k) - 1;
            mask |= col << (c * s);
            first |= (d & col) << (c * s);
            plies += k;
        }
        let mut b = Board::new(self.size);
        b.mask = mask;
        b.current = if plies % 2 == 0 { first } else { mask ^ first };
        b.plies = plies as u8;
        b
    }

    /// The columns whose top stone belongs to the player who moved last.
    fn undoable(&self, b: &Board) -> impl Iterator<Item = Column> + use<'_> {
        let last = b.opponent_stones();
        let mask = b.occupied();
        let size = self.size;
        (0..size.width()).filter_map(move |c| {
            let col = mask & size.column_mask(c);
            let top = (col + size.cell(c, 0)) >> 1;
            (col != 0 && last & top != 0).then(|| Column::new(c).expect("on the board"))
        })
    }

    /// Takes back the top stone of `col`, if the position before was a
    /// reachable position where the game was not over.
    fn parent(&self, b: &Board, col: Column) -> Option<Board> {
        let mut p = *b;
        p.unmake(col, ());
        let reachable = self.is_reachable(self.raw_index(&p));
        (reachable && !has_four(p.opponent_stones(), self.size.stride())).then_some(p)
    }
}

/// The bits of one digit.
const fn digit_mask(stride: u32) -> u64 {
    (1u64 << stride) - 1
}

/// The number of stones a digit encodes (the position of its leading one).
const fn digit_len(d: u64) -> u32 {
    63 - d.leading_zeros()
}

/// Marks every position reachable from `b` (depth first), counting the
/// valid indices.
fn mark(space: &mut BoardIndex, b: &mut Board, count: &mut u64) {
    let i = space.raw_index(b);
    let (word, bit) = ((i / 64) as usize, i % 64);
    if space.reachable[word] >> bit & 1 == 1 {
        return;
    }
    space.reachable[word] |= 1 << bit;
    if !space.symmetric || i <= space.mirror_index(i) {
        *count += 1;
    }
    let mut moves = crate::Moves::new();
    b.generate(&mut moves);
    for &m in &moves {
        b.play(m);
        mark(space, b, count);
        b.unmake(m, ());
    }
}

impl IndexSpace for BoardIndex {
    type Game = Board;

    fn size(&self) -> u64 {
        1 << (self.size.stride() * self.size.width() as u32)
    }

    fn position(&self, index: u64) -> Option<Board> {
        if !self.is_valid(index) {
            return None;
        }
        let bare = self.bare_board(index);
        // A legal history: take back stones through reachable positions down
        // to the empty board. Every reachable position has such a parent
        // (the one before its last move on some game), and that parent is
        // reachable, so the walk never gets stuck. (A reachable parent is
        // never finished: its last mover's stones are those of the child's
        // side to move, which cannot hold a four in a reachable child.)
        let s = self.size.stride();
        let mut history = [0u8; 64];
        let mut at = index;
        for ply in (0..bare.plies()).rev() {
            // The stone played on ply `ply` is the first player's when even.
            let owner = u64::from(ply % 2 == 0);
            let (col, parent) = (0..self.size.width() as u32).find_map(|c| {
                let d = (at >> (c * s)) & digit_mask(s);
                let k = digit_len(d);
                if k == 0 || (d >> (k - 1)) & 1 != owner {
                    return None;
                }
                let below = (d & ((1 << (k - 1)) - 1)) | (1 << (k - 1));
                let parent = (at & !(digit_mask(s) << (c * s))) | (below << (c * s));
                self.is_reachable(parent).then_some((c, parent))
            })?;
            history[ply] = col as u8;
            at = parent;
        }
        let mut out = Board::new(self.size);
        for &c in &history[..bare.plies()] {
            out.play(Column::new(usize::from(c))?);
        }
        debug_assert_eq!(out, bare);
        Some(out)
    }

    fn index_of(&self, position: &Board) -> Option<u64> {
        if position.size() != self.size {
            return None;
        }
        let i = self.raw_index(position);
        if !self.is_reachable(i) {
            return None;
        }
        Some(if self.symmetric {
            i.min(self.mirror_index(i))
        } else {
            i
        })
    }
}

impl Predecessors for BoardIndex {
    /// Takes back the top stone of each column that belongs to the player
    /// who moved last; the result is a predecessor when it is a reachable
    /// position where the game was not over.
    fn predecessors(&self, position: &Board, found: &mut dyn FnMut(u64)) {
        for col in self.undoable(position) {
            if let Some(p) = self.parent(position, col)
                && let Some(i) = self.index_of(&p)
            {
                found(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Every reachable position, by breadth-first search on `Board::key`.
    fn reachable_keys(size: Size) -> HashSet<u64> {
        let mut seen = HashSet::new();
        let mut layer = vec![Board::new(size)];
        seen.insert(layer[0].key());
        while !layer.is_empty() {
            let mut next = Vec::new();
            for b in layer {
                let mut moves = crate::Moves::new();
                b.generate(&mut moves);
                for &m in &moves {
                    let mut c = b;
                    c.play(m);
                    if seen.insert(c.key()) {
                        next.push(c);
                    }
                }
            }
            layer = next;
        }
        seen
    }

    #[test]
    fn valid_indices_are_the_reachable_positions() {
        for (w, h) in [(4, 4), (3, 3), (5, 3), (2, 5)] {
            let size = Size::new(w, h).unwrap();
            let keys = reachable_keys(size);
            let plain = BoardIndex::plain(size).unwrap();
            let mirror = BoardIndex::symmetric(size).unwrap();
            let mut seen = HashSet::new();
            let mut mirror_seen = 0;
            let mut mirror_total = 0;
            let mut classes = HashSet::new();
            for i in 0..plain.size() {
                if let Some(b) = plain.position(i) {
                    assert_eq!(plain.index_of(&b), Some(i));
                    assert_eq!(plain.stones(i), Some(b.plies() as u32));
                    assert!(keys.contains(&b.key()), "{w}x{h} {b}");
                    assert!(seen.insert(b.key()));
                    classes.insert(b.symmetric_key());
                    // The history replays to the same position.
                    assert_eq!(Board::from_moves(size, &b.to_string()), Ok(b));
                } else {
                    assert_eq!(plain.stones(i), None);
                }
                if let Some(b) = mirror.position(i) {
                    mirror_seen += 1;
                    let pair = if b == b.mirrored() { 1 } else { 2 };
                    assert_eq!(mirror.class_size(i), Some(pair));
                    mirror_total += pair;
                    assert_eq!(mirror.index_of(&b), Some(i));
                    assert_eq!(mirror.index_of(&b.mirrored()), Some(i));
                }
            }
            assert_eq!(seen.len(), keys.len(), "{w}x{h}");
            assert_eq!(plain.positions(), keys.len() as u64);
            assert_eq!(mirror.positions(), mirror_seen);
            assert_eq!(mirror_seen, classes.len() as u64, "{w}x{h}");
            assert_eq!(mirror_total, plain.positions(), "{w}x{h}");
            assert!(mirror.positions() < plain.positions());
        }
    }

    #[test]
    fn too_large_boards_are_refused() {
        for (w, h) in [(7, 6), (6, 4), (5, 5), (4, 6), (7, 3)] {
            let size = Size::new(w, h).unwrap();
            let e = BoardIndex::plain(size).unwrap_err();
            assert_eq!(e.bits, (w * (h + 1)) as u32);
            assert!(e.to_string().contains(&size.to_string()));
        }
        assert!(BoardIndex::plain(Size::new(4, 5).unwrap()).is_ok());
    }

    #[test]
    fn foreign_and_unreachable_boards_have_no_index() {
        let size = Size::new(4, 4).unwrap();
        let space = BoardIndex::plain(size).unwrap();
        assert_eq!(space.index_of(&Board::new(Size::new(5, 4).unwrap())), None);
        // X plays on after connecting four: not a position of the game.
        let mut b = Board::from_moves(size, "1212121").unwrap();
        assert!(b.is_over());
        b.play(Column::new(3).unwrap());
        assert_eq!(space.index_of(&b), None);
        assert_eq!(space.position(space.size()), None);
        assert_eq!(space.position(0), None);
    }
}
