//! A bitboard-specialised perft and the generic-versus-bitboard check that
//! `cargo xtask verify` runs.

use std::fmt;

use crate::board::has_four;
use crate::{Board, Size};

/// The number of leaves of the legal-move tree `depth` plies below `board`,
/// counted on the raw bitboards (no [`gametree_game::Game`] calls, no move lists):
/// the same numbers as the generic [`gametree_game::perft`], computed independently.
/// A finished game (four connected, or a full board) has no moves.
#[must_use]
pub fn perft_bitboard(board: &Board, depth: u32) -> u64 {
    let s = board.size();
    count(
        board.current_stones(),
        board.occupied(),
        s.bottom_mask(),
        s.board_mask(),
        s.stride(),
        depth,
    )
}

fn count(current: u64, mask: u64, bottom: u64, full: u64, stride: u32, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if mask == full || has_four(current ^ mask, stride) {
        return 0;
    }
    let mut moves = (mask + bottom) & full;
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    while moves != 0 {
        let cell = moves & moves.wrapping_neg();
        moves ^= cell;
        total += count(current ^ mask, mask | cell, bottom, full, stride, depth - 1);
    }
    total
}

/// One row of [`verify_perft`]: a depth and its leaf count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftRow {
    /// Plies below the empty board.
    pub depth: u32,
    /// Leaves counted (both counters agree).
    pub nodes: u64,
}

/// The generic and the bitboard perft disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftMismatch {
    /// The board size.
    pub size: Size,
    /// The depth where they first disagree.
    pub depth: u32,
    /// The generic [`gametree_game::perft`] count.
    pub generic: u64,
    /// The [`perft_bitboard`] count.
    pub bitboard: u64,
}

impl fmt::Display for PerftMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} perft({}): generic {} != bitboard {}",
            self.size, self.depth, self.generic, self.bitboard
        )
    }
}

impl std::error::Error for PerftMismatch {}

/// Counts the move tree of the empty `size` board at depths `1..=max_depth`
/// with [`gametree_game::perft`] and with [`perft_bitboard`] and checks that they
/// agree, for `cargo xtask verify` (7 × 6 up to depth 10 takes seconds to
/// a minute in release builds).
///
/// # Errors
///
/// The first [`PerftMismatch`].
pub fn verify_perft(size: Size, max_depth: u32) -> Result<Vec<PerftRow>, PerftMismatch> {
    let mut board = Board::new(size);
    let mut rows = Vec::new();
    for depth in 1..=max_depth {
        let generic = gametree_game::perft(&mut board, depth);
        let bitboard = perft_bitboard(&board, depth);
        if generic != bitboard {
            return Err(PerftMismatch {
                size,
                depth,
                generic,
                bitboard,
            });
        }
        rows.push(PerftRow {
            depth,
            nodes: generic,
        });
    }
    Ok(rows)
}

/// The number of distinct positions (by [`Board::key`]) reachable from the
/// empty `size` board in exactly `n` plies, for `n` in `0..=max_ply`,
/// breadth first on the raw bitboards. Memory grows with the widest layer
/// (about 40 bytes per position): 7 × 6 up to ply 11 needs ~0.5 GB.
#[must_use]
pub fn count_positions(size: Size, max_ply: u32) -> Vec<u64> {
    let (bottom, full, stride) = (size.bottom_mask(), size.board_mask(), size.stride());
    let mut layer: Vec<(u64, u64)> = vec![(0, 0)];
    let mut counts = vec![1];
    for ply in 1..=max_ply {
        let keep = ply < max_ply;
        let mut seen = std::collections::HashSet::with_capacity(layer.len() * 3);
        let mut next = Vec::new();
        for &(current, mask) in &layer {
            if mask == full || has_four(current ^ mask, stride) {
                continue;
            }
            let mut moves = (mask + bottom) & full;
            while moves != 0 {
                let cell = moves & moves.wrapping_neg();
                moves ^= cell;
                let (c, m) = (current ^ mask, mask | cell);
                if seen.insert(c + m + bottom) && keep {
                    next.push((c, m));
                }
            }
        }
        counts.push(seen.len() as u64);
        layer = next;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_counts() {
        let c = count_positions(Size::new(3, 3).unwrap(), 10);
        assert_eq!(&c[..3], [1, 3, 9]);
        assert_eq!(c[10], 0);
    }

    #[test]
    fn verify_perft_rows() {
        let rows = verify_perft(Size::STANDARD, 5).unwrap();
        assert_eq!(
            rows.last(),
            Some(&PerftRow {
                depth: 5,
                nodes: 16_807
            })
        );
    }
}
