//! [`TranspositionTable`]: the single-threaded table.

use core::cell::Cell;
use core::fmt;

use crate::config::{Config, ProbePolicy};
use crate::entry::{
    DATA_BITS, DATA_MASK, Entry, Hit, data_depth, data_generation, data_move, pack, unpack,
    with_move,
};
use crate::error::TableError;
use crate::policy::{HASHFULL_SAMPLE, Indexer, SlotView, candidate_mask, choose};
use crate::stats::Stats;
use crate::storage::{Storage, map_zeroed};
use crate::{BUCKET_BYTES, Table, alloc_buckets, bucket_count};
use memmap2::MmapMut;
use zerocopy::FromBytes;

/// One cache line, in one of two layouts (all words little-endian):
///
/// * compact, 8 slots: bytes `0..16` the 8 check values (`u16`), bytes
///   `16..64` the 8 data words (48 bits each). The check values sit
///   together so that matching all 8 against a key is one 16-byte compare
///   (the compiler vectorizes it), not 8 loads and branches;
/// * wide, 4 slots: bytes `16 i..16 i + 16` the key and the data word of
///   slot `i`.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket(Line);

impl Default for Bucket {
    fn default() -> Bucket {
        Bucket([0; BUCKET_BYTES])
    }
}

/// The bytes of a bucket.
type Line = [u8; BUCKET_BYTES];

static_assertions::assert_eq_size!(Bucket, [u8; BUCKET_BYTES]);
static_assertions::assert_eq_size!(Line, Bucket);
static_assertions::const_assert_eq!(core::mem::align_of::<Bucket>(), BUCKET_BYTES);

const COMPACT_SLOTS: usize = 8;
const WIDE_SLOTS: usize = 4;
/// Compact layout: where the data words start.
const COMPACT_DATA: usize = 2 * COMPACT_SLOTS;
static_assertions::const_assert_eq!(COMPACT_DATA + COMPACT_SLOTS * 6, BUCKET_BYTES);
static_assertions::const_assert_eq!(DATA_BITS, 48);
static_assertions::const_assert_eq!(WIDE_SLOTS * 16, BUCKET_BYTES);

#[inline]
fn read_u64(b: &Line, at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

#[inline]
fn write_u64(b: &mut Line, at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

/// Compact layout: the check value of slot `i`.
#[inline]
fn compact_check(b: &Line, i: usize) -> u16 {
    u16::from_le_bytes([b[2 * i], b[2 * i + 1]])
}

/// Compact layout: the slots whose check value is `want`, as a bit mask
/// (empty slots have check value 0).
#[inline]
fn compact_matches(b: &Line, want: u16) -> u32 {
    let mut m = 0;
    for i in 0..COMPACT_SLOTS {
        m |= u32::from(compact_check(b, i) == want) << i;
    }
    m
}

/// Compact layout: the data word of slot `i` (read as the 8 bytes ending
/// with it, shifted down: one unaligned load).
#[inline]
fn compact_data(b: &Line, i: usize) -> u64 {
    read_u64(b, COMPACT_DATA + 6 * i - 2) >> 16
}

#[inline]
fn compact_set(b: &mut Line, i: usize, check: u16, data: u64) {
    debug_assert_eq!(data & !DATA_MASK, 0);
    b[2 * i..2 * i + 2].copy_from_slice(&check.to_le_bytes());
    let at = COMPACT_DATA + 6 * i;
    b[at..at + 6].copy_from_slice(&data.to_le_bytes()[..6]);
}

/// The table's memory: buckets on the heap, or an anonymous mapping viewed as
/// buckets (page-aligned, so each bucket is one cache line).
enum Buckets {
    Heap(Vec<Bucket>),
    Mapped { map: MmapMut, huge_pages: bool },
}

/// The bytes of a mapping as buckets. The cast (length a multiple of 64)
/// is checked when the table is built, so the empty fallback is never
/// taken.
#[inline]
fn as_lines(bytes: &[u8]) -> &[Line] {
    <[Line]>::ref_from_bytes(bytes).unwrap_or(&[])
}

#[inline]
fn as_lines_mut(bytes: &mut [u8]) -> &mut [Line] {
    <[Line]>::mut_from_bytes(bytes).unwrap_or(&mut [])
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
            Some((map, huge_pages)) if as_lines(&map).len() == n => {
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

    #[inline]
    fn get(&self, i: usize) -> &Line {
        match self {
            Buckets::Heap(v) => &v[i].0,
            Buckets::Mapped { map, .. } => &as_lines(map)[i],
        }
    }

    #[inline]
    fn get_mut(&mut self, i: usize) -> &mut Line {
        match self {
            Buckets::Heap(v) => &mut v[i].0,
            Buckets::Mapped { map, .. } => &mut as_lines_mut(map)[i],
        }
    }

    fn clear(&mut self) {
        match self {
            Buckets::Heap(v) => v.fill(Bucket::default()),
            Buckets::Mapped { map, .. } => map.fill(0),
        }
    }

    fn storage(&self) -> Storage {
        match *self {
            Buckets::Heap(_) => Storage::Heap,
            Buckets::Mapped { huge_pages, .. } => Storage::Mapped { huge_pages },
        }
    }
}

#[derive(Default)]
struct Counters {
    probes: Cell<u64>,
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
/// With `check_bits <= 16` (the default, 16) each 64-byte bucket holds 8
/// entries of 8 bytes: 16 verification bits from the top of the key, the
/// move code, the value, the depth, the bound and the generation. With more
/// check bits each bucket holds 4 entries of 16 bytes that keep the whole key,
/// so the top `k` bits (all 64 for [`Config::verification`]) are compared.
///
/// `probe` takes `&self` (statistics live in [`Cell`]s, so the table is
/// `Send` but not `Sync`); `store` takes `&mut self`. For several threads use
/// [`SharedTable`](crate::SharedTable).
///
/// ```
/// use ttable::{Bound, Entry, Table, TranspositionTable};
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
    /// Compact layout: the stored check bits are `key >> check_shift`.
    check_shift: u32,
    /// Wide layout: `(stored_key ^ key) & check_mask == 0` is a match.
    check_mask: u64,
    generation: u8,
    counters: Counters,
}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.buckets.len())
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
        let k = config.get_check_bits();
        let wide = k > 64 - DATA_BITS;
        Ok(TranspositionTable {
            buckets,
            index: Indexer::new(n),
            config,
            wide,
            check_shift: 64 - k,
            check_mask: if wide { u64::MAX << (64 - k) } else { 0 },
            generation: 0,
            counters: Counters::default(),
        })
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

    /// Where the table's memory is: a mapping with huge pages (the default
    /// for 2 MiB and more, see [`Memory`](crate::Memory)), or the heap.
    #[must_use]
    pub fn storage(&self) -> Storage {
        self.buckets.storage()
    }

    /// Starts loading the bucket of `key` into the cache (a load of its
    /// first word that the optimizer may not drop), so that a `probe` or
    /// `store` of `key` a little later finds it there.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        core::hint::black_box(self.buckets.get(self.index.bucket(key))[0]);
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

    /// The data word of slot `i` (0 = empty).
    #[inline]
    fn data<const WIDE: bool>(b: &Line, i: usize) -> u64 {
        if WIDE {
            read_u64(b, 16 * i + 8)
        } else {
            compact_data(b, i)
        }
    }

    /// The compact layout's check value for `key`.
    #[inline]
    fn check(&self, key: u64) -> u16 {
        (key >> self.check_shift) as u16
    }

    /// The occupied candidate slots of `b` whose check bits match `key`, as
    /// a bit mask (without a branch per slot: the slot a key lives in is
    /// random, so such branches would be mispredicted).
    #[inline]
    fn matching<const WIDE: bool>(&self, b: &Line, key: u64) -> u32 {
        let candidates = candidate_mask(self.config.get_replacement(), key, self.slots());
        if WIDE {
            let mut m = 0;
            for i in 0..WIDE_SLOTS {
                let hit = (read_u64(b, 16 * i) ^ key) & self.check_mask == 0;
                m |= u32::from(hit & (Self::data::<true>(b, i) != 0)) << i;
            }
            m & candidates
        } else {
            let want = self.check(key);
            let mut m = compact_matches(b, want) & candidates;
            if want == 0 {
                // Empty slots have check value 0 too: keep occupied ones
                // (1 key in 2^k takes this branch).
                for i in 0..COMPACT_SLOTS {
                    if compact_data(b, i) == 0 {
                        m &= !(1 << i);
                    }
                }
            }
            m
        }
    }

    #[inline]
    fn probe_layout<const WIDE: bool>(&self, key: u64, depth: u8, ply: u32) -> Option<Hit> {
        bump(&self.counters.probes);
        let b = self.buckets.get(self.index.bucket(key));
        let found = self.matching::<WIDE>(b, key);
        if found == 0 {
            return None;
        }
        let d = Self::data::<WIDE>(b, found.trailing_zeros() as usize);
        bump(&self.counters.hits);
        let stored = data_depth(d);
        let usable = match self.config.get_probe_policy() {
            ProbePolicy::Normal => stored >= depth,
            ProbePolicy::ExactDepth => stored == depth,
        };
        Some(Hit {
            entry: unpack(d, ply, &self.config.get_score()),
            usable,
        })
    }

    #[inline]
    fn store_layout<const WIDE: bool>(&mut self, key: u64, ply: u32, entry: Entry) {
        bump(&self.counters.stores);
        let bi = self.index.bucket(key);
        let b = self.buckets.get(bi);
        let found = self.matching::<WIDE>(b, key);
        let (i, data) = if found != 0 {
            // The key is stored: overwrite it in place (every policy does).
            let i = found.trailing_zeros() as usize;
            let old = Self::data::<WIDE>(b, i);
            let mut data = pack(&entry, ply, self.generation, &self.config.get_score());
            if entry.best_move.is_none() {
                data = with_move(data, data_move(old));
            }
            (i, data)
        } else {
            let view = |i| {
                let d = Self::data::<WIDE>(b, i);
                SlotView {
                    empty: d == 0,
                    matches: false,
                    depth: data_depth(d),
                    generation: data_generation(d),
                }
            };
            let chosen = choose(
                self.config.get_replacement(),
                key,
                self.slots(),
                entry.depth,
                self.generation,
                view,
            );
            let Some(i) = chosen else {
                bump(&self.counters.rejected);
                return;
            };
            if Self::data::<WIDE>(b, i) != 0 {
                bump(&self.counters.replacements);
            }
            (
                i,
                pack(&entry, ply, self.generation, &self.config.get_score()),
            )
        };
        let check = self.check(key);
        let b = self.buckets.get_mut(bi);
        if WIDE {
            write_u64(b, 16 * i, key);
            write_u64(b, 16 * i + 8, data);
        } else {
            compact_set(b, i, check, data);
        }
    }
}

impl Table for TranspositionTable {
    #[inline]
    fn probe(&self, key: u64, depth: u8, ply: u32) -> Option<Hit> {
        if self.wide {
            self.probe_layout::<true>(key, depth, ply)
        } else {
            self.probe_layout::<false>(key, depth, ply)
        }
    }

    #[inline]
    fn store(&mut self, key: u64, ply: u32, entry: Entry) {
        if self.wide {
            self.store_layout::<true>(key, ply, entry);
        } else {
            self.store_layout::<false>(key, ply, entry);
        }
    }

    fn new_generation(&mut self) {
        self.generation = (self.generation + 1) & crate::entry::GENERATION_MASK;
    }

    fn clear(&mut self) {
        self.buckets.clear();
        self.generation = 0;
    }

    fn stats(&self) -> Stats {
        let c = &self.counters;
        Stats {
            probes: c.probes.get(),
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
        let sample = HASHFULL_SAMPLE.min(self.capacity());
        let mut used = 0;
        for s in 0..sample {
            let b = self.buckets.get(s / slots);
            let d = if self.wide {
                Self::data::<true>(b, s % slots)
            } else {
                Self::data::<false>(b, s % slots)
            };
            if d != 0 && data_generation(d) == self.generation {
                used += 1;
            }
        }
        (used * 1000 / sample) as u32
    }
}
