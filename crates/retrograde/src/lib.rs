//! Endgame databases by retrograde analysis: forward sweeps and Thompson's backward method, compact on-disk format, probing.
//!
//! Work in progress.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
