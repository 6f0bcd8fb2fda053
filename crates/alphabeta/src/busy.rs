//! Which positions the threads of a parallel solve are searching right
//! now, so that a thread reaching a move another thread is already
//! searching can put it off until its other moves are done (the idea of
//! ABDADA, Weill 1996, kept in a small table of its own). Threads that
//! would all follow the same move order then spread over the siblings of
//! the tree's nodes instead of searching the same subtree side by side.
//! As in ABDADA, a node's first move is never put off: every thread
//! searches it, and the threads part below it, at the nodes whose moves
//! must all be searched. Putting off first moves too sends a thread into a
//! sibling that the first move usually makes useless, or, under a
//! principal-variation node, into a sibling searched with a window the
//! first move has not narrowed yet. Measured on Connect Four with 2
//! threads (wall time), putting first moves off too made the solve after
//! 4-4 nearly twice as slow, slower than one thread; it sped up the first
//! lines of Test_L1_R3, solved by null-window tests, by a third; and
//! putting them off at null-window nodes only made the empty board's solve
//! more than twice as slow, again slower than one thread.
//!
//! Only the order changes: a put-off move is still searched, after its
//! siblings, unless one of them already refutes the node. So values are
//! those of the plain search, whatever the timing.

use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots of the busy table: a few thousand positions are in progress at
/// the top of the tree at most.
const SLOTS: usize = 1 << 14;

/// Moves are put off only this close to the root, where a subtree is big
/// enough to be worth another thread and the table is touched rarely
/// (Connect Four, Test_L1_R3's first 6 lines on 2 threads: 12 plies took
/// twice the time of 20; 24 and 30 were no better than 20).
pub(crate) const DEFER_PLY: u32 = 20;

/// The most moves one node puts off; later busy moves are searched at once.
pub(crate) const DEFER_MAX: usize = 32;

/// Keys of positions being searched, one per slot (a later key evicts an
/// earlier one of the same slot: only the order of moves is at stake).
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    pub(crate) fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 20) as usize % SLOTS]
    }

    /// Is another thread searching the position of `key`?
    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Relaxed) == key
    }

    /// This thread starts searching `key`.
    #[inline]
    pub(crate) fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// This thread is done with `key`.
    #[inline]
    pub(crate) fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}
