//! The workload shared by the `throughput` bench and the `interleaved`
//! example (included by both with `#[path]`): the key stream, the entry
//! stored per key, the map capacity that fits a memory budget and the
//! thread CPU clock.

use std::collections::HashMap;

use ahash::RandomState;
use gametree_ttable::{Bound, Entry};

/// The baseline: a hash map from key to entry (ahash).
pub(crate) type Map = HashMap<u64, Entry, RandomState>;

/// A stream of keys drawn uniformly from `n` well-mixed 64-bit keys.
#[derive(Clone)]
pub(crate) struct Keys {
    state: u64,
    n: u64,
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Keys {
    pub(crate) fn new(seed: u64, n: u64) -> Keys {
        Keys { state: seed, n }
    }
    #[inline]
    pub(crate) fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let i = ((u128::from(mix(self.state)) * u128::from(self.n)) >> 64) as u64;
        key(i)
    }
}

#[inline]
pub(crate) fn key(i: u64) -> u64 {
    mix(i ^ 0x5555_5555_5555_5555)
}

#[inline]
pub(crate) fn entry(key: u64) -> Entry {
    Entry {
        best_move: Some(key as u16 & 0x7FFF),
        value: (key >> 48) as i16 as i32 / 2,
        depth: 5,
        bound: Bound::Exact,
    }
}

/// The largest map capacity whose table fits in `bytes`: hashbrown keeps a
/// power of two of buckets of (key, value) plus one control byte, at most
/// 7/8 full.
pub(crate) fn map_capacity(bytes: usize) -> usize {
    let per_bucket = size_of::<(u64, Entry)>() + 1;
    let buckets = (bytes / per_bucket + 1).next_power_of_two() / 2;
    buckets / 8 * 7
}

/// The CPU time this thread has run, in nanoseconds (the kernel updates it
/// at scheduler ticks, a few ms apart: samples of 300 ms are accurate to ~1%).
pub(crate) fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}
