//! [`ProofConfig`]: the options every proof-number search shares (PNS,
//! PN² and df-pn), nested in [`PnsConfig`](crate::PnsConfig) and
//! [`DfPnConfig`](crate::DfPnConfig).

use gametree_game::{Game, MissingKnowledge, Use};
use gametree_threats::ThreatConfig;

#[cfg(doc)]
use crate::{DfPn, Pns};

/// The options the proof-number searches share, built by value.
///
/// ```
/// use gametree_pns_conspiracy::{DfPnConfig, PnsConfig, ProofConfig, Use};
///
/// let shared = ProofConfig::new().memory(1 << 20).threats(Use::Off);
/// let pns = PnsConfig::new().proof(shared);
/// let dfpn = DfPnConfig::new().proof(shared).epsilon(0.0);
/// assert_eq!(pns.get_proof(), dfpn.get_proof());
/// assert_eq!(dfpn.get_proof().get_win_bounds(), Use::Auto);
/// ```
///
/// The knowledge options ([`proof_hints`](ProofConfig::proof_hints),
/// [`win_bounds`](ProofConfig::win_bounds), [`threats`](ProofConfig::threats))
/// take a [`Use`] and are [`Use::Auto`] by default: used when the game
/// provides them. [`Use::On`] requires one: a search of a game that lacks
/// it does not start and answers unknown with
/// [`Stop::MissingKnowledge`](crate::Stop::MissingKnowledge) (the searchers
/// are built before they see a game). [`Use::Off`] never uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProofConfig {
    memory: Option<usize>,
    progress_interval: u64,
    proof_hints: Use,
    win_bounds: Use,
    threats: Use,
    threat_limits: ThreatConfig,
}

impl Default for ProofConfig {
    fn default() -> ProofConfig {
        ProofConfig::new()
    }
}

/// What a search uses of the game's knowledge, decided once per search
/// from a [`ProofConfig`] and [`Game::KNOWLEDGE`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Knobs {
    /// [`Game::proof_hints`] as initial numbers.
    pub(crate) hints: bool,
    /// [`Game::cannot_win`] and [`Game::cannot_draw`] to solve positions without expanding them.
    pub(crate) bounds: bool,
    /// Threat-space search on new leaves.
    pub(crate) threats: bool,
}

impl ProofConfig {
    /// Every item of the game's knowledge it provides ([`Use::Auto`]), the
    /// default [`ThreatConfig`], progress every 65,536 expansions, and each
    /// solver's own memory default.
    #[must_use]
    pub const fn new() -> ProofConfig {
        ProofConfig {
            memory: None,
            progress_interval: 1 << 16,
            proof_hints: Use::Auto,
            win_bounds: Use::Auto,
            threats: Use::Auto,
            threat_limits: ThreatConfig::new(),
        }
    }

    /// The search's memory in bytes. For [`DfPn`] the size of its table
    /// (default 16 MiB; rounded down to a power of two number of 4-entry
    /// buckets of 96 bytes, at least one bucket), allocated when the
    /// searcher is built and never grown. For [`Pns`] (and PN²) a bound:
    /// the search stops (answer unknown, [`Stop::Memory`](crate::Stop::Memory))
    /// when its explicit trees, with the threat-space search table (1 MiB
    /// by default, when threats are in use), would use more (default: no
    /// bound).
    #[must_use]
    pub const fn memory(mut self, bytes: usize) -> ProofConfig {
        self.memory = Some(bytes);
        self
    }

    /// Sends [`Event::Nodes`](gametree_game::Event::Nodes) to the
    /// request's event sink about every `nodes` nodes, counted as the
    /// report's [`stats.nodes`](gametree_game::Stats::nodes) counts them
    /// (expansions; default 65,536, 0 is read as 1).
    #[must_use]
    pub const fn progress_interval(mut self, nodes: u64) -> ProofConfig {
        self.progress_interval = if nodes == 0 { 1 } else { nodes };
        self
    }

    /// Start unexpanded nodes at the game's [`Game::proof_hints`], or at
    /// `(1, 1)` ([`Use::Off`]).
    #[must_use]
    pub const fn proof_hints(mut self, usage: Use) -> ProofConfig {
        self.proof_hints = usage;
        self
    }

    /// Solve a position without expanding it when the game's win bounds
    /// ([`Game::cannot_win`], [`Game::cannot_draw`]) settle the question there (the proof tree
    /// then ends in a leaf that [`verify_with`](crate::verify_with)
    /// accepts with [`Trust::WinBounds`](crate::Trust::WinBounds)).
    #[must_use]
    pub const fn win_bounds(mut self, usage: Use) -> ProofConfig {
        self.win_bounds = usage;
        self
    }

    /// Solve a new leaf without expanding it when its side to move wins by
    /// a sequence of absolute threats: threat-space search
    /// ([`gametree_threats`]) for a game that lists its threat moves and
    /// knows its immediate wins, never for one whose positions can repeat.
    /// PNS always expands its root, so that the report names a best move;
    /// the proof trees of [`Pns::prove`] and [`DfPn::prove`] show the
    /// whole sequence.
    #[must_use]
    pub const fn threats(mut self, usage: Use) -> ProofConfig {
        self.threats = usage;
        self
    }

    /// The limits of each threat-space search (default
    /// [`ThreatConfig::new`]). The searchers refuse limits that
    /// [`ThreatConfig::check`] refuses.
    #[must_use]
    pub const fn threat_limits(mut self, limits: ThreatConfig) -> ProofConfig {
        self.threat_limits = limits;
        self
    }

    /// The memory in bytes, `None` for the solver's default.
    #[must_use]
    pub const fn get_memory(&self) -> Option<usize> {
        self.memory
    }
    /// The progress interval in nodes.
    #[must_use]
    pub const fn get_progress_interval(&self) -> u64 {
        self.progress_interval
    }
    /// The game's proof hints.
    #[must_use]
    pub const fn get_proof_hints(&self) -> Use {
        self.proof_hints
    }
    /// The game's win bounds.
    #[must_use]
    pub const fn get_win_bounds(&self) -> Use {
        self.win_bounds
    }
    /// Threat-space search.
    #[must_use]
    pub const fn get_threats(&self) -> Use {
        self.threats
    }
    /// The limits of each threat-space search.
    #[must_use]
    pub const fn get_threat_limits(&self) -> ThreatConfig {
        self.threat_limits
    }

    /// What a search of `G` uses, or the first option that requires an
    /// item `G` lacks.
    pub(crate) fn knobs<G: Game>(&self) -> Result<Knobs, MissingKnowledge> {
        let k = G::KNOWLEDGE;
        Ok(Knobs {
            hints: self
                .proof_hints
                .require(k.has_proof_hints(), "proof_hints", "proof hints")?,
            bounds: self
                .win_bounds
                .require(k.has_win_bounds(), "win_bounds", "win bounds")?,
            threats: self.threats.require(
                gametree_threats::applies::<G>(),
                "threats",
                "threat moves with forcing knowledge, in a game without repetitions",
            )?,
        })
    }
}
