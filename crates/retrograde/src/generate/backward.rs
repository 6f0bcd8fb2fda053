//! Thompson's backward method ([`Generator::backward`],
//! [`Method::Backward`]), over positions and the space's predecessor
//! generator ([`Predecessors`]).
//!
//! The textbook's retrograde analysis proper (after Ken Thompson's chess
//! endgame databases): instead of valuing every undecided position again
//! at each step, start from the positions already decided and walk the
//! moves backwards. A first pass (shared with the forward sweeps) marks
//! invalid indices and terminal losses; a second one counts each
//! position's distinct successors in the space and values its moves out of
//! it (captures into a sub-ending, through the resolver). Then each level
//! generates the un-moves of the positions decided at distance `n - 1`: a
//! predecessor of a lost position is won in `n`, and one whose counter of
//! undecided moves drops to zero is lost. The levels themselves, shared
//! with [`indexed`](super::indexed), are in [`levels`](super::levels);
//! this file holds what is specific to positions: the move-counting pass,
//! the predecessors of decoded positions ([`ByPosition`]), and the longest
//! loss by a move out of the space.

use std::sync::atomic::{AtomicU8, AtomicU16, Ordering};

use std::time::Instant;

use gametree_game::{IndexSpace, Predecessors};
use rayon::prelude::*;

use super::levels::{Gather, LOSING_EXIT, LevelMask, MAX_COUNT, Marks, OpenSet};
use super::{BuildError, Event, Generator, Method, atomic_bytes};
use crate::value::{DRAW_CODE, INVALID_CODE, decisive_code};
use crate::{Table, Value};

impl<S: Predecessors + Sync> Generator<'_, S> {
    /// Builds the database by Thompson's backward method.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] when the space, its predecessors or the resolver is
    /// inconsistent; [`BuildError::TooLarge`] or [`BuildError::Memory`] when
    /// the space does not fit in memory.
    pub fn backward(&self) -> Result<Table, BuildError> {
        let t0 = self.start(Method::Backward)?;
        self.in_pool(|| self.run_backward(t0))?
    }

    fn run_backward(&self, t0: Instant) -> Result<Table, BuildError> {
        let size = self.space.size();
        // Every array before the first pass, so that a space too large
        // for memory is refused at once.
        let codes = atomic_bytes(size)?;
        let counters = atomic_bytes(size)?;
        let mask = LevelMask::new(size)?;
        let open = OpenSet::new(size)?;
        let (valid, terminal) = self.classify(&codes)?;
        // Terminal losses may sit anywhere.
        mask.mark_all(0);
        let longest = AtomicU16::new(0);
        let exits = self.count_moves(&codes, &counters, &mask, &longest)?;
        let total = terminal + exits;
        open.fill(&codes);
        self.emit(Event::Level {
            level: 0,
            decided: total,
            total,
            valid,
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
