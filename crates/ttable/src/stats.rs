//! Table statistics.

/// Counters a table keeps since it was built (or since
/// [`Table::reset_stats`](crate::Table::reset_stats)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Calls to `probe`.
    pub probes: u64,
    /// Probes that found the key (usable at the requested depth or not).
    pub hits: u64,
    /// Calls to `store`.
    pub stores: u64,
    /// Stores that overwrote an occupied slot holding another key.
    pub replacements: u64,
    /// Stores the replacement policy refused (the old entry was deeper).
    pub rejected: u64,
}

impl Stats {
    /// `hits / probes`, or 0 without probes.
    #[must_use]
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}

impl core::ops::Add for Stats {
    type Output = Stats;
    fn add(self, o: Stats) -> Stats {
        Stats {
            probes: self.probes + o.probes,
            hits: self.hits + o.hits,
            stores: self.stores + o.stores,
            replacements: self.replacements + o.replacements,
            rejected: self.rejected + o.rejected,
        }
    }
}
