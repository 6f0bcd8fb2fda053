//! Connect Four: make/unmake, hash and `try_make` oracles along a
//! fuzzer-chosen playout on a fuzzer-chosen board size.
#![no_main]

use gametree_games_connect4::{Board, Column, Size};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: ((u8, u8), Vec<u16>, Vec<u8>)| {
    let ((w, h), choices, candidates) = input;
    let Ok(size) = Size::new(usize::from(w % 33), usize::from(h % 64)) else {
        return;
    };
    let candidates: Vec<Column> = candidates
        .iter()
        .take(8)
        .filter_map(|&c| Column::new(usize::from(c % 32)))
        .collect();
    gametree_fuzz::games::playout(&Board::new(size), &choices, 64, &candidates);
});
