//! Ataxx: make/unmake, hash and `try_make` oracles along a fuzzer-chosen
//! playout from the start or from a parsed FEN, with arbitrary candidate
//! moves (single, jump or pass).
#![no_main]

use gametree_games_ataxx::{Move, Position, Square};
use libfuzzer_sys::fuzz_target;

/// A FEN (else the start), playout choices, candidate moves.
type Input<'a> = (Option<&'a str>, Vec<u16>, Vec<(u8, u8)>);

fuzz_target!(|input: Input<'_>| {
    let (fen, choices, candidates) = input;
    let start = fen
        .and_then(|f| f.parse::<Position>().ok())
        .unwrap_or_else(Position::startpos);
    let candidates: Vec<Move> = candidates
        .iter()
        .take(8)
        .filter_map(|&(a, b)| {
            let (from, to) = (Square::new(a % 49)?, Square::new(b % 49)?);
            Some(if a >= 200 {
                Move::PASS
            } else if a % 2 == 0 {
                Move::single(to)
            } else {
                Move::jump(from, to)?
            })
        })
        .collect();
    gametree_fuzz::games::playout(&start, &choices, 120, &candidates);
});
