//! Connect Four text: Pons's move notation (any board size), sizes and
//! benchmark lines never panic; print(parse(x)) round-trips.
#![no_main]

use gametree_data::pons;
use gametree_games_connect4::{Board, Size};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: ((u8, u8), &str)| {
    let ((w, h), text) = input;
    let _ = gametree_fuzz::games::round_trip::<Size>(text);
    let _ = gametree_fuzz::games::round_trip::<Board>(text);
    if let Ok((moves, _)) = pons::parse_test_line(text)
        && let Ok(board) = Board::from_moves(Size::STANDARD, moves)
    {
        assert_eq!(board.to_string().parse::<Board>().ok(), Some(board));
    }
    let Ok(size) = Size::new(usize::from(w % 33), usize::from(h % 64)) else {
        return;
    };
    if let Ok(board) = Board::from_moves(size, text) {
        let printed = board.to_string();
        assert_eq!(
            Board::from_moves(size, &printed).ok(),
            Some(board),
            "{printed:?}"
        );
        if let Err(f) = gametree_game::check::position(&board, 0) {
            panic!("{f}");
        }
    }
});
