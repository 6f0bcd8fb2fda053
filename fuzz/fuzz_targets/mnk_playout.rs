//! m,n,k-games: make/unmake, hash, `try_make` and `Forcing` oracles along a
//! fuzzer-chosen playout on a fuzzer-chosen board (`game::check`).
#![no_main]

use games_mnk::{Mnk, Move};
use libfuzzer_sys::fuzz_target;

/// Board size `(m, n, k)`, playout choices, candidate squares.
type Input = ((u8, u8, u8), Vec<u16>, Vec<(u8, u8)>);

fuzz_target!(|input: Input| {
    let ((m, n, k), choices, candidates) = input;
    let Ok(start) = Mnk::new(1 + m % 19, 1 + n % 19, 1 + k % 19) else {
        return;
    };
    let candidates: Vec<Move> = candidates
        .iter()
        .take(8)
        .filter_map(|&(c, r)| Move::new(c % 19, r % 19))
        .collect();
    gametree_fuzz::games::playout(&start, &choices, 40, &candidates);
    gametree_fuzz::games::forcing(&start, &choices, 40);
});
