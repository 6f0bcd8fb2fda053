//! [`DfPnConfig`]: the settings of [`DfPn`].

use crate::options::ProofConfig;

#[cfg(doc)]
use super::DfPn;

/// df-pn's table size when [`ProofConfig::memory`] is not set: 16 MiB.
pub(crate) const DEFAULT_MEMORY: usize = 16 << 20;

/// Configuration of [`DfPn`], built by value: the options every
/// proof-number search shares ([`ProofConfig`]: its memory is df-pn's
/// table, 16 MiB by default) and the ε of the 1+ε trick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DfPnConfig {
    pub(super) proof: ProofConfig,
    pub(super) epsilon: f64,
}

impl Default for DfPnConfig {
    fn default() -> Self {
        DfPnConfig::new()
    }
}

impl DfPnConfig {
    /// A 16 MiB table, ε = 1/4, and [`ProofConfig::new`]: the game's proof
    /// hints, win bounds and threat-space search where it has them.
    #[must_use]
    pub fn new() -> DfPnConfig {
        DfPnConfig {
            proof: ProofConfig::new(),
            epsilon: 0.25,
        }
    }

    /// The options every proof-number search shares: table memory,
    /// progress interval, knowledge and threat-space search.
    #[must_use]
    pub fn proof(mut self, proof: ProofConfig) -> DfPnConfig {
        self.proof = proof;
        self
    }

    /// The ε of the 1+ε trick: the best child's disproof threshold becomes
    /// `max(δ₂ + 1, ⌈δ₂·(1+ε)⌉)` instead of Nagai's `δ₂ + 1`, so the search
    /// stays longer in one subtree. `0` gives plain df-pn. Negative or
    /// non-finite values are taken as `0`.
    #[must_use]
    pub fn epsilon(mut self, epsilon: f64) -> DfPnConfig {
        self.epsilon = if epsilon.is_finite() && epsilon > 0.0 {
            epsilon
        } else {
            0.0
        };
        self
    }

    /// The shared options.
    #[must_use]
    pub fn get_proof(&self) -> ProofConfig {
        self.proof
    }
    /// The table's size in bytes ([`ProofConfig::memory`], or the
    /// default 16 MiB).
    #[must_use]
    pub fn get_memory(&self) -> usize {
        self.proof.get_memory().unwrap_or(DEFAULT_MEMORY)
    }
    /// ε.
    #[must_use]
    pub fn get_epsilon(&self) -> f64 {
        self.epsilon
    }
}
