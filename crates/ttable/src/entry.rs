//! What a table stores and gives back, and the 48-bit packing shared by all
//! layouts.

use crate::config::ScoreConfig;

/// What a stored value says about the true value of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Bound {
    /// The value is an upper bound (the search failed low: `value <= alpha`).
    Upper = 1,
    /// The value is a lower bound (the search failed high: `value >= beta`).
    Lower = 2,
    /// The value is exact.
    Exact = 3,
}

impl Bound {
    #[inline]
    const fn from_bits(bits: u64) -> Bound {
        const BY_BITS: [Bound; 4] = [Bound::Exact, Bound::Upper, Bound::Lower, Bound::Exact];
        BY_BITS[(bits & 3) as usize]
    }
}

/// The move code that means "no move". Moves are stored as 16-bit codes
/// (`gametree_game::PackMove` in the gametree workspace produces them); this code is
/// reserved.
pub const NO_MOVE: u16 = u16::MAX;

/// The search result for one position, as stored and as given back.
///
/// `value` is relative to the root of the search that stores or probes it
/// (the table converts decisive scores to node-relative on store and back on
/// probe, see [`ScoreConfig`]). Values are stored in 16 bits: values outside
/// `i16` are saturated (every `gametree_game::Score` fits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The best (or refuting) move's 16-bit code, if the search found one.
    /// The code [`NO_MOVE`] is reserved: `Some(NO_MOVE)` is stored as `None`.
    pub best_move: Option<u16>,
    /// The value, in the root-relative convention of the searcher.
    pub value: i32,
    /// The remaining search depth the value was computed with.
    pub depth: u8,
    /// What the value bounds.
    pub bound: Bound,
}

/// A probe that found the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hit {
    /// The stored entry, its value converted to the probing ply.
    pub entry: Entry,
    /// Whether the value may be used at the requested depth under the table's
    /// [`ProbePolicy`](crate::ProbePolicy). The best move may be used for
    /// ordering either way.
    pub usable: bool,
}

impl Hit {
    /// The value to return at once for a search window `(alpha, beta)`, if the
    /// entry is usable and its bound decides the window: an exact value, a
    /// lower bound `>= beta`, or an upper bound `<= alpha`.
    ///
    /// ```
    /// use gametree_ttable::{Bound, Entry, Hit};
    ///
    /// let hit = Hit {
    ///     entry: Entry { best_move: None, value: 50, depth: 3, bound: Bound::Lower },
    ///     usable: true,
    /// };
    /// assert_eq!(hit.cutoff(0, 40), Some(50)); // fails high
    /// assert_eq!(hit.cutoff(0, 60), None); // window not decided
    /// ```
    #[inline]
    #[must_use]
    pub const fn cutoff(&self, alpha: i32, beta: i32) -> Option<i32> {
        if !self.usable {
            return None;
        }
        let v = self.entry.value;
        match self.entry.bound {
            Bound::Exact => Some(v),
            Bound::Lower if v >= beta => Some(v),
            Bound::Upper if v <= alpha => Some(v),
            _ => None,
        }
    }
}

/// Where [`Table::probe_slot`](crate::Table::probe_slot) found a key (or
/// that it did not), for a later [`Table::store_slot`](crate::Table::store_slot)
/// of the same key to skip the search of its bucket.
///
/// A `Slot` is only a hint: `store_slot` checks that the slot still holds
/// the key (other stores may have replaced it in between, e.g. while the
/// searcher explored the node's subtree) and otherwise stores exactly like
/// [`Table::store`](crate::Table::store). So any `Slot`, even one from
/// another table, is safe to pass; it only speeds up the store when it is
/// still accurate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    key: u64,
    index: u8,
}

impl Slot {
    /// A slot that knows only the key: its store searches the bucket.
    #[inline]
    #[must_use]
    pub const fn new(key: u64) -> Slot {
        Slot {
            key,
            index: u8::MAX,
        }
    }

    #[inline]
    pub(crate) const fn at(key: u64, index: usize) -> Slot {
        Slot {
            key,
            index: index as u8,
        }
    }

    /// The key the slot was probed for.
    #[inline]
    #[must_use]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// The index of the key's slot in its bucket, if the probe found it.
    #[inline]
    pub(crate) const fn index(&self) -> usize {
        self.index as usize
    }
}

// The 48-bit data word (bit 0 is the least significant):
//   0..2   bound (0 = empty slot, so an occupied slot is never all zero)
//   2..8   generation (6 bits, cycles every 64 searches)
//   8..16  depth
//   16..32 value (i16, node-relative)
//   32..48 move code
pub(crate) const DATA_BITS: u32 = 48;
pub(crate) const DATA_MASK: u64 = (1 << DATA_BITS) - 1;
pub(crate) const GENERATION_BITS: u32 = 6;
pub(crate) const GENERATION_MASK: u8 = (1 << GENERATION_BITS) - 1;
static_assertions::const_assert!(2 + GENERATION_BITS + 8 + 16 + 16 == DATA_BITS);
static_assertions::const_assert!(DATA_BITS + 16 <= 64); // room for 16 check bits

#[inline]
pub(crate) fn pack(entry: &Entry, ply: u32, generation: u8, score: &ScoreConfig) -> u64 {
    let v = score.to_node_relative(entry.value, ply);
    let v = v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    let mv = entry.best_move.unwrap_or(NO_MOVE);
    (entry.bound as u64)
        | u64::from(generation & GENERATION_MASK) << 2
        | u64::from(entry.depth) << 8
        | u64::from(v as u16) << 16
        | u64::from(mv) << 32
}

#[inline]
pub(crate) const fn data_depth(data: u64) -> u8 {
    (data >> 8) as u8
}

#[inline]
pub(crate) const fn data_generation(data: u64) -> u8 {
    (data >> 2) as u8 & GENERATION_MASK
}

#[inline]
pub(crate) const fn data_move(data: u64) -> u16 {
    (data >> 32) as u16
}

/// Replaces the move code of `data` by `mv`.
#[inline]
pub(crate) const fn with_move(data: u64, mv: u16) -> u64 {
    (data & !(0xFFFF << 32)) | (mv as u64) << 32
}

#[inline]
pub(crate) fn unpack(data: u64, ply: u32, score: &ScoreConfig) -> Entry {
    let mv = data_move(data);
    let v = i32::from((data >> 16) as u16 as i16);
    Entry {
        best_move: (mv != NO_MOVE).then_some(mv),
        value: score.to_root_relative(v, ply),
        depth: data_depth(data),
        bound: Bound::from_bits(data),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trip() {
        let s = ScoreConfig::default();
        for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
            for value in [-32_001, -31_990, -5, 0, 7, 31_000, 32_001] {
                for best_move in [None, Some(0), Some(1234), Some(NO_MOVE - 1)] {
                    for depth in [0, 1, 200, 255] {
                        let e = Entry {
                            best_move,
                            value,
                            depth,
                            bound,
                        };
                        let d = pack(&e, 0, 63, &s);
                        assert_ne!(d, 0);
                        assert_eq!(d & !DATA_MASK, 0);
                        assert_eq!(data_generation(d), 63);
                        assert_eq!(unpack(d, 0, &s), e);
                    }
                }
            }
        }
    }

    #[test]
    fn values_saturate_to_i16() {
        let s = ScoreConfig::default();
        let e = Entry {
            best_move: None,
            value: 100_000,
            depth: 1,
            bound: Bound::Exact,
        };
        assert_eq!(unpack(pack(&e, 0, 0, &s), 0, &s).value, i32::from(i16::MAX));
    }
}
