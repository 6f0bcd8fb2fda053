//! Numbering tic-tac-toe positions for retrograde analysis
//! ([`gametree_game::IndexSpace`] and [`gametree_game::Predecessors`]).
//!
//! An index is the board read as a base-3 number: square `s` contributes
//! `3^s` times `0` (empty), `1` (X) or `2` (O), so there are `3^9 = 19,683`
//! indices. [`BoardIndex::plain`] numbers every reachable position
//! (5,478 valid indices); [`BoardIndex::symmetric`] numbers only the
//! canonical representative of each symmetry class
//! ([`TicTacToe::canonical`]; 765 valid indices) and maps every position to
//! its class.
//!
//! ```
//! use gametree_game::IndexSpace;
//! use gametree_games_tictactoe::TicTacToe;
//! use gametree_games_tictactoe::index::BoardIndex;
//!
//! let space = BoardIndex::symmetric();
//! let corner: TicTacToe = "X........".parse()?;
//! let other: TicTacToe = "........X".parse()?;
//! assert_eq!(space.index_of(&corner), space.index_of(&other));
//! let valid = (0..space.size()).filter(|&i| space.position(i).is_some()).count();
//! assert_eq!(valid, 765);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use gametree_game::{Game, IndexSpace, Predecessors};

use crate::TicTacToe;

/// Number of indices: `3^9`.
const SIZE: u64 = 19_683;

/// An index space over tic-tac-toe boards, with or without symmetry
/// reduction (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardIndex {
    symmetric: bool,
}

impl BoardIndex {
    /// Every reachable position has its own index.
    #[must_use]
    pub const fn plain() -> BoardIndex {
        BoardIndex { symmetric: false }
    }

    /// One index per class under the 8 symmetries of the square.
    #[must_use]
    pub const fn symmetric() -> BoardIndex {
        BoardIndex { symmetric: true }
    }

    /// Does this space reduce by symmetry?
    #[must_use]
    pub const fn is_symmetric(&self) -> bool {
        self.symmetric
    }
}

fn encode(b: &TicTacToe) -> u64 {
    let (x, o) = (b.x_mask(), b.o_mask());
    (0..9).rev().fold(0u64, |acc, s| {
        let digit = if x & (1 << s) != 0 {
            1
        } else if o & (1 << s) != 0 {
            2
        } else {
            0
        };
        acc * 3 + digit
    })
}

impl IndexSpace for BoardIndex {
    type Game = TicTacToe;

    fn size(&self) -> u64 {
        SIZE
    }

    fn position(&self, index: u64) -> Option<TicTacToe> {
        if index >= SIZE {
            return None;
        }
        let (mut x, mut o, mut rest) = (0u16, 0u16, index);
        for s in 0..9 {
            match rest % 3 {
                1 => x |= 1 << s,
                2 => o |= 1 << s,
                _ => {}
            }
            rest /= 3;
        }
        let board = TicTacToe::from_masks(x, o).ok()?;
        if self.symmetric {
            let c = board.canonical();
            if (c.x_mask(), c.o_mask()) != (x, o) {
                return None;
            }
        }
        Some(board)
    }

    fn index_of(&self, position: &TicTacToe) -> Option<u64> {
        Some(if self.symmetric {
            encode(&position.canonical())
        } else {
            encode(position)
        })
    }
}

impl Predecessors for BoardIndex {
    /// Removes one mark of the player who moved last; the result is a
    /// predecessor when it is a legal position where the game was not over.
    fn predecessors(&self, position: &TicTacToe, found: &mut dyn FnMut(u64)) {
        let (x, o) = (position.x_mask(), position.o_mask());
        let last_was_x = x.count_ones() > o.count_ones();
        let mut marks = if last_was_x { x } else { o };
        while marks != 0 {
            let bit = marks & marks.wrapping_neg();
            marks &= marks - 1;
            let parent = if last_was_x {
                TicTacToe::from_masks(x & !bit, o)
            } else {
                TicTacToe::from_masks(x, o & !bit)
            };
            if let Ok(p) = parent
                && p.outcome().is_none()
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
    use arrayvec::ArrayVec;

    #[test]
    fn predecessors_invert_moves() {
        for space in [BoardIndex::plain(), BoardIndex::symmetric()] {
            for i in 0..space.size() {
                let Some(p) = space.position(i) else { continue };
                let mut moves = ArrayVec::<crate::Square, 9>::new();
                p.generate(&mut moves);
                for &m in moves.as_slice() {
                    let mut q = p;
                    q.make(m);
                    let j = space.index_of(&q).unwrap();
                    let canon = space.position(j).unwrap();
                    let mut preds = Vec::new();
                    space.predecessors(&canon, &mut |k| preds.push(k));
                    assert!(preds.contains(&i), "{p} -> {q}");
                }
            }
        }
    }
}
