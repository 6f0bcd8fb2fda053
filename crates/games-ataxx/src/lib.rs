//! Ataxx (the 'virus game') for gametree: libataxx rules, FEN, perft.
//!
//! Work in progress.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
