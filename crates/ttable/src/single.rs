//! [`TranspositionTable`]: the single-threaded table.

use core::cell::Cell;
use core::fmt;

use crate::config::Replacement;
use crate::config::{Config, ProbePolicy};
use crate::entry::Slot;
use crate::entry::{
    DATA_BITS, DATA_MASK, Entry, Hit, data_depth, data_generation, data_move, pack, unpack,
    with_move,
};
use crate::error::TableError;
use crate::policy::{
    HASHFULL_SAMPLE, Indexer, SlotView, candidates, policy_code, policy_of, selector, victim,
};
use crate::solved::{self, SolvedKey};
use crate::stats::Stats;
use crate::storage::{Storage, map_zeroed};
use crate::{BUCKET_BYTES, Table, alloc_buckets, bucket_count};
use memmap2::MmapMut;
use zerocopy::FromBytes;

mod grow;

/// One cache line: 8 compact slots (`check << 48 | data`) or 4 wide slots
/// (`key`, `data`).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([u64; 8]);

static_assertions::assert_eq_size!(Bucket, [u8; BUCKET_BYTES]);
static_assertions::const_assert_eq!(core::mem::align_of::<Bucket>(), BUCKET_BYTES);

/// The words of a bucket.
type Words = [u64; 8];
static_assertions::assert_eq_size!(Words, Bucket);

/// The table's memory: buckets on the heap, or an anonymous mapping viewed as
/// buckets (page-aligned, so each bucket is one cache line).
enum Buckets {
    Heap(Vec<Bucket>),
    Mapped { map: MmapMut, huge_pages: bool },
}

/// The bytes of a mapping as buckets. The cast (alignment 8, length a
/// multiple of 64) is checked when the table is built, so the empty
/// fallback is never taken.
#[inline]
fn as_words(bytes: &[u8]) -> &[Words] {
    <[Words]>::ref_from_bytes(bytes).unwrap_or(&[])
}

impl Buckets {
    /// `n` zeroed buckets (`bytes` is the size asked for, for the error):
    /// mapped if `mapped` and the system grants the mapping, else on the
    /// heap.
    fn new(n: usize, bytes: usize, mapped: bool) -> Result<Buckets, TableError> {
        let map = if mapped {
            map_zeroed(n * BUCKET_BYTES)
        } else {
            None
        };
        match map {
            Some((map, huge_pages)) if as_words(&map).len() == n => {
                Ok(Buckets::Mapped { map, huge_pages })
            }
            _ => alloc_buckets(n, bytes, Bucket::default).map(Buckets::Heap),
        }
    }

    fn len(&self) -> usize {
        match self {
            Buckets::Heap(v) => v.len(),
            Buckets::Mapped { map, .. } => map.len() / BUCKET_BYTES,
        }
    }

    /// Bucket `i`, `None` only if `i` is out of range. A mapped bucket is
    /// cast from its 64 bytes (the mapping is page-aligned, so the cast's
    /// alignment check always passes).
    #[inline]
    fn get(&self, i: usize) -> Option<&Words> {
        match self {
            Buckets::Heap(v) => v.get(i).map(|b| &b.0),
            Buckets::Mapped { map, .. } => {
                let bytes = map.get(i * BUCKET_BYTES..(i + 1) * BUCKET_BYTES)?;
                Words::ref_from_bytes(bytes).ok()
            }
        }
    }

    #[inline]
    fn get_mut(&mut self, i: usize) -> Option<&mut Words> {
        match self {
            Buckets::Heap(v) => v.get_mut(i).map(|b| &mut b.0),
            Buckets::Mapped { map, .. } => {
                let bytes = map.get_mut(i * BUCKET_BYTES..(i + 1) * BUCKET_BYTES)?;
                Words::mut_from_bytes(bytes).ok()
            }
        }
    }

    /// Zeroes the first `n` buckets (the rest are left untouched, so a
    /// mapping's pages there stay unallocated).
    fn zero_prefix(&mut self, n: usize) {
        match self {
            Buckets::Heap(v) => {
                let n = n.min(v.len());
                v[..n].fill(Bucket::default());
            }
            Buckets::Mapped { map, .. } => {
                let end = (n * BUCKET_BYTES).min(map.len());
                map[..end].fill(0);
            }
        }
    }

    fn storage(&self) -> Storage {
        match *self {
            Buckets::Heap(_) => Storage::Heap,
            Buckets::Mapped { huge_pages, .. } => Storage::Mapped { huge_pages },
        }
    }
}

const COMPACT_SLOTS: usize = 8;
const WIDE_SLOTS: usize = 4;
static_assertions::const_assert_eq!(COMPACT_SLOTS * 8, BUCKET_BYTES);
static_assertions::const_assert_eq!(WIDE_SLOTS * 16, BUCKET_BYTES);

#[derive(Default)]
struct Counters {
    /// Probes are `hits + misses`: one counter written per probe.
    misses: Cell<u64>,
    hits: Cell<u64>,
    stores: Cell<u64>,
    replacements: Cell<u64>,
    rejected: Cell<u64>,
}

#[inline]
fn bump(c: &Cell<u64>) {
    c.set(c.get() + 1);
}

/// A single-threaded transposition table: cache-line buckets of packed
/// entries, sized in bytes.
///
/// By default (`check_bits` 64) each 64-byte bucket holds 4 entries of 16
/// bytes that keep the whole key, and a probe compares all of it. With
/// `check_bits <= 16` each bucket holds 8 entries of 8 bytes: 16
/// verification bits from the top of the key, the move code, the value, the
/// depth, the bound and the generation; a probe of a key that is not stored
/// then returns another key's entry with probability up to `8 · 2^-16`.
///
/// Tables of 2 MiB or more live by default in an anonymous memory mapping
/// advised to use transparent huge pages, which makes random probes of large
/// tables faster; [`Config::memory`] chooses, [`TranspositionTable::storage`]
/// tells what the system granted.
///
/// `probe` takes `&self` (statistics live in [`Cell`]s, so the table is
/// `Send` but not `Sync`); `store` takes `&mut self`. For several threads use
/// [`SharedTable`](crate::SharedTable).
///
/// ```
/// use gametree_ttable::{Bound, Entry, Table, TranspositionTable};
///
/// let mut tt = TranspositionTable::new(1 << 20)?; // 1 MiB = 131072 entries
/// let e = Entry { best_move: Some(12), value: 31, depth: 6, bound: Bound::Exact };
/// tt.store(0x1234_5678_9abc_def0, 2, e);
/// let hit = tt.probe(0x1234_5678_9abc_def0, 4, 2).expect("stored");
/// assert_eq!(hit.entry, e);
/// assert!(hit.usable); // stored depth 6 >= requested 4
/// assert_eq!(hit.cutoff(-10, 10), Some(31));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TranspositionTable {
    buckets: Buckets,
    index: Indexer,
    config: Config,
    wide: bool,
    /// `DepthMinusAge` (the default policy), in either layout: the paths
    /// inlined into callers.
    fast: Fast,
    /// Compact layout: the stored check bits are `key >> check_shift`.
    check_shift: u32,
    /// Wide layout: `(stored_key ^ key) & check_mask == 0` is a match.
    check_mask: u64,
    generation: u8,
    /// Has anything been stored since the table was built or cleared?
    dirty: bool,
    /// The buckets in use: all of them, or in a growing solved table
    /// ([`Config::grow`]) `2^18` at first, doubled as it fills. Buckets
    /// from `active` on are always zero.
    active: usize,
    /// Occupied slots (counted in the solved layout only).
    filled: usize,
    /// `filled` at which the table grows (`usize::MAX`: never).
    grow_at: usize,
    counters: Counters,
}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.buckets.len())
            .field("active", &self.active)
            .field("capacity", &self.capacity())
            .field("storage", &self.storage())
            .field("config", &self.config)
            .field("generation", &self.generation)
            .field("stats", &self.stats())
            .finish()
    }
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (rounded down to whole 64-byte
    /// buckets) with the default [`Config`].
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TooSmall`](crate::ErrorKind::TooSmall) below 64 bytes,
    /// [`ErrorKind::TooLarge`](crate::ErrorKind::TooLarge) above
    /// [`MAX_BUCKETS`](crate::MAX_BUCKETS) buckets, and
    /// [`ErrorKind::AllocationFailed`](crate::ErrorKind::AllocationFailed) if
    /// the allocator refuses the memory.
    pub fn new(bytes: usize) -> Result<TranspositionTable, TableError> {
        TranspositionTable::with_config(bytes, Config::new())
    }

    /// A table of at most `bytes` bytes built with `config`.
    ///
    /// # Errors
    ///
    /// As [`TranspositionTable::new`], plus
    /// [`ErrorKind::InvalidCheckBits`](crate::ErrorKind::InvalidCheckBits) and
    /// [`ErrorKind::ExactDepthNeedsFullKey`](crate::ErrorKind::ExactDepthNeedsFullKey)
    /// for a bad configuration.
    pub fn with_config(bytes: usize, config: Config) -> Result<TranspositionTable, TableError> {
        config.validate(bytes, false)?;
        let n = bucket_count(bytes)?;
        let mapped = config.get_memory().wants_mapping(n * BUCKET_BYTES);
        let buckets = Buckets::new(n, bytes, mapped)?;
        let mut table = TranspositionTable {
            buckets,
            index: Indexer::new(n),
            config,
            wide: false,
            fast: Fast::No,
            check_shift: 0,
            check_mask: 0,
            generation: 0,
            dirty: false,
            active: n,
            filled: 0,
            grow_at: usize::MAX,
            counters: Counters::default(),
        };
        table.lay_out(config, bytes)?;
        Ok(table)
    }

    /// Sets the fields that follow from `config` (validated for `bytes`)
    /// on an empty table.
    fn lay_out(&mut self, config: Config, bytes: usize) -> Result<(), TableError> {
        let k = config.get_check_bits();
        let wide = k > 64 - DATA_BITS && !config.get_solved();
        let start = grow::start_buckets(&config, self.buckets.len());
        let solved = SolvedKey::for_config(&config, start, bytes)?;
        self.config = config;
        self.wide = wide;
        self.fast = match (solved, wide, config.get_replacement()) {
            (Some(sk), _, _) => Fast::Solved(sk),
            (None, false, Replacement::DepthMinusAge) => Fast::Compact,
            (None, true, Replacement::DepthMinusAge) => Fast::Wide,
            _ => Fast::No,
        };
        self.check_shift = 64 - k;
        self.check_mask = if wide { u64::MAX << (64 - k) } else { 0 };
        self.filled = 0;
        self.set_active(start);
        Ok(())
    }

    /// Rebuilds the table with `config` over the memory it already has
    /// (same buckets; [`Config::memory`] is not consulted again): every
    /// entry is removed and the generation reset, statistics are kept. A
    /// searcher uses this to switch to the [solved layout](Config::solved)
    /// for a solve and back for a depth-limited search without allocating.
    ///
    /// # Errors
    ///
    /// As [`TranspositionTable::with_config`] for a bad configuration (the
    /// table is then unchanged).
    ///
    /// ```
    /// use gametree_ttable::{Config, TranspositionTable};
    ///
    /// let mut tt = TranspositionTable::new(16 << 20)?;
    /// assert_eq!(tt.capacity(), 1 << 20); // 4 entries per 64-byte bucket
    /// tt.reconfigure(Config::new().solved(true))?;
    /// assert_eq!(tt.capacity(), 2 << 20); // 8 per bucket
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reconfigure(&mut self, config: Config) -> Result<(), TableError> {
        let bytes = self.size_bytes();
        config.validate(bytes, false)?;
        if self.dirty {
            self.clear();
        }
        self.lay_out(config, bytes)?;
        self.generation = 0;
        Ok(())
    }

    /// The configuration the table was built with.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The number of entries the table can hold.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * self.slots()
    }

    /// The memory used by the entries, in bytes (a multiple of 64).
    #[must_use]
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// The part of [`size_bytes`](TranspositionTable::size_bytes) in use:
    /// all of it, except in a growing solved table ([`Config::grow`]),
    /// which starts at 16 MiB and doubles as it fills.
    #[must_use]
    pub fn active_bytes(&self) -> usize {
        self.active * BUCKET_BYTES
    }

    /// Where the table's memory is: a mapping with huge pages (the default
    /// for 2 MiB and more, see [`Memory`](crate::Memory)), or the heap.
    #[must_use]
    pub fn storage(&self) -> Storage {
        self.buckets.storage()
    }

    /// The current search generation (0..64).
    #[must_use]
    pub fn generation(&self) -> u8 {
        self.generation
    }

    #[inline]
    fn slots(&self) -> usize {
        if self.wide { WIDE_SLOTS } else { COMPACT_SLOTS }
    }

    /// `probe_slot` in the solved layout: linear probing from the key's
    /// home slot, stopping at the first empty slot (slots are never
    /// emptied but by `clear`, and a new key takes the first empty slot on
    /// its path).
    #[inline(always)]
    fn probe_solved(&self, sk: SolvedKey, key: u64, ply: u32) -> (Option<Hit>, Slot) {
        let check = sk.check(key);
        if let Some(b) = self.buckets.get(self.index.bucket(key)) {
            let home = selector(key);
            for j in 0..COMPACT_SLOTS {
                let i = (home + j) % COMPACT_SLOTS;
                let w = b[i];
                if w == 0 {
                    break;
                }
                if sk.holds(w, check) {
                    bump(&self.counters.hits);
                    let entry = sk.unpack(w, ply, &self.config.get_score());
                    return (
                        Some(Hit {
                            entry,
                            usable: true,
                        }),
                        Slot::at(key, i),
                    );
                }
            }
        }
        bump(&self.counters.misses);
        (None, Slot::new(key))
    }

    /// `store_slot` in the solved layout: the key's slot, else the first
    /// empty slot from its home slot, else its home slot or, if that holds
    /// an exact value, the next that does not (`solved::victim`). Entries not
    /// searched to the end are dropped.
    #[inline(always)]
    fn store_solved(&mut self, sk: SolvedKey, slot: Slot, ply: u32, entry: Entry) {
        let counters = &self.counters;
        bump(&counters.stores);
        if entry.depth != solved::SOLVED_DEPTH {
            bump(&counters.rejected);
            return;
        }
        let key = slot.key();
        let check = sk.check(key);
        let word = sk.pack(check, &entry, ply, &self.config.get_score());
        let Some(b) = self.buckets.get_mut(self.index.bucket(key)) else {
            return;
        };
        let hint = slot.index();
        if hint < COMPACT_SLOTS && b[hint] != 0 && sk.holds(b[hint], check) {
            b[hint] = sk.keep_move(word, b[hint]);
            return;
        }
        let home = selector(key);
        for j in 0..COMPACT_SLOTS {
            let i = (home + j) % COMPACT_SLOTS;
            if b[i] == 0 {
                b[i] = word;
                self.filled += 1;
                if self.filled >= self.grow_at {
                    self.grow();
                }
                return;
            }
            if sk.holds(b[i], check) {
                b[i] = sk.keep_move(word, b[i]);
                return;
            }
        }
        let i = solved::victim(home, COMPACT_SLOTS, |i| b[i]);
        bump(&counters.replacements);
        b[i] = word;
    }

    #[inline]
    fn data<const WIDE: bool>(b: &Words, i: usize) -> u64 {
        if WIDE { b[2 * i + 1] } else { b[i] & DATA_MASK }
    }

    /// Is slot `i` of `b` occupied?
    #[inline(always)]
    fn occupied<const WIDE: bool>(b: &Words, i: usize) -> bool {
        if WIDE { b[2 * i + 1] != 0 } else { b[i] != 0 }
    }

    /// Does occupied slot `i` of `b` hold `key`? Compact: the word's top
    /// bits equal the key's check bits; wide: the stored key agrees on the
    /// checked bits.
    #[inline(always)]
    fn holds<const WIDE: bool>(check: Check, b: &Words, i: usize, key: u64) -> bool {
        if WIDE {
            (b[2 * i] ^ key) & check.mask == 0
        } else {
            b[i] >> DATA_BITS == key >> check.shift
        }
    }

    /// Scans the candidate slots `first..first + count` of `b` for `key`:
    /// `Ok(i)` if slot `i` holds it, else `Err(Some(e))` with the first
    /// empty candidate slot `e` or `Err(None)` if none is empty.
    ///
    /// No slot is ever emptied except by `clear`, and a store of a new key
    /// takes the first empty slot on its search path, so the scan stops at
    /// the first empty slot under the policies that search several slots:
    /// `TwoTier` (its two slots in order) and `DepthMinusAge` (the whole
    /// bucket from the key's home slot, wrapping around: linear probing,
    /// without deletions). Under `DepthMinusAge` the candidates
    /// `first..first + count` are the whole bucket.
    #[inline(always)]
    fn scan<const WIDE: bool, const P: u8>(
        check: Check,
        b: &Words,
        key: u64,
        first: usize,
        count: usize,
    ) -> Result<usize, Option<usize>> {
        if P == policy_code(Replacement::DepthMinusAge) {
            // Linear probing inside the bucket, from the key's home slot.
            let slots = if WIDE { WIDE_SLOTS } else { COMPACT_SLOTS };
            let home = selector(key);
            for j in 0..slots {
                let i = (home + j) % slots;
                if !Self::occupied::<WIDE>(b, i) {
                    return Err(Some(i));
                } else if Self::holds::<WIDE>(check, b, i, key) {
                    return Ok(i);
                }
            }
            return Err(None);
        }
        let prefix = P == policy_code(Replacement::TwoTier);
        let mut empty = None;
        for i in first..first + count {
            if !Self::occupied::<WIDE>(b, i) {
                if prefix {
                    return Err(Some(i));
                }
                empty = empty.or(Some(i));
            } else if Self::holds::<WIDE>(check, b, i, key) {
                return Ok(i);
            }
        }
        Err(empty)
    }

    #[inline(always)]
    fn check(&self) -> Check {
        Check {
            shift: self.check_shift,
            mask: self.check_mask,
        }
    }

    #[inline(always)]
    fn probe_impl<const WIDE: bool, const P: u8>(
        &self,
        key: u64,
        depth: u8,
        ply: u32,
    ) -> (Option<Hit>, Slot) {
        let slots = if WIDE { WIDE_SLOTS } else { COMPACT_SLOTS };
        let (first, count) = candidates(policy_of(P), key, slots);
        let check = self.check();
        let found = self
            .buckets
            .get(self.index.bucket(key))
            .and_then(|b| Some((b, Self::scan::<WIDE, P>(check, b, key, first, count).ok()?)));
        let Some((b, i)) = found else {
            bump(&self.counters.misses);
            return (None, Slot::new(key));
        };
        bump(&self.counters.hits);
        let d = Self::data::<WIDE>(b, i);
        let stored = data_depth(d);
        // `ExactDepth` needs the full key, i.e. the wide layout.
        let usable = if WIDE && self.config.get_probe_policy() == ProbePolicy::ExactDepth {
            stored == depth
        } else {
            stored >= depth
        };
        let hit = Hit {
            entry: unpack(d, ply, &self.config.get_score()),
            usable,
        };
        (Some(hit), Slot::at(key, i))
    }

    /// Stores `entry` for `slot.key()`. If `slot` names a candidate slot
    /// that still holds the key, that slot is overwritten without searching
    /// the bucket; otherwise the bucket is searched as by `store`.
    #[inline(always)]
    fn store_impl<const WIDE: bool, const P: u8>(&mut self, slot: Slot, ply: u32, entry: Entry) {
        let TranspositionTable {
            buckets,
            index,
            config,
            check_shift,
            check_mask,
            generation,
            counters,
            ..
        } = self;
        let check = Check {
            shift: *check_shift,
            mask: *check_mask,
        };
        let generation = *generation;
        let key = slot.key();
        bump(&counters.stores);
        let slots = if WIDE { WIDE_SLOTS } else { COMPACT_SLOTS };
        let (first, count) = candidates(policy_of(P), key, slots);
        let Some(b) = buckets.get_mut(index.bucket(key)) else {
            return;
        };
        let hint = slot.index();
        let scanned = if hint.wrapping_sub(first) < count
            && Self::occupied::<WIDE>(b, hint)
            && Self::holds::<WIDE>(check, b, hint, key)
        {
            Ok(hint)
        } else {
            Self::scan::<WIDE, P>(check, b, key, first, count)
        };
        let i = match scanned {
            Ok(i) => i,
            Err(Some(e)) if P == policy_code(Replacement::DepthMinusAge) => e,
            Err(_) => {
                let view = |i| {
                    let d = Self::data::<WIDE>(b, i);
                    SlotView {
                        empty: d == 0,
                        depth: data_depth(d),
                        generation: data_generation(d),
                    }
                };
                let chosen = victim(policy_of(P), key, slots, entry.depth, generation, view);
                let Some(i) = chosen else {
                    bump(&counters.rejected);
                    return;
                };
                i
            }
        };
        let old = Self::data::<WIDE>(b, i);
        let mut data = pack(&entry, ply, generation, &config.get_score());
        if scanned.is_ok() {
            if entry.best_move.is_none() {
                data = with_move(data, data_move(old));
            }
        } else if old != 0 {
            bump(&counters.replacements);
        }
        if WIDE {
            b[2 * i] = key;
            b[2 * i + 1] = data;
        } else {
            b[i] = (key >> check.shift) << DATA_BITS | data;
        }
    }
}

/// How a table verifies keys: compact slots keep `key >> shift`, wide slots
/// match when `(stored ^ key) & mask == 0`.
#[derive(Clone, Copy)]
struct Check {
    shift: u32,
    mask: u64,
}

/// Calls `$f::<WIDE, POLICY>` for the table's layout and replacement policy,
/// so that each combination gets code with constant slot ranges.
macro_rules! dispatch {
    ($t:expr, $f:ident($($arg:expr),*)) => {{
        const A: u8 = policy_code(Replacement::Always);
        const D: u8 = policy_code(Replacement::DepthPreferred);
        const T: u8 = policy_code(Replacement::TwoTier);
        const G: u8 = policy_code(Replacement::DepthMinusAge);
        match ($t.wide, policy_code($t.config.get_replacement())) {
            (false, A) => $t.$f::<false, A>($($arg),*),
            (false, D) => $t.$f::<false, D>($($arg),*),
            (false, T) => $t.$f::<false, T>($($arg),*),
            (false, _) => $t.$f::<false, G>($($arg),*),
            (true, A) => $t.$f::<true, A>($($arg),*),
            (true, D) => $t.$f::<true, D>($($arg),*),
            (true, T) => $t.$f::<true, T>($($arg),*),
            (true, _) => $t.$f::<true, G>($($arg),*),
        }
    }};
}

impl TranspositionTable {
    /// `probe_impl` for any layout and policy, out of line: the default
    /// policy's paths are the ones inlined into searchers.
    #[cold]
    #[inline(never)]
    fn probe_any(&self, key: u64, depth: u8, ply: u32) -> (Option<Hit>, Slot) {
        dispatch!(self, probe_impl(key, depth, ply))
    }

    #[cold]
    #[inline(never)]
    fn store_any(&mut self, slot: Slot, ply: u32, entry: Entry) {
        dispatch!(self, store_impl(slot, ply, entry));
    }
}

/// The default policy, `DepthMinusAge`, whose paths are inlined.
const FAST: u8 = policy_code(Replacement::DepthMinusAge);

/// Which inlined path a table takes.
#[derive(Clone, Copy)]
enum Fast {
    /// Compact layout, `DepthMinusAge`.
    Compact,
    /// Wide layout (the whole key checked), `DepthMinusAge`.
    Wide,
    /// The solved layout, with how keys become check bits.
    Solved(SolvedKey),
    /// Any other configuration: one out-of-line dispatch.
    No,
}

impl Table for TranspositionTable {
    #[inline]
    fn probe(&self, key: u64, depth: u8, ply: u32) -> Option<Hit> {
        self.probe_slot(key, depth, ply).0
    }

    #[inline]
    fn store(&mut self, key: u64, ply: u32, entry: Entry) {
        self.store_slot(Slot::new(key), ply, entry);
    }

    #[inline]
    fn probe_slot(&self, key: u64, depth: u8, ply: u32) -> (Option<Hit>, Slot) {
        match self.fast {
            Fast::Wide => self.probe_impl::<true, FAST>(key, depth, ply),
            Fast::Compact => self.probe_impl::<false, FAST>(key, depth, ply),
            Fast::Solved(sk) => self.probe_solved(sk, key, ply),
            Fast::No => self.probe_any(key, depth, ply),
        }
    }

    #[inline]
    fn store_slot(&mut self, slot: Slot, ply: u32, entry: Entry) {
        self.dirty = true;
        match self.fast {
            Fast::Wide => self.store_impl::<true, FAST>(slot, ply, entry),
            Fast::Compact => self.store_impl::<false, FAST>(slot, ply, entry),
            Fast::Solved(sk) => self.store_solved(sk, slot, ply, entry),
            Fast::No => self.store_any(slot, ply, entry),
        }
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        if let Some(b) = self.buckets.get(self.index.bucket(key)) {
            crate::prefetch_line(b);
        }
    }

    fn new_generation(&mut self) {
        self.generation = (self.generation + 1) & crate::entry::GENERATION_MASK;
    }

    fn clear(&mut self) {
        self.buckets.zero_prefix(self.active);
        self.dirty = false;
        self.generation = 0;
        self.filled = 0;
        self.set_active(grow::start_buckets(&self.config, self.buckets.len()));
    }

    fn stats(&self) -> Stats {
        let c = &self.counters;
        Stats {
            probes: c.hits.get() + c.misses.get(),
            hits: c.hits.get(),
            stores: c.stores.get(),
            replacements: c.replacements.get(),
            rejected: c.rejected.get(),
        }
    }

    fn reset_stats(&mut self) {
        self.counters = Counters::default();
    }

    fn hashfull(&self) -> u32 {
        let slots = self.slots();
        let sample = HASHFULL_SAMPLE.min(self.active * slots);
        let mut used = 0;
        for s in 0..sample {
            let Some(b) = self.buckets.get(s / slots) else {
                break;
            };
            let d = if self.wide {
                Self::data::<true>(b, s % slots)
            } else {
                Self::data::<false>(b, s % slots)
            };
            if matches!(self.fast, Fast::Solved(_)) {
                // No generations: every occupied slot counts.
                used += usize::from(b[s % slots] != 0);
            } else if d != 0 && data_generation(d) == self.generation {
                used += 1;
            }
        }
        (used * 1000 / sample) as u32
    }
}
