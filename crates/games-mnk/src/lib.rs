//! m,n,k-games for the gametree search crates: `k` in a row on an `m` × `n`
//! board (no gravity), from tic-tac-toe (3,3,3) to free-style Go-Moku
//! (15,15,5) and the 19 × 19 Go board.
//!
//! The first player (`x`) moves first; players alternate putting a stone
//! on any empty square; the player who makes `k` or more in a row
//! (horizontally, vertically or diagonally) wins at once; a full board
//! without a line is a draw.
//!
//! # Representation
//!
//! Every board lives on a 19 × 19 layout of 384-bit bitboards (`[u64; 6]`),
//! square `row * 19 + column`, so one [`Move`] type, one Zobrist table and
//! one move numbering ([`Game::move_number`](gametree_game::Game::move_number)) cover every size. Making a move costs
//! a few bit operations plus the win test, which walks only the four lines
//! through the new stone. Nothing is allocated per node: the move list is
//! an [`ArrayVec`](arrayvec::ArrayVec) of 361.
//!
//! Zobrist keys: one per square per colour on the 19 × 19 layout, one for
//! the side to move, and one per value of `m`, `n` and `k`
//! (`gametree_zobrist::ZobristTable::with_extras`): the empty board's hash is the
//! XOR of its three rule keys, so positions of different games never share
//! a hash and one transposition table can serve several sizes.
//!
//! # Text format
//!
//! `m,n,k`, then optionally a board (`n` rows, top first, separated by `/`,
//! of `x`, `o`, `.`), then optionally moves (`h8`: column letter from `a`,
//! row number from 1 at the bottom). See [`text`] and [`ParseErrorKind`].
//!
//! # Example
//!
//! ```
//! use gametree_game::{Game, Outcome};
//! use gametree_games_mnk::{Mnk, Move, Moves};
//!
//! // Tic-tac-toe: x b2, o a1, x c2, o b1.
//! let mut ttt: Mnk = "3,3,3 b2 a1 c2 b1".parse()?;
//! assert_eq!(ttt.to_string(), "3,3,3 .../.xx/oo.");
//! // Tactical moves: x wins on a2, and c1 would block o's line.
//! let mut tactical = Moves::default();
//! ttt.generate_tactical(&mut tactical);
//! let a2: Move = "a2".parse()?;
//! let c1: Move = "c1".parse()?;
//! assert_eq!(tactical.as_slice(), &[a2, c1]); // the win first, then the block
//! ttt.make(a2);
//! assert_eq!(ttt.outcome(), Some(Outcome::Loss)); // o, to move, has lost
//!
//! // Go-Moku, and typed errors for bad input.
//! let gomoku = Mnk::gomoku();
//! assert_eq!((gomoku.m(), gomoku.n(), gomoku.k()), (15, 15, 5));
//! assert!("3,3,3 b2 b2".parse::<Mnk>().is_err()); // occupied
//! assert!("3,3".parse::<Mnk>().is_err());
//! assert_eq!(gametree_game::perft(&mut Mnk::tictactoe(), 2), 72);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Knowledge
//!
//! The game declares every item of [`gametree_game::Knowledge`]: an evaluation that
//! scores windows of `k` squares that only one player occupies, by how
//! close they are to a line, plus threats (a completion square for the side
//! to move, two for the opponent); tactical moves (immediate wins first,
//! then forced blocks) and a quiet-move hint (stones nearby); immediate wins
//! and non-losing moves; the empty squares as a length bound; cheap
//! threat-based proof numbers; the Erdős–Selfridge win bounds; the threat
//! moves (squares that make `k − 1` in an unblocked window, for
//! threat-space search); the square number on the 19 × 19 layout as the
//! move number.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod board;
mod eval;
mod position;
mod potential;
pub mod text;

pub use position::{MAX_SIDE, Mnk, Move, Moves};
pub use text::{ParseError, ParseErrorKind};

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
