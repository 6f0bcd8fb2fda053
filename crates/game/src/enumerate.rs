//! Numbering positions for retrograde analysis ([`IndexSpace`],
//! [`Predecessors`], and the optional index-level moves [`IndexMoves`]).

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

/// Moves computed on indices: the successors and the predecessors of the
/// position with a given index, reported as indices, for a retrograde
/// generator's fast path.
///
/// It says nothing [`IndexSpace`] and [`Predecessors`] do not already say
/// (a generator can always decode an index, generate the moves, make each
/// one and number the result), but lets a space compute neighbouring
/// indices directly from the index: when one piece of a chess ending moves,
/// only its coordinate changes, so the successor's index is the parent's
/// plus `(to − from) × stride` unless a symmetry must be re-applied. Both
/// methods must report exactly what the position-level methods imply.
pub trait IndexMoves: IndexSpace {
    /// The position with this index, described by its moves.
    ///
    /// Returns `None` when [`position`](IndexSpace::position) returns `None`.
    /// Otherwise returns `Some` of the position's
    /// [`Game::outcome`](crate::Game::outcome); when that is `None` (the
    /// game goes on), first calls `inside` once with each **distinct** index
    /// of a successor in this space, and `exit` with every successor outside
    /// it (one call per move; captures, promotions, ...). Nothing is
    /// reported for a terminal position.
    fn successor_indices(
        &self,
        index: u64,
        inside: impl FnMut(u64),
        exit: impl FnMut(&Self::Game),
    ) -> Option<Option<crate::Outcome>>;

    /// What [`successor_indices`](Self::successor_indices) reports, with the
    /// successors in the space counted instead of listed: `None` for an
    /// invalid index, else the outcome and the number of distinct successor
    /// indices in the space (0 for a terminal position); `exit` is called as
    /// there. A generator that only counts moves calls this; a space may
    /// count without numbering every successor.
    fn successor_count(
        &self,
        index: u64,
        exit: impl FnMut(&Self::Game),
    ) -> Option<(Option<crate::Outcome>, usize)> {
        let mut count = 0;
        let outcome = self.successor_indices(index, |_| count += 1, exit)?;
        Some((outcome, count))
    }

    /// [`successor_count`](Self::successor_count) for every index of
    /// `indices`, in increasing order: for each index `i`, first
    /// `report(i, Counted::Exit(child))` once per successor outside the
    /// space (as `successor_count` calls `exit`), then one
    /// `report(i, Counted::Done(result))` with what `successor_count(i, ..)`
    /// returns. A generator's first pass calls this on long runs of
    /// indices, so that a space can share work between neighbours (a chess
    /// ending decodes the pieces common to 64 consecutive indices once).
    /// The default calls `successor_count` on each index.
    ///
    /// ```
    /// use gametree_game::{Counted, IndexMoves};
    ///
    /// /// The number of valid indices in `0..end` and their exits.
    /// fn census<S: IndexMoves>(space: &S, end: u64) -> (u64, u64) {
    ///     let (mut valid, mut exits) = (0, 0);
    ///     space.successor_counts(0..end, |_, report| match report {
    ///         Counted::Exit(_) => exits += 1,
    ///         Counted::Done(Some(_)) => valid += 1,
    ///         Counted::Done(None) => {}
    ///     });
    ///     (valid, exits)
    /// }
    /// ```
    fn successor_counts(
        &self,
        indices: core::ops::Range<u64>,
        mut report: impl FnMut(u64, Counted<'_, Self::Game>),
    ) {
        for i in indices {
            let counted = self.successor_count(i, |child| report(i, Counted::Exit(child)));
            report(i, Counted::Done(counted));
        }
    }

    /// Calls `found` once with each **distinct** index of a position of this
    /// space from which one legal move leads to the position with index
    /// `index` (moves entering from another space are not undone): the
    /// distinct indices [`Predecessors::predecessors`] would report for
    /// [`position(index)`](IndexSpace::position). `index` must be valid
    /// (generators ask only about decided positions); what is reported for
    /// an invalid index is unspecified, but must not panic.
    fn predecessor_indices(&self, index: u64, found: impl FnMut(u64));

    /// [`predecessor_indices`](Self::predecessor_indices) for up to 64
    /// indices at once: the indices `first + k` for each bit `k` set in
    /// `members` (`first` is a multiple of 64; every member must be valid,
    /// and below [`size`](IndexSpace::size)). Calls `found(index,
    /// predecessor)` once for each member `index` and each distinct
    /// predecessor `predecessor` that `predecessor_indices(index, ..)`
    /// reports, in any order: the pairs are exactly those of calling
    /// `predecessor_indices` on each member in turn. The same predecessor
    /// may so be reported once for each of several members.
    ///
    /// The provided method does just that. A space whose neighbouring
    /// indices share most of their position (in a chess ending, the 64
    /// squares of the last piece) may override it to decode what the
    /// members share once, and to find the members from which an un-move
    /// is legal as a bit set rather than one member at a time.
    fn predecessor_block(&self, first: u64, members: u64, mut found: impl FnMut(u64, u64)) {
        let mut rest = members;
        while rest != 0 {
            let index = first + u64::from(rest.trailing_zeros());
            rest &= rest - 1;
            self.predecessor_indices(index, |p| found(index, p));
        }
    }

    /// [`predecessor_block`](Self::predecessor_block) when only some
    /// predecessors matter: `wanted(block)` is the bit set of the 64
    /// indices from `block` (a multiple of 64) that the caller wants
    /// (bit `k` for `block + k`), and the method may leave out any pair
    /// whose predecessor is not wanted. It may also report such pairs:
    /// the caller filters what it is given.
    ///
    /// A retrograde level whose frontier is lost wants only the positions
    /// that can still be won; most predecessors are decided already, and
    /// a space that knows which block a whole un-move lands in can skip
    /// it with one look at `wanted`. The provided method reports every
    /// pair.
    ///
    /// ```
    /// use gametree_game::IndexMoves;
    ///
    /// /// The predecessors of the members of one block that are below 100.
    /// fn low<S: IndexMoves>(space: &S, first: u64, members: u64) -> Vec<u64> {
    ///     let wanted = |block: u64| match 100u64.saturating_sub(block) {
    ///         0 => 0,
    ///         n if n >= 64 => u64::MAX,
    ///         n => (1u64 << n) - 1,
    ///     };
    ///     let mut out = Vec::new();
    ///     space.predecessor_block_filtered(first, members, wanted, |_, p| {
    ///         if p < 100 {
    ///             out.push(p);
    ///         }
    ///     });
    ///     out
    /// }
    /// ```
    fn predecessor_block_filtered(
        &self,
        first: u64,
        members: u64,
        wanted: impl Fn(u64) -> u64,
        found: impl FnMut(u64, u64),
    ) {
        let _ = wanted;
        self.predecessor_block(first, members, found);
    }
}

/// What [`IndexMoves::successor_counts`] reports about one index.
#[derive(Debug)]
pub enum Counted<'a, G> {
    /// A successor outside the space, one report per such move, before the
    /// index's [`Done`](Counted::Done).
    Exit(&'a G),
    /// What [`IndexMoves::successor_count`] returns for the index: `None`
    /// for an invalid index, else the outcome and the number of distinct
    /// successor indices in the space.
    Done(Option<(Option<crate::Outcome>, usize)>),
}
