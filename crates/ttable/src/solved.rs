//! The solved layout ([`Config::solved`](crate::Config::solved)): 8-byte
//! slots holding 46 bits of the key, the value and the bound, for tables
//! that only hold values searched to the end of the game.
//!
//! A slot is `check << 18 | (value as u16) << 2 | bound` (bound 0 = empty,
//! so an occupied slot is never 0). The 46 check bits and the bucket index
//! together determine the whole 64-bit key:
//!
//! * `2^b` buckets, `b >= 18`: the bucket is the low `b` bits of the key
//!   and the check is `key >> b`, at most `64 - 18 = 46` bits;
//! * any other count `n > 2^18`: the bucket is `(low32 · n) >> 32`, which
//!   grows with the low 32 bits of the key, so two keys in one bucket have
//!   low halves less than `⌈2^32 / n⌉ <= 2^14` apart; their low 14 bits then
//!   tell them apart, and the check is the high 32 bits and the low 14
//!   (`(key >> 32) << 14 | key & 0x3FFF`).

use crate::config::ScoreConfig;
use crate::entry::{Bound, Entry};

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

/// How a table of the solved layout turns a key into its check bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolvedKey {
    /// `Some(b)` for `2^b` buckets (the check is `key >> b`), `None` for
    /// the multiply-shift index.
    shift: Option<u32>,
}

impl SolvedKey {
    /// The check computation for `buckets` buckets, or `None` if there are
    /// too few for 46 bits to be exact.
    pub(crate) fn new(buckets: usize) -> Option<SolvedKey> {
        if buckets < MIN_BUCKETS {
            return None;
        }
        Some(SolvedKey {
            shift: buckets.is_power_of_two().then(|| buckets.trailing_zeros()),
        })
    }

    /// The check bits of `key` (below `2^46`).
    #[inline(always)]
    pub(crate) fn check(self, key: u64) -> u64 {
        match self.shift {
            Some(b) => key >> b,
            None => (key >> 32) << 14 | (key & 0x3FFF),
        }
    }
}

/// The slot word for `entry` stored with check bits `check` at `ply`.
#[inline(always)]
pub(crate) fn pack(check: u64, entry: &Entry, ply: u32, score: &ScoreConfig) -> u64 {
    let v = score.to_node_relative(entry.value, ply);
    let v = v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    check << DATA_BITS | u64::from(v as u16) << 2 | entry.bound as u64
}

/// Does the occupied slot `word` hold the key with check bits `check`?
#[inline(always)]
pub(crate) const fn holds(word: u64, check: u64) -> bool {
    word >> DATA_BITS == check
}

/// The entry of the occupied slot `word`, its value converted to `ply`.
#[inline(always)]
pub(crate) fn unpack(word: u64, ply: u32, score: &ScoreConfig) -> Entry {
    const BOUNDS: [Bound; 4] = [Bound::Exact, Bound::Upper, Bound::Lower, Bound::Exact];
    let v = i32::from((word >> 2) as u16 as i16);
    Entry {
        best_move: None,
        value: score.to_root_relative(v, ply),
        depth: SOLVED_DEPTH,
        bound: BOUNDS[(word & 3) as usize],
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
                assert!(c < 1 << CHECK_BITS, "{n} {key:#x}");
                if let Some(other) = seen.insert((ix.bucket(key), c), key) {
                    assert_eq!(other, key, "{n}: two keys share bucket and check");
                }
            }
        }
    }

    #[test]
    fn slots_round_trip() {
        let s = ScoreConfig::default();
        for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
            for value in [-32_001, -31_990, -5, 0, 7, 31_000, 32_001] {
                let e = Entry {
                    best_move: Some(3),
                    value,
                    depth: SOLVED_DEPTH,
                    bound,
                };
                let check = (1 << CHECK_BITS) - 1;
                let w = pack(check, &e, 0, &s);
                assert_ne!(w, 0);
                assert!(holds(w, check));
                let back = unpack(w, 0, &s);
                assert_eq!(
                    back,
                    Entry {
                        best_move: None,
                        ..e
                    }
                );
            }
        }
    }
}
