//! [`Config`]: every option of the [`AlphaBeta`](crate::AlphaBeta) searcher.

use ordering::Policy;
use ttable::ProbePolicy;

/// The root algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Alpha-beta with the full window at every node.
    AlphaBeta,
    /// Principal-variation search (NegaScout): the first move with the full
    /// window, the others with a null window and a re-search when they
    /// fail high.
    Pvs,
    /// MTD(f): a sequence of null-window searches converging on the value,
    /// each starting from the previous bounds kept in the transposition
    /// table. Always fail-soft (fail-hard would move one point per pass).
    Mtdf,
    /// Null-window bisection: like MTD(f), but each test is placed in the
    /// middle of the remaining interval (the first at the previous value,
    /// or 0), so wide ranges (distance-to-win scores) close in a
    /// logarithmic number of passes. Always fail-soft.
    Bisection,
}

/// How the transposition table is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TtUse {
    /// No table.
    Off,
    /// The table's best move is tried first (the textbook's pairing with
    /// iterative deepening); stored values are never used to cut.
    Ordering,
    /// Best move for ordering, and stored bounds cut the search off when the
    /// probe policy allows.
    Cutoffs,
}

/// Every option of the searcher, built by value.
///
/// ```
/// use alphabeta::{Algorithm, Config, TtUse};
/// use ttable::ProbePolicy;
///
/// let config = Config::default()
///     .algorithm(Algorithm::Mtdf)
///     .tt(TtUse::Cutoffs, ProbePolicy::ExactDepth)
///     .killers(1)
///     .history(None);
/// assert_eq!(config.get_killers(), 1);
/// ```
///
/// [`Config::default`] is the strongest setting (PVS, fail-soft, iterative
/// deepening, a 16 MiB table with cutoffs, two killers, gravity history,
/// counter-moves, tactical ordering where the game has it);
/// [`Config::plain`] is plain fail-hard alpha-beta with nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub(crate) algorithm: Algorithm,
    pub(crate) fail_soft: bool,
    pub(crate) iterative_deepening: bool,
    pub(crate) aspiration: Option<i32>,
    pub(crate) tt: TtUse,
    pub(crate) tt_policy: ProbePolicy,
    pub(crate) tt_bytes: usize,
    pub(crate) tt_check_bits: u32,
    pub(crate) killers: u8,
    pub(crate) history: Option<Policy>,
    pub(crate) history_malus: bool,
    pub(crate) counter_moves: bool,
    pub(crate) tactical_ordering: bool,
    pub(crate) quiescence: bool,
    pub(crate) forcing: bool,
    pub(crate) order_hints: bool,
    pub(crate) etc: bool,
    pub(crate) threads: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            algorithm: Algorithm::Pvs,
            fail_soft: true,
            iterative_deepening: true,
            aspiration: None,
            tt: TtUse::Cutoffs,
            tt_policy: ProbePolicy::Normal,
            tt_bytes: 16 << 20,
            tt_check_bits: 64,
            killers: 2,
            history: Some(Policy::Gravity),
            history_malus: true,
            counter_moves: true,
            tactical_ordering: true,
            quiescence: false,
            forcing: true,
            order_hints: true,
            etc: false,
            threads: 1,
        }
    }
}

impl Config {
    /// Plain fail-hard alpha-beta: no table, no ordering, no iterative
    /// deepening.
    #[must_use]
    pub fn plain() -> Config {
        Config {
            algorithm: Algorithm::AlphaBeta,
            fail_soft: false,
            iterative_deepening: false,
            aspiration: None,
            tt: TtUse::Off,
            tt_policy: ProbePolicy::Normal,
            tt_bytes: 0,
            tt_check_bits: 64,
            killers: 0,
            history: None,
            history_malus: false,
            counter_moves: false,
            tactical_ordering: false,
            quiescence: false,
            forcing: false,
            order_hints: false,
            etc: false,
            threads: 1,
        }
    }

    /// The root algorithm.
    #[must_use]
    pub fn algorithm(mut self, algorithm: Algorithm) -> Config {
        self.algorithm = algorithm;
        self
    }

    /// Fail-soft (return the best value found, possibly outside the window)
    /// or fail-hard (clamp to the window).
    #[must_use]
    pub fn fail_soft(mut self, on: bool) -> Config {
        self.fail_soft = on;
        self
    }

    /// Iterative deepening: search depth 1, 2, ... up to the limit, each
    /// iteration ordering the next through the table.
    #[must_use]
    pub fn iterative_deepening(mut self, on: bool) -> Config {
        self.iterative_deepening = on;
        self
    }

    /// Aspiration windows of half-width `delta` around the previous
    /// iteration's value (with a full-window re-search when the value falls
    /// outside); `None` for full windows.
    #[must_use]
    pub fn aspiration(mut self, delta: Option<i32>) -> Config {
        self.aspiration = delta.map(|d| d.max(1));
        self
    }

    /// How the table is used and when its values may cut.
    #[must_use]
    pub fn tt(mut self, usage: TtUse, policy: ProbePolicy) -> Config {
        self.tt = usage;
        self.tt_policy = policy;
        self
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn tt_bytes(mut self, bytes: usize) -> Config {
        self.tt_bytes = bytes;
        self
    }

    /// How many bits of a position's 64-bit hash the table compares before
    /// it trusts an entry, in `1..=64` (checked by
    /// [`AlphaBeta::new`](crate::AlphaBeta::new)). The default, 64, verifies
    /// the whole key (4 entries per 64-byte bucket): a stored value is only
    /// ever read back for a position with the same hash. With 16 or fewer
    /// bits the table packs 8 entries per bucket, twice as many for the
    /// same memory, but a probe of a position that is not stored matches
    /// another position's entry with probability up to `8 · 2^-bits`
    /// (1 in 8,192 with 16 bits), and that entry's value is then trusted:
    /// an occasional wrong value, acceptable in heuristic play, never in a
    /// solver. [`ProbePolicy::ExactDepth`] needs 64.
    #[must_use]
    pub fn tt_check_bits(mut self, bits: u32) -> Config {
        self.tt_check_bits = bits;
        self
    }

    /// Killer moves per ply: 0, 1 or 2 (larger values are read as 2).
    #[must_use]
    pub fn killers(mut self, k: u8) -> Config {
        self.killers = k.min(2);
        self
    }

    /// The history heuristic's bonus policy, or `None` for no history.
    #[must_use]
    pub fn history(mut self, policy: Option<Policy>) -> Config {
        self.history = policy;
        self
    }

    /// Penalise the quiet moves tried before a cutoff move.
    #[must_use]
    pub fn history_malus(mut self, on: bool) -> Config {
        self.history_malus = on;
        self
    }

    /// The counter-move heuristic.
    #[must_use]
    pub fn counter_moves(mut self, on: bool) -> Config {
        self.counter_moves = on;
        self
    }

    /// Try the game's tactical moves (captures, immediate wins) first, for
    /// games set up with [`AlphaBeta::with_tactics`](crate::AlphaBeta::with_tactics).
    #[must_use]
    pub fn tactical_ordering(mut self, on: bool) -> Config {
        self.tactical_ordering = on;
        self
    }

    /// Quiescence search at the horizon (tactical moves only, with stand-pat),
    /// for games set up with [`AlphaBeta::with_tactics`](crate::AlphaBeta::with_tactics).
    /// Changes the values: compare with
    /// [`negamax_quiescence`](crate::negamax_quiescence), not plain negamax.
    #[must_use]
    pub fn quiescence(mut self, on: bool) -> Config {
        self.quiescence = on;
        self
    }

    /// Immediate wins and forced replies, for games set up with
    /// [`AlphaBeta::with_forcing`](crate::AlphaBeta::with_forcing).
    #[must_use]
    pub fn forcing(mut self, on: bool) -> Config {
        self.forcing = on;
        self
    }

    /// Order quiet moves by the game's static hint, for games set up with
    /// [`AlphaBeta::with_order_hints`](crate::AlphaBeta::with_order_hints).
    #[must_use]
    pub fn order_hints(mut self, on: bool) -> Config {
        self.order_hints = on;
        self
    }

    /// Enhanced transposition cutoffs: before searching a node's moves,
    /// probe the table for every child and cut at once when one child's
    /// stored bound already refutes the window (only with
    /// [`TtUse::Cutoffs`], never at the root). Costs a make, unmake and
    /// probe per move; saves the nodes of the refuting child, and the
    /// children's probes overlap in memory instead of waiting one by one.
    #[must_use]
    pub fn etc(mut self, on: bool) -> Config {
        self.etc = on;
        self
    }

    /// Lazy SMP threads sharing one lockless table (1 = single-threaded).
    #[must_use]
    pub fn threads(mut self, n: usize) -> Config {
        self.threads = n.max(1);
        self
    }

    /// The root algorithm.
    #[must_use]
    pub fn get_algorithm(&self) -> Algorithm {
        self.algorithm
    }
    /// Killers per ply.
    #[must_use]
    pub fn get_killers(&self) -> u8 {
        self.killers
    }
    /// Table use.
    #[must_use]
    pub fn get_tt(&self) -> (TtUse, ProbePolicy) {
        (self.tt, self.tt_policy)
    }
    /// Threads.
    #[must_use]
    pub fn get_threads(&self) -> usize {
        self.threads
    }
}
