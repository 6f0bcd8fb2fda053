//! Generic perft: counting the leaves of the legal-move tree.

use alloc::vec::Vec;

use crate::{Game, MoveBuffer};

/// The number of leaf nodes of the legal-move tree `depth` plies deep
/// (`perft(g, 0) == 1`). Terminal positions count as leaves only at
/// `depth` 0: a position that generates no moves contributes nothing deeper.
///
/// This is the generic reference, built on [`Game::generate`],
/// [`Game::make`] and [`Game::unmake`] only, so it tests exactly what
/// searches use. It counts the last ply in bulk (the length of the move
/// list). Games may provide faster specialised counters; tests compare the
/// two.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &m in moves.as_slice() {
        let undo = game.make(m);
        total += perft(game, depth - 1);
        game.unmake(m, undo);
    }
    total
}

/// Perft split by root move ("divide"), for finding where two move
/// generators disagree. `depth` must be at least 1 to have any rows.
pub fn perft_divide<G: Game>(game: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut rows = Vec::new();
    if depth == 0 {
        return rows;
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    for &m in moves.as_slice() {
        let undo = game.make(m);
        rows.push((m, perft(game, depth - 1)));
        game.unmake(m, undo);
    }
    rows
}
