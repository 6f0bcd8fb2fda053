//! Cross-crate conformance suite: the integration tests under `tests/tests/`
//! run every searcher and solver of the workspace on the shared data in
//! `tests/data/`. This crate is not published.
#![forbid(unsafe_code)]
