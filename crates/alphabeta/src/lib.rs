//! Negamax and alpha-beta search for any [`game::Game`].
//!
//! Alpha-beta returns the value plain negamax returns at the same depth
//! while visiting fewer nodes; every enhancement in this crate keeps that
//! promise, and `cargo xtask verify` checks it on every game of the
//! workspace. This first part holds the references:
//!
//! * [`negamax`] / [`negamax_solve`] — plain negamax to a fixed depth or to
//!   the end of the game, the reference everything is compared with;
//! * [`alpha_beta`] / [`alpha_beta_solve`] — plain fail-hard alpha-beta.
//!
//! Scores follow [`game::Score`]: side-to-move relative, draw 0, a win in
//! `n` plies from the root is `Score::win_in(n)`.
//!
//! ```
//! use alphabeta::{alpha_beta_solve, negamax_solve};
//! use game::Score;
//! use games_tictactoe::TicTacToe;
//!
//! let mut empty = TicTacToe::new();
//! let plain = negamax_solve(&mut empty);
//! let pruned = alpha_beta_solve(&mut empty);
//! assert_eq!(plain.value, Score::DRAW);
//! assert_eq!(pruned.value, plain.value);
//! assert!(pruned.nodes < plain.nodes / 10);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

mod reference;

pub use reference::{Depth, alpha_beta, alpha_beta_solve, negamax, negamax_solve};

use alloc::vec::Vec;
use game::Score;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<M> {
    /// The root value, from the side to move's view.
    pub value: Score,
    /// A move achieving `value` (`None` at a terminal root).
    pub best: Option<M>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// Positions visited (every call of the recursive search).
    pub nodes: u64,
    /// The depth completed in plies (0 for a search to the end).
    pub depth: u32,
}

impl<M> Default for Report<M> {
    fn default() -> Self {
        Report {
            value: Score::DRAW,
            best: None,
            pv: Vec::new(),
            nodes: 0,
            depth: 0,
        }
    }
}
