//! m,n,k-games: make/unmake, hash, `try_make` and `Forcing` oracles along a
//! fuzzer-chosen playout on a fuzzer-chosen board (`gametree_game::check`).
#![no_main]

use gametree_games_mnk::{Mnk, Move};
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
    // Every oracle call costs about squares² make/unmakes: keep an input
    // to a few million of them on large boards.
    let squares = usize::from(start.m()) * usize::from(start.n());
    // `check::forcing` costs about squares² make/outcome calls per position.
    let plies = (40_000 / (squares * squares)).clamp(1, 40);
    gametree_fuzz::games::playout(&start, &choices, plies, &candidates);
    if squares <= 64 {
        gametree_fuzz::games::forcing(&start, &choices, plies.min(12));
    }
});
