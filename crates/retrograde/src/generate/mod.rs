//! The generators: how a [`Table`] is computed over an [`IndexSpace`].
//!
//! Three generators, one file each, all level-synchronous (distance `n` is
//! complete before distance `n + 1` starts, so wins are the shortest and
//! losses the longest) and all parallel with rayon over chunks of
//! [`CHUNK`] indices:
//!
//! * [`forward`] — repeated forward sweeps, the textbook's Algorithm 4
//!   ([`Generator::forward`], [`Method::ForwardSweeps`]): needs only the
//!   [`IndexSpace`]; slow, and the independent check of the others.
//! * [`backward`] — Thompson's backward method, over positions and
//!   un-moves ([`Generator::backward`], [`Method::Backward`]): needs
//!   [`Predecessors`].
//! * [`indexed`] — the same backward method over index-level moves
//!   ([`Generator::backward_indexed`], [`Method::BackwardIndexed`]): needs
//!   [`IndexMoves`]; the fast one for chess endings.
//!
//! The two backward generators share their levels ([`levels`]: the move
//! counters, the masks of the distances decided per block, the set of
//! positions still winnable, the level loop). This file holds the
//! [`Generator`] builder and what the generators share: [`Method`],
//! [`MemoryEstimate`], the progress [`Event`]s, the start of a build, the
//! valuing of moves that leave the space through the resolver, the
//! finished table, and the first pass of the forward sweeps and the
//! generic backward method, which classifies every index (invalid,
//! terminal, undecided). [`BuildError`] is in [`error`]; the unit tests are in
//! `tests.rs`.

use core::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

use std::time::Instant;

use gametree_game::{
    Event, Game, IndexMoves, IndexSpace, Limits, MoveBuffer, Outcome, Predecessors, Stop,
};
use rayon::prelude::*;

use crate::value::{DRAW_CODE, INVALID_CODE, RESERVED_CODE, decisive_code};
use crate::{Label, NoExits, Resolve, Table, Value};

mod backward;
mod error;
mod forward;
mod indexed;
mod levels;
#[cfg(test)]
mod tests;

pub use error::BuildError;
use levels::BLOCK;

/// Indices handled by one parallel task.
const CHUNK: u64 = 4096;

/// The three generators: the two methods of the textbook, and the backward
/// method again over index-level moves. Each names a [`Generator`] method
/// that runs it, and a file of `src/generate/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Repeated forward sweeps (Algorithm 4): set the terminal positions,
    /// then sweep every undecided position, valuing it from its successors,
    /// until a sweep finds nothing new. Needs only [`IndexSpace`].
    /// [`Generator::forward`], in `generate/forward.rs`.
    ForwardSweeps,
    /// Thompson's backward method: from the positions decided at distance
    /// `n - 1`, generate the predecessors; a predecessor of a lost position is
    /// won in `n`, and a predecessor whose counter of undecided moves drops
    /// to zero is lost. Needs [`Predecessors`]. [`Generator::backward`], in
    /// `generate/backward.rs`.
    Backward,
    /// Thompson's backward method over index-level moves: the same levels
    /// and the same table as [`Method::Backward`], with successors counted
    /// and predecessors listed by the space as indices, without decoding
    /// positions (one first pass instead of two; much faster on chess
    /// endings). Needs [`IndexMoves`], and trusts the space more than the
    /// generic method does (see [`Generator::backward_indexed`], in
    /// `generate/indexed.rs`). [`Generator::build_indexed`] runs it;
    /// [`Generator::build`], whose space need not implement [`IndexMoves`],
    /// refuses it with [`BuildError::Unsupported`]. It needs the same
    /// memory as [`Method::Backward`].
    BackwardIndexed,
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::ForwardSweeps => "forward sweeps",
            Method::Backward => "backward",
            Method::BackwardIndexed => "indexed backward",
        })
    }
}

/// The memory a build will use, stated before it starts
/// ([`Generator::memory`], and the first [`Event`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// Bytes per index during the build (1 for the values, plus 1 for the
    /// move counters of the backward methods).
    pub bytes_per_index: u64,
    /// The whole working memory in bytes: the per-index arrays, the
    /// backward methods' level mask and open set (1/8 byte per index each)
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

/// A build's progress sink: called with each [`Event`] from the calling
/// thread, once per stage and once per level (never per position):
/// [`Event::Start`] before any memory is allocated, [`Event::Level`] for
/// the initial classification (level 0) and each level or sweep, and
/// [`Event::Done`] with the positions decided and the time.
pub type BuildSink<'a, M> = dyn Fn(&Event<'_, M>) + Sync + 'a;

/// Builds a database over an [`IndexSpace`], by any of the three
/// generators ([`Method`]): [`forward`](Self::forward),
/// [`backward`](Self::backward) and
/// [`backward_indexed`](Self::backward_indexed), or
/// [`build`](Self::build) / [`build_indexed`](Self::build_indexed) by a
/// [`Method`] value.
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
    progress: Option<&'a BuildSink<'a, <S::Game as Game>::Move>>,
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

    /// Builds on a pool of `threads` worker threads (1 = single thread;
    /// [`gametree_game::ALL_CORES`], 0, every core, the workspace's one
    /// meaning of `threads`) instead of rayon's global pool.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Calls `progress` with an [`Event`] at each stage and level.
    #[must_use]
    pub fn progress(mut self, progress: &'a BuildSink<'a, <S::Game as Game>::Move>) -> Self {
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

    /// The memory a build by `method` will use (saturating at `u64::MAX`).
    /// A build allocates its arrays before its first pass over the space,
    /// fallibly: a space too large for the memory available stops it at
    /// once with [`BuildError::Memory`] (or [`BuildError::TooLarge`] when
    /// the size does not fit a `usize`). On a system that overcommits
    /// memory, an allocation may succeed that the system cannot back, and
    /// the process be killed when the build touches it: compare this
    /// estimate with the memory free before building a large space.
    #[must_use]
    pub fn memory(&self, method: Method) -> MemoryEstimate {
        let per = match method {
            Method::ForwardSweeps => 1,
            Method::Backward | Method::BackwardIndexed => 2,
        };
        let threads = self.thread_count() as u64;
        // Per thread: a scratch list of successor or predecessor indices.
        let scratch = threads.saturating_mul(8 * 1024);
        let size = self.space.size();
        // The backward methods' level mask (8 bytes per block and per
        // chunk) and open set (a bit per index, in 8-byte words).
        let mask = match method {
            Method::ForwardSweeps => 0,
            Method::Backward | Method::BackwardIndexed => {
                (size.div_ceil(BLOCK) + size.div_ceil(CHUNK) + size.div_ceil(64)).saturating_mul(8)
            }
        };
        // Saturating: a space too large to build still gets an estimate.
        MemoryEstimate {
            bytes_per_index: per,
            total_bytes: per
                .saturating_mul(size)
                .saturating_add(mask)
                .saturating_add(scratch),
        }
    }

    fn thread_count(&self) -> usize {
        match self.threads {
            None => rayon::current_num_threads().max(1),
            Some(gametree_game::ALL_CORES) => {
                std::thread::available_parallelism().map_or(1, usize::from)
            }
            Some(n) => n,
        }
    }

    fn emit(&self, event: Event<'_, <S::Game as Game>::Move>) {
        if let Some(p) = self.progress {
            p(&event);
        }
    }

    fn in_pool<T: Send>(&self, work: impl FnOnce() -> T + Send) -> Result<T, BuildError> {
        match self.threads {
            None => Ok(work()),
            Some(_) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(self.thread_count())
                    .build()
                    .map_err(|e| BuildError::ThreadPool(e.to_string()))?;
                Ok(pool.install(work))
            }
        }
    }

    fn start(&self, method: Method) -> Result<Instant, BuildError> {
        let t0 = Instant::now();
        let size = self.space.size();
        if usize::try_from(size).is_err() {
            return Err(BuildError::TooLarge { size });
        }
        self.emit(Event::Start {
            positions: size,
            bytes: self.memory(method).total_bytes,
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

    /// First pass of the forward sweeps and the generic backward method:
    /// invalid indices, terminal positions.
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
    /// Builds the database by `method`: [`Method::ForwardSweeps`] by
    /// [`forward`](Self::forward), [`Method::Backward`] by
    /// [`backward`](Self::backward).
    ///
    /// [`Method::BackwardIndexed`] needs [`IndexMoves`], which this method
    /// does not require of the space, so it is refused here: use
    /// [`build_indexed`](Self::build_indexed), which takes all three
    /// methods, on a space that implements both traits.
    ///
    /// # Errors
    ///
    /// See [`forward`](Self::forward) and [`backward`](Self::backward);
    /// [`BuildError::Unsupported`] for [`Method::BackwardIndexed`].
    pub fn build(&self, method: Method) -> Result<Table, BuildError> {
        match method {
            Method::ForwardSweeps => self.forward(),
            Method::Backward => self.backward(),
            Method::BackwardIndexed => Err(BuildError::Unsupported { method }),
        }
    }
}

impl<S: IndexMoves + Predecessors + Sync> Generator<'_, S> {
    /// Builds the database by `method`, any of the three, over a space with
    /// both un-moves ([`Predecessors`]) and index-level moves
    /// ([`IndexMoves`]): [`Method::ForwardSweeps`] by
    /// [`forward`](Self::forward), [`Method::Backward`] by
    /// [`backward`](Self::backward), [`Method::BackwardIndexed`] by
    /// [`backward_indexed`](Self::backward_indexed). (A space with
    /// [`IndexMoves`] but no [`Predecessors`] calls
    /// [`backward_indexed`](Self::backward_indexed) or
    /// [`forward`](Self::forward) directly.)
    ///
    /// # Errors
    ///
    /// See [`forward`](Self::forward), [`backward`](Self::backward) and
    /// [`backward_indexed`](Self::backward_indexed).
    pub fn build_indexed(&self, method: Method) -> Result<Table, BuildError> {
        match method {
            Method::ForwardSweeps => self.forward(),
            Method::Backward => self.backward(),
            Method::BackwardIndexed => self.backward_indexed(),
        }
    }
}

/// `len` zeroed bytes, one per index of the space.
///
/// # Errors
///
/// [`BuildError::Memory`] when they cannot be allocated.
fn atomic_bytes(len: u64) -> Result<Vec<AtomicU8>, BuildError> {
    zeroed(len, || AtomicU8::new(0))
}

/// A vector of `len` values made by `zero`, allocated fallibly: the one
/// path by which a build allocates an array whose size depends on the
/// space.
///
/// # Errors
///
/// [`BuildError::Memory`] when `len` values do not fit in memory (or in a
/// `usize`).
fn zeroed<T>(len: u64, zero: impl FnMut() -> T) -> Result<Vec<T>, BuildError> {
    let bytes = len.saturating_mul(core::mem::size_of::<T>() as u64);
    let memory = || BuildError::Memory { bytes };
    let len = usize::try_from(len).map_err(|_| memory())?;
    let mut values = Vec::new();
    values.try_reserve_exact(len).map_err(|_| memory())?;
    // Within the capacity: no further allocation.
    values.resize_with(len, zero);
    Ok(values)
}
