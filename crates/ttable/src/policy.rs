//! Shared by both tables: where a key lives (bucket index, slot selector)
//! and which slot a store overwrites.

use crate::config::Replacement;
use crate::entry::GENERATION_MASK;

/// The most buckets a table may have: indices are computed from the low 32
/// bits of the key. With 64-byte buckets this is 256 GiB.
pub const MAX_BUCKETS: u64 = 1 << 32;

/// Maps keys to buckets from the **low 32 bits** of the key: for a power of
/// two `2^n` buckets the textbook's "last n bits", otherwise the
/// multiply-shift range reduction `(low32 * buckets) >> 32` (any size, no
/// division). Slot selection uses bits 32..36 and verification the top bits,
/// so index, slot and check bits come from different parts of the key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Indexer {
    buckets: u64,
    mask: u64,
    pow2: bool,
}

impl Indexer {
    pub(crate) fn new(buckets: usize) -> Indexer {
        debug_assert!(buckets >= 1 && buckets as u64 <= MAX_BUCKETS);
        Indexer {
            buckets: buckets as u64,
            mask: buckets as u64 - 1,
            pow2: buckets.is_power_of_two(),
        }
    }

    #[inline]
    pub(crate) fn bucket(&self, key: u64) -> usize {
        if self.pow2 {
            (key & self.mask) as usize
        } else {
            (((key & 0xFFFF_FFFF) * self.buckets) >> 32) as usize
        }
    }
}

/// The bits that choose a key's slots inside its bucket.
#[inline]
pub(crate) const fn selector(key: u64) -> usize {
    (key >> 32) as usize & 0xF
}

/// The slots of a bucket of `slots` slots that may hold a key: `(first, count)`.
#[inline]
pub(crate) const fn candidates(policy: Replacement, key: u64, slots: usize) -> (usize, usize) {
    match policy {
        Replacement::Always | Replacement::DepthPreferred => (selector(key) % slots, 1),
        Replacement::TwoTier => (2 * (selector(key) % (slots / 2)), 2),
        Replacement::DepthMinusAge => (0, slots),
    }
}

/// What the replacement decision needs to know about one slot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SlotView {
    pub(crate) empty: bool,
    pub(crate) depth: u8,
    pub(crate) generation: u8,
}

/// The weight of one generation of age against one ply of depth.
pub(crate) const AGE_WEIGHT: i32 = 8;

/// The slot a store of a `depth`-deep entry of a key that is **not** in
/// the bucket overwrites, or `None` if the policy keeps the old entry
/// (a same-key slot is overwritten in place before this is asked).
#[inline]
pub(crate) fn victim(
    policy: Replacement,
    key: u64,
    slots: usize,
    depth: u8,
    generation: u8,
    view: impl Fn(usize) -> SlotView,
) -> Option<usize> {
    let (first, count) = candidates(policy, key, slots);
    let age = |v: &SlotView| generation.wrapping_sub(v.generation) & GENERATION_MASK;
    let may_replace = |v: &SlotView| v.empty || age(v) != 0 || depth >= v.depth;
    match policy {
        Replacement::Always => Some(first),
        Replacement::DepthPreferred => may_replace(&view(first)).then_some(first),
        Replacement::TwoTier => Some(if may_replace(&view(first)) {
            first
        } else {
            first + 1
        }),
        Replacement::DepthMinusAge => {
            let mut best = first;
            let mut best_score = i32::MAX;
            for i in first..first + count {
                let v = view(i);
                if v.empty {
                    return Some(i);
                }
                let score = i32::from(v.depth) - AGE_WEIGHT * i32::from(age(&v));
                if score < best_score {
                    best_score = score;
                    best = i;
                }
            }
            Some(best)
        }
    }
}

/// The replacement policy as a constant, for code specialised per policy
/// (`Replacement` cannot be a const generic parameter on stable Rust).
pub(crate) const fn policy_code(policy: Replacement) -> u8 {
    match policy {
        Replacement::Always => 0,
        Replacement::DepthPreferred => 1,
        Replacement::TwoTier => 2,
        Replacement::DepthMinusAge => 3,
    }
}

/// The inverse of [`policy_code`].
pub(crate) const fn policy_of(code: u8) -> Replacement {
    match code {
        0 => Replacement::Always,
        1 => Replacement::DepthPreferred,
        2 => Replacement::TwoTier,
        _ => Replacement::DepthMinusAge,
    }
}

/// How many slots `hashfull` samples.
pub(crate) const HASHFULL_SAMPLE: usize = 1000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_of_two_index_is_the_last_bits() {
        let ix = Indexer::new(1 << 10);
        for key in [0u64, 1, 1023, 1024, 0xDEAD_BEEF_1234_5678] {
            assert_eq!(ix.bucket(key), (key % 1024) as usize);
        }
    }

    #[test]
    fn any_size_index_is_in_range_and_uniform() {
        for n in [1usize, 3, 1000, 12_345] {
            let ix = Indexer::new(n);
            let mut counts = vec![0u32; n];
            // low 32 bits swept evenly: each bucket gets an equal share (+-1)
            let samples = n as u128 * 50;
            for i in 0..samples {
                let low = (i << 32) / samples;
                let b = ix.bucket(low as u64 | 0xABCD << 48);
                counts[b] += 1;
            }
            assert!(counts.iter().all(|&c| (49..=51).contains(&c)), "{n}");
        }
    }
}
