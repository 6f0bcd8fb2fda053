//! Cross-crate conformance suite: the integration tests under `tests/tests/`
//! run every searcher and solver of the workspace on the solved positions
//! of the corpus of published numbers (`gametree_data`) and on games
//! written against the public API only; `tests/guide.rs` compiles the
//! user guide `docs/implement-a-game.md` (its code blocks, gathered by
//! `build.rs`) and runs its tests; `tests/tidy.rs` holds the workspace's
//! structural rules (function length, no timings in doc comments, no
//! measured figures in verify row labels). This crate is not published.
#![forbid(unsafe_code)]

/// The examples of the workspace's README, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeExamples;
