//! The tables of a [`Tablebase`] that are in files: added by directory or
//! one at a time, read when first probed, held within a memory budget,
//! and a compressed file decoded whole once its probes pay for it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

use gametree_retrograde::compressed::CompressedTable;
use gametree_retrograde::{LoadError, Table, Value};

use super::compressed::{check_file_header, check_len, is_compressed, read_table};
use super::written::table_bytes;
use super::{COMPRESSED_EXTENSION, Slot, Source, Space, Tablebase, label};
use crate::{Error, Signature};

/// How a table is held in memory ([`Tablebase::held`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Held {
    /// The whole table: built, inserted, loaded, or read from a raw file
    /// (or a compressed one decoded whole).
    Whole,
    /// A compressed file open, only its block index in memory: each probe
    /// reads and decodes one block.
    Blocks,
}

/// What a [`Tablebase`] did with the table of a file
/// ([`Tablebase::set_listener`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Load {
    /// A raw file read whole.
    Read,
    /// A compressed file opened (its header and block index read).
    Opened,
    /// A compressed file decoded whole, in place of probing it by block.
    Decoded,
    /// A table dropped from memory to make room in the budget (read again
    /// when probed again).
    Dropped,
}

/// One [`Load`] of the table of a file, for a listener
/// ([`Tablebase::set_listener`]).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct LoadEvent<'a> {
    /// What was done.
    pub load: Load,
    /// The ending of the file.
    pub ending: &'a Signature,
    /// Every table in memory just after ([`Tablebase::in_memory`]).
    pub in_memory: &'a [(Signature, Held)],
}

/// A listener: called with each [`LoadEvent`], from the thread that
/// reads, while other reads and drops wait (not the probes of the tables
/// in memory).
type Listener = dyn Fn(&LoadEvent<'_>) + Send + Sync;

/// The part of the [`Tablebase`] that the tables of files share.
pub(super) struct Files {
    /// The most bytes of the tables of files held at once.
    budget: u64,
    /// Where an ending has both files: the compressed one.
    prefer_compressed: bool,
    /// Reads so far: the clock of `FileTable::used`.
    clock: AtomicU64,
    /// The bytes of the tables of files held; held by a read, a drop or a
    /// decode for its whole length (they take turns).
    held: Mutex<u64>,
    listener: Option<Box<Listener>>,
    /// The first error hidden by the `Oracle` and `Resolve` traits.
    error: Mutex<Option<Error>>,
}

impl Default for Files {
    fn default() -> Self {
        Files {
            budget: u64::MAX,
            prefer_compressed: false,
            clock: AtomicU64::new(0),
            held: Mutex::new(0),
            listener: None,
            error: Mutex::new(None),
        }
    }
}

impl fmt::Debug for Files {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Files")
            .field("budget", &self.budget)
            .field("prefer_compressed", &self.prefer_compressed)
            .field("held", &self.held.try_lock().map(|h| *h).ok())
            .field("listener", &self.listener.is_some())
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Files {
    /// Forgets a file's table, removed from the tablebase.
    pub(super) fn forget(&self, file: &FileTable) {
        let mut held = lock(&self.held);
        if let Some(r) = file
            .state
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            *held -= r.bytes();
        }
    }

    pub(super) fn keep_error(&self, e: Error) {
        let mut error = lock(&self.error);
        if error.is_none() {
            *error = Some(e);
        }
    }

    pub(super) fn take_error(&self) -> Option<Error> {
        lock(&self.error).take()
    }
}

/// The table of a file, read when first probed.
pub(super) struct FileTable {
    path: PathBuf,
    compressed: bool,
    /// The table in memory, when read.
    state: RwLock<Option<Resident>>,
    /// The clock when it was last probed.
    used: AtomicU64,
    /// Probes of its compressed file by block, since it was opened.
    probes: AtomicU64,
    /// Times it was read (or opened).
    reads: AtomicU64,
}

impl fmt::Debug for FileTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileTable")
            .field("path", &self.path)
            .field("held", &self.held())
            .finish_non_exhaustive()
    }
}

impl FileTable {
    fn held(&self) -> Option<Held> {
        let state = self.state.read().unwrap_or_else(PoisonError::into_inner);
        state.as_ref().map(Resident::held)
    }
}

/// A file's table in memory.
#[derive(Clone)]
enum Resident {
    Whole(Arc<Table>),
    Blocks(Arc<CompressedTable>),
}

impl Resident {
    fn held(&self) -> Held {
        match self {
            Resident::Whole(_) => Held::Whole,
            Resident::Blocks(_) => Held::Blocks,
        }
    }

    /// The bytes it holds: the table, or the block index (16 bytes a
    /// block).
    fn bytes(&self) -> u64 {
        match self {
            Resident::Whole(t) => t.len(),
            Resident::Blocks(c) => c.blocks() as u64 * 16,
        }
    }

    /// The value at `index`, and whether it was read by block.
    #[inline]
    fn get(&self, index: u64) -> (Result<Option<Value>, LoadError>, bool) {
        match self {
            Resident::Whole(t) => (Ok(t.get(index)), false),
            Resident::Blocks(c) => (c.get(index), true),
        }
    }
}

/// The bytes of the block index of `ending`'s compressed file (16 bytes
/// per block of 2,048 positions), before it is opened.
fn index_bytes(ending: &Signature) -> u64 {
    table_bytes(ending).div_ceil(2048) * 16
}

/// The probes of a compressed file after which its table is decoded whole
/// (when it fits in the budget): one per 1,024 positions, about when the
/// time of the probes so far has reached that of decoding the table, so
/// that the probes cost about twice at most what the better choice,
/// known in hindsight, would have. `cargo xtask bench tb-compress`
/// measures a warm probe (KQRvKR, KQvKR) at the time of decoding 900 to
/// 2,000 positions on two threads (a half to a third of that on one).
fn decode_after(ending: &Signature) -> u64 {
    (table_bytes(ending) / 1024).max(1)
}

impl Tablebase {
    /// The most bytes of the tables of files held in memory at once
    /// (unbounded by default). Reading a table beyond it first drops the
    /// tables of files probed least recently, until it fits or none is
    /// left (a table larger than the budget is read all the same); a
    /// compressed file is decoded whole only when its table fits. The
    /// tables in memory for good (built, inserted, loaded) are not
    /// counted.
    pub fn set_memory_budget(&mut self, bytes: u64) {
        self.files.budget = bytes;
    }

    /// The memory budget of the tables of files
    /// ([`set_memory_budget`](Self::set_memory_budget)).
    #[must_use]
    pub fn memory_budget(&self) -> u64 {
        self.files.budget
    }

    /// Where a directory holds both files of an ending, add the compressed
    /// one (`true`: probed a block at a time, the right choice for a few
    /// probes) instead of the raw one (`false`, the default: read whole,
    /// the right choice for a search's many probes).
    pub fn prefer_compressed(&mut self, yes: bool) {
        self.files.prefer_compressed = yes;
    }

    /// Calls `listener` with each table of a file read, opened, decoded
    /// or dropped, and the tables then in memory (a trace of what the
    /// tablebase holds). It is called while other reads wait: it must not
    /// probe the tablebase.
    pub fn set_listener(&mut self, listener: impl Fn(&LoadEvent<'_>) + Send + Sync + 'static) {
        self.files.listener = Some(Box::new(listener));
    }

    /// Adds every chess table file of `dir`, to be read when first probed:
    /// the files named `ENDING.gtb` (raw) and `ENDING.gtbz` (compressed)
    /// with `ENDING` a signature such as `KQvKR` (other files are passed
    /// over). Where an ending has both, the raw file is added (or the
    /// compressed one, [`prefer_compressed`](Self::prefer_compressed)).
    /// Each file's header is checked now (a few hundred bytes: see
    /// [`add_file`](Self::add_file)), the rest when it is first probed.
    /// The files are added in the order of their names, each in place of
    /// its ending's entry if there was one. Returns the number of files
    /// added.
    ///
    /// # Errors
    ///
    /// [`Error::Directory`] when `dir` cannot be read (missing, not a
    /// directory); as [`add_file`](Self::add_file) for a file whose
    /// header is refused (nothing of the directory is added then).
    pub fn add_directory(&mut self, dir: impl AsRef<Path>) -> Result<usize, Error> {
        let dir = dir.as_ref();
        let refused = |source| Error::Directory {
            path: dir.to_path_buf(),
            source,
        };
        let mut files: Vec<(Signature, PathBuf)> = Vec::new();
        for (ending, path) in table_files(dir).map_err(refused)? {
            let wanted = is_compressed(&path) == self.files.prefer_compressed;
            match files.iter().position(|(s, _)| *s == ending) {
                Some(at) if wanted => files[at].1 = path,
                Some(_) => {}
                None => files.push((ending, path)),
            }
        }
        files.sort_by_key(|(s, _)| s.to_string());
        for (ending, path) in &files {
            check_file_header(ending, path)?;
        }
        let n = files.len();
        for (ending, path) in files {
            self.put_file(ending, path);
        }
        Ok(n)
    }

    /// Adds the file at `path` as `ending`'s table, to be read when first
    /// probed, in place of the ending's entry if there was one: a raw
    /// file (read whole) or, when its name ends in `.gtbz`
    /// ([`is_compressed`]), a compressed one (probed a block at a time,
    /// then decoded whole once probed often: see [`Tablebase`]). Its header
    /// is checked now (the magic bytes, version, checksum, label and size;
    /// a raw file's length too), the rest when it is read.
    ///
    /// # Errors
    ///
    /// [`Error::Load`] when the file cannot be read, or its header is
    /// truncated, corrupted, of another format version or of another
    /// ending; [`Error::Size`] when its size is not the ending's.
    pub fn add_file(&mut self, ending: &Signature, path: impl AsRef<Path>) -> Result<(), Error> {
        let path = path.as_ref();
        check_file_header(ending, path)?;
        self.put_file(ending.clone(), path.to_path_buf());
        Ok(())
    }

    fn put_file(&mut self, ending: Signature, path: PathBuf) {
        let file = FileTable {
            compressed: is_compressed(&path),
            path,
            state: RwLock::new(None),
            used: AtomicU64::new(0),
            probes: AtomicU64::new(0),
            reads: AtomicU64::new(0),
        };
        self.put(Slot {
            space: Space::of(&ending),
            ending,
            source: Source::File(file),
        });
    }

    /// The endings of files with their files' paths, in the order added.
    pub fn files(&self) -> impl Iterator<Item = (&Signature, &Path)> {
        self.slots.iter().filter_map(|s| match &s.source {
            Source::File(f) => Some((&s.ending, f.path.as_path())),
            Source::Memory(_) => None,
        })
    }

    /// The file of exactly this ending (colours as given), when its table
    /// is a file's.
    #[must_use]
    pub fn file(&self, ending: &Signature) -> Option<&Path> {
        match &self.slots[self.slot_of(ending)?].source {
            Source::File(f) => Some(&f.path),
            Source::Memory(_) => None,
        }
    }

    /// The most memory the table of one file takes when first read: a
    /// raw file's table, a compressed file's block index (0 without
    /// files).
    #[must_use]
    pub fn largest_read(&self) -> u64 {
        self.slots
            .iter()
            .filter_map(|s| match &s.source {
                Source::File(f) if f.compressed => Some(index_bytes(&s.ending)),
                Source::File(_) => Some(table_bytes(&s.ending)),
                Source::Memory(_) => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// How exactly this ending's table (colours as given) is held in
    /// memory, or `None` when it is not (a file not read yet, or dropped;
    /// no such ending).
    #[must_use]
    pub fn held(&self, ending: &Signature) -> Option<Held> {
        match &self.slots[self.slot_of(ending)?].source {
            Source::Memory(_) => Some(Held::Whole),
            Source::File(f) => f.held(),
        }
    }

    /// Every ending whose table is in memory, and how, in the order added.
    #[must_use]
    pub fn in_memory(&self) -> Vec<(Signature, Held)> {
        self.slots
            .iter()
            .filter_map(|s| {
                let held = match &s.source {
                    Source::Memory(_) => Some(Held::Whole),
                    Source::File(f) => f.held(),
                };
                held.map(|h| (s.ending.clone(), h))
            })
            .collect()
    }

    /// The bytes of the tables of files in memory (what the budget
    /// bounds).
    #[must_use]
    pub fn memory_held(&self) -> u64 {
        *lock(&self.files.held)
    }

    /// How many times the tables of files have been read (a raw file
    /// read, a compressed one opened or decoded whole) since they were
    /// added.
    #[must_use]
    pub fn reads(&self) -> u64 {
        self.slots
            .iter()
            .map(|s| match &s.source {
                Source::File(f) => f.reads.load(Ordering::Relaxed),
                Source::Memory(_) => 0,
            })
            .sum()
    }

    /// Drops from memory the tables of files whose endings `drop` picks
    /// (read again when probed again) and returns those endings, in the
    /// order added. No listener is called.
    pub fn unload_where(&self, drop: impl Fn(&Signature) -> bool) -> Vec<Signature> {
        let mut held = lock(&self.files.held);
        let mut out = Vec::new();
        for s in &self.slots {
            if let Source::File(f) = &s.source
                && drop(&s.ending)
            {
                let mut state = f.state.write().unwrap_or_else(PoisonError::into_inner);
                if let Some(r) = state.take() {
                    *held -= r.bytes();
                    out.push(s.ending.clone());
                }
            }
        }
        out
    }

    /// The value at `index` of the table of the file of ending `at`,
    /// reading the file first when its table is not in memory.
    #[inline]
    pub(super) fn file_value(
        &self,
        at: usize,
        file: &FileTable,
        index: u64,
    ) -> Result<Option<Value>, Error> {
        let now = self.files.clock.load(Ordering::Relaxed);
        if file.used.load(Ordering::Relaxed) != now {
            file.used.store(now, Ordering::Relaxed);
        }
        let got = {
            let state = file.state.read().unwrap_or_else(PoisonError::into_inner);
            state.as_ref().map(|r| r.get(index))
        };
        let (value, by_block) = match got {
            Some(got) => got,
            None => self.read(at, file)?.get(index),
        };
        let ending = &self.slots[at].ending;
        let value = value.map_err(|source| Error::Load {
            ending: ending.clone(),
            source,
        })?;
        if by_block {
            let n = file.probes.fetch_add(1, Ordering::Relaxed) + 1;
            if n == decode_after(ending) {
                self.decode_whole(at, file)?;
            }
        }
        Ok(value)
    }

    /// Reads (or opens) the file of ending `at`, first dropping the tables
    /// of files probed least recently until it fits in the budget (or none
    /// is left), unless another probe has read it meanwhile; what is then
    /// in memory.
    fn read(&self, at: usize, file: &FileTable) -> Result<Resident, Error> {
        let mut held = lock(&self.files.held);
        if let Some(r) = &*file.state.read().unwrap_or_else(PoisonError::into_inner) {
            return Ok(r.clone());
        }
        let ending = &self.slots[at].ending;
        let bytes = if file.compressed {
            index_bytes(ending)
        } else {
            table_bytes(ending)
        };
        self.make_room(&mut held, bytes, at);
        let resident = if file.compressed {
            let table = CompressedTable::open(&file.path, &label(ending)).map_err(|source| {
                Error::Load {
                    ending: ending.clone(),
                    source,
                }
            })?;
            check_len(ending, table.len())?;
            Resident::Blocks(Arc::new(table))
        } else {
            Resident::Whole(Arc::new(read_table(ending, &file.path)?))
        };
        *held += resident.bytes();
        *file.state.write().unwrap_or_else(PoisonError::into_inner) = Some(resident.clone());
        file.probes.store(0, Ordering::Relaxed);
        file.reads.fetch_add(1, Ordering::Relaxed);
        self.files.clock.fetch_add(1, Ordering::Relaxed);
        let load = if file.compressed {
            Load::Opened
        } else {
            Load::Read
        };
        self.tell(load, ending);
        Ok(resident)
    }

    /// Decodes the compressed file of ending `at` whole (every block
    /// checked), in place of probing it a block at a time, when its table
    /// fits in the budget once the tables of files probed least recently
    /// are dropped.
    fn decode_whole(&self, at: usize, file: &FileTable) -> Result<(), Error> {
        let mut held = lock(&self.files.held);
        let blocks = match &*file.state.read().unwrap_or_else(PoisonError::into_inner) {
            Some(Resident::Blocks(c)) => Arc::clone(c),
            _ => return Ok(()),
        };
        let ending = &self.slots[at].ending;
        let index = Resident::Blocks(Arc::clone(&blocks)).bytes();
        let more = blocks.len().saturating_sub(index);
        self.make_room(&mut held, more, at);
        if *held + more > self.files.budget {
            return Ok(());
        }
        let table = blocks.to_table().map_err(|source| Error::Load {
            ending: ending.clone(),
            source,
        })?;
        *held += more;
        *file.state.write().unwrap_or_else(PoisonError::into_inner) =
            Some(Resident::Whole(Arc::new(table)));
        file.reads.fetch_add(1, Ordering::Relaxed);
        self.tell(Load::Decoded, ending);
        Ok(())
    }

    /// Drops the tables of files probed least recently (never that of
    /// ending `keep`) until `bytes` more fit in the budget, or none is
    /// left to drop.
    fn make_room(&self, held: &mut u64, bytes: u64, keep: usize) {
        while held.saturating_add(bytes) > self.files.budget {
            let oldest = self
                .slots
                .iter()
                .enumerate()
                .filter_map(|(i, s)| match &s.source {
                    Source::File(f) if i != keep && f.held().is_some() => Some((i, f)),
                    _ => None,
                })
                .min_by_key(|(_, f)| f.used.load(Ordering::Relaxed));
            let Some((i, f)) = oldest else { break };
            let dropped = f
                .state
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(r) = dropped {
                *held -= r.bytes();
                self.tell(Load::Dropped, &self.slots[i].ending);
            }
        }
    }

    /// Tells the listener, if any.
    fn tell(&self, load: Load, ending: &Signature) {
        if let Some(listener) = &self.files.listener {
            let in_memory = self.in_memory();
            listener(&LoadEvent {
                load,
                ending,
                in_memory: &in_memory,
            });
        }
    }
}

/// The table files of `dir`: every `.gtb` and `.gtbz` file whose name is
/// an ending (`KQvK.gtb`), with that ending, in the directory's order
/// (other files are passed over; nothing is opened).
/// [`Tablebase::add_directory`] adds them.
///
/// # Errors
///
/// The error of reading the directory (missing, not a directory, no
/// permission).
pub fn table_files(dir: &Path) -> std::io::Result<Vec<(Signature, PathBuf)>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let extension = path.extension().and_then(|e| e.to_str());
        if !matches!(extension, Some("gtb" | COMPRESSED_EXTENSION)) {
            continue;
        }
        let Some(ending) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse::<Signature>().ok())
        else {
            continue;
        };
        files.push((ending, path));
    }
    Ok(files)
}
