//! Bitboard Connect Four (any width×height up to 64 bits) for gametree, with Pons's notation and scoring.
//!
//! Work in progress.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
