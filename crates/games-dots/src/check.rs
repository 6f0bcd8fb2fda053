//! An independent reference for Dots-and-Boxes values: exhaustive dynamic
//! programming over the sets of drawn lines, sharing nothing with the
//! searchers but the rules.
//!
//! What remains to be won from a position depends only on the lines drawn
//! (not on who owns the boxes already taken, nor on who is to move, since
//! values are the mover's): `future(lines)` is the best final box
//! difference, from the mover's view, of the boxes not yet taken. A line
//! that completes `k` boxes earns `k` and keeps the turn, any other line
//! passes it: `future(L) = max over free lines l of (k + future(L ∪ l)` if
//! `k > 0`, else `−future(L ∪ l))`, and `future(all) = 0`. The exact score
//! of a position is then its box difference (mover's view) plus `future`.

use crate::board::{Dots, Line, Size};
use gametree_game::{Game, Player};

/// The most lines [`future_values`] handles: `2^26` bytes (64 MiB).
pub const MAX_BRUTE_FORCE_LINES: usize = 26;

/// `future(L)` for every set of lines `L` of a board of `size` (index: the
/// set as a bit mask, bit `i` for line `i`), or `None` when the board has
/// more than [`MAX_BRUTE_FORCE_LINES`] lines.
#[must_use]
pub fn future_values(size: Size) -> Option<Vec<i8>> {
    let n = size.lines();
    if n > MAX_BRUTE_FORCE_LINES {
        return None;
    }
    let empty = Dots::new(size);
    // Box masks and, per line, the boxes it borders.
    let mut boxes_of: Vec<Vec<u64>> = vec![Vec::new(); n];
    for (i, b) in boxes_of.iter_mut().enumerate() {
        let line = Line::new(size, i).expect("in range");
        *b = empty.boxes_of_line(line);
    }
    let all = (1u64 << n) - 1;
    let mut future = vec![0i8; 1 << n];
    // Supersets before subsets: decreasing masks work, since a superset of
    // a mask is numerically larger.
    for lines in (0..all).rev() {
        let mut best = i8::MIN;
        let mut free = all & !lines;
        while free != 0 {
            let i = free.trailing_zeros() as usize;
            free &= free - 1;
            let after = lines | 1 << i;
            let k = boxes_of[i].iter().filter(|&&m| after & m == m).count() as i8;
            let v = if k > 0 {
                k + future[after as usize]
            } else {
                -future[after as usize]
            };
            best = best.max(v);
        }
        future[lines as usize] = best;
    }
    Some(future)
}

/// The exact score of `position` (its final box difference for the side to
/// move under perfect play) read from `future` (from [`future_values`] of
/// its size).
#[must_use]
pub fn exact_score(position: &Dots, future: &[i8]) -> i32 {
    let diff = match position.side_to_move() {
        Player::First => position.box_difference(),
        Player::Second => -position.box_difference(),
    };
    diff + i32::from(future[position.lines_mask() as usize])
}
