//! [`SharedTable`]: the lockless table for multi-threaded search.

use core::fmt;
use core::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};

use crate::config::Replacement;
use crate::config::{Config, ProbePolicy};
use crate::entry::Slot;
use crate::entry::{
    Entry, GENERATION_MASK, Hit, data_depth, data_generation, data_move, pack, unpack, with_move,
};
use crate::error::TableError;
use crate::policy::{
    HASHFULL_SAMPLE, Indexer, SlotView, candidates, policy_code, policy_of, selector, victim,
};
use crate::solved::{self, SolvedKey};
use crate::stats::Stats;
use crate::{BUCKET_BYTES, Table, alloc_buckets, bucket_count};

/// One cache line: 4 slots, each the pair (`key ^ data`, `data`), or in
/// the solved layout 8 slots of one word each.
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
    /// Probes are `hits + misses`: one counter written per probe.
    misses: AtomicU64,
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

/// Calls `$f::<POLICY>` for the table's replacement policy, so that each
/// policy gets code with constant slot ranges.
macro_rules! dispatch {
    ($t:expr, $f:ident($($arg:expr),*)) => {{
        const A: u8 = policy_code(Replacement::Always);
        const D: u8 = policy_code(Replacement::DepthPreferred);
        const T: u8 = policy_code(Replacement::TwoTier);
        const G: u8 = policy_code(Replacement::DepthMinusAge);
        match policy_code($t.config.get_replacement()) {
            A => $t.$f::<A>($($arg),*),
            D => $t.$f::<D>($($arg),*),
            T => $t.$f::<T>($($arg),*),
            _ => $t.$f::<G>($($arg),*),
        }
    }};
}

/// The default policy, whose path is inlined.
const FAST: u8 = policy_code(Replacement::DepthMinusAge);

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
/// With [`Config::solved`] the table uses the solved layout (8 one-word
/// slots per bucket, twice the entries, exact by construction): a slot is
/// one atomic word, so there are no torn writes to detect.
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
/// use gametree_ttable::{Bound, Entry, SharedTable};
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
    /// Solved layout: how keys become check bits.
    solved: Option<SolvedKey>,
    /// Has anything been stored since the table was built or cleared?
    dirty: AtomicBool,
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
            solved: SolvedKey::for_config(&config, n, bytes)?,
            dirty: AtomicBool::new(false),
            stripes: (0..STRIPES).map(|_| Stripe::default()).collect(),
        })
    }

    /// Rebuilds the table with `config` over the memory it already has, as
    /// [`TranspositionTable::reconfigure`](crate::TranspositionTable::reconfigure):
    /// every entry is removed (if any was stored) and the generation reset;
    /// statistics are kept. It takes `&mut self`: no thread may be using
    /// the table.
    ///
    /// # Errors
    ///
    /// As [`SharedTable::with_config`] for a bad configuration (the table
    /// is then unchanged).
    ///
    /// ```
    /// use gametree_ttable::{Config, SharedTable};
    ///
    /// let mut tt = SharedTable::new(16 << 20)?;
    /// assert_eq!(tt.capacity(), 1 << 20);
    /// tt.reconfigure(Config::new().solved(true))?;
    /// assert_eq!(tt.capacity(), 2 << 20);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reconfigure(&mut self, config: Config) -> Result<(), TableError> {
        let bytes = self.size_bytes();
        config.validate(bytes, true)?;
        self.solved = SolvedKey::for_config(&config, self.buckets.len(), bytes)?;
        self.config = config.check_bits(64);
        if *self.dirty.get_mut() {
            self.clear();
        }
        self.generation.store(0, Relaxed);
        Ok(())
    }

    /// The configuration the table was built with (with `check_bits` 64).
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The number of entries the table can hold.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * self.slots()
    }

    fn slots(&self) -> usize {
        if self.solved.is_some() {
            2 * SLOTS
        } else {
            SLOTS
        }
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
        self.probe_slot(key, depth, ply).0
    }

    /// [`SharedTable::probe`], also returning where the key is; see
    /// [`Table::probe_slot`].
    #[inline]
    pub fn probe_slot(&self, key: u64, depth: u8, ply: u32) -> (Option<Hit>, Slot) {
        if let Some(sk) = self.solved {
            self.probe_solved(sk, key, ply)
        } else if self.config.get_replacement() == Replacement::DepthMinusAge {
            self.probe_impl::<FAST>(key, depth, ply)
        } else {
            self.probe_any(key, depth, ply)
        }
    }

    /// `probe_impl` for the other policies, out of line: the default
    /// policy's path is the one inlined into searchers.
    #[cold]
    #[inline(never)]
    fn probe_any(&self, key: u64, depth: u8, ply: u32) -> (Option<Hit>, Slot) {
        dispatch!(self, probe_impl(key, depth, ply))
    }

    #[cold]
    #[inline(never)]
    fn store_any(&self, slot: Slot, ply: u32, entry: Entry) {
        dispatch!(self, store_impl(slot, ply, entry));
    }

    /// Stores `entry` for `key`, found `ply` plies below the root; see
    /// [`Table::store`].
    #[inline]
    pub fn store(&self, key: u64, ply: u32, entry: Entry) {
        self.store_slot(Slot::new(key), ply, entry);
    }

    /// Stores `entry` for `slot.key()`, in the slot if it still holds the
    /// key; see [`Table::store_slot`].
    #[inline]
    pub fn store_slot(&self, slot: Slot, ply: u32, entry: Entry) {
        if !self.dirty.load(Relaxed) {
            self.dirty.store(true, Relaxed);
        }
        if let Some(sk) = self.solved {
            self.store_solved(sk, slot, ply, entry);
        } else if self.config.get_replacement() == Replacement::DepthMinusAge {
            self.store_impl::<FAST>(slot, ply, entry);
        } else {
            self.store_any(slot, ply, entry);
        }
    }

    /// The data word of slot `i` if the slot holds `key` (its two words
    /// XOR to the key), 0 if it is empty, `None` if it holds another key
    /// or a torn write.
    #[inline(always)]
    fn read(b: &[AtomicU64; 2 * SLOTS], i: usize, key: u64) -> Result<u64, bool> {
        let d = b[2 * i + 1].load(Relaxed);
        if d == 0 {
            Err(true)
        } else if b[2 * i].load(Relaxed) ^ d == key {
            Ok(d)
        } else {
            Err(false)
        }
    }

    /// Scans the candidate slots for `key`: `Ok((slot, data))`, else
    /// `Err(Some(e))` with the first empty candidate or `Err(None)`. Under
    /// `TwoTier` (two slots in order) and `DepthMinusAge` (the whole bucket
    /// from the key's home slot, wrapping around) stores fill the search path
    /// in order and slots are never emptied, so the scan stops at the first
    /// empty slot (a `clear` racing with stores
    /// can break the order for a moment: the price is a miss, or a key left
    /// in two slots, never a wrong entry).
    #[inline(always)]
    fn scan<const P: u8>(
        b: &[AtomicU64; 2 * SLOTS],
        key: u64,
        first: usize,
        count: usize,
    ) -> Result<(usize, u64), Option<usize>> {
        if P == policy_code(Replacement::DepthMinusAge) {
            // Linear probing inside the bucket, from the key's home slot.
            let home = selector(key);
            for j in 0..SLOTS {
                let i = (home + j) % SLOTS;
                match Self::read(b, i, key) {
                    Ok(d) => return Ok((i, d)),
                    Err(true) => return Err(Some(i)),
                    Err(false) => {}
                }
            }
            return Err(None);
        }
        let prefix = P == policy_code(Replacement::TwoTier);
        let mut empty = None;
        for i in first..first + count {
            match Self::read(b, i, key) {
                Ok(d) => return Ok((i, d)),
                Err(true) if prefix => return Err(Some(i)),
                Err(true) => empty = empty.or(Some(i)),
                Err(false) => {}
            }
        }
        Err(empty)
    }

    /// `probe_slot` in the solved layout: linear probing from the key's
    /// home slot, stopping at the first empty slot (as in
    /// [`TranspositionTable`](crate::TranspositionTable); a `clear` racing
    /// with stores can break the order for a moment, at the price of a miss
    /// or a key in two slots).
    #[inline(always)]
    fn probe_solved(&self, sk: SolvedKey, key: u64, ply: u32) -> (Option<Hit>, Slot) {
        let stripe = self.stripe();
        let check = sk.check(key);
        let b = &self.buckets[self.index.bucket(key)].0;
        let home = selector(key);
        for j in 0..2 * SLOTS {
            let i = (home + j) % (2 * SLOTS);
            let w = b[i].load(Relaxed);
            if w == 0 {
                break;
            }
            if sk.holds(w, check) {
                bump(&stripe.hits);
                let hit = Hit {
                    entry: sk.unpack(w, ply, &self.config.get_score()),
                    usable: true,
                };
                return (Some(hit), Slot::at(key, i));
            }
        }
        bump(&stripe.misses);
        (None, Slot::new(key))
    }

    /// `store_slot` in the solved layout: the key's slot, else the first
    /// empty slot from its home slot, else its home slot or, if that holds
    /// an exact value, the next that does not (`solved::victim`). Entries not
    /// searched to the end are dropped. Two threads storing one new key at
    /// once may leave it in two slots, both valid.
    #[inline(always)]
    fn store_solved(&self, sk: SolvedKey, slot: Slot, ply: u32, entry: Entry) {
        let stripe = self.stripe();
        bump(&stripe.stores);
        if entry.depth != solved::SOLVED_DEPTH {
            bump(&stripe.rejected);
            return;
        }
        let key = slot.key();
        let check = sk.check(key);
        let word = sk.pack(check, &entry, ply, &self.config.get_score());
        let b = &self.buckets[self.index.bucket(key)].0;
        let hint = slot.index();
        if hint < 2 * SLOTS {
            let old = b[hint].load(Relaxed);
            if old != 0 && sk.holds(old, check) {
                b[hint].store(sk.keep_move(word, old), Relaxed);
                return;
            }
        }
        let home = selector(key);
        for j in 0..2 * SLOTS {
            let i = (home + j) % (2 * SLOTS);
            let old = b[i].load(Relaxed);
            if old == 0 {
                b[i].store(word, Relaxed);
                return;
            }
            if sk.holds(old, check) {
                b[i].store(sk.keep_move(word, old), Relaxed);
                return;
            }
        }
        bump(&stripe.replacements);
        b[solved::victim(home, 2 * SLOTS, |i| b[i].load(Relaxed))].store(word, Relaxed);
    }

    /// See [`Table::prefetch`].
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Some(b) = self.buckets.get(self.index.bucket(key)) {
            crate::prefetch_line(b);
        }
    }

    #[inline(always)]
    fn probe_impl<const P: u8>(&self, key: u64, depth: u8, ply: u32) -> (Option<Hit>, Slot) {
        let stripe = self.stripe();
        let b = &self.buckets[self.index.bucket(key)].0;
        let (first, count) = candidates(policy_of(P), key, SLOTS);
        let Ok((i, d)) = Self::scan::<P>(b, key, first, count) else {
            bump(&stripe.misses);
            return (None, Slot::new(key));
        };
        bump(&stripe.hits);
        let stored = data_depth(d);
        let usable = match self.config.get_probe_policy() {
            ProbePolicy::Normal => stored >= depth,
            ProbePolicy::ExactDepth => stored == depth,
        };
        let hit = Hit {
            entry: unpack(d, ply, &self.config.get_score()),
            usable,
        };
        (Some(hit), Slot::at(key, i))
    }

    #[inline(always)]
    fn store_impl<const P: u8>(&self, slot: Slot, ply: u32, entry: Entry) {
        let stripe = self.stripe();
        bump(&stripe.stores);
        let key = slot.key();
        let generation = self.generation();
        let b = &self.buckets[self.index.bucket(key)].0;
        let (first, count) = candidates(policy_of(P), key, SLOTS);
        let hint = slot.index();
        let hinted = if hint.wrapping_sub(first) < count {
            Self::read(b, hint, key).ok().map(|d| (hint, d))
        } else {
            None
        };
        let scanned = match hinted {
            Some(found) => Ok(found),
            None => Self::scan::<P>(b, key, first, count),
        };
        let (i, same) = match scanned {
            Ok((i, old)) => (i, Some(old)),
            Err(Some(e)) if P == policy_code(Replacement::DepthMinusAge) => (e, None),
            Err(_) => {
                let view = |i: usize| {
                    let d = b[2 * i + 1].load(Relaxed);
                    SlotView {
                        empty: d == 0,
                        depth: data_depth(d),
                        generation: data_generation(d),
                    }
                };
                let chosen = victim(policy_of(P), key, SLOTS, entry.depth, generation, view);
                let Some(i) = chosen else {
                    bump(&stripe.rejected);
                    return;
                };
                (i, None)
            }
        };
        let mut data = pack(&entry, ply, generation, &self.config.get_score());
        match same {
            Some(old) if entry.best_move.is_none() => data = with_move(data, data_move(old)),
            Some(_) => {}
            None => {
                if b[2 * i + 1].load(Relaxed) != 0 {
                    bump(&stripe.replacements);
                }
            }
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
        self.dirty.store(false, Relaxed);
    }

    /// The counters summed over all threads; see [`Table::stats`].
    pub fn stats(&self) -> Stats {
        self.stripes.iter().fold(Stats::default(), |acc, s| {
            acc + Stats {
                probes: s.hits.load(Relaxed) + s.misses.load(Relaxed),
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
            for c in [&s.misses, &s.hits, &s.stores, &s.replacements, &s.rejected] {
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
            if self.solved.is_some() {
                // No generations: every occupied slot counts.
                let w = self.buckets[s / (2 * SLOTS)].0[s % (2 * SLOTS)].load(Relaxed);
                used += usize::from(w != 0);
                continue;
            }
            let d = self.buckets[s / SLOTS].0[2 * (s % SLOTS) + 1].load(Relaxed);
            if d != 0 && data_generation(d) == generation {
                used += 1;
            }
        }
        (used * 1000 / sample) as u32
    }
}

/// [`Table`] for the table itself and for a shared reference to it (what
/// each thread of a parallel search holds): every method forwards to the
/// inherent one.
macro_rules! impl_table {
    ($($t:ty),*) => {$(
        impl Table for $t {
            #[inline]
            fn probe(&self, key: u64, depth: u8, ply: u32) -> Option<Hit> {
                SharedTable::probe(self, key, depth, ply)
            }
            #[inline]
            fn store(&mut self, key: u64, ply: u32, entry: Entry) {
                SharedTable::store(self, key, ply, entry);
            }
            #[inline]
            fn probe_slot(&self, key: u64, depth: u8, ply: u32) -> (Option<Hit>, Slot) {
                SharedTable::probe_slot(self, key, depth, ply)
            }
            #[inline]
            fn prefetch(&self, key: u64) {
                SharedTable::prefetch(self, key);
            }
            #[inline]
            fn store_slot(&mut self, slot: Slot, ply: u32, entry: Entry) {
                SharedTable::store_slot(self, slot, ply, entry);
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
    )*};
}

impl_table!(SharedTable, &SharedTable);
