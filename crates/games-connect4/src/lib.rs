//! Bitboard Connect Four for the gametree workspace: any board
//! `width × height` with `width · (height + 1) ≤ 64` (7 × 6 by default),
//! Pascal Pons's move notation and scoring, and the Connect Four knowledge a
//! strong solver needs, as fast bitboard functions.
//!
//! * [`Board`] implements [`gametree_game::Game`] (moves are [`Column`]s, generated
//!   centre first) with every item of knowledge: an evaluation (threat
//!   count with the zugzwang parity rule), tactical moves (immediate wins,
//!   then forced blocks) and the threat count after a quiet move as its
//!   hint, immediate wins and non-losing moves, the empty cells as a length
//!   bound, proof-number hints and the column as the move number: every
//!   searcher of the workspace solves Connect Four at full strength with no
//!   further setup. (The inherent [`Board::non_losing_moves`] returns a
//!   bitboard; the trait method of the same name fills a move list: call it
//!   as `Game::non_losing_moves(&board, &mut moves)` on a concrete board.)
//! * [`Board::key`] is a provably unique 64-bit key,
//!   [`Game::hash`](gametree_game::Game::hash) the same key through a bijective mix
//!   (as unique, with well-mixed bits for tables) xored with a constant per
//!   board size (one table can serve several sizes), [`Board::symmetric_key`]
//!   the key shared by a position and its mirror image, and
//!   [`Board::zobrist`] a Zobrist hash (the `zobrist` crate).
//! * Knowledge: [`Board::possible`], [`Board::own_threats`],
//!   [`Board::winning_moves`], [`Board::non_losing_moves`],
//!   [`Board::forced_blocks`], [`Board::threats_after`],
//!   [`knowledge::winning_cells`].
//! * Notation: `"4453".parse::<Board>()` (7 × 6) or [`Board::from_moves`]
//!   with typed [`NotationError`]s; `Display` prints the moves back and
//!   `{:#}` / [`Board::pretty`] draws the board. [`Size`] parses `WxH`.
//! * Pons's score convention: [`Board::pons_score`] and its inverse
//!   [`Board::score_from_pons`], [`Size::pons_score_of_win_on_ply`].
//! * [`perft_bitboard`]: a move-tree counter on raw bitboards, to check the
//!   generic [`gametree_game::perft`] against; [`count_positions`]: the
//!   distinct positions per ply.
//!
//! # Example
//!
//! ```
//! use gametree_game::{Game, Outcome, perft};
//! use gametree_games_connect4::{Board, Size};
//!
//! let mut b: Board = "4455".parse()?;
//! assert_eq!(b.to_string(), "4455");
//! assert!(!b.can_win_now());
//! // Every move that does not hand the opponent an immediate win:
//! assert_eq!(b.non_losing_moves().count_ones(), 7);
//! b.play_str("3")?;                        // X threatens both ends of 3-4-5
//! assert_eq!(b.forced_blocks().count_ones(), 2); // O cannot block both
//! assert_eq!(b.non_losing_moves(), 0);
//! b.play_str("2")?;
//! assert!(b.can_win_now());
//! b.play_str("6")?;
//! assert_eq!(b.outcome(), Some(Outcome::Loss));
//! // 7 plies: X won with its 4th stone, Pons score 18 for X at "4455".
//! assert_eq!(Size::STANDARD.pons_score_of_win_on_ply(7), 18);
//! assert_eq!(perft(&mut Board::standard(), 4), 2401);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod board;
mod bounds;
mod forcing;
pub mod index;
pub mod knowledge;
mod notation;
mod perft;
mod size;

pub use board::{Board, Column, Moves, SYMMETRIC_TABLE_PLIES, zobrist_keys};
pub use index::{BoardIndex, IndexTooLarge};
pub use knowledge::non_losing_columns;
pub use notation::{NotationError, NotationErrorKind};
pub use perft::{PerftMismatch, PerftRow, count_positions, perft_bitboard, verify_perft};
pub use size::{Size, SizeError};

/// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
