//! Index spaces (tic-tac-toe boards, pawnless chess endings) against their
//! own inverse.
//!
//! For an index `i`: when `position(i)` is a position, it passes
//! `gametree_game::check::position` and `index_of` gives `i` back. For a position
//! reached by moves inside the space: its index `j` (if it has one) names a
//! position whose index is `j` again (the class is stable).

use std::sync::LazyLock;

use arbitrary::Arbitrary;
use gametree_chess_tables::Endgame;
use gametree_game::{Game, IndexSpace, MoveBuffer, check};
use gametree_games_tictactoe::index::BoardIndex;

/// Pawnless signatures whose spaces the target walks.
pub const SIGNATURES: [&str; 6] = ["KQvK", "KRvK", "KBNvK", "KRvKB", "KQvKR", "KNNvKR"];

static ENDGAMES: LazyLock<Vec<Endgame>> = LazyLock::new(|| {
    SIGNATURES
        .iter()
        .map(|s| Endgame::new(s).expect("a valid signature"))
        .collect()
});

/// A fuzz case.
#[derive(Arbitrary, Clone, Debug)]
pub struct Case {
    /// Which space: 0 plain tic-tac-toe, 1 symmetric tic-tac-toe, then the
    /// [`SIGNATURES`] (modulo their number).
    pub space: u8,
    /// The index (modulo the size).
    pub index: u64,
    /// Moves to play from that position (indices into the move list).
    pub choices: Vec<u16>,
}

/// Runs a case.
///
/// # Panics
///
/// When a space is not its own inverse or a position breaks
/// `gametree_game::check::position`.
pub fn run(case: &Case) {
    let n = 2 + SIGNATURES.len();
    match usize::from(case.space) % n {
        0 => walk(&BoardIndex::plain(), case),
        1 => walk(&BoardIndex::symmetric(), case),
        s => walk(&ENDGAMES[s - 2], case),
    }
}

fn walk<S>(space: &S, case: &Case)
where
    S: IndexSpace,
    S::Game: Eq + core::fmt::Debug,
{
    let i = case.index % space.size();
    let Some(start) = space.position(i) else {
        return;
    };
    assert_eq!(space.index_of(&start), Some(i), "index_of(position({i}))");
    let mut game = start;
    let mut moves = <S::Game as Game>::Moves::default();
    for (ply, &c) in case.choices.iter().take(16).enumerate() {
        if let Err(f) = check::position(&game, ply) {
            panic!("position oracle on index {i}: {f}");
        }
        if let Some(j) = space.index_of(&game) {
            let class = space
                .position(j)
                .unwrap_or_else(|| panic!("index_of gave {j}, which has no position"));
            assert_eq!(
                space.index_of(&class),
                Some(j),
                "class of index {j} unstable"
            );
        } else {
            // Left the space (a capture): nothing more to check here.
            return;
        }
        if game.outcome().is_some() {
            return;
        }
        game.generate(&mut moves);
        if moves.is_empty() {
            return;
        }
        game.make(moves.as_slice()[usize::from(c) % moves.len()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix;

    #[test]
    fn seeded_indices_round_trip() {
        let mut rng = SplitMix(11);
        let mut valid = 0;
        for k in 0..400u32 {
            let case = Case {
                space: (k % 8) as u8,
                index: rng.next_u64(),
                choices: (0..8).map(|_| rng.next_u64() as u16).collect(),
            };
            run(&case);
            valid += usize::from(
                k % 8 == 0 && BoardIndex::plain().position(case.index % 19_683).is_some(),
            );
        }
        assert!(valid > 0, "some tic-tac-toe indices are positions");
    }
}
