//! Retrograde index spaces (tic-tac-toe, pawnless chess endings): index →
//! position → index round trips, also after moves (see `gametree_fuzz::index`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: gametree_fuzz::index::Case| gametree_fuzz::index::run(&case));
