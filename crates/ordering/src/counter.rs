//! Counter-moves: the reply that last refuted the previous move.

use alloc::boxed::Box;
use alloc::vec;
use core::fmt;
use game::{MoveIndex, Player};

/// The counter-move table: for each side and each previous move (through
/// [`MoveIndex`]), the quiet reply that last caused a cutoff after it.
///
/// Indexed by the side to move at the node where the reply is played (the
/// side that replies) and by the index of the opponent's move that led to
/// that node. Allocated once by [`CounterMoves::new`], `2 · M::COUNT` slots.
///
/// ```
/// use game::Player;
/// use games_tictactoe::Square;
/// use ordering::CounterMoves;
///
/// let (center, corner) = (Square::new(4).unwrap(), Square::new(0).unwrap());
/// let mut counters = CounterMoves::<Square>::new();
/// counters.store(Player::Second, center, corner); // O's corner refuted X's centre
/// assert_eq!(counters.get(Player::Second, center), Some(corner));
/// assert_eq!(counters.get(Player::First, center), None);
/// ```
#[derive(Clone)]
pub struct CounterMoves<M> {
    table: Box<[Option<M>]>,
}

impl<M: MoveIndex> CounterMoves<M> {
    /// An empty table of `2 · M::COUNT` slots; its only allocation.
    #[must_use]
    pub fn new() -> Self {
        CounterMoves {
            table: vec![None; 2 * M::COUNT].into_boxed_slice(),
        }
    }

    #[inline]
    fn slot(side: Player, previous: M) -> usize {
        let index = previous.index();
        assert!(
            index < M::COUNT,
            "MoveIndex::index returned {index}, not below COUNT = {}",
            M::COUNT
        );
        side.index() * M::COUNT + index
    }

    /// The reply that last refuted `previous` when `side` was to answer it.
    ///
    /// # Panics
    ///
    /// If `previous.index() >= M::COUNT` (a broken [`MoveIndex`]).
    #[inline]
    #[must_use]
    pub fn get(&self, side: Player, previous: M) -> Option<M> {
        self.table[Self::slot(side, previous)]
    }

    /// Records that `side` refuted `previous` with `reply`.
    ///
    /// # Panics
    ///
    /// If `previous.index() >= M::COUNT` (a broken [`MoveIndex`]).
    #[inline]
    pub fn store(&mut self, side: Player, previous: M, reply: M) {
        self.table[Self::slot(side, previous)] = Some(reply);
    }

    /// Forgets every counter-move.
    pub fn clear(&mut self) {
        self.table.fill(None);
    }
}

impl<M: MoveIndex> Default for CounterMoves<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M> fmt::Debug for CounterMoves<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stored = self.table.iter().filter(|m| m.is_some()).count();
        f.debug_struct("CounterMoves")
            .field("slots", &self.table.len())
            .field("stored", &stored)
            .finish()
    }
}
