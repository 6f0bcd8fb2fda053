//! What every solver of the workspace shares: the [`Solver`] trait, its
//! [`Solution`], why a search [`Stop`]s early, and the [`Progress`]
//! snapshot handed to progress callbacks.

use alloc::vec::Vec;
use core::fmt;
use core::time::Duration;

use crate::{Game, Limits, Outcome, Score};

/// Why a search stopped before finishing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Stop {
    /// The node budget of [`Limits::nodes`] was spent.
    Nodes,
    /// The time budget of [`Limits::time`] ran out.
    Time,
    /// The cancel flag of [`Limits::cancel`] was raised.
    Cancelled,
    /// The search reached its memory bound (an explicit tree, a database).
    Memory,
    /// The position, or a successor the answer needs, is outside what the
    /// solver covers (a database that does not hold it).
    OutOfScope,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::Nodes => "node limit",
            Stop::Time => "time limit",
            Stop::Cancelled => "cancelled",
            Stop::Memory => "memory limit",
            Stop::OutOfScope => "position not covered",
        })
    }
}

/// A snapshot handed to a progress callback (`FnMut(&Progress)`) every so
/// often by a long search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Positions visited (alpha-beta), expanded (proof-number searches) or
    /// valued (retrograde analysis) so far.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// Entries, tree nodes or positions held so far.
    pub stored: u64,
}

/// What a [`Solver`] found about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// Win, draw or loss for the side to move; `None` when a limit stopped
    /// the solver first.
    pub outcome: Option<Outcome>,
    /// The exact value with the distance to the end of the game (a win in
    /// `n` plies is [`Score::win_in`]`(n)`), from the solvers that find
    /// distances (alpha-beta's `solve`, a database); `None` from the others
    /// and when `outcome` is `None`.
    pub score: Option<Score>,
    /// A move that achieves `outcome` (and `score`, when there is one);
    /// `None` at a terminal position, or when every move loses and the
    /// solver does not say which loses slowest.
    pub best: Option<M>,
    /// The principal line from `best` on, as far as the solver knows it: to
    /// the end of the game for alpha-beta's `solve` and for databases, the
    /// first move only for the proof-number solvers.
    pub line: Vec<M>,
    /// Positions visited, expanded or looked up.
    pub nodes: u64,
    /// What stopped the solver before it found the outcome.
    pub stopped: Option<Stop>,
    /// Time spent.
    pub elapsed: Duration,
}

impl<M> Default for Solution<M> {
    fn default() -> Self {
        Solution {
            outcome: None,
            score: None,
            best: None,
            line: Vec::new(),
            nodes: 0,
            stopped: None,
            elapsed: Duration::ZERO,
        }
    }
}

impl<M> Solution<M> {
    /// The solution of a position where the game is already over.
    #[must_use]
    pub fn terminal(outcome: Outcome) -> Self {
        Solution {
            outcome: Some(outcome),
            score: Some(Score::terminal(outcome, 0)),
            ..Solution::default()
        }
    }
}

/// A solver: finds the game-theoretic value of positions, within limits.
/// Implemented by alpha-beta (`AlphaBeta`), the proof-number searches
/// (`Pns`, `DfPn`), conspiracy-number search (`Conspiracy`) and loaded
/// endgame databases, so that one caller (a command-line tool, a
/// verification harness) can drive any of them.
///
/// ```
/// use gametree_game::{Game, Limits, Solution, Solver};
///
/// /// Solves every position with the same solver, one after the other.
/// fn solve_all<G: Game, S: Solver<G>>(solver: &mut S, positions: &mut [G]) -> Vec<Solution<G::Move>> {
///     positions
///         .iter_mut()
///         .map(|p| solver.solve(p, &Limits::none()))
///         .collect()
/// }
/// ```
pub trait Solver<G: Game> {
    /// Solves `game` within `limits`. The position is unchanged on return.
    fn solve(&mut self, game: &mut G, limits: &Limits) -> Solution<G::Move>;

    /// Forgets what earlier solves left in tables (results stay correct
    /// without it; only node counts depend on what is kept).
    fn clear(&mut self) {}
}

impl<G: Game, S: Solver<G> + ?Sized> Solver<G> for &mut S {
    fn solve(&mut self, game: &mut G, limits: &Limits) -> Solution<G::Move> {
        (**self).solve(game, limits)
    }
    fn clear(&mut self) {
        (**self).clear();
    }
}

impl<G: Game, S: Solver<G> + ?Sized> Solver<G> for alloc::boxed::Box<S> {
    fn solve(&mut self, game: &mut G, limits: &Limits) -> Solution<G::Move> {
        (**self).solve(game, limits)
    }
    fn clear(&mut self) {
        (**self).clear();
    }
}
