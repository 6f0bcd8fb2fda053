//! m,n,k text: parsing arbitrary text (positions and moves) never panics,
//! print(parse(x)) round-trips, and parsed positions pass `check::position`.
#![no_main]

use gametree_games_mnk::{Mnk, Move};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Some(game) = gametree_fuzz::games::round_trip::<Mnk>(text)
        && let Err(f) = gametree_game::check::position(&game, 0)
    {
        panic!("{f}");
    }
    let _ = gametree_fuzz::games::round_trip::<Move>(text);
});
