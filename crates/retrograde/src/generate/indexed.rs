//! Thompson's backward method over index-level moves
//! ([`Generator::backward_indexed`], [`Method::BackwardIndexed`]), for
//! spaces implementing [`IndexMoves`].
//!
//! The same retrograde analysis and the same table as
//! [`backward`](super::backward), with the move generation moved from
//! positions to indices, as fast endgame-table generators do: when one
//! piece of a chess ending moves, only its coordinate in the index changes,
//! so a space can compute successor and predecessor indices without
//! decoding a position, generating its moves and numbering the results.
//! One first pass classifies every index and counts its moves
//! ([`IndexMoves::successor_counts`]; the generic method takes two passes);
//! each level takes the frontier's predecessors as indices, a block of 64
//! at a time ([`ByIndex`], over [`IndexMoves::predecessor_block`]). The
//! levels themselves are shared with the generic method
//! ([`levels`](super::levels)). The space is trusted: the consistency
//! checks of the generic method's first pass are not made.

use std::sync::atomic::{AtomicU8, AtomicU16, Ordering};

use std::time::Instant;

use gametree_game::{Counted, IndexMoves, Outcome};
use rayon::prelude::*;

use super::levels::{Gather, LOSING_EXIT, LevelMask, MAX_COUNT, Marks, OpenSet};
use super::{BuildError, Event, Generator, Method, atomic_bytes};
use crate::value::{DRAW_CODE, INVALID_CODE, RESERVED_CODE, code_distance, decisive_code};
use crate::{Table, Value};

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
    /// inconsistent in a way the build notices; [`BuildError::TooLarge`] or
    /// [`BuildError::Memory`] when the space does not fit in memory.
    pub fn backward_indexed(&self) -> Result<Table, BuildError> {
        let t0 = self.start(Method::BackwardIndexed)?;
        self.in_pool(|| self.run_backward_indexed(t0))?
    }

    fn run_backward_indexed(&self, t0: Instant) -> Result<Table, BuildError> {
        let size = self.space.size();
        // Every array before the first pass, so that a space too large
        // for memory is refused at once.
        let codes = atomic_bytes(size)?;
        let counters = atomic_bytes(size)?;
        let mask = LevelMask::new(size)?;
        let open = OpenSet::new(size)?;
        let longest = AtomicU16::new(0);
        let (valid, total) = self.classify_and_count(&codes, &counters, &mask, &longest)?;
        open.fill(&codes);
        let marks = Marks { mask, open };
        self.emit(Event::Level {
            level: 0,
            decided: total,
            total,
            valid,
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
