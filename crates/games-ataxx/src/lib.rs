//! Ataxx (the textbook's "jeu du virus") for the gametree search crates,
//! with exactly the rules of [libataxx](https://github.com/kz04px/libataxx),
//! the reference implementation.
//!
//! # Rules
//!
//! Two players, `x` (moves first, [`Player::First`](gametree_game::Player)) and `o`,
//! on a 7×7 board where some squares may be blocked (`-` in FEN).
//!
//! * A **single** (clone) move puts a new stone on an empty square at
//!   distance 1 (king-move distance) of one of the mover's stones. It is one
//!   move per destination, however many stones could clone there.
//! * A **jump** moves a stone to an empty square at distance exactly 2; its
//!   origin empties. One move per (origin, destination).
//! * After either, every opponent stone next to the destination flips.
//! * A **pass** (`0000`) is legal only when the side to move has no other
//!   move and the game is not over.
//! * The **half-move clock** resets on single moves and grows by one on
//!   jumps and passes.
//! * The game is **over** when a side has no stones, or no empty square is
//!   within distance 2 of any stone (both decided by counting stones: more
//!   wins, equal draws), or else when the half-move clock reaches 100 (a
//!   draw). A position where the game is over has no moves, not even a pass.
//!
//! # Zobrist hashing: how many random numbers for the virus game?
//!
//! The textbook's exercise: one random number per colour per square, and one
//! for the side to move: `2 × 49 + 1 = 99` numbers. This crate draws them
//! from [`gametree_zobrist::ZobristTable::new(49, 3)`](gametree_zobrist::ZobristTable) (piece
//! 0 an `x` stone, piece 1 an `o` stone), plus:
//!
//! * **Blocked squares** (piece 2): 49 more numbers, XORed into the hash
//!   once when a position is built. They never change during a game, so no
//!   move touches them; they only keep apart positions of different board
//!   layouts that share one transposition table. Total: 148 keys.
//! * **The half-move clock is not hashed**, as chess engines leave out the
//!   fifty-move counter: two positions that differ only by their clock share
//!   a key. The clock only matters when it reaches 100; a searcher that must
//!   be exact there (a solver near the limit) has to treat the clock as
//!   history, like repetitions in chess. The full-move number is not hashed
//!   either.
//!
//! A flip toggles both colour keys of its square; the crate keeps their XOR
//! per square so a flip costs one XOR.
//!
//! # Example
//!
//! ```
//! use gametree_game::{Game, MoveBuffer, Outcome, Player};
//! use gametree_games_ataxx::{Move, Position, perft};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.to_string(), "x5o/7/7/7/7/7/o5x x 0 1");
//! assert_eq!(perft(&pos, 3), 6460); // published (libataxx)
//! assert_eq!(gametree_game::perft(&mut pos, 3), 6460); // the generic walk agrees
//!
//! let m: Move = "f2".parse()?; // a single move next to g1
//! pos.try_make(m)?;
//! assert_eq!(pos.to_fen(), "x5o/7/7/7/7/5x1/o5x o 0 1");
//! assert_eq!(pos.hash(), pos.recompute_hash());
//!
//! // Parsing errors are typed values, never panics.
//! assert!(Position::from_fen("x5o/7/7/7/7/7/o6x x 0 1").is_err()); // 8 squares in rank 1
//!
//! // A side with no stones has lost.
//! let over: Position = "x6/7/7/7/7/7/7 o 0 1".parse()?;
//! assert_eq!(over.outcome(), Some(Outcome::Loss));
//! assert_eq!(over.side_to_move(), Player::Second);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Knowledge
//!
//! The move numbering ([`Move::number`]) numbers single moves by
//! destination and jumps by origin and direction (834 numbers); the
//! evaluation is material (100 per stone); the tactical moves are the
//! captures, scored by the stones they gain.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod bitboard;
mod fen;
mod perft;
mod position;
mod square;

pub use fen::FenError;
pub use perft::{divide, perft};
pub use position::{Cell, MAX_MOVES, Moves, Position, Undo};
pub use square::{Move, ParseMoveError, Square};

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
