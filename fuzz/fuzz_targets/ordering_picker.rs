//! The move picker yields a permutation of the legal moves, TT move first,
//! whatever the hints and history (see `gametree_fuzz::picker`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: gametree_fuzz::picker::Case| gametree_fuzz::picker::run(&case));
