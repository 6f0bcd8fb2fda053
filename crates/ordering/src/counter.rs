//! Counter-moves: the reply that last refuted the previous move.

use alloc::boxed::Box;
use alloc::vec;
use core::fmt;
use gametree_game::{Game, Player};

/// The counter-move table: for each side and each previous move (through
/// [`Game::move_number`]), the quiet reply that last caused a cutoff after it.
///
/// Indexed by the side to move at the node where the reply is played (the
/// side that replies) and by the index of the opponent's move that led to
/// that node. Allocated once by [`CounterMoves::new`], `2 · G::MOVE_NUMBERS` slots.
///
/// ```
/// use gametree_game::Player;
/// use gametree_games_tictactoe::{Square, TicTacToe};
/// use gametree_ordering::CounterMoves;
///
/// let (center, corner) = (Square::new(4).unwrap(), Square::new(0).unwrap());
/// let mut counters = CounterMoves::<TicTacToe>::new();
/// counters.store(Player::Second, center, corner); // O's corner refuted X's centre
/// assert_eq!(counters.get(Player::Second, center), Some(corner));
/// assert_eq!(counters.get(Player::First, center), None);
/// ```
#[derive(Clone)]
pub struct CounterMoves<G: Game> {
    table: Box<[Option<G::Move>]>,
}

impl<G: Game> CounterMoves<G> {
    /// An empty table of `2 · G::MOVE_NUMBERS` slots; its only allocation.
    #[must_use]
    pub fn new() -> Self {
        CounterMoves {
            table: vec![None; 2 * G::MOVE_NUMBERS.max(1)].into_boxed_slice(),
        }
    }

    #[inline]
    fn slot(side: Player, previous: G::Move) -> usize {
        // A numbering that breaks its bound only shares slots.
        let index = G::move_number(previous) % G::MOVE_NUMBERS.max(1);
        side.index() * G::MOVE_NUMBERS.max(1) + index
    }

    /// The reply that last refuted `previous` when `side` was to answer it.
    #[inline]
    #[must_use]
    pub fn get(&self, side: Player, previous: G::Move) -> Option<G::Move> {
        self.table[Self::slot(side, previous)]
    }

    /// Records that `side` refuted `previous` with `reply`.
    #[inline]
    pub fn store(&mut self, side: Player, previous: G::Move, reply: G::Move) {
        self.table[Self::slot(side, previous)] = Some(reply);
    }

    /// Forgets every counter-move.
    pub fn clear(&mut self) {
        self.table.fill(None);
    }
}

impl<G: Game> Default for CounterMoves<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> fmt::Debug for CounterMoves<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stored = self.table.iter().filter(|m| m.is_some()).count();
        f.debug_struct("CounterMoves")
            .field("slots", &self.table.len())
            .field("stored", &stored)
            .finish()
    }
}
