//! Killer moves: per ply, the last few quiet moves that caused a cutoff.

use alloc::boxed::Box;
use arrayvec::ArrayVec;

/// The killer-move table: for every ply below a fixed maximum, up to `K`
/// quiet moves that recently caused a beta cutoff at that ply, the most
/// recent first.
///
/// A killer is only a suggestion: a sibling position may not allow it, so
/// the [`MovePicker`](crate::MovePicker) yields a killer only when it is in
/// the legal move list and has not been yielded already.
///
/// * A new killer replaces the oldest one when the ply's `K` slots are full.
/// * A ply never holds the same move twice: storing a move that is already
///   a killer there makes it the most recent one.
/// * The table is allocated once by [`Killers::new`]; nothing allocates
///   afterwards. Plies at or beyond [`max_ply`](Killers::max_ply) simply
///   have no killers (storing there does nothing).
///
/// The searcher calls [`clear`](Killers::clear)`(ply + 1)` when it enters a
/// node at `ply`, so that this node's children share their killers with each
/// other but not with the children of unrelated nodes.
///
/// ```
/// use gametree_ordering::Killers;
///
/// let mut killers: Killers<u16> = Killers::new(64);
/// killers.store(3, 10);
/// killers.store(3, 11);
/// killers.store(3, 10); // already a killer: becomes the most recent
/// assert_eq!(killers.get(3), &[10, 11]);
/// killers.store(3, 12); // replaces the oldest, 11
/// assert_eq!(killers.get(3), &[12, 10]);
/// killers.clear(3);
/// assert!(killers.get(3).is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct Killers<M, const K: usize = 2> {
    plies: Box<[ArrayVec<M, K>]>,
}

impl<M: Copy + Eq, const K: usize> Killers<M, K> {
    /// An empty table for plies `0..max_ply`, `K` killers each; the only
    /// allocation the table makes.
    #[must_use]
    pub fn new(max_ply: usize) -> Self {
        Killers {
            plies: (0..max_ply).map(|_| ArrayVec::new()).collect(),
        }
    }

    /// One more than the deepest ply that can hold killers.
    #[inline]
    #[must_use]
    pub fn max_ply(&self) -> usize {
        self.plies.len()
    }

    /// The killers of `ply`, the most recent first; empty for a ply at or
    /// beyond [`max_ply`](Killers::max_ply).
    #[inline]
    #[must_use]
    pub fn get(&self, ply: usize) -> &[M] {
        self.plies.get(ply).map_or(&[], |slots| slots.as_slice())
    }

    /// Is `m` a killer at `ply`?
    #[inline]
    #[must_use]
    pub fn contains(&self, ply: usize, m: M) -> bool {
        self.get(ply).contains(&m)
    }

    /// Records that quiet move `m` caused a cutoff at `ply`: it becomes the
    /// most recent killer there, the oldest one is dropped if the slots are
    /// full, and a move already present is moved to the front rather than
    /// stored twice. Does nothing at a ply beyond the table or when `K` is 0.
    #[inline]
    pub fn store(&mut self, ply: usize, m: M) {
        let Some(slots) = self.plies.get_mut(ply) else {
            return;
        };
        if K == 0 {
            return;
        }
        if let Some(at) = slots.iter().position(|&k| k == m) {
            slots[..=at].rotate_right(1);
        } else {
            if slots.is_full() {
                slots.pop();
            }
            slots.insert(0, m);
        }
    }

    /// Forgets the killers of `ply` (nothing happens beyond the table).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        if let Some(slots) = self.plies.get_mut(ply) {
            slots.clear();
        }
    }

    /// Forgets every killer, e.g. before a new search.
    pub fn clear_all(&mut self) {
        self.plies.iter_mut().for_each(ArrayVec::clear);
    }
}
