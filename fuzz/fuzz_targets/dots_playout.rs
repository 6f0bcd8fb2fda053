//! Dots-and-Boxes: make/unmake, hash, `try_make` oracles along a
//! fuzzer-chosen playout on a fuzzer-chosen board (a player who completes a
//! box moves again), and the position text: parsing never panics, and
//! print(parse(x)) round-trips.
#![no_main]

use gametree_games_dots::{Dots, Line, Size};
use libfuzzer_sys::fuzz_target;

/// Board size, playout choices, candidate lines, a position text.
type Input<'a> = ((u8, u8), Vec<u16>, Vec<u8>, &'a str);

fuzz_target!(|input: Input<'_>| {
    let ((w, h), choices, candidates, text) = input;
    let _ = gametree_fuzz::games::round_trip::<Size>(text);
    let Ok(size) = Size::new(1 + usize::from(w % 8), 1 + usize::from(h % 8)) else {
        return;
    };
    let start = Dots::new(size);
    let candidates: Vec<Line> = candidates
        .iter()
        .take(8)
        .filter_map(|&i| Line::new(size, usize::from(i)))
        .collect();
    gametree_fuzz::games::playout(&start, &choices, 64, &candidates);
    if let Ok(d) = Dots::from_moves(size, text) {
        let printed = d.to_string();
        assert_eq!(
            Dots::from_moves(size, &printed).ok(),
            Some(d),
            "{printed:?}"
        );
    }
});
