//! Tic-tac-toe text: parsing arbitrary bytes never panics, and a parsed
//! board prints back to text that parses to the same board.
#![no_main]

use gametree_games_tictactoe::TicTacToe;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(board) = text.parse::<TicTacToe>()
    {
        let printed = board.to_string();
        assert_eq!(printed.parse::<TicTacToe>().unwrap(), board);
    }
});
