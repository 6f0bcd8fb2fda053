//! Database files: arbitrary (or edited genuine, re-checksummed) bytes are
//! refused with a typed error or load and re-encode to the same bytes
//! (see `gametree_fuzz::retro`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: gametree_fuzz::retro::Case| gametree_fuzz::retro::run(&case));
