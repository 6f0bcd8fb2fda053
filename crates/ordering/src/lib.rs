//! Move ordering for alpha-beta search: killer moves, the history
//! heuristic, counter-moves and a staged, allocation-free move picker.
//!
//! Alpha-beta prunes most when the best move is searched first. This crate
//! holds the classic, game-independent ways of guessing it, for any game
//! that implements the [`gametree_game`] crate's traits:
//!
//! * [`Killers`] — per ply, the last `K` (default 2) quiet moves that caused
//!   a cutoff; a new killer replaces the oldest, never a duplicate.
//! * [`History`] — a score per (side, [`gametree_game::Game::move_number`]) raised on every
//!   cutoff, with three bonus [`Policy`]s: the textbook's `4^depth`,
//!   `depth²`, and the bounded "gravity" update; a malus for the quiet moves
//!   tried before the cutoff; decay between searches. No update sequence
//!   can overflow it.
//! * [`CounterMoves`] — the reply that last refuted the previous move.
//! * [`MovePicker`] — yields the moves of a generated list lazily, in
//!   stages: the transposition-table move, the tactical moves (through
//!   [`gametree_game::Game::move_hint`], for games that have tactical knowledge), the killers, the
//!   counter-move, then the rest by history. It yields exactly the moves of
//!   the list, each once, and allocates nothing.
//!
//! Every tuning constant is in [`tuning`].
//!
//! # How a searcher uses it
//!
//! The tables live in the searcher (allocated once); each node makes a
//! picker, and a quiet move that causes a beta cutoff updates the tables.
//! Here one node of tic-tac-toe, where the searcher finds that the second
//! move it tries refutes the opponent:
//!
//! ```
//! use gametree_game::{Game, MoveBuffer};
//! use gametree_games_tictactoe::{Square, TicTacToe};
//! use gametree_ordering::{CounterMoves, History, Killers, MovePicker, Policy};
//!
//! let mut killers: Killers<Square> = Killers::new(16);
//! let mut history = History::<TicTacToe>::new(Policy::Gravity);
//! let mut counters = CounterMoves::<TicTacToe>::new();
//!
//! let (ply, depth, previous) = (1, 7, Square::new(4).unwrap()); // X played the centre
//! let mut game: TicTacToe = "....X....".parse()?;
//! let side = game.side_to_move();
//! killers.clear(ply + 1); // the children start with fresh killers
//! let mut moves = <TicTacToe as Game>::Moves::default();
//! game.generate(&mut moves);
//! let mut picker = MovePicker::<TicTacToe>::new_tactical(None) // no TT move here
//!     .with_killers(killers.get(ply))
//!     .with_counter(counters.get(side, previous));
//! let mut tried = 0;
//! while let Some(m) = picker.next(&game, &mut moves, &history) {
//!     let undo = game.make(m);
//!     tried += 1;
//!     let cutoff = tried == 2; // stands for: -search(child) >= beta
//!     game.unmake(m, undo);
//!     if cutoff {
//!         if picker.last_is_quiet() {
//!             killers.store(ply, m);
//!             counters.store(side, previous, m);
//!             history.on_cutoff(side, m, picker.quiets_tried(&moves), depth);
//!         }
//!         break;
//!     }
//! }
//! let refutation = moves.as_slice()[1];
//! assert_eq!(killers.get(ply), &[refutation]);
//! assert_eq!(counters.get(side, previous), Some(refutation));
//! assert!(history.score(side, refutation) > 0);
//! assert!(history.score(side, moves.as_slice()[0]) < 0); // tried first, failed: malus
//!
//! // At the next node of this ply, the refutation comes first.
//! let mut picker = MovePicker::<TicTacToe>::new_tactical(None).with_killers(killers.get(ply));
//! game.generate(&mut moves);
//! assert_eq!(picker.next(&game, &mut moves, &history), Some(refutation));
//! history.decay(); // between searches
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

mod counter;
mod history;
mod killers;
mod picker;
pub mod tuning;

pub use counter::CounterMoves;
pub use history::{History, Policy};
pub use killers::Killers;
pub use picker::{MovePicker, NoHistory, QuietOrder, Stage};

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
