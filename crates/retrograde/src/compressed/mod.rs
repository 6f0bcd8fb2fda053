//! A compressed on-disk format for [`Table`], probed one block at a time.
//!
//! The indices are cut into blocks of a fixed power-of-two size
//! ([`DEFAULT_BLOCK_LOG2`]: 2 048 indices), and each block is compressed
//! on its own, so that a probe reads and decodes one block and nothing
//! else. [`CompressedTable`] opens a file, checks its header and block
//! index, and answers [`get`](CompressedTable::get) by a positioned read of
//! the one block holding the index (`pread` on Unix; a seek and a read
//! elsewhere). The crate forbids `unsafe`, so the file is not memory
//! mapped (`memmap2::Mmap::map` is an `unsafe fn`): the operating system's
//! page cache keeps a file that is probed often in memory all the same, and
//! an optional cache of decoded blocks ([`CompressedTable::with_cache`]) spares
//! the decoding of a block probed again.
//!
//! # The coder
//!
//! Each block is coded with an adaptive binary range coder (probabilities
//! of 12 bits, adapting by 1/16 of the error at each bit) over the
//! one-byte codes of [`Table::codes`]. Every block starts from the same
//! probabilities, the file's *priors*: each decision's frequency over the
//! whole table, stored in the header for the decisions taken often enough.
//! Starting from them instead of one half is what lets blocks be small
//! (and probes fast) without losing the compression of large ones. The
//! model predicts a code from three neighbours in the block, the codes at
//! distances 1, 8 and 64 (for a chess ending, the last piece one file and
//! one rank away, and the piece before it one file away): it codes "equal
//! to the code one back?", then "equal to the one 8 back?", then "equal to
//! the one 64 back?", each in a context of which neighbours agree and of
//! the nearest one, and a code equal to none of them as eight binary
//! decisions down a tree chosen by the neighbour 8 back. Distance-to-mate
//! codes are locally alike but not smooth (wins and losses alternate in
//! parity, draws and invalid indices break runs), which this model takes
//! as it comes: on the chess endings it codes KQvKR in about a third of
//! its raw size (the measured figures are in the crate's README).
//!
//! Invalid indices (the code of an index that stands for no position) are
//! coded like any other code and decode as invalid: the format is exact,
//! [`CompressedTable::get`] equals [`Table::get`] on every index. (Leaving
//! them out, as "don't care" values set to a neighbour, saved about 3% on
//! KQvKR, not worth losing the distinction.)
//!
//! # Layout
//!
//! All integers little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `GTRETRC` followed by byte `0x1a` ([`MAGIC`]) |
//! | 8 | 2 | format version ([`VERSION`]) |
//! | 10 | 1 | `log2` of the block size, 6 to 24 |
//! | 11 | 1 | reserved, `0` |
//! | 12 | 8 | number of indices |
//! | 20 | 32 | counts: invalid, wins, draws, losses (`u64` each) |
//! | 52 | 8 | number of blocks (the number of indices over the block size, rounded up) |
//! | 60 | … | game, material, index scheme: each a `u16` length and UTF-8 bytes |
//! | … | 4 | length of the priors in bytes (`u32`) |
//! | … | … | per prior, in increasing order of cell: the gap from the cell after the previous prior's (the first: from cell 0) in base 128 (7 bits a byte, low first, the high bit set on all but the last), then its starting probability of a `0` decision in 1/256 (1 byte, 1 to 255) |
//! | … | 8 | header checksum, over every header byte before it |
//! | … | 16 × blocks | block index: per block, the end of its bytes (from the start of the first block) and the checksum of its bytes |
//! | … | 8 | checksum of the block index |
//! | … | … | the blocks, one after another; the file ends with the last one |
//!
//! Version 1 files, which have no priors (their blocks start at one half),
//! are still read.
//!
//! The checksums are [`format::checksum`](crate::format::checksum). A file
//! is written to a temporary file in the same directory and renamed into
//! place. A file is refused with a [`LoadError`]: truncated, not this
//! format ([`LoadError::BadMagic`]), another version, a header or block
//! index whose checksum fails, another label; a block whose checksum fails
//! is refused when it is read.
//!
//! # Example
//!
//! ```
//! use gametree_retrograde::compressed::{self, CompressedTable};
//! use gametree_retrograde::{Label, Table};
//! # use arrayvec::ArrayVec;
//! # use gametree_game::{Game, IndexSpace, Outcome, Player, Predecessors};
//! # use gametree_retrograde::Generator;
//! # #[derive(Clone, Debug)]
//! # struct Pile { stones: u64, to_move: Player }
//! # impl Game for Pile {
//! #     type Move = u64;
//! #     type Undo = ();
//! #     type Moves = ArrayVec<u64, 3>;
//! #     fn side_to_move(&self) -> Player { self.to_move }
//! #     fn generate(&self, out: &mut Self::Moves) { out.clear(); out.extend(1..=self.stones.min(3)); }
//! #     fn make(&mut self, m: u64) { self.stones -= m; self.to_move = self.to_move.opponent(); }
//! #     fn unmake(&mut self, m: u64, _: ()) { self.stones += m; self.to_move = self.to_move.opponent(); }
//! #     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
//! #     fn hash(&self) -> u64 { self.stones }
//! #     fn recompute_hash(&self) -> u64 { self.stones }
//! # }
//! # struct Piles;
//! # impl IndexSpace for Piles {
//! #     type Game = Pile;
//! #     fn size(&self) -> u64 { 400 }
//! #     fn position(&self, i: u64) -> Option<Pile> { (i < 400).then_some(Pile { stones: i, to_move: Player::First }) }
//! #     fn index_of(&self, p: &Pile) -> Option<u64> { (p.stones < 400).then_some(p.stones) }
//! # }
//! # impl Predecessors for Piles {
//! #     fn predecessors(&self, p: &Pile, found: &mut dyn FnMut(u64)) {
//! #         for take in 1..=3 { if p.stones + take < 400 { found(p.stones + take); } }
//! #     }
//! # }
//! // A table of 400 indices (the subtraction game of the crate's example).
//! let label = Label::new("pile", "0-399", "stones-v1");
//! let table: Table = Generator::new(&Piles).label(label.clone()).backward()?;
//!
//! let path = std::env::temp_dir().join(format!("piles-{}.rtbz", std::process::id()));
//! compressed::write(&table, &path)?;
//! let probe = CompressedTable::open(&path, &label)?;
//! for i in 0..table.len() {
//!     assert_eq!(probe.get(i)?, table.get(i)); // one block read per probe
//! }
//! assert_eq!(probe.to_table()?, table);
//! // Another label is refused.
//! let other = Label::new("pile", "0-99", "stones-v1");
//! assert!(CompressedTable::open(&path, &other).is_err());
//! std::fs::remove_file(&path)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use crate::format::{FileFormat, Header, check_label, checksum, u64_at};

mod coder;
mod source;

use crate::{Counts, Label, LoadError, Table, Value};
use coder::{Model, Prior, decode_block, decode_priors, encode_block, encode_priors, train};
use source::{FileSource, Source};

/// The first eight bytes of every compressed file.
pub const MAGIC: [u8; 8] = *b"GTRETRC\x1a";
/// The version of the compressed format this crate writes and reads.
pub const VERSION: u16 = 2;
/// The earlier version this crate still reads: no priors (every block's
/// model starts at one half).
pub(crate) const VERSION_1: u16 = 1;
/// Tables of at most this many blocks are also coded without priors, and
/// keep whichever coding is smaller.
const SMALL_TABLE_BLOCKS: usize = 64;
/// `log2` of the block size [`write()`] and [`to_bytes`] use: blocks of
/// 2 048 indices. With the file's priors, that is about the size of
/// blocks of 16 384 without them, each probe decoding an eighth as much:
/// on KQvKR 1 231 KiB and 27 700 random probes a second, against 1 256 KiB
/// and 3 100 a second for version 1's blocks of 16 384 (with priors,
/// blocks of 4 096 come to about 1 207 KiB and 15 000 probes a second,
/// blocks of 1 024 to 1 297 KiB and 50 800).
pub const DEFAULT_BLOCK_LOG2: u32 = 11;
/// The smallest `log2` of a block size.
pub const MIN_BLOCK_LOG2: u32 = 6;
/// The largest `log2` of a block size.
pub const MAX_BLOCK_LOG2: u32 = 24;

// ---------------------------------------------------------------------
// Writing.

fn check_block_log2(block_log2: u32) {
    assert!(
        (MIN_BLOCK_LOG2..=MAX_BLOCK_LOG2).contains(&block_log2),
        "block_log2 {block_log2} outside {MIN_BLOCK_LOG2}..={MAX_BLOCK_LOG2}"
    );
}

/// The header, block index and blocks of `table` (compressed in parallel).
fn encode(table: &Table, block_log2: u32) -> (Vec<u8>, Vec<Vec<u8>>) {
    check_block_log2(block_log2);
    let codes = table.codes();
    let blocks_with = |priors: &[Prior]| -> Vec<Vec<u8>> {
        codes
            .par_chunks(1 << block_log2)
            .map_init(
                || Model::with_priors(priors),
                |model, chunk| encode_block(chunk, model),
            )
            .collect()
    };
    let bytes = |priors: &[Prior], blocks: &[Vec<u8>]| {
        encode_priors(priors).len() + blocks.iter().map(Vec::len).sum::<usize>()
    };
    let mut priors = train(codes, 1 << block_log2);
    let mut blocks = blocks_with(&priors);
    // A small table may not repay its priors: it keeps the smaller coding.
    if blocks.len() <= SMALL_TABLE_BLOCKS && !priors.is_empty() {
        let plain = blocks_with(&[]);
        if bytes(&[], &plain) <= bytes(&priors, &blocks) {
            (priors, blocks) = (Vec::new(), plain);
        }
    }
    let head = header(table, block_log2, VERSION, &priors, &blocks);
    (head, blocks)
}

/// The header and block index of a file of `version` for `table` coded
/// into `blocks` from `priors` (which version 1 cannot hold).
fn header(
    table: &Table,
    block_log2: u32,
    version: u16,
    priors: &[Prior],
    blocks: &[Vec<u8>],
) -> Vec<u8> {
    debug_assert!(version == VERSION || priors.is_empty());
    let label = table.label();
    let counts = table.counts();
    let mut head = Vec::with_capacity(128 + 16 * blocks.len());
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&version.to_le_bytes());
    head.push(block_log2 as u8);
    head.push(0);
    for n in [
        table.len(),
        counts.invalid,
        counts.wins,
        counts.draws,
        counts.losses,
        blocks.len() as u64,
    ] {
        head.extend_from_slice(&n.to_le_bytes());
    }
    for s in [&label.game, &label.material, &label.scheme] {
        // Longer names are cut at a character boundary, as in `format`.
        let mut end = s.len().min(usize::from(u16::MAX));
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        head.extend_from_slice(&(end as u16).to_le_bytes());
        head.extend_from_slice(&s.as_bytes()[..end]);
    }
    if version == VERSION {
        let stored = encode_priors(priors);
        head.extend_from_slice(&(stored.len() as u32).to_le_bytes());
        head.extend_from_slice(&stored);
    }
    let sum = checksum(&head);
    head.extend_from_slice(&sum.to_le_bytes());
    let index_start = head.len();
    let mut end = 0u64;
    for b in blocks {
        end += b.len() as u64;
        head.extend_from_slice(&end.to_le_bytes());
        head.extend_from_slice(&checksum(b).to_le_bytes());
    }
    let sum = checksum(&head[index_start..]);
    head.extend_from_slice(&sum.to_le_bytes());
    head
}

/// The compressed file's bytes for `table`, in blocks of
/// `2^`[`DEFAULT_BLOCK_LOG2`] indices.
#[must_use]
pub fn to_bytes(table: &Table) -> Vec<u8> {
    to_bytes_with(table, DEFAULT_BLOCK_LOG2)
}

/// The compressed file's bytes for `table`, in blocks of `2^block_log2`
/// indices.
///
/// # Panics
///
/// When `block_log2` is outside [`MIN_BLOCK_LOG2`]`..=`[`MAX_BLOCK_LOG2`].
#[must_use]
pub fn to_bytes_with(table: &Table, block_log2: u32) -> Vec<u8> {
    let (mut out, blocks) = encode(table, block_log2);
    for b in blocks {
        out.extend_from_slice(&b);
    }
    out
}

/// Writes `table` compressed to `path` atomically (a temporary file in the
/// same directory, then a rename), in blocks of `2^`[`DEFAULT_BLOCK_LOG2`]
/// indices.
///
/// # Errors
///
/// Any I/O error; the final path is then left as it was.
pub fn write(table: &Table, path: impl AsRef<Path>) -> std::io::Result<()> {
    write_with(table, path, DEFAULT_BLOCK_LOG2)
}

/// [`write()`] with blocks of `2^block_log2` indices.
///
/// # Errors
///
/// Any I/O error; the final path is then left as it was.
///
/// # Panics
///
/// When `block_log2` is outside [`MIN_BLOCK_LOG2`]`..=`[`MAX_BLOCK_LOG2`].
pub fn write_with(table: &Table, path: impl AsRef<Path>, block_log2: u32) -> std::io::Result<()> {
    let (head, blocks) = encode(table, block_log2);
    crate::format::write_file_atomically(path.as_ref(), |file| {
        file.write_all(&head)?;
        for b in &blocks {
            file.write_all(b)?;
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------
// Reading.

/// A checked header and block index.
#[derive(Debug)]
struct Layout {
    label: Label,
    size: u64,
    block_log2: u32,
    counts: Counts,
    /// The probabilities each block's model starts from.
    priors: Vec<Prior>,
    /// Per block: the end of its bytes (from `data`) and their checksum.
    index: Vec<(u64, u64)>,
    /// Where the first block starts.
    data: u64,
}

fn truncated(expected: u64, found: u64) -> LoadError {
    LoadError::Truncated { expected, found }
}

/// `len` bytes at `at`, allocated fallibly, or [`LoadError::Truncated`].
fn read_vec<S: Source + ?Sized>(src: &S, at: u64, len: u64) -> Result<Vec<u8>, LoadError> {
    let end = at.saturating_add(len);
    if src.len() < end {
        return Err(truncated(end, src.len()));
    }
    let n = usize::try_from(len).map_err(|_| LoadError::Memory { bytes: len })?;
    let mut buf = Vec::new();
    buf.try_reserve_exact(n)
        .map_err(|_| LoadError::Memory { bytes: len })?;
    buf.resize(n, 0);
    src.read_at(at, &mut buf)?;
    Ok(buf)
}

fn parse<S: Source + ?Sized>(src: &S, expected: &Label) -> Result<Layout, LoadError> {
    let len = src.len();
    let head = Header::read_as(source::Reader::new(src), Some(FileFormat::Compressed))?;
    let priors = decode_priors(head.priors())?;
    check_label(head.label(), expected)?;
    let label = head.label().clone();
    let block_log2 = u32::from(head.block_log2().unwrap_or(0));
    if !(MIN_BLOCK_LOG2..=MAX_BLOCK_LOG2).contains(&block_log2) || head.reserved() != 0 {
        return Err(LoadError::Corrupted("block size out of range"));
    }
    let size = head.size();
    let counts = head.counts();
    let total = [counts.wins, counts.draws, counts.losses]
        .iter()
        .try_fold(counts.invalid, |a, &b| a.checked_add(b));
    if total != Some(size) {
        return Err(LoadError::Corrupted("counts disagree with the size"));
    }
    let blocks = head.blocks().unwrap_or(0);
    if blocks != size.div_ceil(1 << block_log2) {
        return Err(LoadError::Corrupted("block count disagrees with the size"));
    }
    // The block index: its length is checked against the file's before
    // anything is allocated.
    let index_at = head.len();
    let index_len = blocks
        .checked_mul(16)
        .and_then(|n| n.checked_add(8))
        .ok_or(LoadError::Corrupted("block count too large"))?;
    let raw = read_vec(src, index_at, index_len)?;
    let body = &raw[..raw.len() - 8];
    if checksum(body) != u64_at(&raw, body.len()) {
        return Err(LoadError::Corrupted("block index checksum mismatch"));
    }
    let mut index = Vec::new();
    index
        .try_reserve_exact(body.len() / 16)
        .map_err(|_| LoadError::Memory { bytes: index_len })?;
    let mut last = 0;
    for entry in body.chunks_exact(16) {
        let end = u64_at(entry, 0);
        if end < last {
            return Err(LoadError::Corrupted("block offsets out of order"));
        }
        last = end;
        index.push((end, u64_at(entry, 8)));
    }
    let data = index_at + index_len;
    let end = data.saturating_add(last);
    if len < end {
        return Err(truncated(end, len));
    }
    if len > end {
        return Err(LoadError::Corrupted("bytes after the last block"));
    }
    Ok(Layout {
        label,
        size,
        block_log2,
        counts,
        priors,
        index,
        data,
    })
}

impl Layout {
    fn block_size(&self) -> u64 {
        1 << self.block_log2
    }

    /// The number of codes in block `b`.
    fn codes_in(&self, b: usize) -> usize {
        let start = b as u64 * self.block_size();
        (self.size - start).min(self.block_size()) as usize
    }

    /// Reads, checks and decodes block `b` into `out` (resized).
    fn block<S: Source + ?Sized>(
        &self,
        src: &S,
        b: usize,
        model: &mut Model,
        out: &mut Vec<u8>,
    ) -> Result<(), LoadError> {
        self.block_prefix(src, b, self.codes_in(b), model, out)
    }

    /// Reads and checks block `b` and decodes its first `n` codes into
    /// `out` (resized): the coder is sequential, so a probe decodes up to
    /// its index only.
    fn block_prefix<S: Source + ?Sized>(
        &self,
        src: &S,
        b: usize,
        n: usize,
        model: &mut Model,
        out: &mut Vec<u8>,
    ) -> Result<(), LoadError> {
        let start = if b == 0 { 0 } else { self.index[b - 1].0 };
        let (end, sum) = self.index[b];
        let bytes = read_vec(src, self.data + start, end - start)?;
        if checksum(&bytes) != sum {
            return Err(LoadError::Corrupted("block checksum mismatch"));
        }
        out.clear();
        out.resize(n.min(self.codes_in(b)), 0);
        decode_block(&bytes, model, out)
    }

    /// Every block decoded (in parallel) into one table, its counts
    /// checked against the header's.
    fn table<S: Source + Sync + ?Sized>(&self, src: &S) -> Result<Table, LoadError> {
        let n = usize::try_from(self.size).map_err(|_| LoadError::Memory { bytes: self.size })?;
        let mut codes = Vec::new();
        codes
            .try_reserve_exact(n)
            .map_err(|_| LoadError::Memory { bytes: self.size })?;
        codes.resize(n, 0);
        codes
            .par_chunks_mut(1 << self.block_log2)
            .enumerate()
            .try_for_each_init(
                || (Model::with_priors(&self.priors), Vec::new()),
                |(model, buf), (b, chunk)| {
                    self.block(src, b, model, buf)?;
                    chunk.copy_from_slice(buf);
                    Ok::<(), LoadError>(())
                },
            )?;
        let table = Table::from_codes(self.label.clone(), codes);
        let c = table.counts();
        if (c.invalid, c.wins, c.draws, c.losses)
            != (
                self.counts.invalid,
                self.counts.wins,
                self.counts.draws,
                self.counts.losses,
            )
        {
            return Err(LoadError::Corrupted("counts disagree with the blocks"));
        }
        Ok(table)
    }
}

/// Reads a whole compressed file's bytes back into a [`Table`], checking
/// that it holds `expected`, every block's checksum, and the counts.
///
/// # Errors
///
/// A [`LoadError`] for a truncated, corrupted, wrong-version or
/// wrong-label file; [`LoadError::Memory`] when the table does not fit in
/// memory.
pub fn from_bytes(bytes: &[u8], expected: &Label) -> Result<Table, LoadError> {
    parse(bytes, expected)?.table(bytes)
}

/// The decoded blocks kept by a [`CompressedTable`], most recent last,
/// and the scratch space of decoding.
struct Cache {
    blocks: VecDeque<(usize, Vec<u8>)>,
    capacity: usize,
    model: Model,
    /// Blocks decoded so far.
    decoded: u64,
}

/// A compressed table on disk, probed one block at a time.
///
/// Opening reads and checks the header and the block index (16 bytes per
/// block); each [`get`](Self::get) of an index whose block is not cached
/// reads that block alone with one positioned read, checks its checksum
/// and decodes it. The handle is `Sync`: probes from several threads take
/// turns on an internal lock.
pub struct CompressedTable {
    layout: Layout,
    file: FileSource,
    cache: Mutex<Cache>,
}

impl core::fmt::Debug for CompressedTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CompressedTable")
            .field("label", &self.layout.label)
            .field("len", &self.layout.size)
            .field("block_size", &self.layout.block_size())
            .field("blocks", &self.layout.index.len())
            .finish_non_exhaustive()
    }
}

impl CompressedTable {
    /// The number of decoded blocks a newly opened table keeps: none. A
    /// cached block must be decoded whole, an uncached probe decodes its
    /// block up to its index only, so a cache pays off only when probes
    /// come back to the same few blocks. At uniformly random indices of
    /// KQRvKR (blocks of 2 048), 42 400 probes a second without a cache
    /// against 23 100 with 4 blocks (`cargo xtask bench tb-compress`).
    pub const DEFAULT_CACHE: usize = 0;

    /// Opens the compressed table at `path`, checking its header and
    /// block index and that it holds `expected`.
    ///
    /// # Errors
    ///
    /// [`LoadError::Io`] when the file cannot be read; a [`LoadError`] for
    /// a truncated, corrupted (header or block index), wrong-version or
    /// wrong-label file.
    pub fn open(path: impl AsRef<Path>, expected: &Label) -> Result<CompressedTable, LoadError> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        let file = FileSource { file, len };
        let layout = parse(&file, expected)?;
        let model = Model::with_priors(&layout.priors);
        Ok(CompressedTable {
            layout,
            file,
            cache: Mutex::new(Cache {
                blocks: VecDeque::new(),
                capacity: Self::DEFAULT_CACHE,
                model,
                decoded: 0,
            }),
        })
    }

    /// Keeps up to `blocks` decoded blocks (least recently used dropped
    /// first). With `0`, every probe decodes its block up to its index
    /// only (half a block on average) and keeps nothing.
    #[must_use]
    pub fn with_cache(self, blocks: usize) -> CompressedTable {
        {
            let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            cache.capacity = blocks;
            cache.blocks.truncate(blocks);
        }
        self
    }

    /// What the table holds.
    #[must_use]
    pub fn label(&self) -> &Label {
        &self.layout.label
    }

    /// The number of indices.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.layout.size
    }

    /// Is the table empty?
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.layout.size == 0
    }

    /// The counts of invalid indices, wins, draws and losses the header
    /// states (no longest wins or losses).
    #[must_use]
    pub fn counts(&self) -> Counts {
        self.layout.counts
    }

    /// Indices per block.
    #[must_use]
    pub fn block_size(&self) -> u64 {
        self.layout.block_size()
    }

    /// The number of blocks.
    #[must_use]
    pub fn blocks(&self) -> usize {
        self.layout.index.len()
    }

    /// The file's size in bytes.
    #[must_use]
    pub fn file_len(&self) -> u64 {
        self.file.len
    }

    /// Blocks decoded so far by [`get`](Self::get) (cache misses).
    #[must_use]
    pub fn blocks_decoded(&self) -> u64 {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .decoded
    }

    /// The value at `index`, or `None` when the index is invalid or out of
    /// range, exactly as [`Table::get`] on the table written. Reads and
    /// decodes the index's block unless it is cached.
    ///
    /// # Errors
    ///
    /// [`LoadError::Io`] when the block cannot be read;
    /// [`LoadError::Corrupted`] when its checksum fails (or, checksum
    /// passing, its codes are not a table's).
    pub fn get(&self, index: u64) -> Result<Option<Value>, LoadError> {
        if index >= self.layout.size {
            return Ok(None);
        }
        let b = (index >> self.layout.block_log2) as usize;
        let at = (index & (self.layout.block_size() - 1)) as usize;
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let cache = &mut *cache;
        if let Some(k) = cache.blocks.iter().position(|(n, _)| *n == b) {
            let code = cache.blocks[k].1[at];
            if k + 1 != cache.blocks.len()
                && let Some(entry) = cache.blocks.remove(k)
            {
                cache.blocks.push_back(entry);
            }
            return Ok(Value::from_code(code));
        }
        // Reuse the least recently used block's buffer.
        let mut buf = if cache.capacity > 0 && cache.blocks.len() >= cache.capacity {
            cache.blocks.pop_front().map(|(_, v)| v).unwrap_or_default()
        } else {
            Vec::new()
        };
        if cache.capacity > 0 {
            self.layout
                .block(&self.file, b, &mut cache.model, &mut buf)?;
        } else {
            self.layout
                .block_prefix(&self.file, b, at + 1, &mut cache.model, &mut buf)?;
        }
        cache.decoded += 1;
        let code = buf[at];
        if cache.capacity > 0 {
            cache.blocks.push_back((b, buf));
        }
        Ok(Value::from_code(code))
    }

    /// The whole table, every block read, checked and decoded (in
    /// parallel), the counts checked against the header's.
    ///
    /// # Errors
    ///
    /// As [`get`](Self::get); [`LoadError::Memory`] when the table does
    /// not fit in memory.
    pub fn to_table(&self) -> Result<Table, LoadError> {
        self.layout.table(&self.file)
    }
}

#[cfg(test)]
mod tests;
