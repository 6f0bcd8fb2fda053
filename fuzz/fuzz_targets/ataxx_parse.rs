//! Ataxx text: FEN and move strings never panic on arbitrary text,
//! print(parse(x)) round-trips, and parsed positions pass `check::position`.
#![no_main]

use gametree_games_ataxx::{Move, Position, Square};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Some(p) = gametree_fuzz::games::round_trip::<Position>(text)
        && let Err(f) = gametree_game::check::position(&p, 0)
    {
        panic!("{f}");
    }
    let _ = gametree_fuzz::games::round_trip::<Move>(text);
    let _ = gametree_fuzz::games::round_trip::<Square>(text);
});
