//! The two generators: repeated forward sweeps and Thompson's backward
//! method, both level-synchronous so that they compute exact distances.

use core::fmt;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, Ordering};

use std::time::Instant;

use gametree_game::{
    Counted, Game, IndexMoves, IndexSpace, Limits, MoveBuffer, Outcome, Predecessors, Stop,
};
use rayon::prelude::*;

use crate::value::{DRAW_CODE, INVALID_CODE, RESERVED_CODE, code_distance, decisive_code};
use crate::{Label, NoExits, Resolve, Table, Value};

/// Indices handled by one parallel task.
const CHUNK: u64 = 4096;

/// The backward method's counter byte: the low bits count the undecided
/// distinct successors, this bit marks a position with a move out of the
/// space into a position the opponent wins (only those need their exits
/// re-examined when the last move in the space is refuted).
const LOSING_EXIT: u8 = 0x80;

/// The most distinct successors the backward method's counters hold.
const MAX_COUNT: usize = (LOSING_EXIT - 1) as usize;

/// Indices per block of the [`LevelMask`] (a divisor of [`CHUNK`]).
const BLOCK: u64 = 64;

/// One bit per distance modulo 64 for each block of [`BLOCK`] indices: set
/// when a position of the block is decided at that distance, so that a level
/// scans only the blocks that can hold its frontier (1/8 byte per index);
/// and the same for each chunk of [`CHUNK`] indices (the union of its
/// blocks' bits), so that a level skips a chunk in one read.
struct LevelMask {
    blocks: Vec<AtomicU64>,
    chunks: Vec<AtomicU64>,
}

impl LevelMask {
    fn new(size: u64) -> LevelMask {
        let zeros = |n: u64| (0..n).map(|_| AtomicU64::new(0)).collect();
        LevelMask {
            blocks: zeros(size.div_ceil(BLOCK)),
            chunks: zeros(size.div_ceil(CHUNK)),
        }
    }

    #[inline]
    fn mark(&self, index: u64, distance: u16) {
        let bit = 1u64 << (distance % 64);
        let cell = &self.blocks[(index / BLOCK) as usize];
        if cell.load(Ordering::Relaxed) & bit == 0 {
            cell.fetch_or(bit, Ordering::Relaxed);
            // Whoever sees the block's bit set finds the chunk's set too
            // by the next level (levels are separated by a join).
            let chunk = &self.chunks[(index / CHUNK) as usize];
            if chunk.load(Ordering::Relaxed) & bit == 0 {
                chunk.fetch_or(bit, Ordering::Relaxed);
            }
        }
    }

    /// Marks every block at `distance`.
    fn mark_all(&self, distance: u16) {
        for cell in self.blocks.iter().chain(&self.chunks) {
            cell.fetch_or(1u64 << (distance % 64), Ordering::Relaxed);
        }
    }

    /// Can a block of `chunk` hold a position at `distance`?
    #[inline]
    fn may_hold(&self, chunk: u64, distance: u16) -> bool {
        self.chunks[chunk as usize].load(Ordering::Relaxed) & (1u64 << (distance % 64)) != 0
    }

    /// Can block `block` hold a position at `distance`?
    #[inline]
    fn block_may_hold(&self, block: u64, distance: u16) -> bool {
        self.blocks[block as usize].load(Ordering::Relaxed) & (1u64 << (distance % 64)) != 0
    }
}

/// One bit per index, clear only if the position can no longer be won by
/// a level of the backward method (decided, and not a provisional win by a
/// move out of the space that a shorter one may replace); a set bit
/// promises nothing. A level whose frontier is lost reads a predecessor's
/// value only when its bit is set, and asks the space for those
/// predecessors only ([`IndexMoves::predecessor_block_filtered`]): most
/// predecessors of a lost position are decided already (98% in KQRvKR),
/// and at 1/8 byte per index the set mostly stays in the cache where the
/// values do not.
struct OpenSet(Vec<AtomicU64>);

impl OpenSet {
    /// The set of the first pass's values: every index but decided losses
    /// and final wins is open (invalid and terminal indices too, so that a
    /// level still reads, and rejects, a predecessor holding one; and the
    /// bits past the end).
    fn of(codes: &[AtomicU8]) -> OpenSet {
        OpenSet(
            codes
                .par_chunks(BLOCK as usize)
                .map(|block| {
                    // Past the end: open (see `word`).
                    let past = u64::MAX.checked_shl(block.len() as u32).unwrap_or(0);
                    block.iter().enumerate().fold(past, |word, (k, code)| {
                        let open = match code_distance(code.load(Ordering::Relaxed)) {
                            // Decisive: a provisional win stays open.
                            Some(d) => d % 2 == 1,
                            None => true,
                        };
                        word | u64::from(open) << k
                    })
                })
                .map(AtomicU64::new)
                .collect(),
        )
    }

    /// The bits of the 64 indices from `block` (a multiple of 64). Those
    /// past the end are set, so that a predecessor generator reporting one
    /// is still caught.
    #[inline]
    fn word(&self, block: u64) -> u64 {
        self.0
            .get((block / 64) as usize)
            .map_or(u64::MAX, |w| w.load(Ordering::Relaxed))
    }

    #[inline]
    fn contains(&self, index: u64) -> bool {
        self.0[(index / 64) as usize].load(Ordering::Relaxed) >> (index % 64) & 1 != 0
    }

    /// Closes `index` (decided for good). A plain load and store, even
    /// when several threads close bits of the same word: a bit is never
    /// set again but by a store racing with the clearing of another, which
    /// leaves a closed position open. That costs a read of its value later,
    /// never a wrong result (only a set bit is ever acted on, and only
    /// after reading the value).
    #[inline]
    fn close(&self, index: u64) {
        let cell = &self.0[(index / 64) as usize];
        let bit = 1u64 << (index % 64);
        cell.store(cell.load(Ordering::Relaxed) & !bit, Ordering::Relaxed);
    }
}

/// The backward method's bookkeeping beside the values.
struct Marks {
    mask: LevelMask,
    open: OpenSet,
}

/// The two methods of the textbook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Repeated forward sweeps (Algorithm 4): set the terminal positions,
    /// then sweep every undecided position, valuing it from its successors,
    /// until a sweep finds nothing new. Needs only [`IndexSpace`].
    ForwardSweeps,
    /// Thompson's backward method: from the positions decided at distance
    /// `n - 1`, generate the predecessors; a predecessor of a lost position is
    /// won in `n`, and a predecessor whose counter of undecided moves drops
    /// to zero is lost. Needs [`Predecessors`].
    Backward,
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::ForwardSweeps => "forward sweeps",
            Method::Backward => "backward",
        })
    }
}

/// The memory a build will use, stated before it starts
/// ([`Generator::memory`], and the first [`Event`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// Bytes per index during the build (1 for the values, plus 1 for the
    /// move counters of the backward method).
    pub bytes_per_index: u64,
    /// The whole working memory in bytes: the per-index arrays, the
    /// backward method's level mask and open set (1/8 byte per index each)
    /// and the per-thread scratch buffers. The finished [`Table`] reuses the
    /// value array, so this is also the peak.
    pub total_bytes: u64,
}

impl fmt::Display for MemoryEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mib = self.total_bytes as f64 / (1024.0 * 1024.0);
        write!(f, "{mib:.2} MiB ({} bytes per index)", self.bytes_per_index)
    }
}

/// What a build reports to its progress callback, from the calling thread,
/// once per stage and once per level (never per position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// Sent before any memory is allocated.
    Start {
        /// The method.
        method: Method,
        /// The number of indices.
        size: u64,
        /// The memory the build will use.
        memory: MemoryEstimate,
        /// Worker threads.
        threads: usize,
    },
    /// Every index has been classified.
    Initialised {
        /// Indices that stand for a position.
        valid: u64,
        /// Positions decided before the first level (terminal losses, and
        /// for the backward method positions decided by moves leaving the
        /// space).
        decided: u64,
    },
    /// One level (the backward method) or sweep (forward sweeps) is done:
    /// every position at distance `level` is now known.
    Level {
        /// The distance in plies just completed.
        level: u16,
        /// Positions decided by this level or sweep (by the backward
        /// method: at distance `level`, or later when a move out of the
        /// space lasts longer).
        decided: u64,
        /// Positions decided so far.
        total_decided: u64,
        /// Indices that stand for a position.
        valid: u64,
    },
    /// The table is complete.
    Done {
        /// The number of levels run.
        levels: u16,
    },
}

/// Why a build stopped. Each variant names the index where the problem was
/// found; all of them but [`BuildError::ThreadPool`] and
/// [`BuildError::TooLarge`] point at a bug in the space, its predecessors
/// or the resolver, never at a position that merely has an unusual value.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// `index_of(position(index))` is not `index`.
    InconsistentIndex {
        /// The index whose position maps elsewhere.
        index: u64,
        /// Where its position maps.
        found: Option<u64>,
    },
    /// A move from `index` leads to a position whose index the space marks
    /// invalid.
    InvalidSuccessor {
        /// The parent.
        index: u64,
        /// The successor's index.
        successor: u64,
    },
    /// A move from `index` leaves the space into a non-terminal position the
    /// resolver has no value for.
    Unresolved {
        /// The parent.
        index: u64,
    },
    /// The resolver returned a value the one-byte encoding cannot hold (a
    /// win at an even distance, a loss at an odd one, or too far).
    BadResolvedValue {
        /// The parent.
        index: u64,
        /// The resolver's answer.
        value: Value,
    },
    /// A terminal position is a win for the side to move; the encoding
    /// (wins at odd distances) cannot hold it.
    TerminalWin {
        /// The position's index, or its parent's when the terminal position
        /// is outside the space.
        index: u64,
    },
    /// A position that is not terminal has no moves.
    NoMoves {
        /// The position's index.
        index: u64,
    },
    /// A move from `index` leaves the same player to move. The one-byte
    /// values (wins at odd distances, losses at even ones) and the level
    /// order of both methods need turns that alternate; a game where a
    /// player may move twice in a row (Dots-and-Boxes) is refused rather
    /// than given wrong values. Solve such games with a search.
    TurnKept {
        /// The parent.
        index: u64,
    },
    /// A distance longer than [`Value::MAX_PLIES`].
    TooFar {
        /// The position's index.
        index: u64,
    },
    /// A position has more than 127 distinct successors in the space (the
    /// backward method's counters are bytes, one bit of which flags moves
    /// out of the space into lost positions).
    TooManyMoves {
        /// The position's index.
        index: u64,
    },
    /// The predecessor generator reported an index that is invalid, out of
    /// range, or has no move into the position it was asked about.
    InconsistentPredecessors {
        /// The position whose predecessors were generated.
        index: u64,
        /// The reported predecessor.
        predecessor: u64,
    },
    /// The space does not fit in this machine's address space.
    TooLarge {
        /// The space's size.
        size: u64,
    },
    /// The thread pool could not be built.
    ThreadPool(String),
    /// A limit set by [`Generator::limits`] stopped the build between two
    /// levels; nothing is kept.
    Stopped(Stop),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::InconsistentIndex { index, found } => write!(
                f,
                "index {index}: its position maps back to index {found:?}"
            ),
            BuildError::InvalidSuccessor { index, successor } => write!(
                f,
                "index {index}: a move leads to index {successor}, which is marked invalid"
            ),
            BuildError::Unresolved { index } => write!(
                f,
                "index {index}: a move leaves the space and the resolver has no value for it"
            ),
            BuildError::BadResolvedValue { index, value } => write!(
                f,
                "index {index}: the resolver's value {value} cannot be encoded"
            ),
            BuildError::TerminalWin { index } => write!(
                f,
                "index {index}: a terminal position won by the side to move is not supported"
            ),
            BuildError::NoMoves { index } => {
                write!(f, "index {index}: not terminal but has no moves")
            }
            BuildError::TurnKept { index } => write!(
                f,
                "index {index}: a move leaves the same player to move (retrograde analysis needs alternating turns)"
            ),
            BuildError::TooFar { index } => write!(
                f,
                "index {index}: distance longer than {} plies",
                Value::MAX_PLIES
            ),
            BuildError::TooManyMoves { index } => write!(
                f,
                "index {index}: more than {MAX_COUNT} distinct successors in the space"
            ),
            BuildError::InconsistentPredecessors { index, predecessor } => write!(
                f,
                "index {index}: reported predecessor {predecessor} is invalid or has no move here"
            ),
            BuildError::TooLarge { size } => {
                write!(f, "a space of {size} indices does not fit in memory")
            }
            BuildError::ThreadPool(e) => write!(f, "cannot build the thread pool: {e}"),
            BuildError::Stopped(why) => write!(f, "the build stopped: {why}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds a database over an [`IndexSpace`], by either method.
///
/// ```
/// # use gametree_retrograde::{Generator, Label, Method};
/// # fn demo<S>(space: &S) -> Result<(), gametree_retrograde::BuildError>
/// # where S: gametree_game::Predecessors + Sync {
/// let table = Generator::new(space)
///     .label(Label::new("mygame", "all", "v1"))
///     .threads(2)
///     .build(Method::Backward)?;
/// # let _ = table; Ok(()) }
/// ```
pub struct Generator<'a, S: IndexSpace> {
    space: &'a S,
    resolver: &'a (dyn Resolve<S::Game> + Sync),
    /// The resolver's [`Resolve::knows_terminals`].
    exact_exits: bool,
    label: Label,
    threads: Option<usize>,
    progress: Option<&'a (dyn Fn(&Event) + Sync)>,
    limits: Limits,
}

impl<S: IndexSpace> fmt::Debug for Generator<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator")
            .field("size", &self.space.size())
            .field("label", &self.label)
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

impl<'a, S: IndexSpace + Sync> Generator<'a, S> {
    /// A generator over `space` with no resolver ([`NoExits`]), the label
    /// `unnamed/unnamed/unnamed`, rayon's global thread pool and no progress
    /// callback.
    #[must_use]
    pub fn new(space: &'a S) -> Self {
        Generator {
            space,
            resolver: &NoExits,
            exact_exits: false,
            label: Label::new("unnamed", "unnamed", "unnamed"),
            threads: None,
            progress: None,
            limits: Limits::none(),
        }
    }

    /// Values successors outside the space with `resolver` (see [`Resolve`]).
    #[must_use]
    pub fn resolver(mut self, resolver: &'a (dyn Resolve<S::Game> + Sync)) -> Self {
        self.resolver = resolver;
        self.exact_exits = resolver.knows_terminals();
        self
    }

    /// Names the database (written into the file header).
    #[must_use]
    pub fn label(mut self, label: Label) -> Self {
        self.label = label;
        self
    }

    /// Builds on a pool of `threads` worker threads (1 = single thread)
    /// instead of rayon's global pool.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Calls `progress` with an [`Event`] at each stage and level.
    #[must_use]
    pub fn progress(mut self, progress: &'a (dyn Fn(&Event) + Sync)) -> Self {
        self.progress = Some(progress);
        self
    }

    /// Stops the build, with [`BuildError::Stopped`], when a limit is
    /// reached: [`Limits::time`] (from the build's start) and
    /// [`Limits::cancel`] are checked after the initial classification and
    /// after every level; [`Limits::nodes`] bounds the positions decided so
    /// far, checked at the same points. [`Limits::depth`] is not used. A
    /// level of a large space can take seconds, so a stop comes at the end
    /// of the level running when the limit is reached.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Whether a limit stops the build now, `decided` positions in.
    fn check(&self, t0: Instant, decided: u64) -> Result<(), BuildError> {
        let l = &self.limits;
        let stop = if l.is_cancelled() {
            Some(Stop::Cancelled)
        } else if l.time.is_some_and(|t| t0.elapsed() >= t) {
            Some(Stop::Time)
        } else if l.nodes.is_some_and(|n| decided >= n) {
            Some(Stop::Nodes)
        } else {
            None
        };
        stop.map_or(Ok(()), |s| Err(BuildError::Stopped(s)))
    }

    /// The memory a build by `method` will use.
    #[must_use]
    pub fn memory(&self, method: Method) -> MemoryEstimate {
        let per = match method {
            Method::ForwardSweeps => 1,
            Method::Backward => 2,
        };
        let threads = self.thread_count() as u64;
        // Per thread: a scratch list of successor or predecessor indices.
        let scratch = threads * 8 * 1024;
        // The backward method's level mask (8 bytes per block and per
        // chunk) and open set (a bit per index, in 8-byte words).
        let mask = match method {
            Method::ForwardSweeps => 0,
            Method::Backward => {
                let size = self.space.size();
                (size.div_ceil(BLOCK) + size.div_ceil(CHUNK) + size.div_ceil(64)) * 8
            }
        };
        MemoryEstimate {
            bytes_per_index: per,
            total_bytes: per * self.space.size() + mask + scratch,
        }
    }

    fn thread_count(&self) -> usize {
        self.threads
            .unwrap_or_else(rayon::current_num_threads)
            .max(1)
    }

    fn emit(&self, event: Event) {
        if let Some(p) = self.progress {
            p(&event);
        }
    }

    fn in_pool<T: Send>(&self, work: impl FnOnce() -> T + Send) -> Result<T, BuildError> {
        match self.threads {
            None => Ok(work()),
            Some(n) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .build()
                    .map_err(|e| BuildError::ThreadPool(e.to_string()))?;
                Ok(pool.install(work))
            }
        }
    }

    /// Builds the database by repeated forward sweeps.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] when the space, or the resolver, is inconsistent.
    pub fn forward(&self) -> Result<Table, BuildError> {
        let t0 = self.start(Method::ForwardSweeps)?;
        self.in_pool(|| self.run_forward(t0))?
    }

    fn start(&self, method: Method) -> Result<Instant, BuildError> {
        let t0 = Instant::now();
        let size = self.space.size();
        if usize::try_from(size).is_err() {
            return Err(BuildError::TooLarge { size });
        }
        self.emit(Event::Start {
            method,
            size,
            memory: self.memory(method),
            threads: self.thread_count(),
        });
        Ok(t0)
    }

    fn chunks(&self) -> u64 {
        self.space.size().div_ceil(CHUNK)
    }

    fn range(&self, chunk: u64) -> core::ops::Range<u64> {
        let start = chunk * CHUNK;
        start..(start + CHUNK).min(self.space.size())
    }

    fn position(&self, index: u64) -> Result<S::Game, BuildError> {
        self.space
            .position(index)
            .ok_or(BuildError::InconsistentIndex { index, found: None })
    }

    /// The value of a successor outside the space.
    fn exit_value(&self, child: &S::Game, parent: u64) -> Result<Value, BuildError> {
        let resolved = self.resolver.resolve(child);
        let value = match resolved {
            // No terminal position has these values: the game need not be
            // asked (see `Resolve`).
            Some(v @ Value::Win(_)) => v,
            Some(v @ Value::Loss(d)) if d > 0 => v,
            // A draw or an immediate loss from a resolver exact on terminal
            // positions too: the game would say the same.
            Some(v) if self.exact_exits => v,
            _ => match child.outcome() {
                Some(Outcome::Loss) => Value::Loss(0),
                Some(Outcome::Draw) => Value::Draw,
                Some(Outcome::Win) => return Err(BuildError::TerminalWin { index: parent }),
                None => resolved.ok_or(BuildError::Unresolved { index: parent })?,
            },
        };
        if value.code().is_none() {
            return Err(BuildError::BadResolvedValue {
                index: parent,
                value,
            });
        }
        Ok(value)
    }

    /// Calls `each` with every successor of `position` (index `index`):
    /// `Ok(j)` for one in the space, `Err(value)` for one outside it. Stops
    /// early when `each` returns `false`.
    fn successors(
        &self,
        index: u64,
        position: &S::Game,
        mut each: impl FnMut(Result<u64, Value>) -> Result<bool, BuildError>,
    ) -> Result<(), BuildError> {
        let mut moves = <S::Game as Game>::Moves::default();
        position.generate(&mut moves);
        if moves.is_empty() {
            return Err(BuildError::NoMoves { index });
        }
        let mut p = position.clone();
        let side = position.side_to_move();
        for &m in moves.as_slice() {
            let undo = p.make(m);
            if p.side_to_move() == side {
                return Err(BuildError::TurnKept { index });
            }
            let child = match self.space.index_of(&p) {
                Some(j) => Ok(j),
                None => Err(self.exit_value(&p, index)),
            };
            p.unmake(m, undo);
            let go = match child {
                Ok(j) => each(Ok(j))?,
                Err(v) => each(Err(v?))?,
            };
            if !go {
                break;
            }
        }
        Ok(())
    }

    /// First pass of both methods: invalid indices, terminal positions.
    /// Returns (valid, decided).
    fn classify(&self, codes: &[AtomicU8]) -> Result<(u64, u64), BuildError> {
        (0..self.chunks())
            .into_par_iter()
            .map(|chunk| {
                let (mut valid, mut decided) = (0u64, 0u64);
                for i in self.range(chunk) {
                    let code = match self.space.position(i) {
                        None => INVALID_CODE,
                        Some(p) => {
                            let back = self.space.index_of(&p);
                            if back != Some(i) {
                                return Err(BuildError::InconsistentIndex {
                                    index: i,
                                    found: back,
                                });
                            }
                            valid += 1;
                            match p.outcome() {
                                None => DRAW_CODE,
                                Some(Outcome::Draw) => RESERVED_CODE,
                                Some(Outcome::Loss) => {
                                    decided += 1;
                                    decisive_code(0)
                                }
                                Some(Outcome::Win) => {
                                    return Err(BuildError::TerminalWin { index: i });
                                }
                            }
                        }
                    };
                    codes[i as usize].store(code, Ordering::Relaxed);
                }
                Ok((valid, decided))
            })
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))
    }

    fn run_forward(&self, t0: Instant) -> Result<Table, BuildError> {
        let size = self.space.size();
        let codes = atomic_bytes(size);
        let (valid, mut total) = self.classify(&codes)?;
        self.emit(Event::Initialised {
            valid,
            decided: total,
        });
        self.check(t0, total)?;
        let mut level: u16 = 0;
        loop {
            level += 1;
            let (decided, exit_max) = self.sweep(&codes, level)?;
            total += decided;
            self.emit(Event::Level {
                level,
                decided,
                total_decided: total,
                valid,
            });
            self.check(t0, total)?;
            if decided == 0 && exit_max < level {
                break;
            }
            if level > Value::MAX_PLIES {
                // Nothing can be decided at a distance the encoding cannot hold.
                return Err(BuildError::TooFar { index: 0 });
            }
        }
        self.emit(Event::Done { levels: level });
        Ok(self.finish(codes))
    }

    /// One forward sweep: decides every undecided position whose value
    /// follows from successors at distances below `n`. Returns the number
    /// decided and the longest distance of a successor outside the space
    /// seen from a position still undecided.
    fn sweep(&self, codes: &[AtomicU8], n: u16) -> Result<(u64, u16), BuildError> {
        (0..self.chunks())
            .into_par_iter()
            .map(|chunk| {
                let (mut decided, mut exit_max) = (0u64, 0u16);
                for i in self.range(chunk) {
                    if codes[i as usize].load(Ordering::Relaxed) != DRAW_CODE {
                        continue;
                    }
                    let p = self.position(i)?;
                    let mut win: Option<u16> = None;
                    let mut all_lost = true;
                    let mut loss_len = 0u16;
                    let mut local_exit_max = 0u16;
                    self.successors(i, &p, |child| {
                        // The child's decided distance, counting only
                        // distances below `n` (decided before this sweep).
                        let value = match child {
                            Ok(j) => {
                                let c = codes[j as usize].load(Ordering::Relaxed);
                                if c == INVALID_CODE {
                                    return Err(BuildError::InvalidSuccessor {
                                        index: i,
                                        successor: j,
                                    });
                                }
                                Value::from_code(c).unwrap_or(Value::Draw)
                            }
                            Err(v) => {
                                local_exit_max = local_exit_max.max(v.plies().unwrap_or(0));
                                v
                            }
                        };
                        match value {
                            Value::Loss(d) if d < n => {
                                win = Some(d + 1);
                                return Ok(false);
                            }
                            Value::Win(d) if d < n => loss_len = loss_len.max(d + 1),
                            _ => all_lost = false,
                        }
                        Ok(true)
                    })?;
                    let result = match win {
                        Some(w) => w,
                        None if all_lost => loss_len,
                        None => {
                            exit_max = exit_max.max(local_exit_max);
                            continue;
                        }
                    };
                    debug_assert_eq!(result, n, "index {i}");
                    if result > Value::MAX_PLIES {
                        return Err(BuildError::TooFar { index: i });
                    }
                    codes[i as usize].store(decisive_code(result), Ordering::Relaxed);
                    decided += 1;
                }
                Ok((decided, exit_max))
            })
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1.max(b.1))))
    }

    fn finish(&self, codes: Vec<AtomicU8>) -> Table {
        // In-place collect: the allocation is reused.
        let codes: Vec<u8> = codes
            .into_iter()
            .map(|c| match c.into_inner() {
                RESERVED_CODE => DRAW_CODE,
                c => c,
            })
            .collect();
        Table::from_codes(self.label.clone(), codes)
    }
}

impl<S: Predecessors + Sync> Generator<'_, S> {
    /// Builds the database by Thompson's backward method.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] when the space, its predecessors or the resolver is
    /// inconsistent.
    pub fn backward(&self) -> Result<Table, BuildError> {
        let t0 = self.start(Method::Backward)?;
        self.in_pool(|| self.run_backward(t0))?
    }

    /// Builds the database by `method`.
    ///
    /// # Errors
    ///
    /// See [`forward`](Self::forward) and [`backward`](Self::backward).
    pub fn build(&self, method: Method) -> Result<Table, BuildError> {
        match method {
            Method::ForwardSweeps => self.forward(),
            Method::Backward => self.backward(),
        }
    }

    fn run_backward(&self, t0: Instant) -> Result<Table, BuildError> {
        let size = self.space.size();
        let codes = atomic_bytes(size);
        let counters = atomic_bytes(size);
        let mask = LevelMask::new(size);
        let (valid, terminal) = self.classify(&codes)?;
        // Terminal losses may sit anywhere.
        mask.mark_all(0);
        let longest = AtomicU16::new(0);
        let exits = self.count_moves(&codes, &counters, &mask, &longest)?;
        let total = terminal + exits;
        let open = OpenSet::of(&codes);
        self.emit(Event::Initialised {
            valid,
            decided: total,
        });
        let marks = Marks { mask, open };
        self.levels(codes, &longest, (valid, total), t0, |codes, level| {
            self.propagate(codes, &counters, &marks, &longest, level)
        })
    }

    /// Second pass of the backward method: the counters of distinct
    /// successors in the space, and the positions decided by moves that leave
    /// it. Returns how many those decided.
    fn count_moves(
        &self,
        codes: &[AtomicU8],
        counters: &[AtomicU8],
        mask: &LevelMask,
        longest: &AtomicU16,
    ) -> Result<u64, BuildError> {
        (0..self.chunks())
            .into_par_iter()
            .map_init(Vec::new, |inside: &mut Vec<u64>, chunk| {
                let mut decided = 0u64;
                for i in self.range(chunk) {
                    if codes[i as usize].load(Ordering::Relaxed) != DRAW_CODE {
                        continue;
                    }
                    let p = self.position(i)?;
                    inside.clear();
                    let mut exit_win: Option<u16> = None;
                    let mut exit_draw = false;
                    let mut exit_loss = 0u16;
                    self.successors(i, &p, |child| {
                        match child {
                            Ok(j) => {
                                // Classification is complete, and this pass
                                // never writes the invalid code.
                                if codes[j as usize].load(Ordering::Relaxed) == INVALID_CODE {
                                    return Err(BuildError::InvalidSuccessor {
                                        index: i,
                                        successor: j,
                                    });
                                }
                                inside.push(j);
                            }
                            Err(Value::Loss(d)) => {
                                exit_win = Some(exit_win.map_or(d + 1, |w| w.min(d + 1)));
                            }
                            Err(Value::Win(d)) => exit_loss = exit_loss.max(d + 1),
                            Err(Value::Draw) => exit_draw = true,
                        }
                        Ok(true)
                    })?;
                    inside.sort_unstable();
                    inside.dedup();
                    let count = inside.len() + usize::from(exit_draw);
                    if count > MAX_COUNT {
                        return Err(BuildError::TooManyMoves { index: i });
                    }
                    let flag = if exit_loss > 0 { LOSING_EXIT } else { 0 };
                    counters[i as usize].store(count as u8 | flag, Ordering::Relaxed);
                    let value = match exit_win {
                        // Provisional: a shorter win in the space may replace it.
                        Some(w) => w,
                        None if count == 0 => exit_loss,
                        None => continue,
                    };
                    if value > Value::MAX_PLIES {
                        return Err(BuildError::TooFar { index: i });
                    }
                    codes[i as usize].store(decisive_code(value), Ordering::Relaxed);
                    mask.mark(i, value);
                    longest.fetch_max(value, Ordering::Relaxed);
                    decided += 1;
                }
                Ok(decided)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }

    /// The longest loss among the moves of `index` that leave the space
    /// (0 when none does): the earliest level at which it can be lost.
    fn exit_loss(&self, index: u64) -> Result<u16, BuildError> {
        let p = self.position(index)?;
        let mut longest = 0u16;
        self.successors(index, &p, |child| {
            if let Err(Value::Win(d)) = child {
                longest = longest.max(d + 1);
            }
            Ok(true)
        })?;
        Ok(longest)
    }

    /// One level of the backward method: un-moves from every position at
    /// distance `n - 1`. Returns the number of positions newly decided.
    fn propagate(
        &self,
        codes: &[AtomicU8],
        counters: &[AtomicU8],
        marks: &Marks,
        longest: &AtomicU16,
        n: u16,
    ) -> Result<u64, BuildError> {
        let gather = ByPosition {
            generator: self,
            // Each distinct predecessor loses one move, once. (Marking wins
            // needs no deduplication: a second visit finds the win already
            // there.)
            distinct: !(n - 1).is_multiple_of(2),
        };
        let exit_loss = |p| self.exit_loss(p);
        self.propagate_with(codes, counters, marks, longest, n, &gather, exit_loss)
    }
}

/// How a level of the backward method gathers the predecessors of the
/// frontier indices of a block.
trait Gather: Sync {
    /// Calls `found(index, predecessor)` for each member `index =
    /// first + k` (bit `k` of `members`) and each predecessor of it, in any
    /// order; `scratch` is a buffer to reuse. With `wanted`, the pairs
    /// whose predecessor is not in it may be left out.
    fn gather(
        &self,
        first: u64,
        members: u64,
        scratch: &mut Vec<u64>,
        wanted: Option<&OpenSet>,
        found: impl FnMut(u64, u64),
    ) -> Result<(), BuildError>;
}

/// [`Predecessors`] on each member's decoded position (the generic method).
struct ByPosition<'a, 'g, S: IndexSpace> {
    generator: &'a Generator<'g, S>,
    /// Report each member's predecessors once each.
    distinct: bool,
}

impl<S: Predecessors + Sync> Gather for ByPosition<'_, '_, S> {
    fn gather(
        &self,
        first: u64,
        members: u64,
        scratch: &mut Vec<u64>,
        _: Option<&OpenSet>,
        mut found: impl FnMut(u64, u64),
    ) -> Result<(), BuildError> {
        let mut rest = members;
        while rest != 0 {
            let i = first + u64::from(rest.trailing_zeros());
            rest &= rest - 1;
            let q = self.generator.position(i)?;
            scratch.clear();
            self.generator
                .space
                .predecessors(&q, &mut |p| scratch.push(p));
            if self.distinct {
                scratch.sort_unstable();
                scratch.dedup();
            }
            for &p in scratch.iter() {
                found(i, p);
            }
        }
        Ok(())
    }
}

/// [`IndexMoves::predecessor_block`] (distinct for each member).
struct ByIndex<'a, S>(&'a S);

impl<S: IndexMoves + Sync> Gather for ByIndex<'_, S> {
    #[inline]
    fn gather(
        &self,
        first: u64,
        members: u64,
        _: &mut Vec<u64>,
        wanted: Option<&OpenSet>,
        found: impl FnMut(u64, u64),
    ) -> Result<(), BuildError> {
        match wanted {
            Some(open) => {
                self.0
                    .predecessor_block_filtered(first, members, |block| open.word(block), found)
            }
            None => self.0.predecessor_block(first, members, found),
        }
        Ok(())
    }
}

impl<S: IndexSpace + Sync> Generator<'_, S> {
    /// The levels of the backward method, `propagate` deciding each one's
    /// positions, until none can be decided further; reports the progress
    /// and returns the table. `total`: positions decided before the first.
    fn levels(
        &self,
        codes: Vec<AtomicU8>,
        longest: &AtomicU16,
        (valid, mut total): (u64, u64),
        t0: Instant,
        mut propagate: impl FnMut(&[AtomicU8], u16) -> Result<u64, BuildError>,
    ) -> Result<Table, BuildError> {
        self.check(t0, total)?;
        let mut level: u16 = 0;
        loop {
            level += 1;
            let decided = propagate(&codes, level)?;
            total += decided;
            self.emit(Event::Level {
                level,
                decided,
                total_decided: total,
                valid,
            });
            self.check(t0, total)?;
            if longest.load(Ordering::Relaxed) < level {
                break;
            }
        }
        self.emit(Event::Done { levels: level });
        Ok(self.finish(codes))
    }

    /// One level of the backward method, the predecessors of the frontier
    /// indices of each block of [`BLOCK`] indices reported by `gather` as
    /// `(frontier index, predecessor)` pairs (distinct for each frontier
    /// index when the frontier is won), and the longest loss by a move out
    /// of the space given by `exit_loss`.
    ///
    /// A predecessor of a won position loses one move whether it is decided
    /// or not: almost none is (99% in KQRvKR's levels), so its value is read
    /// only when its counter runs out. Since each distinct successor is won
    /// once, a counter cannot run out twice; one that is already at zero
    /// belongs to an invalid or terminal index, which a consistent
    /// predecessor generator never reports.
    #[allow(clippy::too_many_arguments)]
    fn propagate_with(
        &self,
        codes: &[AtomicU8],
        counters: &[AtomicU8],
        marks: &Marks,
        longest: &AtomicU16,
        n: u16,
        gather: &impl Gather,
        exit_loss: impl Fn(u64) -> Result<u16, BuildError> + Sync,
    ) -> Result<u64, BuildError> {
        let size = self.space.size();
        let Marks { mask, open } = marks;
        let frontier = decisive_code(n - 1);
        // Positions lost at n - 1 make their predecessors won at n.
        let frontier_lost = (n - 1).is_multiple_of(2);
        // On one thread, the read-modify-write operations are plain loads
        // and stores (no locked instruction, so the random accesses of a
        // level can overlap).
        let cells = Cells {
            exclusive: rayon::current_num_threads() == 1,
        };
        // What a predecessor of a lost position holding each code becomes:
        // won at n when undecided or provisionally won later by a move out
        // of the space; an invalid or terminal drawn position cannot be a
        // predecessor.
        let mut win_verdict = [Verdict::Keep; 256];
        for (code, verdict) in win_verdict.iter_mut().enumerate() {
            let code = code as u8;
            *verdict = if code == INVALID_CODE || code == RESERVED_CODE {
                Verdict::Inconsistent
            } else if code == DRAW_CODE || code_distance(code).is_some_and(|d| d % 2 == 1 && d > n)
            {
                Verdict::Win
            } else {
                Verdict::Keep
            };
        }
        let win_verdict = &win_verdict;
        (0..self.chunks())
            .into_par_iter()
            .filter(|&chunk| mask.may_hold(chunk, n - 1))
            .map_init(
                || (Vec::new(), Vec::new()),
                |(preds, scratch): &mut (Vec<u64>, Vec<u64>), chunk| {
                    let mut decided = 0u64;
                    let mut furthest = 0u16;
                    let range = self.range(chunk);
                    // The blocks that can hold the frontier (the chunk starts
                    // on a block).
                    for block in range.start / BLOCK..range.end.div_ceil(BLOCK) {
                        if !mask.block_may_hold(block, n - 1) {
                            continue;
                        }
                        let first = block * BLOCK;
                        // Codes written during this level are at distance >= n,
                        // and no code at distance n - 1 is overwritten, so this
                        // scan sees exactly the frontier, before or after the
                        // block's predecessors are visited.
                        let end = (first + BLOCK).min(range.end);
                        let members = block_members(&codes[first as usize..end as usize], frontier);
                        if members == 0 {
                            continue;
                        }
                        preds.clear();
                        // A lost frontier's predecessors matter only while
                        // they can be won.
                        let wanted = frontier_lost.then_some(open);
                        gather.gather(first, members, scratch, wanted, |_, p| preds.push(p))?;
                        // The frontier index a wrong predecessor was reported
                        // for (gathered again on this rare path).
                        let bad = |p, scratch: &mut Vec<u64>| {
                            let mut index = None;
                            let found = gather.gather(first, members, scratch, None, |i, q| {
                                if q == p {
                                    index.get_or_insert(i);
                                }
                            });
                            match (found, index) {
                                (Err(e), _) => e,
                                (Ok(()), index) => BuildError::InconsistentPredecessors {
                                    index: index.unwrap_or(first),
                                    predecessor: p,
                                },
                            }
                        };
                        if frontier_lost {
                            if n > Value::MAX_PLIES {
                                if let Some(&p) = preds.first() {
                                    return Err(if p >= size {
                                        bad(p, scratch)
                                    } else {
                                        BuildError::TooFar { index: p }
                                    });
                                }
                                continue;
                            }
                            for &p in preds.iter() {
                                if p < size && !open.contains(p) {
                                    // Decided for good (the common case).
                                    continue;
                                }
                                let Some(cell) = codes.get(p as usize) else {
                                    return Err(bad(p, scratch));
                                };
                                let mut current = cell.load(Ordering::Relaxed);
                                loop {
                                    match win_verdict[usize::from(current)] {
                                        Verdict::Keep => {
                                            // Decided for good: a loss (left
                                            // open when decided, see below)
                                            // or a provisional win by a move
                                            // out of the space, final now.
                                            open.close(p);
                                            break;
                                        }
                                        Verdict::Inconsistent => return Err(bad(p, scratch)),
                                        Verdict::Win => {}
                                    }
                                    match cells.replace(cell, current, decisive_code(n)) {
                                        Ok(()) => {
                                            decided += 1;
                                            open.close(p);
                                            mask.mark(p, n);
                                            furthest = furthest.max(n);
                                            break;
                                        }
                                        Err(now) => current = now,
                                    }
                                }
                            }
                            continue;
                        }
                        for &p in preds.iter() {
                            // The counter first, whether the predecessor is
                            // decided or not (almost all are not), so that
                            // its value is read only on its last move.
                            let Some(counter) = counters.get(p as usize) else {
                                return Err(bad(p, scratch));
                            };
                            let before = cells.decrement(counter);
                            if before & !LOSING_EXIT == 0 {
                                return Err(bad(p, scratch));
                            }
                            let cell = &codes[p as usize];
                            if before & !LOSING_EXIT == 1
                                && cell.load(Ordering::Relaxed) == DRAW_CODE
                            {
                                // Every move in the space loses: lost, at n or
                                // later if a move out of the space lasts longer.
                                let d = if before & LOSING_EXIT != 0 {
                                    n.max(exit_loss(p)?)
                                } else {
                                    n
                                };
                                if d > Value::MAX_PLIES {
                                    return Err(BuildError::TooFar { index: p });
                                }
                                // Left open: closing it would cost a random
                                // access per loss, and a loss is rarely a
                                // predecessor of a loss (a winning level
                                // closes it if it ever meets it).
                                if cells.replace(cell, DRAW_CODE, decisive_code(d)).is_ok() {
                                    decided += 1;
                                    mask.mark(p, d);
                                    furthest = furthest.max(d);
                                }
                            }
                        }
                    }
                    longest.fetch_max(furthest, Ordering::Relaxed);
                    Ok(decided)
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }
}

impl<S: IndexMoves + Sync> Generator<'_, S> {
    /// Builds the database by Thompson's backward method over index-level
    /// moves ([`IndexMoves`]): the same table as
    /// [`backward`](Self::backward), faster when the space computes
    /// successor and predecessor indices directly from an index. One pass
    /// classifies every index and counts its moves (the generic method
    /// takes two, and decodes and re-numbers every successor); each level
    /// takes the predecessors' indices from the space. The space is trusted
    /// to be consistent (the generic method checks
    /// `index_of(position(i)) == i` and that no move leads to an invalid
    /// index); compare the two on a space before relying on this one.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] when the space, its moves or the resolver is
    /// inconsistent in a way the build notices.
    pub fn backward_indexed(&self) -> Result<Table, BuildError> {
        let t0 = self.start(Method::Backward)?;
        self.in_pool(|| self.run_backward_indexed(t0))?
    }

    fn run_backward_indexed(&self, t0: Instant) -> Result<Table, BuildError> {
        let size = self.space.size();
        let codes = atomic_bytes(size);
        let counters = atomic_bytes(size);
        let mask = LevelMask::new(size);
        let longest = AtomicU16::new(0);
        let (valid, total) = self.classify_and_count(&codes, &counters, &mask, &longest)?;
        let marks = Marks {
            mask,
            open: OpenSet::of(&codes),
        };
        self.emit(Event::Initialised {
            valid,
            decided: total,
        });
        let gather = ByIndex(self.space);
        let exit_loss = |p| self.exit_loss_indexed(p);
        self.levels(codes, &longest, (valid, total), t0, |codes, level| {
            self.propagate_with(
                codes, &counters, &marks, &longest, level, &gather, exit_loss,
            )
        })
    }

    /// The first pass of [`backward_indexed`](Self::backward_indexed): the
    /// classification of [`classify`](Self::classify) and the counters and
    /// exit decisions of [`count_moves`](Self::count_moves) in one visit of
    /// each index. Returns (valid, decided).
    fn classify_and_count(
        &self,
        codes: &[AtomicU8],
        counters: &[AtomicU8],
        mask: &LevelMask,
        longest: &AtomicU16,
    ) -> Result<(u64, u64), BuildError> {
        (0..self.chunks())
            .into_par_iter()
            .map(|chunk| {
                let (mut valid, mut decided) = (0u64, 0u64);
                let mut furthest = 0u16;
                // The exits of the index being reported, until its `Done`.
                let mut pending = Exits::default();
                // The first error, in index order; the rest of the chunk is
                // then ignored.
                let mut failed: Option<BuildError> = None;
                self.space.successor_counts(self.range(chunk), |i, report| {
                    if failed.is_some() {
                        return;
                    }
                    let counted = match report {
                        Counted::Exit(child) => {
                            pending.count += 1;
                            match self.exit_value(child, i) {
                                Ok(Value::Loss(d)) => {
                                    pending.win = Some(pending.win.map_or(d + 1, |w| w.min(d + 1)));
                                }
                                Ok(Value::Win(d)) => pending.loss = pending.loss.max(d + 1),
                                Ok(Value::Draw) => pending.draw = true,
                                Err(e) => {
                                    pending.error.get_or_insert(e);
                                }
                            }
                            return;
                        }
                        Counted::Done(None) => {
                            // Invalid (the common case without exits first).
                            if pending.count != 0 {
                                pending = Exits::default();
                            }
                            codes[i as usize].store(INVALID_CODE, Ordering::Relaxed);
                            return;
                        }
                        Counted::Done(counted) => counted,
                    };
                    let exit = if pending.count == 0 {
                        Exits::default()
                    } else {
                        core::mem::take(&mut pending)
                    };
                    match Self::first_code(i, counted, exit, counters, mask) {
                        Ok((code, value)) => {
                            valid += 1;
                            if code_distance(code).is_some() {
                                decided += 1;
                                furthest = furthest.max(value);
                            }
                            codes[i as usize].store(code, Ordering::Relaxed);
                        }
                        Err(e) => failed = Some(e),
                    }
                });
                if let Some(e) = failed {
                    return Err(e);
                }
                longest.fetch_max(furthest, Ordering::Relaxed);
                Ok((valid, decided))
            })
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))
    }

    /// The first pass's code of index `i` from what the space counted and
    /// what its exits are worth; stores its counter and marks its level.
    /// Returns the code and, for a decisive one, its distance.
    #[inline]
    fn first_code(
        i: u64,
        counted: Option<(Option<Outcome>, usize)>,
        exit: Exits,
        counters: &[AtomicU8],
        mask: &LevelMask,
    ) -> Result<(u8, u16), BuildError> {
        let Some((outcome, count)) = counted else {
            return Ok((INVALID_CODE, 0));
        };
        match outcome {
            Some(Outcome::Draw) => Ok((RESERVED_CODE, 0)),
            Some(Outcome::Loss) => {
                mask.mark(i, 0);
                Ok((decisive_code(0), 0))
            }
            Some(Outcome::Win) => Err(BuildError::TerminalWin { index: i }),
            None => {
                if let Some(e) = exit.error {
                    return Err(e);
                }
                if count + exit.count == 0 {
                    return Err(BuildError::NoMoves { index: i });
                }
                let count = count + usize::from(exit.draw);
                if count > MAX_COUNT {
                    return Err(BuildError::TooManyMoves { index: i });
                }
                let flag = if exit.loss > 0 { LOSING_EXIT } else { 0 };
                counters[i as usize].store(count as u8 | flag, Ordering::Relaxed);
                let value = match exit.win {
                    // Provisional: a shorter win in the space may replace it.
                    Some(w) => w,
                    None if count == 0 => exit.loss,
                    None => 0,
                };
                if value == 0 {
                    return Ok((DRAW_CODE, 0));
                }
                if value > Value::MAX_PLIES {
                    return Err(BuildError::TooFar { index: i });
                }
                mask.mark(i, value);
                Ok((decisive_code(value), value))
            }
        }
    }

    /// [`exit_loss`](Self::exit_loss) through [`IndexMoves`].
    fn exit_loss_indexed(&self, index: u64) -> Result<u16, BuildError> {
        let mut longest = 0u16;
        let mut error = None;
        self.space.successor_indices(
            index,
            |_| {},
            |child| match self.exit_value(child, index) {
                Ok(Value::Win(d)) => longest = longest.max(d + 1),
                Ok(_) => {}
                Err(e) => {
                    error.get_or_insert(e);
                }
            },
        );
        match error {
            Some(e) => Err(e),
            None => Ok(longest),
        }
    }
}

/// What the moves of one index that leave the space are worth, gathered by
/// the first pass of [`Generator::backward_indexed`].
#[derive(Default)]
struct Exits {
    /// Their number.
    count: usize,
    /// The shortest win one of them gives, if any.
    win: Option<u16>,
    /// Does one of them draw?
    draw: bool,
    /// The longest loss one of them gives (0 if none).
    loss: u16,
    /// The first error met while valuing them.
    error: Option<BuildError>,
}

/// What a level does with a predecessor of a lost position, by its code.
#[derive(Clone, Copy)]
enum Verdict {
    /// Decided already at n or less (or a loss): left alone.
    Keep,
    /// Won at n.
    Win,
    /// Not a possible predecessor: the generator is inconsistent.
    Inconsistent,
}

/// Read-modify-write operations on the bytes of a level: atomic when
/// several threads work, plain loads and stores when one does.
#[derive(Clone, Copy)]
struct Cells {
    /// One thread: no other can write between a load and a store.
    exclusive: bool,
}

impl Cells {
    /// Subtracts one; returns the previous value.
    #[inline]
    fn decrement(self, cell: &AtomicU8) -> u8 {
        if self.exclusive {
            let before = cell.load(Ordering::Relaxed);
            cell.store(before.wrapping_sub(1), Ordering::Relaxed);
            before
        } else {
            cell.fetch_sub(1, Ordering::Relaxed)
        }
    }

    /// Stores `new` if the cell holds `current`; else returns what it holds.
    #[inline]
    fn replace(self, cell: &AtomicU8, current: u8, new: u8) -> Result<(), u8> {
        if self.exclusive {
            let now = cell.load(Ordering::Relaxed);
            if now != current {
                return Err(now);
            }
            cell.store(new, Ordering::Relaxed);
            Ok(())
        } else {
            cell.compare_exchange(current, new, Ordering::Relaxed, Ordering::Relaxed)
                .map(|_| ())
        }
    }
}

/// The bit set of the `codes` equal to `wanted`, bit `k` for `codes[k]`
/// (only the first 64 are looked at). The loads go to a local array first,
/// and the comparisons are made eight bytes at a time in a word (about 360
/// instructions a block fewer than a compare per byte, by callgrind; when
/// the blocks are far apart, the scan is bound by memory either way).
#[inline]
fn block_members(codes: &[AtomicU8], wanted: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut bytes = [0u8; BLOCK as usize];
    for (byte, code) in bytes.iter_mut().zip(codes) {
        *byte = code.load(Ordering::Relaxed);
    }
    let pattern = u64::from(wanted) * 0x0101_0101_0101_0101;
    let mut members = 0u64;
    for (i, group) in bytes.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(group);
        // Zero bytes where the code is `wanted`; their top bit set below
        // (exactly: no carry crosses a byte).
        let x = u64::from_le_bytes(word) ^ pattern;
        let zero = !(((x & LOW7) + LOW7) | x | LOW7);
        // The eight top bits gathered into the low byte, byte k to bit k.
        members |= ((zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
    }
    // Past the end of a short block: not members.
    let len = codes.len().min(BLOCK as usize) as u32;
    members & u64::MAX.checked_shr(BLOCK as u32 - len).unwrap_or(0)
}

fn atomic_bytes(size: u64) -> Vec<AtomicU8> {
    // In-place collect from a zeroed byte vector: no second allocation.
    vec![0u8; size as usize]
        .into_iter()
        .map(AtomicU8::new)
        .collect()
}

#[cfg(test)]
mod tests {
    use rand_core::Rng;
    use rand_pcg::Pcg64;

    use super::*;

    /// `block_members` against a byte-by-byte comparison, for every code,
    /// every block length and neighbours of the code that differ in one
    /// bit (the top one included, where a word-wide test could carry).
    #[test]
    fn block_members_agrees_with_comparing_each_byte() {
        let mut rng = Pcg64::new(7, 11);
        for wanted in 0..=255u8 {
            for len in 1..=BLOCK as usize {
                let near = [
                    wanted,
                    wanted ^ 0x80,
                    wanted ^ 0x01,
                    wanted ^ 0x7f,
                    wanted.wrapping_add(1),
                    wanted.wrapping_sub(1),
                    0,
                    255,
                ];
                let codes: Vec<AtomicU8> = (0..len)
                    .map(|_| {
                        let r = rng.next_u64();
                        AtomicU8::new(if r & 1 == 0 {
                            near[(r >> 1) as usize % near.len()]
                        } else {
                            (r >> 8) as u8
                        })
                    })
                    .collect();
                let expected = codes.iter().enumerate().fold(0u64, |m, (k, c)| {
                    m | u64::from(c.load(Ordering::Relaxed) == wanted) << k
                });
                assert_eq!(block_members(&codes, wanted), expected, "{wanted} {len}");
            }
        }
        assert_eq!(block_members(&[], 0), 0);
    }
}
