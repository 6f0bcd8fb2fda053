//! Chess for the gametree crates: complete legal move generation proven by
//! perft, FEN and UCI notation with typed errors, Zobrist hashing, a simple
//! evaluation and tactical moves for alpha-beta with quiescence.
//!
//! [`Position`] implements [`gametree_game::Game`] with its knowledge (an
//! evaluation, captures and promotions as tactical moves, one-to-one move
//! numbers), so every searcher of the workspace plays chess. The attack
//! tables are public ([`attacks`]), and [`Position::from_pieces`] sets up
//! a board from a list of pieces: the pawnless-endgame indexing for
//! retrograde analysis (`gametree-chess-tables`) is built on them.
//!
//! # Example
//!
//! ```
//! use gametree_game::{Game, Outcome, perft};
//! use gametree_games_chess::Position;
//!
//! // Perft from the initial position, generic and bulk-counting.
//! let mut pos = Position::startpos();
//! assert_eq!(perft(&mut pos, 3), 8_902);
//! assert_eq!(pos.perft(4), 197_281);
//!
//! // FEN in, UCI moves, FEN out.
//! let mut pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
//! let castle = pos.parse_uci("e1g1")?;
//! pos.try_make(castle)?;
//! assert_eq!(pos.to_string(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
//! assert!(pos.parse_uci("e8e6").is_err()); // illegal: typed error
//!
//! // Fool's mate.
//! let mut pos = Position::startpos();
//! for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     let m = pos.parse_uci(m)?;
//!     pos.make(m);
//! }
//! assert_eq!(pos.outcome(), Some(Outcome::Loss));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is verified
//!
//! * Move generation: the published perft counts of the Chess Programming
//!   Wiki's six standard positions (kept in the corpus, `gametree-data`;
//!   cheap rows in `cargo test`, deep rows in `gametree verify --game chess
//!   --full`), the bulk counter against the generic [`gametree_game::perft`],
//!   and the legal move lists against the `cozy-chess` crate along seeded
//!   random games.
//! * make/unmake restores everything, the incremental hash equals the hash
//!   from scratch, a move is legal iff generated: the [`gametree_game::check`]
//!   oracles on seeded random playouts.
//!
//! # Zobrist keys
//!
//! Keys come from the `zobrist` crate's
//! `ZobristTable::with_extras(64, 12, [castling: 16, en passant file: 8])`
//! with its fixed seed: piece number `colour × 6 + role` (White pawn 0 ..
//! Black king 11), one key per castling-rights combination (bits 1 = K,
//! 2 = Q, 4 = k, 8 = q), one per en-passant file. They are part of the
//! public contract; `tests` pin the start position's hash.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod attacks;
mod eval;
mod fen;
mod movegen;
mod mv;
mod position;
mod types;

pub use eval::PIECE_VALUES;
pub use fen::{FenError, FenErrorKind};
pub use mv::{Move, UciError, UciErrorKind};
pub use position::{Position, Undo};
pub use types::{Color, Piece, Role, Square, SquareError};

/// The initial position in FEN.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[cfg(test)]
mod tests {
    use gametree_game::Game;

    use super::*;

    /// The hash of the start position is pinned: it depends on the
    /// `zobrist` crate's keys and on this crate's key layout, both public
    /// contracts.
    #[test]
    fn pinned_start_hash() {
        let p = Position::startpos();
        assert_eq!(p.hash(), p.recompute_hash());
        assert_eq!(p.hash(), PINNED_START_HASH, "{:#x}", p.hash());
    }

    const PINNED_START_HASH: u64 = 0xc512_1c0d_91cc_517f;
}

// The README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
