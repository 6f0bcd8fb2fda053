//! Compressed database files: arbitrary (or edited genuine, re-checksummed)
//! bytes are refused with a typed error or decode to a table that, written
//! again, decodes the same (see `gametree_fuzz::compressed`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: gametree_fuzz::compressed::Case| gametree_fuzz::compressed::run(&case));
