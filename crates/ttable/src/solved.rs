//! The solved layout ([`Config::solved`](crate::Config::solved)): 8-byte
//! slots holding the key bits the bucket index does not determine, the
//! value, the bound and, in the bits left over, the best move, for tables
//! that only hold values searched to the end of the game.
//!
//! A slot is `check << (18 + m) | move << 18 | (value as u16) << 2 | bound`
//! (bound 0 = empty, so an occupied slot is never 0), where `m = 46 - c`
//! for `c` check bits. The check bits and the bucket index together
//! determine the whole 64-bit key:
//!
//! * `2^b` buckets, `b >= 18`: the bucket is the low `b` bits of the key
//!   and the check is `key >> b`, at most `64 - 18 = 46` bits;
//! * any other count `n > 2^18`: the bucket is `(low32 · n) >> 32`, which
//!   grows with the low 32 bits of the key, so two keys in one bucket have
//!   low halves less than `⌈2^32 / n⌉ <= 2^14` apart; their low 14 bits then
//!   tell them apart, and the check is the high 32 bits and the low 14
//!   (`(key >> 32) << 14 | key & 0x3FFF`); with `2^32 / n <= 2^j`, the low
//!   `j` bits suffice, `32 + j` check bits.
//!
//! So `c <= 46` from `2^18` buckets on, and each doubling of the table
//! frees one more bit for the move: `m` bits keep move codes below
//! `2^m - 1` (all ones is "no move"), e.g. 3 bits from `2^21` buckets
//! (128 MiB), enough for Connect Four's 7 columns; other codes are stored
//! as no move.

use crate::config::ScoreConfig;
use crate::entry::{Bound, Entry};

/// The slot a full bucket of `slots` slots gives up for a new entry, given
/// the new key's home slot and a reader of the bucket's words: the home
/// slot, unless it holds an exact value, then the first slot after it that
/// does not (all exact: the home slot). Exact values come only from the
/// principal variation of a search with a window wider than null, a few
/// positions whose subtrees are the biggest of the search; keeping them
/// lets the line be completed and the next search start from them without
/// searching those subtrees again.
#[inline(always)]
pub(crate) fn victim(home: usize, slots: usize, word: impl Fn(usize) -> u64) -> usize {
    for j in 0..slots {
        let i = (home + j) % slots;
        if word(i) & 3 != Bound::Exact as u64 {
            return i;
        }
    }
    home % slots
}

/// The fewest buckets for which 46 check bits keep keys exact.
pub(crate) const MIN_BUCKETS: usize = 1 << 18;

/// The number of key bits a slot keeps.
pub(crate) const CHECK_BITS: u32 = 46;

/// The bits below the check: 16 of value, 2 of bound.
const DATA_BITS: u32 = 64 - CHECK_BITS;
static_assertions::const_assert_eq!(DATA_BITS, 16 + 2);

/// The depth of every entry of the solved layout: "searched to the end".
/// Stores of any other depth are dropped.
pub const SOLVED_DEPTH: u8 = u8::MAX;

/// How a table of the solved layout turns a key into its check bits, and
/// where the move goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolvedKey {
    /// `Some(b)` for `2^b` buckets (the check is `key >> b`), `None` for
    /// the multiply-shift index.
    shift: Option<u32>,
    /// Multiply-shift index: the low bits of the key in the check.
    low_bits: u32,
    /// The bits of the move field (`46 - check bits`).
    move_bits: u32,
}

impl SolvedKey {
    /// The check computation for `buckets` buckets, or `None` if there are
    /// too few for 46 bits to be exact.
    pub(crate) fn new(buckets: usize) -> Option<SolvedKey> {
        if buckets < MIN_BUCKETS {
            return None;
        }
        if buckets.is_power_of_two() {
            let b = buckets.trailing_zeros();
            return Some(SolvedKey {
                shift: Some(b),
                low_bits: 0,
                move_bits: CHECK_BITS - (64 - b),
            });
        }
        // Keys of one bucket have low halves less than ⌈2^32 / n⌉ apart:
        // the smallest j with 2^j >= that (at most 14 from 2^18 buckets).
        let span = (1u64 << 32).div_ceil(buckets as u64);
        let j = 64 - (span - 1).leading_zeros();
        Some(SolvedKey {
            shift: None,
            low_bits: j,
            move_bits: CHECK_BITS - 32 - j,
        })
    }

    /// The check computation a table of `buckets` buckets (`bytes` asked
    /// for) needs under `config`: `None` without the solved layout, an
    /// error if the table is too small for it. Both tables lay out with
    /// this.
    pub(crate) fn for_config(
        config: &crate::Config,
        buckets: usize,
        bytes: usize,
    ) -> Result<Option<SolvedKey>, crate::TableError> {
        if !config.get_solved() {
            return Ok(None);
        }
        SolvedKey::new(buckets)
            .map(Some)
            .ok_or(crate::TableError::new(
                crate::ErrorKind::SolvedTooSmall,
                bytes,
            ))
    }

    /// The check bits of `key` (below `2^(46 - move_bits)`).
    #[inline(always)]
    pub(crate) fn check(self, key: u64) -> u64 {
        match self.shift {
            Some(b) => key >> b,
            None => (key >> 32) << self.low_bits | (key & ((1 << self.low_bits) - 1)),
        }
    }

    /// The whole key of the occupied slot `word` of bucket `bucket` (a table
    /// of `buckets` buckets): the inverse of index plus check.
    pub(crate) fn key_of(self, word: u64, bucket: usize, buckets: usize) -> u64 {
        let check = word >> (DATA_BITS + self.move_bits);
        match self.shift {
            Some(b) => check << b | bucket as u64,
            None => {
                // The bucket holds the low halves from ⌈bucket · 2^32 / n⌉
                // on, fewer than 2^j of them: the one with the stored low
                // `j` bits.
                let j = self.low_bits;
                let mask = (1u64 << j) - 1;
                let first = ((bucket as u64) << 32).div_ceil(buckets as u64);
                let low = first + ((check & mask).wrapping_sub(first) & mask);
                (check >> j) << 32 | low
            }
        }
    }

    /// The occupied slot `word` of a table laid out by `old`, holding `key`,
    /// as this layout stores it: same value, bound and move (no move if its
    /// code does not fit).
    pub(crate) fn repack(self, word: u64, old: SolvedKey, key: u64) -> u64 {
        let data = word & ((1 << DATA_BITS) - 1);
        let mv = (word >> DATA_BITS) & old.no_move();
        let mv = if mv == old.no_move() || mv >= self.no_move() {
            self.no_move()
        } else {
            mv
        };
        (self.check(key) << self.move_bits | mv) << DATA_BITS | data
    }

    /// The bits of the move field.
    #[cfg(test)]
    pub(crate) const fn move_bits(self) -> u32 {
        self.move_bits
    }

    /// The move field's "no move".
    #[inline(always)]
    const fn no_move(self) -> u64 {
        (1 << self.move_bits) - 1
    }

    /// The slot word for `entry` stored with check bits `check` at `ply`
    /// (a move whose code does not fit is stored as no move).
    #[inline(always)]
    pub(crate) fn pack(self, check: u64, entry: &Entry, ply: u32, score: &ScoreConfig) -> u64 {
        let v = score.to_node_relative(entry.value, ply);
        let v = v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        let none = self.no_move();
        let mv = entry.best_move.map_or(none, |m| {
            if u64::from(m) < none {
                u64::from(m)
            } else {
                none
            }
        });
        (check << self.move_bits | mv) << DATA_BITS | u64::from(v as u16) << 2 | entry.bound as u64
    }

    /// Does the occupied slot `word` hold the key with check bits `check`?
    #[inline(always)]
    pub(crate) const fn holds(self, word: u64, check: u64) -> bool {
        word >> (DATA_BITS + self.move_bits) == check
    }

    /// `word` with the move of `old` (same key) when `word` has none.
    #[inline(always)]
    pub(crate) const fn keep_move(self, word: u64, old: u64) -> u64 {
        let field = self.no_move() << DATA_BITS;
        if word & field == field {
            (word & !field) | (old & field)
        } else {
            word
        }
    }

    /// The entry of the occupied slot `word`, its value converted to `ply`.
    #[inline(always)]
    pub(crate) fn unpack(self, word: u64, ply: u32, score: &ScoreConfig) -> Entry {
        const BOUNDS: [Bound; 4] = [Bound::Exact, Bound::Upper, Bound::Lower, Bound::Exact];
        let v = i32::from((word >> 2) as u16 as i16);
        let mv = (word >> DATA_BITS) & self.no_move();
        Entry {
            best_move: (mv != self.no_move()).then_some(mv as u16),
            value: score.to_root_relative(v, ply),
            depth: SOLVED_DEPTH,
            bound: BOUNDS[(word & 3) as usize],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Indexer;

    #[test]
    fn too_few_buckets_are_refused() {
        assert!(SolvedKey::new(MIN_BUCKETS - 1).is_none());
        assert!(SolvedKey::new(MIN_BUCKETS).is_some());
    }

    /// Bucket and check determine the key: keys that collide in both are
    /// equal. Checked on keys that share their high bits and differ only in
    /// the low half, the bits the index compresses.
    #[test]
    fn bucket_and_check_determine_the_key() {
        for n in [
            MIN_BUCKETS,
            MIN_BUCKETS + 1,
            3 << 18,
            (1 << 20) - 7,
            1 << 21,
        ] {
            let ix = Indexer::new(n);
            let sk = SolvedKey::new(n).expect("enough buckets");
            let mut seen = std::collections::HashMap::new();
            let high = 0xDEAD_BEEF_u64 << 32;
            for low in (0..1u64 << 32).step_by(4099).chain(0..50_000) {
                let key = high | low;
                let c = sk.check(key);
                assert!(c < 1 << (CHECK_BITS - sk.move_bits()), "{n} {key:#x}");
                if let Some(other) = seen.insert((ix.bucket(key), c), key) {
                    assert_eq!(other, key, "{n}: two keys share bucket and check");
                }
            }
        }
    }

    /// `key_of` inverts index plus check, and `repack` keeps the entry
    /// when the table grows (including into a count that is not a power of
    /// two).
    #[test]
    fn keys_come_back_and_entries_move() {
        let s = ScoreConfig::default();
        let e = Entry {
            best_move: Some(2),
            value: -17,
            depth: SOLVED_DEPTH,
            bound: Bound::Lower,
        };
        for (from, to) in [
            (MIN_BUCKETS, 2 * MIN_BUCKETS),
            (1 << 20, 1 << 21),
            (1 << 20, 3 << 19),
            (1 << 21, (1 << 22) - 5),
            (3 << 19, 1 << 21),
        ] {
            let (a, b) = (SolvedKey::new(from).unwrap(), SolvedKey::new(to).unwrap());
            let (ia, ib) = (Indexer::new(from), Indexer::new(to));
            let mut x = 0x0123_4567_89AB_CDEFu64;
            for _ in 0..20_000 {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let key = x ^ (x >> 29);
                let w = a.pack(a.check(key), &e, 0, &s);
                assert_eq!(a.key_of(w, ia.bucket(key), from), key, "{from}: {key:#x}");
                let moved = b.repack(w, a, key);
                assert!(b.holds(moved, b.check(key)));
                assert_eq!(b.key_of(moved, ib.bucket(key), to), key);
                let kept = if e.best_move.is_some_and(|m| u64::from(m) < b.no_move())
                    && u64::from(e.best_move.unwrap()) < a.no_move()
                {
                    e.best_move
                } else {
                    None
                };
                assert_eq!(
                    b.unpack(moved, 0, &s),
                    Entry {
                        best_move: kept,
                        ..e
                    }
                );
            }
        }
    }

    #[test]
    fn move_bits_grow_with_the_table() {
        let bits = |n: usize| SolvedKey::new(n).expect("enough").move_bits();
        assert_eq!(bits(MIN_BUCKETS), 0);
        assert_eq!(bits(MIN_BUCKETS + 1), 0);
        assert_eq!(bits(1 << 21), 3); // 128 MiB
        assert_eq!(bits(3 << 20), 3); // 192 MiB: span 1366, 11 low bits
        assert_eq!(bits(1 << 24), 6); // 1 GiB
        assert_eq!(bits(1 << 32), 14);
    }

    #[test]
    fn slots_round_trip() {
        let s = ScoreConfig::default();
        for n in [MIN_BUCKETS, 1 << 21, 3 << 20, 1 << 24] {
            let sk = SolvedKey::new(n).expect("enough buckets");
            let none = (1u16 << sk.move_bits()) - 1;
            for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
                for value in [-32_001, -31_990, -5, 0, 7, 31_000, 32_001] {
                    for best_move in [None, Some(0), Some(3), Some(6), Some(62), Some(1000)] {
                        let e = Entry {
                            best_move,
                            value,
                            depth: SOLVED_DEPTH,
                            bound,
                        };
                        let check = (1 << (CHECK_BITS - sk.move_bits())) - 1;
                        let w = sk.pack(check, &e, 0, &s);
                        assert_ne!(w, 0);
                        assert!(sk.holds(w, check));
                        assert!(!sk.holds(w, check - 1));
                        let kept = best_move.filter(|&m| m < none);
                        assert_eq!(
                            sk.unpack(w, 0, &s),
                            Entry {
                                best_move: kept,
                                ..e
                            }
                        );
                        // A store without a move keeps the old one.
                        let bare = sk.pack(
                            check,
                            &Entry {
                                best_move: None,
                                ..e
                            },
                            0,
                            &s,
                        );
                        assert_eq!(sk.unpack(sk.keep_move(bare, w), 0, &s).best_move, kept);
                        assert_eq!(sk.keep_move(w, bare), w);
                    }
                }
            }
        }
    }
}
