//! Chess for gametree: complete legal move generation, FEN/UCI, perft, Zobrist, and pawnless-endgame indexing for retrograde analysis.
//!
//! Work in progress.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
