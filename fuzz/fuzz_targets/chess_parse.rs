//! Chess text: FEN, UCI moves and endgame signatures never panic on
//! arbitrary text; print(parse(x)) round-trips; parsed positions pass
//! `check::position`; a move `parse_uci` accepts is generated.
#![no_main]

use gametree_chess_tables::Signature;
use gametree_game::Game;
use gametree_games_chess::{Move, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let position = gametree_fuzz::games::round_trip::<Position>(text);
    if let Some(p) = &position
        && let Err(f) = gametree_game::check::position(p, 0)
    {
        panic!("{f}");
    }
    let _ = gametree_fuzz::games::round_trip::<Move>(text);
    let _ = gametree_fuzz::games::round_trip::<Signature>(text);
    let start = Position::startpos();
    for p in [&start].into_iter().chain(position.as_ref()) {
        for word in text.split_ascii_whitespace().take(4) {
            if let Ok(m) = p.parse_uci(word) {
                let mut moves = <Position as Game>::Moves::default();
                p.generate(&mut moves);
                assert!(
                    moves.as_slice().contains(&m),
                    "parse_uci accepted {m}, not generated"
                );
            }
        }
    }
});
