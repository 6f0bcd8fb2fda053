//! Move ordering for alpha-beta search: killer moves, history heuristic, counter-moves and a staged, allocation-free move picker.
//!
//! Work in progress.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
