//! Repeated forward sweeps ([`Generator::forward`],
//! [`Method::ForwardSweeps`]): the textbook's Algorithm 4, which needs
//! nothing but the [`IndexSpace`] and the game's moves.
//!
//! The first pass (shared with the generic backward method) marks invalid indices
//! and terminal losses. Then sweep `n` visits every undecided position,
//! generates its moves and looks up each successor's value: a position
//! with a successor lost at a distance below `n` is won in `n`, and one all
//! of whose successors are won at distances below `n` is lost in `n`.
//! Sweeps continue until one decides nothing (and no move out of the space
//! can still decide a position later); what is left is drawn. Each sweep
//! reads only values of earlier sweeps, so distances are exact; the price
//! is that every undecided position is visited again at every sweep,
//! which makes this the slow method and the independent check of the
//! backward ones ([`verify::methods_agree`](crate::verify::methods_agree)).

use std::sync::atomic::{AtomicU8, Ordering};

use std::time::Instant;

use gametree_game::IndexSpace;
use rayon::prelude::*;

use super::{BuildError, Event, Generator, Method, atomic_bytes};
use crate::value::{DRAW_CODE, INVALID_CODE, decisive_code};
use crate::{Table, Value};

impl<S: IndexSpace + Sync> Generator<'_, S> {
    /// Builds the database by repeated forward sweeps.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] when the space, or the resolver, is inconsistent;
    /// [`BuildError::TooLarge`] or [`BuildError::Memory`] when the space
    /// does not fit in memory.
    pub fn forward(&self) -> Result<Table, BuildError> {
        let t0 = self.start(Method::ForwardSweeps)?;
        self.in_pool(|| self.run_forward(t0))?
    }

    fn run_forward(&self, t0: Instant) -> Result<Table, BuildError> {
        let size = self.space.size();
        let codes = atomic_bytes(size)?;
        let (valid, mut total) = self.classify(&codes)?;
        self.emit(Event::Level {
            level: 0,
            decided: total,
            total,
            valid,
        });
        self.check(t0, total)?;
        let mut level: u16 = 0;
        loop {
            level += 1;
            let (decided, exit_max) = self.sweep(&codes, level)?;
            total += decided;
            self.emit(Event::Level {
                level: u32::from(level),
                decided,
                total,
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
        self.emit(Event::Done {
            nodes: total,
            elapsed: t0.elapsed(),
        });
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
}
