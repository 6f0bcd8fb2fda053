//! Tic-tac-toe: make/unmake, hash and legality oracles along a playout
//! chosen by the fuzzer (move indices into the legal move list), and
//! `try_make` on an arbitrary square.
#![no_main]

use gametree_games_tictactoe::{Square, TicTacToe};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (Vec<u8>, u8)| {
    let (choices, candidate) = input;
    let mut it = choices.iter().map(|&c| u64::from(c));
    gametree_game::check::playout(&TicTacToe::new(), &mut it, 9).unwrap();
    if let Some(sq) = Square::new(candidate % 9) {
        gametree_game::check::try_make_agrees(&TicTacToe::new(), sq).unwrap();
    }
});
