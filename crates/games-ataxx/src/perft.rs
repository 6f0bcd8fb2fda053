//! Fast, specialised perft with bulk counting, and a divide helper.

use crate::bitboard::{JUMPS, SINGLES, dilate};
use crate::position::Position;
use crate::square::Move;

/// The number of legal moves of the side owning `us` (a pass counts as one;
/// none when the game is over).
#[inline]
pub(crate) fn count_moves(us: u64, them: u64, empty: u64, halfmoves: u32) -> u64 {
    if us == 0 || them == 0 || halfmoves >= 100 {
        return 0;
    }
    let n = count_unchecked(us, empty);
    if n > 0 {
        n
    } else {
        // No move for us: a pass, unless no stone at all can reach an empty
        // square (the third game-over condition; ours cannot).
        u64::from(reaches(them, empty))
    }
}

/// Can a stone of `stones` reach an empty square (distance at most 2)?
#[inline]
fn reaches(stones: u64, empty: u64) -> bool {
    dilate(dilate(stones)) & empty != 0
}

/// The number of single moves and jumps (no pass, no game-over test).
#[inline]
pub(crate) fn count_unchecked(us: u64, empty: u64) -> u64 {
    let mut n = u64::from((dilate(us) & empty).count_ones());
    let mut from_set = us;
    while from_set != 0 {
        let from = from_set.trailing_zeros() as usize;
        from_set &= from_set - 1;
        n += u64::from((JUMPS[from] & empty).count_ones());
    }
    n
}

fn perft_rec(us: u64, them: u64, empty: u64, halfmoves: u32, depth: u32) -> u64 {
    if depth == 1 {
        return count_moves(us, them, empty, halfmoves);
    }
    if us == 0 || them == 0 || halfmoves >= 100 {
        return 0;
    }
    let mut total = 0;
    let mut singles = dilate(us) & empty;
    let mut moved = singles != 0;
    while singles != 0 {
        let to = singles.trailing_zeros() as usize;
        singles &= singles - 1;
        let bit = 1u64 << to;
        let flips = SINGLES[to] & them;
        total += perft_rec(them ^ flips, us | bit | flips, empty ^ bit, 0, depth - 1);
    }
    let mut from_set = us;
    while from_set != 0 {
        let from = from_set.trailing_zeros() as usize;
        from_set &= from_set - 1;
        let from_bit = 1u64 << from;
        let mut targets = JUMPS[from] & empty;
        moved |= targets != 0;
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let bit = 1u64 << to;
            let flips = SINGLES[to] & them;
            total += perft_rec(
                them ^ flips,
                (us ^ from_bit) | bit | flips,
                empty ^ bit ^ from_bit,
                halfmoves + 1,
                depth - 1,
            );
        }
    }
    if !moved && reaches(them, empty) {
        total = perft_rec(them, us, empty, halfmoves + 1, depth - 1);
    }
    total
}

/// The number of leaves of the legal-move tree `depth` plies deep, by a
/// specialised copy-make walk over bitboards (no hash, no move list) that
/// counts the last ply in bulk. Equal to the generic [`gametree_game::perft`] (tests
/// compare them) and much faster.
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let side = position.side.index();
    perft_rec(
        position.stones[side],
        position.stones[1 - side],
        position.empty(),
        position.halfmoves,
        depth,
    )
}

/// Perft split by root move, in generation order: for finding where a move
/// generator disagrees with another. Empty for `depth == 0`.
#[must_use]
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    use gametree_game::Game;
    let mut rows = Vec::new();
    if depth == 0 {
        return rows;
    }
    let mut moves = crate::Moves::default();
    position.generate(&mut moves);
    let mut p = position.clone();
    for &m in moves.as_slice() {
        let undo = p.make(m);
        rows.push((m, perft(&p, depth - 1)));
        p.unmake(m, undo);
    }
    rows
}
