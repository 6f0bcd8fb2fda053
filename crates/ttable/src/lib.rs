//! Transposition tables for game-tree search: packed cache-line buckets, replacement and probe policies, aging, a lockless shared table.
//!
//! Work in progress.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
