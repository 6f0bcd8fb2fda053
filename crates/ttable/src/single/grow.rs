//! Growing a solved table ([`Config::grow`](crate::Config::grow)): the
//! buckets in use, and moving every entry when they double.

use super::{COMPACT_SLOTS, Fast, TranspositionTable};
use crate::Config;
use crate::policy::{Indexer, selector};
use crate::solved::{self, SolvedKey};

/// The buckets an empty table of `total` buckets uses under `config`:
/// `2^18` (16 MiB) for a growing solved table with room to double, else
/// all of them.
pub(super) fn start_buckets(config: &Config, total: usize) -> usize {
    if config.get_solved() && config.get_grow() && total >= 2 * solved::MIN_BUCKETS {
        solved::MIN_BUCKETS
    } else {
        total
    }
}

impl TranspositionTable {
    /// Uses the first `n` buckets (at least `2^18` in the solved layout),
    /// with the index and, in the solved layout, the check bits for `n`.
    pub(super) fn set_active(&mut self, n: usize) {
        self.active = n;
        self.index = Indexer::new(n);
        self.grow_at = usize::MAX;
        if let Fast::Solved(_) = self.fast
            && let Some(sk) = SolvedKey::new(n)
        {
            self.fast = Fast::Solved(sk);
            if n < self.buckets.len() {
                self.grow_at = n * COMPACT_SLOTS * 3 / 4;
            }
        }
    }

    /// Grows a solved table that is three quarters full: twice the buckets (or all
    /// of them, if fewer), every entry moved to its place in the new
    /// layout. From a power of two to twice as many, bucket `i` splits
    /// into `i` and `i + n`, in place; into any other count, the entries
    /// are gathered first (one allocation per growth, not per node).
    #[cold]
    #[inline(never)]
    pub(super) fn grow(&mut self) {
        let Fast::Solved(old) = self.fast else {
            self.grow_at = usize::MAX;
            return;
        };
        let (n, total) = (self.active, self.buckets.len());
        let next = if n <= total / 2 { 2 * n } else { total };
        if next <= n {
            self.grow_at = usize::MAX;
            return;
        }
        if next == 2 * n && n.is_power_of_two() {
            self.set_active(next);
            let Fast::Solved(new) = self.fast else { return };
            self.filled = 0;
            for i in 0..n {
                let Some(b) = self.buckets.get_mut(i) else {
                    break;
                };
                let words = *b;
                if words == [0; COMPACT_SLOTS] {
                    continue;
                }
                *b = [0; COMPACT_SLOTS];
                for w in words.into_iter().filter(|&w| w != 0) {
                    let key = old.key_of(w, i, n);
                    self.put_moved(key, new.repack(w, old, key));
                }
            }
        } else {
            let mut moved = Vec::with_capacity(self.filled);
            for i in 0..n {
                let Some(b) = self.buckets.get_mut(i) else {
                    break;
                };
                moved.extend(
                    b.iter()
                        .filter(|&&w| w != 0)
                        .map(|&w| (old.key_of(w, i, n), w)),
                );
                *b = [0; COMPACT_SLOTS];
            }
            self.set_active(next);
            let Fast::Solved(new) = self.fast else { return };
            self.filled = 0;
            for (key, w) in moved {
                self.put_moved(key, new.repack(w, old, key));
            }
        }
    }

    /// Puts a moved entry (`word`, of `key`) in the first empty slot from
    /// its home slot, else where a store would (`solved::victim`: the home
    /// slot unless it holds an exact value). Only a count that is not a
    /// power of two can crowd more than 8 old entries into one bucket.
    fn put_moved(&mut self, key: u64, word: u64) {
        let Some(b) = self.buckets.get_mut(self.index.bucket(key)) else {
            return;
        };
        let home = selector(key);
        for j in 0..COMPACT_SLOTS {
            let i = (home + j) % COMPACT_SLOTS;
            if b[i] == 0 {
                b[i] = word;
                self.filled += 1;
                return;
            }
        }
        let i = solved::victim(home, COMPACT_SLOTS, |i| b[i]);
        b[i] = word;
    }
}
