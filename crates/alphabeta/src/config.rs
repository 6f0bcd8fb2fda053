//! [`Config`]: every option of the [`AlphaBeta`](crate::AlphaBeta) searcher.

use gametree_game::{ALL_CORES, Use};
use gametree_ordering::Policy;
use gametree_threats::ThreatConfig;
use gametree_ttable::ProbePolicy;

/// Alpha-beta's default threat-space search limits: short sequences.
const DEFAULT_THREAT_LIMITS: ThreatConfig = ThreatConfig::new().depth(3);

/// The root algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The default: [`Pvs`](Algorithm::Pvs) when searching to a depth and
    /// when proving by iterative deepening (games that can repeat
    /// positions); [`Bisection`](Algorithm::Bisection) when solving a game
    /// that cannot repeat to its end (a [`Solver::solve`] asked for the
    /// [`Find::Score`]), where null-window tests close on an exact distance
    /// with far fewer nodes than a full window (measured by `cargo xtask
    /// bench defaults`).
    ///
    /// [`Solver::solve`]: crate::Solver::solve
    /// [`Find::Score`]: crate::Find::Score
    Auto,
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
    /// logarithmic number of passes. When solving a game that bounds its
    /// length ([`gametree_game::Game::remaining_plies`]), the tests walk the ladder
    /// of the values the position can still have, the way Pons's Connect
    /// Four solver does (quick wins and quick losses tested first), and
    /// once neither is possible one PVS search inside the remaining window
    /// settles the value (a draw would take about two tests per halving).
    /// Always fail-soft.
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

/// The transposition table's options, nested in [`Config`]
/// ([`Config::table`]) and turned into the table's own
/// [`gametree_ttable::Config`] by one function, for a depth-limited search
/// and for a solve to the end alike.
///
/// ```
/// use gametree_alphabeta::{Config, TableConfig, TtUse};
/// use gametree_ttable::ProbePolicy;
///
/// let table = TableConfig::new()
///     .usage(TtUse::Cutoffs)
///     .probe_policy(ProbePolicy::ExactDepth)
///     .memory(1 << 20);
/// let config = Config::new().table(table);
/// assert_eq!(config.get_table().get_memory(), 1 << 20);
/// assert_eq!(config.memory(4 << 20).get_table().get_memory(), 4 << 20);
/// ```
///
/// Default ([`TableConfig::new`]): 16 MiB with [`TtUse::Cutoffs`], the
/// normal probe policy, full-key verification, and the solved layout,
/// grown as it fills, when solving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableConfig {
    pub(crate) usage: TtUse,
    pub(crate) probe_policy: ProbePolicy,
    pub(crate) memory: usize,
    pub(crate) check_bits: u32,
    pub(crate) solved_layout: bool,
    pub(crate) grow: bool,
}

impl Default for TableConfig {
    fn default() -> TableConfig {
        TableConfig::new()
    }
}

impl TableConfig {
    /// The default table (see [`TableConfig`]).
    #[must_use]
    pub const fn new() -> TableConfig {
        TableConfig {
            usage: TtUse::Cutoffs,
            probe_policy: ProbePolicy::Normal,
            memory: 16 << 20,
            check_bits: 64,
            solved_layout: true,
            grow: true,
        }
    }

    /// No table at all.
    #[must_use]
    pub const fn off() -> TableConfig {
        TableConfig {
            usage: TtUse::Off,
            probe_policy: ProbePolicy::Normal,
            memory: 0,
            check_bits: 64,
            solved_layout: false,
            grow: false,
        }
    }

    /// How the table is used.
    #[must_use]
    pub const fn usage(mut self, usage: TtUse) -> TableConfig {
        self.usage = usage;
        self
    }

    /// When a stored value may cut ([`ProbePolicy::ExactDepth`] for
    /// comparing with fixed-depth negamax; it needs 64 check bits).
    #[must_use]
    pub const fn probe_policy(mut self, policy: ProbePolicy) -> TableConfig {
        self.probe_policy = policy;
        self
    }

    /// The table's size in bytes.
    #[must_use]
    pub const fn memory(mut self, bytes: usize) -> TableConfig {
        self.memory = bytes;
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
    pub const fn check_bits(mut self, bits: u32) -> TableConfig {
        self.check_bits = bits;
        self
    }

    /// Whether the table switches to its *solved* layout
    /// ([`gametree_ttable::Config::solved`]) while the searcher solves a
    /// game that cannot repeat positions to its end ([`Solver::solve`],
    /// whatever it finds), on one thread or several (the shared
    /// table then keeps one atomic word per entry), where every stored
    /// value is exact to the end: 8-byte entries keeping the key bits the index
    /// does not determine, the value and the bound, so twice the entries in
    /// the same memory, just as exact, and the best move only where the
    /// free bits hold its code (from 128 MiB for Connect Four's 7 columns).
    /// Default `true`. It applies to tables of
    /// 16 MiB or more with [`TtUse::Cutoffs`], the normal probe policy and
    /// full-key verification (the defaults); switching layouts (a solve
    /// after a depth-limited search, or the reverse) empties the table.
    ///
    /// [`Solver::solve`]: crate::Solver::solve
    #[must_use]
    pub const fn solved_layout(mut self, on: bool) -> TableConfig {
        self.solved_layout = on;
        self
    }

    /// Whether a single-threaded table in the [solved
    /// layout](TableConfig::solved_layout) starts at 16 MiB and doubles as it
    /// fills, up to its [`memory`](TableConfig::memory)
    /// ([`gametree_ttable::Config::grow`]). Default `true`: memory the
    /// search never needs is never touched, so a light solve does not pay
    /// the operating system for zeroing a large table, while a heavy one
    /// grows into all of it. Same values and, once grown, the same table;
    /// the shared table of several threads always uses all of its memory.
    /// Measured with a 128 MiB table on Pons's Connect Four sets (whole
    /// process, alternating pairs, medians): the 1,000 light openings of
    /// Test_L1_R1 0.93× the time of the full table (20.9 MiB touched
    /// against 132.8 MiB, and no slow first touch), Test_L1_R2 lines
    /// 1-100 1.01×, Test_L1_R3 lines 1-6 1.00×.
    #[must_use]
    pub const fn grow(mut self, on: bool) -> TableConfig {
        self.grow = on;
        self
    }

    /// How the table is used.
    #[must_use]
    pub const fn get_usage(&self) -> TtUse {
        self.usage
    }
    /// The probe policy.
    #[must_use]
    pub const fn get_probe_policy(&self) -> ProbePolicy {
        self.probe_policy
    }
    /// The table's size in bytes.
    #[must_use]
    pub const fn get_memory(&self) -> usize {
        self.memory
    }
    /// The verified key bits.
    #[must_use]
    pub const fn get_check_bits(&self) -> u32 {
        self.check_bits
    }
    /// The solved layout when solving ([`TableConfig::solved_layout`])?
    #[must_use]
    pub const fn get_solved_layout(&self) -> bool {
        self.solved_layout
    }
    /// Does a solved-layout table start small and grow ([`TableConfig::grow`])?
    #[must_use]
    pub const fn get_grow(&self) -> bool {
        self.grow
    }

    /// The table's own configuration for a search to the end of the game
    /// (`to_end`) or to a depth: the only place where these options become
    /// a [`gametree_ttable::Config`], called when the searcher is built and
    /// before each search.
    pub(crate) fn derive(&self, to_end: bool) -> gametree_ttable::Config {
        let solved = to_end
            && self.solved_layout
            && self.usage == TtUse::Cutoffs
            && self.probe_policy == ProbePolicy::Normal
            && self.check_bits == 64;
        gametree_ttable::Config::new()
            .probe_policy(self.probe_policy)
            .check_bits(self.check_bits)
            .solved(solved)
            .grow(solved && self.grow)
    }
}

/// A move-ordering heuristic's setting: `Auto(v)` is `v` for a game without
/// order hints and off for one with them (the game's static order is then
/// the quiet order, and killers, counter-moves and history only disturb
/// it); `Set(v)` is `v` whatever the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Setting<T> {
    Auto(T),
    Set(T),
}

impl<T: Copy> Setting<T> {
    /// The configured value.
    pub(crate) fn value(self) -> T {
        match self {
            Setting::Auto(v) | Setting::Set(v) => v,
        }
    }

    /// The value in effect: `off` in place of an `Auto` value when the
    /// searcher orders quiet moves by the game's hints.
    pub(crate) fn resolve(self, hints: bool, off: T) -> T {
        match self {
            Setting::Auto(_) if hints => off,
            Setting::Auto(v) | Setting::Set(v) => v,
        }
    }
}

/// Every option of the searcher, built by value.
///
/// ```
/// use gametree_alphabeta::{Algorithm, Config, TableConfig, TtUse, Use};
/// use gametree_ttable::ProbePolicy;
///
/// let config = Config::new()
///     .algorithm(Algorithm::Mtdf)
///     .table(TableConfig::new().probe_policy(ProbePolicy::ExactDepth))
///     .killers(1)
///     .history(None)
///     .threats(Use::Off);
/// assert_eq!(config.get_killers(), 1);
/// assert_eq!(config.get_threats(), Use::Off);
/// assert_eq!(config.get_forcing(), Use::Auto);
/// ```
///
/// [`Config::new`] (= `default()`) is the strongest general setting:
/// [`Algorithm::Auto`] (PVS to a depth, null-window bisection to the end),
/// fail-soft, iterative deepening, a 16 MiB table with cutoffs and
/// full-key verification, and every item of knowledge the game declares
/// (forcing moves, quiet-move hints, its length bound, win bounds and
/// threat moves; tactical moves first
/// unless forcing moves already settle them). Quiet moves follow the game's
/// hints when it has them; otherwise two killers, counter-moves and gravity
/// history order them (an explicit setting of these applies whatever the
/// game). [`Config::plain`] is plain fail-hard alpha-beta with nothing else.
///
/// The knowledge options ([`tactical_ordering`](Config::tactical_ordering),
/// [`forcing`](Config::forcing), [`order_hints`](Config::order_hints),
/// [`length_bound`](Config::length_bound), [`win_bounds`](Config::win_bounds),
/// [`threats`](Config::threats))
/// take a [`Use`] and are [`Use::Auto`] by default: [`Use::On`] makes one
/// required (a game without it is refused by
/// [`AlphaBeta::new`](crate::AlphaBeta::new) with
/// [`SearchError::MissingKnowledge`](crate::SearchError::MissingKnowledge)),
/// [`Use::Off`] turns it off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub(crate) algorithm: Algorithm,
    pub(crate) fail_soft: bool,
    pub(crate) iterative_deepening: bool,
    pub(crate) aspiration: Option<i32>,
    pub(crate) table: TableConfig,
    pub(crate) killers: Setting<u8>,
    pub(crate) history: Setting<Option<Policy>>,
    pub(crate) history_malus: bool,
    pub(crate) counter_moves: Setting<bool>,
    pub(crate) tactical_ordering: Use,
    pub(crate) quiescence: bool,
    pub(crate) forcing: Use,
    pub(crate) order_hints: Use,
    pub(crate) length_bound: Use,
    pub(crate) win_bounds: Use,
    pub(crate) threats: Use,
    pub(crate) threat_limits: ThreatConfig,
    pub(crate) etc: bool,
    pub(crate) prefetch: bool,
    pub(crate) threads: usize,
    pub(crate) progress_interval: u64,
    pub(crate) complete_line: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            algorithm: Algorithm::Auto,
            fail_soft: true,
            iterative_deepening: true,
            aspiration: None,
            table: TableConfig::new(),
            killers: Setting::Auto(2),
            history: Setting::Auto(Some(Policy::Gravity)),
            history_malus: true,
            counter_moves: Setting::Auto(true),
            tactical_ordering: Use::Auto,
            quiescence: false,
            forcing: Use::Auto,
            order_hints: Use::Auto,
            length_bound: Use::Auto,
            win_bounds: Use::Auto,
            threats: Use::Auto,
            threat_limits: DEFAULT_THREAT_LIMITS,
            etc: false,
            prefetch: true,
            threads: 1,
            progress_interval: 1 << 20,
            complete_line: true,
        }
    }
}

impl Config {
    /// This configuration with [`Algorithm::Auto`] replaced by `algorithm`.
    pub(crate) fn resolved(mut self, algorithm: Algorithm) -> Config {
        if self.algorithm == Algorithm::Auto {
            self.algorithm = algorithm;
        }
        self
    }

    /// The default configuration (see [`Config`]).
    #[must_use]
    pub fn new() -> Config {
        Config::default()
    }

    /// Plain fail-hard alpha-beta: no table, no ordering, no iterative
    /// deepening, none of the game's knowledge.
    #[must_use]
    pub fn plain() -> Config {
        Config {
            algorithm: Algorithm::AlphaBeta,
            fail_soft: false,
            iterative_deepening: false,
            aspiration: None,
            table: TableConfig::off(),
            killers: Setting::Set(0),
            history: Setting::Set(None),
            history_malus: false,
            counter_moves: Setting::Set(false),
            tactical_ordering: Use::Off,
            quiescence: false,
            forcing: Use::Off,
            order_hints: Use::Off,
            length_bound: Use::Off,
            win_bounds: Use::Off,
            threats: Use::Off,
            threat_limits: DEFAULT_THREAT_LIMITS,
            etc: false,
            prefetch: false,
            threads: 1,
            progress_interval: 1 << 20,
            complete_line: true,
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

    /// The transposition table's options.
    #[must_use]
    pub fn table(mut self, table: TableConfig) -> Config {
        self.table = table;
        self
    }

    /// The searcher's memory in bytes: the size of its transposition
    /// table (the same as [`TableConfig::memory`] on
    /// [`get_table`](Config::get_table)).
    #[must_use]
    pub fn memory(mut self, bytes: usize) -> Config {
        self.table.memory = bytes;
        self
    }

    /// Killer moves per ply: 0, 1 or 2 (larger values are read as 2).
    #[must_use]
    pub fn killers(mut self, k: u8) -> Config {
        self.killers = Setting::Set(k.min(2));
        self
    }

    /// The history heuristic's bonus policy, or `None` for no history.
    #[must_use]
    pub fn history(mut self, policy: Option<Policy>) -> Config {
        self.history = Setting::Set(policy);
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
        self.counter_moves = Setting::Set(on);
        self
    }

    /// Try the game's tactical moves (captures, immediate wins) first
    /// ([`gametree_game::Knowledge::tactics`]; `Use::On` requires it).
    #[must_use]
    pub fn tactical_ordering(mut self, usage: Use) -> Config {
        self.tactical_ordering = usage;
        self
    }

    /// Quiescence search at the horizon (tactical moves only, with stand-pat
    /// on the evaluation; requires [`gametree_game::Knowledge::tactics`]). Changes
    /// the values: compare with
    /// [`negamax_quiescence`](crate::negamax_quiescence), not plain negamax.
    /// Off by default.
    #[must_use]
    pub fn quiescence(mut self, on: bool) -> Config {
        self.quiescence = on;
        self
    }

    /// End a node with the game's immediate win, and skip moves that hand
    /// the opponent one ([`gametree_game::Knowledge::forcing`]; `Use::On` requires it).
    #[must_use]
    pub fn forcing(mut self, usage: Use) -> Config {
        self.forcing = usage;
        self
    }

    /// Order quiet moves by the game's static hint, history breaking ties
    /// ([`gametree_game::Knowledge::order_hints`]; `Use::On` requires it).
    #[must_use]
    pub fn order_hints(mut self, usage: Use) -> Config {
        self.order_hints = usage;
        self
    }

    /// When solving, use the game's bound on its remaining length
    /// ([`gametree_game::Knowledge::length_bound`]; `Use::On` requires it): a node
    /// where no win or loss can come in time is a draw, and
    /// [`Algorithm::Bisection`] tests only the values the position can
    /// still have.
    #[must_use]
    pub fn length_bound(mut self, usage: Use) -> Config {
        self.length_bound = usage;
        self
    }

    /// When solving, use the game's proofs that a player can no longer win
    /// ([`gametree_game::Knowledge::win_bounds`]; `Use::On` requires it): a
    /// side to move that cannot win is held to a draw at best, one whose
    /// opponent cannot win draws at least, so a node whose window lies
    /// beyond that range is settled without a search.
    #[must_use]
    pub fn win_bounds(mut self, usage: Use) -> Config {
        self.win_bounds = usage;
        self
    }

    /// When solving, prove wins by threat-space search
    /// ([`gametree_threats`]; the game's [`threat
    /// moves`](gametree_game::Game::threat_moves) and forcing knowledge, no
    /// repetitions; `Use::On` requires them): a node whose side to move wins by
    /// a sequence of absolute threats within `p` plies is worth at least a
    /// win in `p`, so a window below that is cut without searching the
    /// node's moves, and the bound is stored in the table. Every threat and
    /// defence is checked against the rules, so values are unchanged.
    #[must_use]
    pub fn threats(mut self, usage: Use) -> Config {
        self.threats = usage;
        self
    }

    /// The limits of each threat-space search (default: sequences of at
    /// most 3 threats, 2,000 positions per call, a table of 2^16
    /// entries). Short sequences cost little per node and find most of the
    /// cutoffs: on m,n,k-games, longer ones searched more than they saved.
    ///
    /// [`AlphaBeta::new`](crate::AlphaBeta::new) fails with
    /// [`SearchError::Threats`](crate::SearchError::Threats) when the table
    /// size is refused.
    #[must_use]
    pub fn threat_limits(mut self, limits: ThreatConfig) -> Config {
        self.threat_limits = limits;
        self
    }

    /// Enhanced transposition cutoffs: before searching a node's moves,
    /// probe the table for every child and cut at once when one child's
    /// stored bound already refutes the window (only with
    /// [`TtUse::Cutoffs`], never at the root). Costs a make, unmake and
    /// probe per move; saves the nodes of the refuting child.
    #[must_use]
    pub fn etc(mut self, on: bool) -> Config {
        self.etc = on;
        self
    }

    /// Table prefetch (default `true`): before searching a node's moves,
    /// make each move, ask the table to start loading the child's entry
    /// into the cache ([`Table::prefetch`](gametree_ttable::Table::prefetch)),
    /// and unmake it, so that the children's probes do not each wait for
    /// main memory in turn. Changes no value, and on one thread no node
    /// count (a search with it equals one without, node for node); costs a
    /// make, a [`Game::table_key`](gametree_game::Game::table_key) and an
    /// unmake per move of each expanded node.
    #[must_use]
    pub fn prefetch(mut self, on: bool) -> Config {
        self.prefetch = on;
        self
    }

    /// After solving (or proving a decisive value), extend the principal
    /// line to the end of the game (default `true`): one null-window test
    /// per candidate move and ply, the table's move first, most answered
    /// by the table. Their nodes are counted in the report: on Pons's
    /// Connect Four sets they add 0.04 % (Test_L1_R2, first 100 lines),
    /// 0.7 % (Test_L2_R2, first 200) and 26 % (Test_L3_R1, first 200,
    /// whose solves take 48 nodes: a line costs at least a node per ply).
    /// `false`
    /// leaves the line as the search found it (at least the best move),
    /// as a solver that only reports scores does.
    #[must_use]
    pub fn complete_line(mut self, on: bool) -> Config {
        self.complete_line = on;
        self
    }

    /// Sends an [`Event::Nodes`](crate::Event::Nodes) to the event sink of
    /// the request of [`search`](crate::AlphaBeta::search) and
    /// [`Solver::solve`](crate::Solver::solve) about every `nodes` nodes,
    /// counted as [`Stats::nodes`](crate::Stats::nodes) counts them
    /// (default 2^20, at least 1,024: limits are checked every 1,024
    /// nodes).
    #[must_use]
    pub fn progress_interval(mut self, nodes: u64) -> Config {
        self.progress_interval = nodes.max(1024);
        self
    }

    /// Lazy SMP threads sharing one lockless table (1, the default, is
    /// single-threaded; [`ALL_CORES`] (0) is every core the machine
    /// offers, the workspace's one meaning of `threads`, resolved by
    /// [`AlphaBeta::new`](crate::AlphaBeta::new), whose
    /// [`config`](crate::AlphaBeta::config) shows the count in effect).
    /// When solving, the first thread to finish gives the value, and near
    /// the root a thread puts off the moves another thread is searching.
    /// Every thread count gives the same values; more threads do not
    /// always pay (see the crate's README).
    #[must_use]
    pub fn threads(mut self, n: usize) -> Config {
        self.threads = n;
        self
    }

    /// This configuration with [`ALL_CORES`] replaced by the number of
    /// cores.
    pub(crate) fn with_thread_count(mut self) -> Config {
        if self.threads == ALL_CORES {
            self.threads = std::thread::available_parallelism().map_or(1, usize::from);
        }
        self
    }

    /// Whether solved lines are completed to the end of the game.
    #[must_use]
    pub fn get_complete_line(&self) -> bool {
        self.complete_line
    }
    /// The progress interval in nodes.
    #[must_use]
    pub fn get_progress_interval(&self) -> u64 {
        self.progress_interval
    }
    /// The root algorithm.
    #[must_use]
    pub fn get_algorithm(&self) -> Algorithm {
        self.algorithm
    }
    /// Fail-soft?
    #[must_use]
    pub fn get_fail_soft(&self) -> bool {
        self.fail_soft
    }
    /// Iterative deepening?
    #[must_use]
    pub fn get_iterative_deepening(&self) -> bool {
        self.iterative_deepening
    }
    /// The aspiration half-width.
    #[must_use]
    pub fn get_aspiration(&self) -> Option<i32> {
        self.aspiration
    }
    /// The transposition table's options.
    #[must_use]
    pub fn get_table(&self) -> TableConfig {
        self.table
    }
    /// The searcher's memory in bytes (its table's size).
    #[must_use]
    pub fn get_memory(&self) -> usize {
        self.table.memory
    }
    /// Killers per ply (for a game without order hints, by default).
    #[must_use]
    pub fn get_killers(&self) -> u8 {
        self.killers.value()
    }
    /// The history policy (for a game without order hints, by default).
    #[must_use]
    pub fn get_history(&self) -> Option<Policy> {
        self.history.value()
    }
    /// The history malus?
    #[must_use]
    pub fn get_history_malus(&self) -> bool {
        self.history_malus
    }
    /// Counter-moves (for a game without order hints, by default)?
    #[must_use]
    pub fn get_counter_moves(&self) -> bool {
        self.counter_moves.value()
    }
    /// Tactical ordering.
    #[must_use]
    pub fn get_tactical_ordering(&self) -> Use {
        self.tactical_ordering
    }
    /// Quiescence search?
    #[must_use]
    pub fn get_quiescence(&self) -> bool {
        self.quiescence
    }
    /// Forcing moves.
    #[must_use]
    pub fn get_forcing(&self) -> Use {
        self.forcing
    }
    /// Quiet-move hints.
    #[must_use]
    pub fn get_order_hints(&self) -> Use {
        self.order_hints
    }
    /// The length bound.
    #[must_use]
    pub fn get_length_bound(&self) -> Use {
        self.length_bound
    }
    /// The win bounds.
    #[must_use]
    pub fn get_win_bounds(&self) -> Use {
        self.win_bounds
    }
    /// Threat-space search.
    #[must_use]
    pub fn get_threats(&self) -> Use {
        self.threats
    }
    /// The limits of each threat-space search.
    #[must_use]
    pub fn get_threat_limits(&self) -> ThreatConfig {
        self.threat_limits
    }
    /// Enhanced transposition cutoffs?
    #[must_use]
    pub fn get_etc(&self) -> bool {
        self.etc
    }
    /// Table prefetch?
    #[must_use]
    pub fn get_prefetch(&self) -> bool {
        self.prefetch
    }
    /// Threads ([`ALL_CORES`] when set so and not yet resolved).
    #[must_use]
    pub fn get_threads(&self) -> usize {
        self.threads
    }
}
