//! Chess: make/unmake (all fields, history included), hash and `try_make`
//! oracles along a fuzzer-chosen playout from the start or a parsed FEN,
//! with arbitrary candidate moves.
#![no_main]

use gametree_games_chess::{Move, Position, Role, Square};
use libfuzzer_sys::fuzz_target;

/// A FEN (else the start), playout choices, candidate moves (from, to, promotion).
type Input<'a> = (Option<&'a str>, Vec<u16>, Vec<(u8, u8, u8)>);

fuzz_target!(|input: Input<'_>| {
    let (fen, choices, candidates) = input;
    let start = fen
        .and_then(|f| f.parse::<Position>().ok())
        .unwrap_or_else(Position::startpos);
    let promotions = [
        None,
        Some(Role::Knight),
        Some(Role::Bishop),
        Some(Role::Rook),
        Some(Role::Queen),
    ];
    let candidates: Vec<Move> = candidates
        .iter()
        .take(8)
        .map(|&(f, t, p)| {
            let promotion = promotions[usize::from(p) % promotions.len()];
            Move::new(Square::new(f % 64), Square::new(t % 64), promotion)
        })
        .collect();
    gametree_fuzz::games::playout(&start, &choices, 80, &candidates);
});
