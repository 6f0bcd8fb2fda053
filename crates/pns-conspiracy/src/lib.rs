//! Proof-number search (PNS, PN², df-pn) and conspiracy-number search for any gametree Game.
//!
//! Work in progress.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
