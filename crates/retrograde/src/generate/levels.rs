//! The level machinery that Thompson's backward method shares between its
//! two generators ([`backward`](super::backward) over positions and
//! un-moves, [`indexed`](super::indexed) over index-level moves).
//!
//! Retrograde analysis by levels (backward induction one distance at a
//! time): level `n` takes the frontier, the positions decided
//! at distance `n - 1`, and gathers their predecessors; a predecessor of a
//! lost position is won in `n`, and a predecessor of a won position loses
//! one of its moves (its counter in `counters`), lost once none is left.
//! Because every level finishes before the next begins, wins are the
//! shortest and losses the longest. This file holds what both generators
//! use for that: the move counters' layout ([`LOSING_EXIT`],
//! [`MAX_COUNT`]), the [`LevelMask`] of the distances decided in each
//! block and chunk (so a level scans only where its frontier can be), the
//! [`OpenSet`] of positions still winnable, the [`Gather`] trait by which
//! each generator reports predecessors, and the level loop itself
//! ([`Generator::levels`], [`Generator::propagate_with`]).

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, Ordering};

use std::time::Instant;

use gametree_game::IndexSpace;
use rayon::prelude::*;

use super::{BuildError, CHUNK, Event, Generator, zeroed};
use crate::value::{DRAW_CODE, INVALID_CODE, RESERVED_CODE, code_distance, decisive_code};
use crate::{Table, Value};

/// The backward method's counter byte: the low bits count the undecided
/// distinct successors, this bit marks a position with a move out of the
/// space into a position the opponent wins (only those need their exits
/// re-examined when the last move in the space is refuted).
pub(super) const LOSING_EXIT: u8 = 0x80;

/// The most distinct successors the backward method's counters hold.
pub(super) const MAX_COUNT: usize = (LOSING_EXIT - 1) as usize;

/// Indices per block of the [`LevelMask`] (a divisor of [`CHUNK`]).
pub(super) const BLOCK: u64 = 64;

/// One bit per distance modulo 64 for each block of [`BLOCK`] indices: set
/// when a position of the block is decided at that distance, so that a level
/// scans only the blocks that can hold its frontier (1/8 byte per index);
/// and the same for each chunk of [`CHUNK`] indices (the union of its
/// blocks' bits), so that a level skips a chunk in one read.
pub(super) struct LevelMask {
    blocks: Vec<AtomicU64>,
    chunks: Vec<AtomicU64>,
}

impl LevelMask {
    /// The mask of a space of `size` indices, nothing marked.
    ///
    /// # Errors
    ///
    /// [`BuildError::Memory`] when it cannot be allocated.
    pub(super) fn new(size: u64) -> Result<LevelMask, BuildError> {
        let zeros = |n: u64| zeroed(n, || AtomicU64::new(0));
        Ok(LevelMask {
            blocks: zeros(size.div_ceil(BLOCK))?,
            chunks: zeros(size.div_ceil(CHUNK))?,
        })
    }

    #[inline]
    pub(super) fn mark(&self, index: u64, distance: u16) {
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
    pub(super) fn mark_all(&self, distance: u16) {
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
/// predecessors only
/// ([`IndexMoves::predecessor_block_filtered`](gametree_game::IndexMoves::predecessor_block_filtered)): most
/// predecessors of a lost position are decided already (98% in KQRvKR),
/// and at 1/8 byte per index the set mostly stays in the cache where the
/// values do not.
pub(super) struct OpenSet(Vec<AtomicU64>);

impl OpenSet {
    /// The set of a space of `size` indices, allocated before the first
    /// pass and filled after it ([`fill`](Self::fill)).
    ///
    /// # Errors
    ///
    /// [`BuildError::Memory`] when it cannot be allocated.
    pub(super) fn new(size: u64) -> Result<OpenSet, BuildError> {
        Ok(OpenSet(zeroed(size.div_ceil(64), || AtomicU64::new(0))?))
    }

    /// Sets the set from the first pass's values (`codes`, as many as the
    /// size given to [`new`](Self::new)): every index but decided losses
    /// and final wins is open (invalid and terminal indices too, so that a
    /// level still reads, and rejects, a predecessor holding one; and the
    /// bits past the end).
    pub(super) fn fill(&self, codes: &[AtomicU8]) {
        self.0
            .par_iter()
            .zip(codes.par_chunks(64))
            .for_each(|(cell, block)| {
                // Past the end: open (see `word`).
                let past = u64::MAX.checked_shl(block.len() as u32).unwrap_or(0);
                let word = block.iter().enumerate().fold(past, |word, (k, code)| {
                    let open = match code_distance(code.load(Ordering::Relaxed)) {
                        // Decisive: a provisional win stays open.
                        Some(d) => d % 2 == 1,
                        None => true,
                    };
                    word | u64::from(open) << k
                });
                cell.store(word, Ordering::Relaxed);
            });
    }

    /// The bits of the 64 indices from `block` (a multiple of 64). Those
    /// past the end are set, so that a predecessor generator reporting one
    /// is still caught.
    #[inline]
    pub(super) fn word(&self, block: u64) -> u64 {
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
pub(super) struct Marks {
    pub(super) mask: LevelMask,
    pub(super) open: OpenSet,
}

/// How a level of the backward method gathers the predecessors of the
/// frontier indices of a block.
pub(super) trait Gather: Sync {
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

impl<S: IndexSpace + Sync> Generator<'_, S> {
    /// The levels of the backward method, `propagate` deciding each one's
    /// positions, until none can be decided further; reports the progress
    /// and returns the table. `total`: positions decided before the first.
    pub(super) fn levels(
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
                level: u32::from(level),
                decided,
                total,
                valid,
            });
            self.check(t0, total)?;
            if longest.load(Ordering::Relaxed) < level {
                break;
            }
        }
        self.emit(Event::Done {
            nodes: total,
            elapsed: t0.elapsed(),
        });
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
    pub(super) fn propagate_with(
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
pub(super) fn block_members(codes: &[AtomicU8], wanted: u8) -> u64 {
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
