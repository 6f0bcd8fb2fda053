//! Construction-time choices: replacement policy, probe policy, number of
//! verification bits, and the decisive-score convention.

use crate::error::{ErrorKind, TableError};
use crate::storage::Memory;

/// Which slot a store may overwrite.
///
/// Every bucket holds several slots (8 in the compact layout, 4 in the wide
/// and shared layouts). Bits 32.. of the key choose the slots a key may live
/// in; the policy chooses among them. Under every policy, a slot that already
/// holds the same key is overwritten in place (the newest search of a
/// position is the most relevant), so a key is never stored twice by one
/// thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Replacement {
    /// One slot per key (direct mapped); a store always overwrites it.
    Always,
    /// One slot per key; a store overwrites it only if the new entry is at
    /// least as deep, or the old one is from an earlier generation.
    DepthPreferred,
    /// Two slots per key (Belle's two-level table): the first is
    /// depth-preferred, the second always replaced; a store that may not
    /// replace the first goes to the second.
    TwoTier,
    /// The whole bucket: the same key, else an empty slot, else the slot with
    /// the lowest `depth - 8 * age` (age in generations, modulo 64) is replaced.
    /// Slots are searched from the key's home slot (bits 32.. of the key)
    /// onwards, wrapping around (linear probing inside the cache line), and
    /// a new key takes the first empty slot on that path: in a table that is
    /// not full most keys sit in their home slot, so a probe usually compares
    /// one slot, and a probe of a missing key stops at the first empty slot.
    #[default]
    DepthMinusAge,
}

/// When a found entry's value may be used to cut off the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProbePolicy {
    /// Usable when the stored depth is at least the requested depth.
    #[default]
    Normal,
    /// Usable only when the stored depth equals the requested depth and the
    /// full 64-bit key matches. With it, alpha-beta with a table returns
    /// exactly the values of fixed-depth negamax, which is how searchers are
    /// verified. Needs `check_bits == 64`.
    ExactDepth,
}

/// The decisive-score convention of the searcher: a win in `n` plies is
/// `win - n`, a loss in `n` plies is `-(win - n)`, and `n <= max_ply`.
///
/// The defaults match `gametree_game::Score` of the gametree workspace
/// (`win = 32000`, `max_ply = 1000`). Tables store decisive scores relative to
/// the node (distance from the stored position) and give them back relative to
/// the root (distance from the root of the probing search).
///
/// ```
/// use gametree_ttable::ScoreConfig;
///
/// let s = ScoreConfig::default();
/// let win_in_7 = 32_000 - 7; // found at a node 3 plies below the root
/// assert_eq!(s.to_node_relative(win_in_7, 3), 32_000 - 4);
/// assert_eq!(s.to_root_relative(32_000 - 4, 1), 32_000 - 5);
/// assert_eq!(s.to_node_relative(150, 3), 150); // heuristic: unchanged
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScoreConfig {
    win: i32,
    max_ply: i32,
}

impl Default for ScoreConfig {
    fn default() -> ScoreConfig {
        ScoreConfig {
            win: 32_000,
            max_ply: 1_000,
        }
    }
}

impl ScoreConfig {
    /// A convention with a win at the node worth `win` and decisive distances
    /// up to `max_ply`.
    ///
    /// # Panics
    ///
    /// Panics if `win` is not positive, if `max_ply >= win`, or if
    /// `win + max_ply` does not fit in an `i16` (tables store 16-bit values).
    #[must_use]
    pub const fn new(win: i32, max_ply: u32) -> ScoreConfig {
        assert!(win > 0, "win must be positive");
        assert!((max_ply as i64) < win as i64, "max_ply must be below win");
        assert!(
            win as i64 + max_ply as i64 <= i16::MAX as i64,
            "win + max_ply must fit in an i16"
        );
        ScoreConfig {
            win,
            max_ply: max_ply as i32,
        }
    }

    /// The value of a win at the node itself.
    #[must_use]
    pub const fn win(&self) -> i32 {
        self.win
    }

    /// The longest decisive distance, in plies.
    #[must_use]
    pub const fn max_ply(&self) -> u32 {
        self.max_ply as u32
    }

    /// Is `value` a win or a loss at a known distance?
    #[inline]
    #[must_use]
    pub const fn is_decisive(&self, value: i32) -> bool {
        // Heuristic values (|value| <= t) are told apart with one unsigned
        // comparison; the rest is the rare decisive case.
        let t = (self.win - self.max_ply - 1) as u32;
        if value.wrapping_add_unsigned(t) as u32 <= 2 * t {
            return false;
        }
        value.unsigned_abs() <= self.win as u32
    }

    /// Converts a root-relative value seen at a node `ply` plies below the
    /// root into a node-relative one (done by `store`). Heuristic values are
    /// unchanged.
    #[inline]
    #[must_use]
    pub const fn to_node_relative(&self, value: i32, ply: u32) -> i32 {
        if !self.is_decisive(value) {
            value
        } else if value > 0 {
            value.saturating_add_unsigned(ply)
        } else {
            value.saturating_sub_unsigned(ply)
        }
    }

    /// Converts a node-relative value (from the table) into a root-relative
    /// one for a node `ply` plies below the root (done by `probe`). Heuristic
    /// values are unchanged; the result is clamped to `±(win + 1)`.
    #[inline]
    #[must_use]
    pub const fn to_root_relative(&self, value: i32, ply: u32) -> i32 {
        let inf = self.win + 1;
        if !self.is_decisive(value) {
            value
        } else if value > 0 {
            let v = value.saturating_sub_unsigned(ply);
            if v < -inf { -inf } else { v }
        } else {
            let v = value.saturating_add_unsigned(ply);
            if v > inf { inf } else { v }
        }
    }
}

/// How a table is built: replacement policy, probe policy, verification bits
/// and score convention. Built by value:
///
/// ```
/// use gametree_ttable::{Config, ProbePolicy, Replacement};
///
/// let config = Config::new()
///     .replacement(Replacement::TwoTier)
///     .probe_policy(ProbePolicy::ExactDepth)
///     .check_bits(64);
/// assert_eq!(config.get_check_bits(), 64);
/// ```
///
/// Defaults: [`Replacement::DepthMinusAge`], [`ProbePolicy::Normal`],
/// full-key verification (64 bits: the wide layout, 4 entries per cache
/// line; a value is only ever given back for the key it was stored with),
/// [`ScoreConfig::default`] and [`Memory::Auto`]. `check_bits(16)` packs
/// twice the entries into the same memory at the price of false hits (see
/// [`Config::check_bits`]): fine for a heuristic player, wrong for a solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    replacement: Replacement,
    probe: ProbePolicy,
    check_bits: u32,
    score: ScoreConfig,
    memory: Memory,
    solved: bool,
    grow: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}

impl Config {
    /// The default configuration.
    #[must_use]
    pub const fn new() -> Config {
        Config {
            replacement: Replacement::DepthMinusAge,
            probe: ProbePolicy::Normal,
            check_bits: 64,
            score: ScoreConfig {
                win: 32_000,
                max_ply: 1_000,
            },
            memory: Memory::Auto,
            solved: false,
            grow: false,
        }
    }

    /// The configuration for verifying a searcher against fixed-depth
    /// negamax: exact-depth probes, full-key verification.
    #[must_use]
    pub const fn verification() -> Config {
        Config::new()
            .probe_policy(ProbePolicy::ExactDepth)
            .check_bits(64)
    }

    /// Sets the replacement policy.
    #[must_use]
    pub const fn replacement(mut self, policy: Replacement) -> Config {
        self.replacement = policy;
        self
    }

    /// Sets the probe policy. [`ProbePolicy::ExactDepth`] also needs
    /// `check_bits(64)`, or building the table fails.
    #[must_use]
    pub const fn probe_policy(mut self, policy: ProbePolicy) -> Config {
        self.probe = policy;
        self
    }

    /// Sets the number `k` of key bits verified on probe, in `1..=64`
    /// (checked when the table is built). `k <= 16` uses the compact layout
    /// (8-byte entries, 8 per bucket); `k > 16` the wide layout (16-byte
    /// entries holding the whole key, 4 per bucket). A probe of a key that is
    /// not stored returns a false hit with probability about
    /// `candidate slots * 2^-k`. [`SharedTable`](crate::SharedTable) always
    /// verifies the full key and ignores this setting.
    #[must_use]
    pub const fn check_bits(mut self, k: u32) -> Config {
        self.check_bits = k;
        self
    }

    /// Chooses the *solved* layout (`true`) for a table that only ever
    /// holds values searched to the end of the game: 8 entries of 8 bytes
    /// per bucket, each holding the key bits the bucket index does not
    /// determine (46 at 16 MiB, one fewer per doubling of the table), the
    /// value (`i16`), the bound and, in the bits the key leaves free, the
    /// best move; no depth or generation. It holds twice the entries of the
    /// default layout in the same memory and is just as exact: the bucket
    /// index and the stored bits together determine the whole 64-bit key,
    /// so a probe never returns another key's entry.
    ///
    /// What it keeps:
    /// * a store whose depth is not `u8::MAX` ([`SOLVED_DEPTH`](crate::SOLVED_DEPTH),
    ///   the depth a solver stores for "searched to the end") is dropped
    ///   (counted in [`Stats::rejected`](crate::Stats::rejected)); every hit
    ///   has depth `u8::MAX`, so it is usable at any requested depth;
    /// * a best move is kept when its code fits the free bits: none at
    ///   16 MiB, codes below 7 from 128 MiB (`2^21` buckets, enough for
    ///   Connect Four's columns), below 63 from 1 GiB; other codes are
    ///   stored as no move, and a store without a move keeps the key's old
    ///   one;
    /// * a new key goes to the first empty slot from its home slot, else
    ///   overwrites its home slot (there is no depth or age to compare);
    ///   generations do not age entries, and [`Table::hashfull`](crate::Table::hashfull)
    ///   counts every occupied slot.
    ///
    /// It needs at least `2^18` buckets (16 MiB), with
    /// [`ProbePolicy::Normal`]; the check bits and replacement policy are
    /// ignored. A [`SharedTable`](crate::SharedTable) uses it too, one
    /// atomic word per entry: a probe racing a store reads the old entry or
    /// the new one, never a mix.
    #[must_use]
    pub const fn solved(mut self, on: bool) -> Config {
        self.solved = on;
        self
    }

    /// In the [solved layout](Config::solved), lets a
    /// [`TranspositionTable`](crate::TranspositionTable) start small and
    /// grow (`true`; off by default): it begins with `2^18` buckets
    /// (16 MiB) and doubles each time three quarters of its slots are
    /// taken, moving its entries, up to the size it was built with; memory
    /// it has not grown into is never written, so the operating system
    /// never hands it out. That bounds the memory of a short solve and the
    /// time the system takes to zero it; a long solve pays for moving the
    /// entries at each doubling. With a 128 MiB table on Pons's Connect
    /// Four sets (whole process, alternating pairs, medians), growing took
    /// 0.93× the time of the whole table on the 1,000 light openings of
    /// Test_L1_R1 (20.9 MiB touched against 132.8 MiB), 1.01× on
    /// Test_L1_R2 lines 1-100 and 1.00× on Test_L1_R3 lines 1-6. Other
    /// layouts and [`SharedTable`](crate::SharedTable) always use the
    /// whole table.
    ///
    /// ```
    /// use gametree_ttable::{Bound, Config, Entry, Table, TranspositionTable, SOLVED_DEPTH};
    ///
    /// let config = Config::new().solved(true).grow(true);
    /// let mut tt = TranspositionTable::with_config(64 << 20, config)?;
    /// assert_eq!(tt.active_bytes(), 16 << 20);
    /// let entry = |v| Entry { best_move: None, value: v, depth: SOLVED_DEPTH, bound: Bound::Exact };
    /// for key in 0..(4u64 << 20) {
    ///     tt.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, entry(1));
    /// }
    /// assert_eq!(tt.active_bytes(), 64 << 20); // grew twice
    /// assert!(tt.probe(0, SOLVED_DEPTH, 0).is_some()); // entries moved along
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn grow(mut self, on: bool) -> Config {
        self.grow = on;
        self
    }

    /// Whether a solved-layout table starts small and grows ([`Config::grow`]).
    #[must_use]
    pub const fn get_grow(&self) -> bool {
        self.grow
    }

    /// Whether the table uses the solved layout ([`Config::solved`]).
    #[must_use]
    pub const fn get_solved(&self) -> bool {
        self.solved
    }

    /// Sets the decisive-score convention.
    #[must_use]
    pub const fn score(mut self, score: ScoreConfig) -> Config {
        self.score = score;
        self
    }

    /// Sets where the table's memory comes from: [`Memory::Auto`] (the
    /// default) maps tables of 2 MiB or more with the huge-page advice, which
    /// makes random probes of large tables faster (see the crate README,
    /// "Throughput"); [`Memory::Heap`] always allocates on the heap.
    /// [`SharedTable`](crate::SharedTable) always uses the heap.
    #[must_use]
    pub const fn memory(mut self, memory: Memory) -> Config {
        self.memory = memory;
        self
    }

    /// Where the table's memory comes from.
    #[must_use]
    pub const fn get_memory(&self) -> Memory {
        self.memory
    }

    /// The replacement policy.
    #[must_use]
    pub const fn get_replacement(&self) -> Replacement {
        self.replacement
    }

    /// The probe policy.
    #[must_use]
    pub const fn get_probe_policy(&self) -> ProbePolicy {
        self.probe
    }

    /// The number of verified key bits.
    #[must_use]
    pub const fn get_check_bits(&self) -> u32 {
        self.check_bits
    }

    /// The decisive-score convention.
    #[must_use]
    pub const fn get_score(&self) -> ScoreConfig {
        self.score
    }

    pub(crate) fn validate(&self, bytes: usize, shared: bool) -> Result<(), TableError> {
        if self.solved {
            if self.probe == ProbePolicy::ExactDepth {
                return Err(TableError::new(ErrorKind::SolvedWithExactDepth, bytes));
            }
            if bytes / crate::BUCKET_BYTES < crate::solved::MIN_BUCKETS {
                return Err(TableError::new(ErrorKind::SolvedTooSmall, bytes));
            }
            return Ok(());
        }
        if shared {
            return Ok(());
        }
        if self.check_bits == 0 || self.check_bits > 64 {
            return Err(TableError::new(ErrorKind::InvalidCheckBits, bytes));
        }
        if self.probe == ProbePolicy::ExactDepth && self.check_bits != 64 {
            return Err(TableError::new(ErrorKind::ExactDepthNeedsFullKey, bytes));
        }
        Ok(())
    }
}
