//! Dots-and-Boxes for the gametree crates: the game where a player who
//! completes a box **moves again**, so turns do not alternate, on any board
//! of `W × H` boxes with at most 64 lines.
//!
//! * [`Dots`] implements [`gametree_game::Game`] with its knowledge (lines that take
//!   boxes are tactical, lines that give one away come last, the lines left
//!   bound the game's length, lines are their own move numbers, the box
//!   difference is the evaluation). Every searcher of the workspace decides
//!   the sign of a value from `side_to_move()`, so all of them solve it.
//! * The result compares the final box difference with a target (0: more
//!   boxes wins); [`exact_score`] turns any [`gametree_game::Solver`] into a solver
//!   of the exact final box difference by a binary search over targets.
//! * Position text: the moves from the empty board (`""`), each a dot and a
//!   direction: `a1-` is the line from dot a1 to the right, `a1|` the line
//!   from a1 up (columns from `a`, rows from 1 at the bottom). [`Size`]
//!   parses `WxH` boxes.
//!
//! Published values reproduced by the tests (first player's final box
//! difference with best play): 1×1 −1, 2×2 +2 (a first-player win,
//! Berlekamp, *Winning Ways* and *The Dots-and-Boxes Game*), 3×3 −3 (a
//! second-player win by 3: David Wilson's analysis, which also corrects the
//! book's "by 1"), and every board up to 3×3 boxes.
//!
//! ```
//! use gametree_game::Limits;
//! use gametree_games_dots::{Dots, Size, exact_score};
//!
//! let board = Dots::new(Size::new(2, 2)?);
//! let mut solver = gametree_alphabeta::AlphaBeta::<Dots>::new(gametree_alphabeta::Config::default())?;
//! assert_eq!(exact_score(&mut solver, &board, &Limits::none()), Some(2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod board;
pub mod check;
mod notation;

pub use board::{Dots, Line, MAX_LINES, Moves, Size, SizeError, Undo};
pub use notation::{ParseError, ParseErrorKind};

use gametree_game::{Game, Limits, Outcome, Player, Solver};

/// The final box difference for the player to move under perfect play,
/// found with any win/draw/loss `solver` by a binary search over targets
/// (each question "is the first player's final difference above `t`,
/// equal, or below?" is one solve of the position with target `t`): at
/// most `log2(2 · boxes left + 1) + 1` solves. `None` when a limit stopped a
/// solve (each solve gets `limits`).
pub fn exact_score<S: Solver<Dots> + ?Sized>(
    solver: &mut S,
    position: &Dots,
    limits: &Limits,
) -> Option<i32> {
    let left = position.boxes_left() as i32;
    let now = position.box_difference();
    // The first player's final difference lies in lo..=hi.
    let (mut lo, mut hi) = (now - left, now + left);
    let first = loop {
        if lo == hi {
            break lo;
        }
        let t = lo + (hi - lo) / 2;
        let mut g = position.with_target(t);
        let outcome = solver.solve(&mut g, limits).outcome?;
        // The outcome is the side to move's; the target is the first
        // player's.
        let for_first = match position.side_to_move() {
            Player::First => outcome,
            Player::Second => outcome.flip(),
        };
        match for_first {
            Outcome::Win => lo = t + 1,
            Outcome::Draw => break t,
            Outcome::Loss => hi = t - 1,
        }
    };
    Some(match position.side_to_move() {
        Player::First => first,
        Player::Second => -first,
    })
}
