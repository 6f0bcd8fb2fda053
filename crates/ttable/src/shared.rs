//! [`SharedTable`]: the lockless table for multi-threaded search.

use core::fmt;
use core::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};

use crate::config::{Config, ProbePolicy};
use crate::entry::{
    Entry, GENERATION_MASK, Hit, data_depth, data_generation, data_move, pack, unpack, with_move,
};
use crate::error::TableError;
use crate::policy::{HASHFULL_SAMPLE, Indexer, SlotView, candidates, choose};
use crate::stats::Stats;
use crate::{BUCKET_BYTES, Table, alloc_buckets, bucket_count};

/// One cache line: 4 slots, each the pair (`key ^ data`, `data`).
#[derive(Default)]
#[repr(C, align(64))]
struct SharedBucket([AtomicU64; 2 * SLOTS]);

const SLOTS: usize = 4;
static_assertions::assert_eq_size!(SharedBucket, [u8; BUCKET_BYTES]);
static_assertions::const_assert_eq!(core::mem::align_of::<SharedBucket>(), BUCKET_BYTES);
static_assertions::assert_impl_all!(SharedTable: Send, Sync);

/// Statistics are counted in per-thread stripes, each on its own cache line,
/// so that threads do not fight over one counter.
const STRIPES: usize = 16;

#[derive(Default)]
#[repr(align(64))]
struct Stripe {
    probes: AtomicU64,
    hits: AtomicU64,
    stores: AtomicU64,
    replacements: AtomicU64,
    rejected: AtomicU64,
}

static NEXT_STRIPE: AtomicUsize = AtomicUsize::new(0);

std::thread_local! {
    static STRIPE: usize = NEXT_STRIPE.fetch_add(1, Relaxed) % STRIPES;
}

#[inline]
fn bump(c: &AtomicU64) {
    c.fetch_add(1, Relaxed);
}

/// A transposition table shared by several threads without locks (the
/// Hyatt–Mann scheme, in safe Rust).
///
/// Each slot is a pair of [`AtomicU64`]: `key ^ data` and `data`. A probe
/// reads both words and accepts the slot only if their XOR gives back the
/// probed key. A write that another thread tore (one word from each of two
/// stores) fails that check and reads as a miss, never as a wrong entry (up
/// to the Hyatt–Mann residual: the XOR of two entries' 48-bit data would have
/// to equal the XOR of their keys). The full 64-bit key is always verified;
/// [`Config::check_bits`] is ignored. Buckets are 64-byte cache lines of 4
/// slots.
///
/// Every method takes `&self`, so threads share a `&SharedTable` (or an
/// `Arc`). [`Table`] is implemented both for `SharedTable` and for
/// `&SharedTable`, so each thread of a parallel search can pass its own
/// `&mut &SharedTable` to a searcher generic over [`Table`].
///
/// Races have benign outcomes only: two threads storing the same key at once
/// may leave it in two slots (both valid entries for the key), and a probe
/// racing a store returns the old entry, the new one, or a miss.
///
/// ```
/// use ttable::{Bound, Entry, SharedTable};
///
/// let tt = SharedTable::new(1 << 20)?;
/// std::thread::scope(|s| {
///     for t in 0..2u64 {
///         let tt = &tt;
///         s.spawn(move || {
///             let e = Entry { best_move: None, value: t as i32, depth: 1, bound: Bound::Exact };
///             tt.store(t, 0, e);
///         });
///     }
/// });
/// assert_eq!(tt.probe(1, 1, 0).map(|h| h.entry.value), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SharedTable {
    buckets: Vec<SharedBucket>,
    index: Indexer,
    config: Config,
    generation: AtomicU8,
    stripes: Box<[Stripe]>,
}

impl fmt::Debug for SharedTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedTable")
            .field("buckets", &self.buckets.len())
            .field("capacity", &self.capacity())
            .field("config", &self.config)
            .field("generation", &self.generation())
            .field("stats", &self.stats())
            .finish()
    }
}

impl SharedTable {
    /// A shared table of at most `bytes` bytes (whole 64-byte buckets) with
    /// the default [`Config`].
    ///
    /// # Errors
    ///
    /// As [`TranspositionTable::new`](crate::TranspositionTable::new).
    pub fn new(bytes: usize) -> Result<SharedTable, TableError> {
        SharedTable::with_config(bytes, Config::new())
    }

    /// A shared table of at most `bytes` bytes built with `config` (whose
    /// `check_bits` is ignored: the full key is always verified).
    ///
    /// # Errors
    ///
    /// As [`TranspositionTable::new`](crate::TranspositionTable::new).
    pub fn with_config(bytes: usize, config: Config) -> Result<SharedTable, TableError> {
        config.validate(bytes, true)?;
        let n = bucket_count(bytes)?;
        let buckets = alloc_buckets(n, bytes, SharedBucket::default)?;
        Ok(SharedTable {
            buckets,
            index: Indexer::new(n),
            config: config.check_bits(64),
            generation: AtomicU8::new(0),
            stripes: (0..STRIPES).map(|_| Stripe::default()).collect(),
        })
    }

    /// The configuration the table was built with (with `check_bits` 64).
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The number of entries the table can hold.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * SLOTS
    }

    /// The memory used by the entries, in bytes (a multiple of 64).
    #[must_use]
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// The current search generation (0..64).
    #[must_use]
    pub fn generation(&self) -> u8 {
        self.generation.load(Relaxed)
    }

    #[inline]
    fn stripe(&self) -> &Stripe {
        &self.stripes[STRIPE.with(|s| *s)]
    }

    /// Looks `key` up for a search of remaining depth `depth` at `ply` plies
    /// below the root; see [`Table::probe`].
    #[inline]
    pub fn probe(&self, key: u64, depth: u8, ply: u32) -> Option<Hit> {
        let stripe = self.stripe();
        bump(&stripe.probes);
        let b = &self.buckets[self.index.bucket(key)].0;
        let (first, count) = candidates(self.config.get_replacement(), key, SLOTS);
        for i in first..first + count {
            let check = b[2 * i].load(Relaxed);
            let d = b[2 * i + 1].load(Relaxed);
            if d != 0 && check ^ d == key {
                bump(&stripe.hits);
                let stored = data_depth(d);
                let usable = match self.config.get_probe_policy() {
                    ProbePolicy::Normal => stored >= depth,
                    ProbePolicy::ExactDepth => stored == depth,
                };
                return Some(Hit {
                    entry: unpack(d, ply, &self.config.get_score()),
                    usable,
                });
            }
        }
        None
    }

    /// Stores `entry` for `key`, found `ply` plies below the root; see
    /// [`Table::store`].
    #[inline]
    pub fn store(&self, key: u64, ply: u32, entry: Entry) {
        let stripe = self.stripe();
        bump(&stripe.stores);
        let generation = self.generation();
        let b = &self.buckets[self.index.bucket(key)].0;
        let mut seen = [(0u64, 0u64); SLOTS];
        for (i, s) in seen.iter_mut().enumerate() {
            *s = (b[2 * i].load(Relaxed), b[2 * i + 1].load(Relaxed));
        }
        let view = |i: usize| {
            let (check, d) = seen[i];
            SlotView {
                empty: d == 0,
                matches: d != 0 && check ^ d == key,
                depth: data_depth(d),
                generation: data_generation(d),
            }
        };
        let chosen = choose(
            self.config.get_replacement(),
            key,
            SLOTS,
            entry.depth,
            generation,
            view,
        );
        let Some(i) = chosen else {
            bump(&stripe.rejected);
            return;
        };
        let (old_check, old) = seen[i];
        let same_key = old != 0 && old_check ^ old == key;
        let mut data = pack(&entry, ply, generation, &self.config.get_score());
        if same_key && entry.best_move.is_none() {
            data = with_move(data, data_move(old));
        } else if old != 0 && !same_key {
            bump(&stripe.replacements);
        }
        b[2 * i].store(key ^ data, Relaxed);
        b[2 * i + 1].store(data, Relaxed);
    }

    /// Starts a new search generation; see [`Table::new_generation`].
    pub fn new_generation(&self) {
        let _ = self
            .generation
            .fetch_update(Relaxed, Relaxed, |g| Some((g + 1) & GENERATION_MASK));
    }

    /// Empties the table and resets the generation. Entries stored by other
    /// threads while this runs may survive.
    pub fn clear(&self) {
        for b in &self.buckets {
            for w in &b.0 {
                w.store(0, Relaxed);
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// The counters summed over all threads; see [`Table::stats`].
    pub fn stats(&self) -> Stats {
        self.stripes.iter().fold(Stats::default(), |acc, s| {
            acc + Stats {
                probes: s.probes.load(Relaxed),
                hits: s.hits.load(Relaxed),
                stores: s.stores.load(Relaxed),
                replacements: s.replacements.load(Relaxed),
                rejected: s.rejected.load(Relaxed),
            }
        })
    }

    /// Sets all counters to zero.
    pub fn reset_stats(&self) {
        for s in self.stripes.iter() {
            for c in [&s.probes, &s.hits, &s.stores, &s.replacements, &s.rejected] {
                c.store(0, Relaxed);
            }
        }
    }

    /// Per mille of sampled slots holding an entry of the current
    /// generation; see [`Table::hashfull`].
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = HASHFULL_SAMPLE.min(self.capacity());
        let mut used = 0;
        for s in 0..sample {
            let d = self.buckets[s / SLOTS].0[2 * (s % SLOTS) + 1].load(Relaxed);
            if d != 0 && data_generation(d) == generation {
                used += 1;
            }
        }
        (used * 1000 / sample) as u32
    }
}

impl Table for SharedTable {
    #[inline]
    fn probe(&self, key: u64, depth: u8, ply: u32) -> Option<Hit> {
        SharedTable::probe(self, key, depth, ply)
    }
    #[inline]
    fn store(&mut self, key: u64, ply: u32, entry: Entry) {
        SharedTable::store(self, key, ply, entry);
    }
    fn new_generation(&mut self) {
        SharedTable::new_generation(self);
    }
    fn clear(&mut self) {
        SharedTable::clear(self);
    }
    fn stats(&self) -> Stats {
        SharedTable::stats(self)
    }
    fn reset_stats(&mut self) {
        SharedTable::reset_stats(self);
    }
    fn hashfull(&self) -> u32 {
        SharedTable::hashfull(self)
    }
}

impl Table for &SharedTable {
    #[inline]
    fn probe(&self, key: u64, depth: u8, ply: u32) -> Option<Hit> {
        SharedTable::probe(self, key, depth, ply)
    }
    #[inline]
    fn store(&mut self, key: u64, ply: u32, entry: Entry) {
        SharedTable::store(self, key, ply, entry);
    }
    fn new_generation(&mut self) {
        SharedTable::new_generation(self);
    }
    fn clear(&mut self) {
        SharedTable::clear(self);
    }
    fn stats(&self) -> Stats {
        SharedTable::stats(self)
    }
    fn reset_stats(&mut self) {
        SharedTable::reset_stats(self);
    }
    fn hashfull(&self) -> u32 {
        SharedTable::hashfull(self)
    }
}
