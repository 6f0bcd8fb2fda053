//! Numbering positions for retrograde analysis ([`IndexSpace`],
//! [`Predecessors`]).

use crate::Game;

/// A set of positions (all tic-tac-toe positions, the chess positions of one
/// material signature, ...) numbered `0..size()`, so that a retrograde
/// generator can keep one value per index.
///
/// Symmetry reduction is the space's business: [`index_of`](Self::index_of)
/// maps every position of a symmetry class to the same index, and
/// [`position`](Self::position) returns that class's canonical
/// representative. Two positions with the same index must have the same
/// game-theoretic value.
pub trait IndexSpace {
    /// The game whose positions are numbered.
    type Game: Game;

    /// The number of indices. Every index below it is either a position or
    /// invalid (see [`position`](Self::position)).
    fn size(&self) -> u64;

    /// The canonical position with this index, or `None` when the index
    /// stands for no legal position (overlapping pieces, unreachable, side not
    /// to move in check, ...) or is out of range.
    fn position(&self, index: u64) -> Option<Self::Game>;

    /// The index of `position`'s class, or `None` when the position is not
    /// in this space (for example, a capture changed the material).
    fn index_of(&self, position: &Self::Game) -> Option<u64>;
}

/// Un-move generation for Thompson's backward method.
pub trait Predecessors: IndexSpace {
    /// Calls `found` with the index of every position of this space from
    /// which one legal move leads to `position`. Moves that enter the space
    /// from another one (captures, promotions) are not undone. An index may
    /// be reported more than once.
    fn predecessors(&self, position: &Self::Game, found: &mut dyn FnMut(u64));
}
