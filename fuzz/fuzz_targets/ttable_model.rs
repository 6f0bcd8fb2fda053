//! Transposition tables (single and shared) against a `HashMap` model:
//! arbitrary store/probe/new-generation/clear sequences on small tables with
//! exact-depth probes and full-key verification (see `gametree_fuzz::tt`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|script: gametree_fuzz::tt::Script| gametree_fuzz::tt::run(&script));
