//! m,n,k-games (tic-tac-toe generalised, Go-Moku 15,15,5 and 19×19) for gametree.
//!
//! Work in progress.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
