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

/// OEIS A212693: the number of legal 7 × 6 positions after `n` plies, for
/// `n` in `0..27` (a finished game's position counts but is not extended).
/// Source: oeis.org/A212693 (John Tromp; Edelkamp and Kissmann).
pub const LEGAL_POSITIONS_7X6: [u64; 27] = [
    1,
    7,
    49,
    238,
    1_120,
    4_263,
    16_422,
    54_859,
    184_275,
    558_186,
    1_662_623,
    4_568_683,
    12_236_101,
    30_929_111,
    75_437_595,
    176_541_259,
    394_591_391,
    858_218_743,
    1_763_883_894,
    3_568_259_802,
    6_746_155_945,
    12_673_345_045,
    22_010_823_988,
    38_263_228_189,
    60_830_813_459,
    97_266_114_959,
    140_728_569_039,
];

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

/// The position count of some ply differs from OEIS A212693.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionCountMismatch {
    /// The ply.
    pub ply: u32,
    /// The published count.
    pub expected: u64,
    /// What [`count_positions`] found.
    pub counted: u64,
}

impl fmt::Display for PositionCountMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "7x6 positions after {} plies: counted {}, OEIS A212693 says {}",
            self.ply, self.counted, self.expected
        )
    }
}

impl std::error::Error for PositionCountMismatch {}

/// Checks [`count_positions`] on 7 × 6 against [`LEGAL_POSITIONS_7X6`] for
/// plies `0..=max_ply` (at most 26), for `cargo xtask verify` (ply 11: a
/// few seconds, ~0.5 GB). This checks move generation, the end-of-game
/// rule and the uniqueness of [`Board::key`] against published numbers.
///
/// # Errors
///
/// The first [`PositionCountMismatch`].
///
/// # Panics
///
/// If `max_ply > 26` (no published number to compare with).
pub fn verify_position_counts(max_ply: u32) -> Result<Vec<u64>, PositionCountMismatch> {
    assert!(max_ply < 27, "A212693 is tabulated here up to ply 26");
    let counts = count_positions(Size::STANDARD, max_ply);
    for (ply, (&counted, &expected)) in counts.iter().zip(&LEGAL_POSITIONS_7X6).enumerate() {
        if counted != expected {
            return Err(PositionCountMismatch {
                ply: ply as u32,
                expected,
                counted,
            });
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_counts() {
        assert_eq!(verify_position_counts(8).unwrap().len(), 9);
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
