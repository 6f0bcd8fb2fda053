//! Cross-crate conformance suite: the integration tests under `tests/tests/`
//! run every searcher and solver of the workspace on the solved positions
//! of the corpus of published numbers (`gametree_verify::data`) and on games
//! written against the public API only. This crate is not published.
#![forbid(unsafe_code)]

/// The examples of the workspace's README, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeExamples;
