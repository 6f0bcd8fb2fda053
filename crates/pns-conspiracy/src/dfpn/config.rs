//! [`DfPnConfig`]: the settings of [`DfPn`].

use gametree_threats::ThreatConfig;

#[cfg(doc)]
use super::DfPn;
#[cfg(doc)]
use gametree_game::Game;

/// Configuration of [`DfPn`], built by value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DfPnConfig {
    pub(super) table_bytes: usize,
    pub(super) epsilon: f64,
    pub(super) proof_hints: bool,
    pub(super) win_bounds: bool,
    pub(super) threats: bool,
    pub(super) threat_limits: ThreatConfig,
    pub(super) progress_interval: u64,
}

impl Default for DfPnConfig {
    fn default() -> Self {
        DfPnConfig::new()
    }
}

impl DfPnConfig {
    /// A 16 MiB table, ε = 1/4, the game's proof hints, win bounds and
    /// threat-space search.
    #[must_use]
    pub fn new() -> DfPnConfig {
        DfPnConfig {
            table_bytes: 16 << 20,
            epsilon: 0.25,
            proof_hints: true,
            win_bounds: true,
            threats: true,
            threat_limits: ThreatConfig::new(),
            progress_interval: 1 << 16,
        }
    }

    /// The transposition table's size in bytes (rounded down to a power of
    /// two number of 4-entry buckets of 96 bytes, at least one bucket).
    /// This is df-pn's whole memory: it is allocated when the searcher is
    /// built and never grows.
    #[must_use]
    pub fn table_bytes(mut self, bytes: usize) -> DfPnConfig {
        self.table_bytes = bytes;
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

    /// Start unexpanded nodes at the game's [`Game::proof_hints`] when it
    /// declares them (on by default), or at `(1, 1)`.
    #[must_use]
    pub fn proof_hints(mut self, on: bool) -> DfPnConfig {
        self.proof_hints = on;
        self
    }

    /// Solve a position without expanding it when the game's win bounds
    /// ([`Game::cannot_win`]) settle the question there (on by default; the
    /// proof tree then ends in a leaf that [`verify_with`](crate::verify_with)
    /// accepts with [`Trust::WinBounds`](crate::Trust::WinBounds)).
    #[must_use]
    pub fn win_bounds(mut self, on: bool) -> DfPnConfig {
        self.win_bounds = on;
        self
    }

    /// Solve a position without expanding it when its side to move wins
    /// by a sequence of absolute threats (on by default): threat-space
    /// search ([`gametree_threats`], default limits) for a game that lists
    /// its threat moves and knows its immediate wins, never for one whose
    /// positions repeat. The defender's moves that allow such a sequence
    /// are thereby refuted without a search below them. The proof tree
    /// shows the whole sequence (positions so solved are expanded when
    /// it is written).
    #[must_use]
    pub fn threats(mut self, on: bool) -> DfPnConfig {
        self.threats = on;
        self
    }

    /// The limits of each threat-space search (default
    /// [`ThreatConfig::new`]).
    #[must_use]
    pub fn threat_limits(mut self, limits: ThreatConfig) -> DfPnConfig {
        self.threat_limits = limits;
        self
    }

    /// Calls the progress callback every `expansions` expansions (default
    /// 65,536; 0 is read as 1).
    #[must_use]
    pub fn progress_interval(mut self, expansions: u64) -> DfPnConfig {
        self.progress_interval = expansions.max(1);
        self
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn get_table_bytes(&self) -> usize {
        self.table_bytes
    }
    /// ε.
    #[must_use]
    pub fn get_epsilon(&self) -> f64 {
        self.epsilon
    }
    /// Proof hints on?
    #[must_use]
    pub fn get_proof_hints(&self) -> bool {
        self.proof_hints
    }
    /// Win bounds on?
    #[must_use]
    pub fn get_win_bounds(&self) -> bool {
        self.win_bounds
    }
    /// Threat-space search on?
    #[must_use]
    pub fn get_threats(&self) -> bool {
        self.threats
    }
    /// The limits of each threat-space search.
    #[must_use]
    pub fn get_threat_limits(&self) -> ThreatConfig {
        self.threat_limits
    }
    /// The progress interval.
    #[must_use]
    pub fn get_progress_interval(&self) -> u64 {
        self.progress_interval
    }
}
