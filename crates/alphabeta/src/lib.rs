//! Negamax and alpha-beta search for any [`gametree_game::Game`].
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
//! Scores follow [`gametree_game::Score`]: side-to-move relative, draw 0, a win in
//! `n` plies from the root is `Score::win_in(n)`.
//!
//! ```
//! use gametree_alphabeta::{alpha_beta_solve, negamax_solve};
//! use gametree_game::Score;
//! use gametree_games_tictactoe::TicTacToe;
//!
//! let mut empty = TicTacToe::new();
//! let plain = negamax_solve(&mut empty);
//! let pruned = alpha_beta_solve(&mut empty);
//! assert_eq!(plain.value, Score::DRAW);
//! assert_eq!(pruned.value, plain.value);
//! assert!(pruned.stats.nodes < plain.stats.nodes / 10);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

mod busy;
mod config;
mod node;
mod order;
mod parallel;
mod quiescence;
mod reference;
mod root;
mod searcher;
pub mod variants;
mod worker;

pub use config::{Algorithm, Config, TableConfig, TtUse};
pub use gametree_game::{ALL_CORES, MissingKnowledge, Use};
pub use gametree_game::{Event, Find, Limits, Request, Solution, Solver, Stats, Stop};
pub use gametree_threats::ThreatConfig;
pub use reference::{
    Depth, MAX_QUIESCENCE_PLY, alpha_beta, alpha_beta_solve, negamax, negamax_quiescence,
    negamax_solve,
};
pub use searcher::{AlphaBeta, MAX_PLY};

use alloc::vec::Vec;
use core::fmt;
use core::time::Duration;
use gametree_game::{Outcome, Score};

/// The searcher could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchError {
    /// The transposition table was refused (size, verification bits, or
    /// the allocation failed).
    Table(gametree_ttable::TableError),
    /// A configuration option requires an item of knowledge that the game
    /// does not declare in [`gametree_game::Game::KNOWLEDGE`].
    MissingKnowledge(MissingKnowledge),
    /// The threat-space search limits were refused
    /// ([`Config::threat_limits`]).
    Threats(gametree_threats::Error),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Table(e) => write!(f, "transposition table: {e}"),
            SearchError::MissingKnowledge(e) => e.fmt(f),
            SearchError::Threats(e) => write!(f, "threat-space search: {e}"),
        }
    }
}

impl std::error::Error for SearchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SearchError::Table(e) => Some(e),
            SearchError::MissingKnowledge(e) => Some(e),
            SearchError::Threats(e) => Some(e),
        }
    }
}

impl From<gametree_ttable::TableError> for SearchError {
    fn from(source: gametree_ttable::TableError) -> Self {
        SearchError::Table(source)
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<M> {
    /// The root value, from the side to move's view.
    pub value: Score,
    /// A move achieving `value` (`None` at a terminal root).
    pub best: Option<M>,
    /// The principal line, starting with `best`.
    pub line: Vec<M>,
    /// The depth completed in plies (0 for a search to the end).
    pub depth: u32,
    /// Did at least one iteration complete? When `false`, `value` and
    /// `best` mean nothing.
    pub completed: bool,
    /// For searches to the end: the game-theoretic outcome.
    pub outcome: Option<Outcome>,
    /// What stopped the search early, if anything.
    pub stopped: Option<Stop>,
    /// Counters, positions visited ([`Stats::nodes`]: every call of the
    /// recursive search) first.
    pub stats: Stats,
    /// Time spent.
    pub elapsed: Duration,
}

impl<M> Default for Report<M> {
    fn default() -> Self {
        Report {
            value: Score::DRAW,
            best: None,
            line: Vec::new(),
            depth: 0,
            completed: false,
            outcome: None,
            stopped: None,
            stats: Stats::default(),
            elapsed: Duration::ZERO,
        }
    }
}

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
