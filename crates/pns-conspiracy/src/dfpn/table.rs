//! df-pn's transposition table: 4-entry buckets of packed `(φ, δ)`,
//! replaced by work, with keys that mix the position's hash and the
//! question asked.

use std::mem::size_of;

use gametree_game::Player;

use crate::common::{Error, INFINITE, Number};

/// The table key of a position: its hash, passed through a bijective mixer
/// (the SplitMix64 finaliser) and then salted by the question and by the
/// root player, so that the answers to the two questions of a solve share a
/// table. Mixing first keeps a game whose hashes are poorly spread (say
/// `k · constant`) from mapping one position under one question onto
/// another position under the other, which plain `hash ^ salt` allows.
pub(super) fn key(hash: u64, salt: u64) -> u64 {
    let mut z = hash;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) ^ salt
}

/// The salt of a question (does the side to move at the root need a win?)
/// asked for a root whose side to move is `root`.
pub(super) fn salt(needs_win: bool, root: Player) -> u64 {
    match (needs_win, root) {
        (true, Player::First) => 0,
        (false, Player::First) => 0x9e37_79b9_7f4a_7c15,
        (true, Player::Second) => 0x2545_f491_4f6c_dd1d,
        (false, Player::Second) => 0xd6e8_feb8_6659_fd93,
    }
}

/// A table entry: `[key, φ << 32 | δ, work]` (φ and δ packed to 32 bits,
/// `u32::MAX` standing for infinity; work 0 marks an empty slot). Plain
/// integers so that a new table is zeroed memory straight from the
/// allocator, which costs nothing for the pages a search never touches.
type Entry = [u64; 3];

fn pack(n: Number) -> u32 {
    if n >= INFINITE {
        u32::MAX
    } else {
        n.min(Number::from(u32::MAX - 1)) as u32
    }
}

fn unpack(n: u32) -> Number {
    if n == u32::MAX {
        INFINITE
    } else {
        Number::from(n)
    }
}

const BUCKET: usize = 4;

/// The largest table: 2^40 bytes (a terabyte).
pub(super) const MAX_TABLE_BYTES: usize = 1 << 40;

#[derive(Debug)]
pub(super) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    used: usize,
    pub(super) stores: u64,
    pub(super) replacements: u64,
}

impl Table {
    pub(super) fn new(bytes: usize) -> Result<Table, Error> {
        let bucket = BUCKET * size_of::<Entry>();
        if bytes < bucket {
            return Err(Error::TooSmall { bytes, min: bucket });
        }
        if bytes > MAX_TABLE_BYTES {
            return Err(Error::TooLarge {
                bytes,
                max: MAX_TABLE_BYTES,
            });
        }
        let buckets = bytes / bucket;
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(buckets * BUCKET)
            .map_err(|_| Error::AllocationFailed { bytes })?;
        entries.resize(buckets * BUCKET, [0; 3]);
        Ok(Table {
            entries,
            mask: buckets - 1,
            used: 0,
            stores: 0,
            replacements: 0,
        })
    }

    pub(super) fn clear(&mut self) {
        self.entries.fill([0; 3]);
        self.used = 0;
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let b = ((key >> 32) as usize ^ key as usize) & self.mask;
        b * BUCKET..(b + 1) * BUCKET
    }

    pub(super) fn get(&self, key: u64) -> Option<(Number, Number)> {
        self.entries[self.bucket(key)]
            .iter()
            .find(|e| e[2] != 0 && e[0] == key)
            .map(|e| (unpack((e[1] >> 32) as u32), unpack(e[1] as u32)))
    }

    pub(super) fn put(&mut self, key: u64, phi: Number, delta: Number, work: u64) {
        self.stores += 1;
        let range = self.bucket(key);
        let slots = &mut self.entries[range];
        let i = slots
            .iter()
            .position(|e| e[2] != 0 && e[0] == key)
            .or_else(|| {
                let empty = slots.iter().position(|e| e[2] == 0);
                self.used += usize::from(empty.is_some());
                empty
            })
            .unwrap_or_else(|| {
                self.replacements += 1;
                (0..BUCKET).min_by_key(|&i| slots[i][2]).unwrap_or(0)
            });
        slots[i] = [
            key,
            u64::from(pack(phi)) << 32 | u64::from(pack(delta)),
            work.max(1),
        ];
    }

    /// Occupied entries, counted as they fill (scanning the table would
    /// touch every page of it).
    pub(super) fn used(&self) -> usize {
        self.used
    }

    pub(super) fn bytes(&self) -> usize {
        self.entries.len() * size_of::<Entry>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game hashing position `k` to `k · φ·2^64` (evenly spread, but
    /// linear): with plain `hash ^ salt`, position 1 under "at least a
    /// draw" had position 0's "win" key.
    #[test]
    fn keys_of_linear_hashes_do_not_collide_across_questions() {
        let hashes: Vec<u64> = (0..4096u64)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let mut keys = std::collections::HashSet::new();
        for needs_win in [true, false] {
            for root in [Player::First, Player::Second] {
                for &h in &hashes {
                    assert!(keys.insert(key(h, salt(needs_win, root))), "{h:#x}");
                }
            }
        }
        assert_eq!(keys.len(), 4 * hashes.len());
    }
}
