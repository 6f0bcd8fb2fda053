//! Transposition tables for game-tree search: packed entries in cache-line
//! buckets, replacement and probe policies, generation aging, decisive-score
//! conversion, statistics, and a lockless table shared by threads.
//!
//! The crate knows nothing about games: a position is its 64-bit hash key
//! (e.g. a Zobrist key), a move is a 16-bit code (`u16::MAX` =
//! [`NO_MOVE`]), a value is an integer in the searcher's negamax convention.
//!
//! * [`TranspositionTable`]: single-threaded, sized in bytes (any size),
//!   4 entries of 16 bytes per 64-byte bucket holding the whole key (the
//!   default: a value is never given back for another key), or 8 entries
//!   of 8 bytes with 16 verification bits (twice the entries, rare false
//!   hits; for heuristic play only).
//!   With [`Config::solved`], 8 entries of 8 bytes keeping 46 key bits, the
//!   value and the bound: twice the entries and still exact, for solvers.
//! * [`SharedTable`]: the same behind `&self`, for parallel search: pairs of
//!   `AtomicU64` with the Hyatt–Mann XOR check, in safe Rust, or in the
//!   solved layout one `AtomicU64` per entry.
//! * [`Table`]: the trait both implement, which searchers are generic over.
//! * [`Config`]: [`Replacement`] policy (always, depth-preferred, two-tier,
//!   depth minus age), [`ProbePolicy`] (normal, exact depth), verification
//!   bits, and the decisive-score convention ([`ScoreConfig`]).
//!
//! # Example
//!
//! ```
//! use gametree_ttable::{Bound, Config, Entry, Replacement, Table, TranspositionTable};
//!
//! let config = Config::new().replacement(Replacement::TwoTier);
//! let mut tt = TranspositionTable::with_config(16 << 20, config)?; // 16 MiB
//! let key = 0x9e37_79b9_7f4a_7c15;
//! // A search found "win in 9 plies from the root" at a node on ply 4.
//! let win_in_9 = 32_000 - 9;
//! tt.store(key, 4, Entry { best_move: Some(3), value: win_in_9, depth: 5, bound: Bound::Exact });
//! // The same position reached by a transposition on ply 2: win in 7.
//! let hit = tt.probe(key, 5, 2).expect("found");
//! assert_eq!(hit.entry.value, 32_000 - 7);
//! assert_eq!(hit.entry.best_move, Some(3));
//! assert!(tt.probe(key ^ 1, 0, 0).is_none());
//! tt.new_generation(); // before the next search: old entries age
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Writing a searcher against [`Table`]
//!
//! Take `tt: &mut T` with `T: Table`. A single-threaded search passes
//! `&mut TranspositionTable`; each thread of a parallel search passes
//! `&mut &SharedTable` (the trait is implemented for `&SharedTable`, whose
//! `&mut self` methods only need the shared reference).
//!
//! ```
//! use gametree_ttable::{Bound, Entry, SharedTable, Table, TranspositionTable};
//!
//! /// A stand-in for a search node: probe, cut off, else "search" and store.
//! fn visit<T: Table>(tt: &mut T, key: u64, depth: u8, ply: u32, alpha: i32, beta: i32) -> i32 {
//!     if let Some(v) = tt.probe(key, depth, ply).and_then(|h| h.cutoff(alpha, beta)) {
//!         return v;
//!     }
//!     let value = (key % 100) as i32; // the search result
//!     let bound = if value <= alpha { Bound::Upper } else if value >= beta { Bound::Lower } else { Bound::Exact };
//!     tt.store(key, ply, Entry { best_move: None, value, depth, bound });
//!     value
//! }
//!
//! let mut tt = TranspositionTable::new(1 << 16)?;
//! assert_eq!(visit(&mut tt, 42, 3, 0, -100, 100), 42);
//! let shared = SharedTable::new(1 << 16)?;
//! std::thread::scope(|s| {
//!     for _ in 0..2 {
//!         s.spawn(|| { let mut view = &shared; visit(&mut view, 42, 3, 0, -100, 100) });
//!     }
//! });
//! assert_eq!(shared.stats().stores + shared.stats().hits, 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod config;
mod entry;
mod error;
mod policy;
mod shared;
mod single;
mod solved;
mod stats;
mod storage;

pub use config::{Config, ProbePolicy, Replacement, ScoreConfig};
pub use entry::{Bound, Entry, Hit, NO_MOVE, Slot};
pub use error::{ErrorKind, TableError};
pub use policy::MAX_BUCKETS;
pub use shared::SharedTable;
pub use single::TranspositionTable;
pub use solved::SOLVED_DEPTH;
pub use stats::Stats;
pub use storage::{HUGE_PAGE_BYTES, Memory, Storage};

// The README's example runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The size of a bucket: one cache line.
pub const BUCKET_BYTES: usize = 64;

/// The interface searchers use, implemented by [`TranspositionTable`],
/// [`SharedTable`], `&SharedTable` and `&mut` any table.
///
/// Keys are 64-bit position hashes. Values go in and come out in the
/// searcher's root-relative convention: `store` converts decisive scores to
/// node-relative with the `ply` it is given and `probe` converts them back
/// with its own `ply` (see [`ScoreConfig`]).
pub trait Table {
    /// Looks up `key` for a search of remaining depth `depth` at a node `ply`
    /// plies below the root. Returns the entry if the key is found (full key
    /// or the configured verification bits), with [`Hit::usable`] telling
    /// whether its value may be used at `depth` under the table's
    /// [`ProbePolicy`].
    fn probe(&self, key: u64, depth: u8, ply: u32) -> Option<Hit>;

    /// Stores the result of searching `key` at a node `ply` plies below the
    /// root, subject to the table's [`Replacement`] policy. If the key is
    /// already stored its slot is overwritten, keeping the old best move when
    /// `entry.best_move` is `None`.
    fn store(&mut self, key: u64, ply: u32, entry: Entry);

    /// Starts loading the memory where `key`'s entry would be into the
    /// cache, without waiting for it, so that a [`Table::probe`] or
    /// [`Table::store`] of `key` a little later does not stall on it. A
    /// hint only: it never changes what any call returns. The default does
    /// nothing; the workspace's tables issue a prefetch instruction on x86
    /// and x86-64 (a no-op elsewhere).
    #[inline]
    fn prefetch(&self, key: u64) {
        let _ = key;
    }

    /// [`Table::probe`], also returning where the key is, for a
    /// [`Table::store_slot`] of the same key (typically at the end of the
    /// same search node) that then need not search the bucket again. The
    /// default implementation returns [`Slot::new`]`(key)`.
    #[inline]
    fn probe_slot(&self, key: u64, depth: u8, ply: u32) -> (Option<Hit>, Slot) {
        (self.probe(key, depth, ply), Slot::new(key))
    }

    /// [`Table::store`] of `slot.key()`: overwrites the slot in place if it
    /// still holds the key, else stores exactly as [`Table::store`] does.
    /// The result is always that of `store(slot.key(), ply, entry)`. The
    /// default implementation calls [`Table::store`].
    #[inline]
    fn store_slot(&mut self, slot: Slot, ply: u32, entry: Entry) {
        self.store(slot.key(), ply, entry);
    }

    /// Starts a new search: entries stored before become one generation
    /// older, so replacement prefers to overwrite them (generations cycle
    /// modulo 64). Call once per search (not once per thread).
    fn new_generation(&mut self);

    /// Empties the table and resets the generation (statistics are kept).
    fn clear(&mut self);

    /// The counters since the table was built or [`Table::reset_stats`].
    fn stats(&self) -> Stats;

    /// Sets all counters to zero.
    fn reset_stats(&mut self);

    /// Occupancy per mille, UCI's "hashfull": the share of the first 1000
    /// slots (or all, if fewer) holding an entry of the current generation.
    fn hashfull(&self) -> u32;
}

/// A table borrowed mutably is a table (what a single-threaded searcher
/// holds): every method forwards.
impl<T: Table + ?Sized> Table for &mut T {
    #[inline]
    fn probe(&self, key: u64, depth: u8, ply: u32) -> Option<Hit> {
        (**self).probe(key, depth, ply)
    }
    #[inline]
    fn store(&mut self, key: u64, ply: u32, entry: Entry) {
        (**self).store(key, ply, entry);
    }
    #[inline]
    fn prefetch(&self, key: u64) {
        (**self).prefetch(key);
    }
    #[inline]
    fn probe_slot(&self, key: u64, depth: u8, ply: u32) -> (Option<Hit>, Slot) {
        (**self).probe_slot(key, depth, ply)
    }
    #[inline]
    fn store_slot(&mut self, slot: Slot, ply: u32, entry: Entry) {
        (**self).store_slot(slot, ply, entry);
    }
    fn new_generation(&mut self) {
        (**self).new_generation();
    }
    fn clear(&mut self) {
        (**self).clear();
    }
    fn stats(&self) -> Stats {
        (**self).stats()
    }
    fn reset_stats(&mut self) {
        (**self).reset_stats();
    }
    fn hashfull(&self) -> u32 {
        (**self).hashfull()
    }
}

/// Prefetches the cache line holding `line` (see [`Table::prefetch`]).
#[inline(always)]
fn prefetch_line<T>(line: &T) {
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse"
    ))]
    safe_arch::prefetch_t0(line);
    #[cfg(not(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse"
    )))]
    let _ = line;
}

/// The number of buckets for `bytes`, or the size error.
fn bucket_count(bytes: usize) -> Result<usize, TableError> {
    let n = bytes / BUCKET_BYTES;
    if n == 0 {
        Err(TableError::new(ErrorKind::TooSmall, bytes))
    } else if n as u64 > MAX_BUCKETS {
        Err(TableError::new(ErrorKind::TooLarge, bytes))
    } else {
        Ok(n)
    }
}

/// Allocates `n` buckets without aborting on failure.
fn alloc_buckets<B>(n: usize, bytes: usize, make: impl FnMut() -> B) -> Result<Vec<B>, TableError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| TableError::new(ErrorKind::AllocationFailed, bytes))?;
    v.resize_with(n, make);
    Ok(v)
}
