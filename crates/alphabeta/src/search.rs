//! The configurable searcher: [`AlphaBeta`].

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Instant;

use game::{
    Evaluate, Forcing, Game, Limits, MoveBuffer, MoveIndex, OrderHint, Outcome, PackMove, Player,
    Score, Tactical,
};
use ordering::{
    CounterMoves, History, Killers, MovePicker, NoHistory, Policy, QuietOrder, TacticalFn,
};
use ttable::{Bound, Entry, SharedTable, Table, TranspositionTable};

use crate::config::{Algorithm, Config, TtUse};
use crate::reference::{MAX_QUIESCENCE_PLY, PvTable};
use crate::{Report, SearchError, Stats, Stop};

/// The deepest ply a search reaches (killer table size, depth cap of
/// iterative deepening without a depth limit).
pub const MAX_PLY: usize = 256;

/// The depth stored in the table for a search to the end of the game.
const TO_END_DEPTH: u8 = u8::MAX;

/// Generates a game's tactical moves (for quiescence).
type TacticalGen<G> = fn(&G, &mut <G as Game>::Moves);

/// A bound on the game's remaining length, as a function pointer (see
/// [`AlphaBeta::with_length_bound`]).
type LengthBoundFn<G> = fn(&G) -> u32;

/// A game's [`OrderHint`], as a function pointer.
type HintFn<G> = fn(&G, <G as Game>::Move) -> i32;

/// Quiet-move order from a game's [`OrderHint`], history as the tie-break.
struct HintOrder<'a, G: Game> {
    game: &'a G,
    hint: HintFn<G>,
    history: Option<&'a History<G::Move>>,
}

impl<G: Game> QuietOrder<G::Move> for HintOrder<'_, G>
where
    G::Move: MoveIndex,
{
    #[inline]
    fn quiet_score(&self, side: Player, m: G::Move) -> i32 {
        let h = (self.hint)(self.game, m).clamp(-(1 << 14), 1 << 14);
        let history = self
            .history
            .map_or(0, |t| t.score(side, m))
            .clamp(-(1 << 15), 1 << 15);
        h * (1 << 16) + history
    }
}

/// The most moves the lean order (no picker) handles; longer lists use the
/// picker.
const LEAN_MAX: usize = 32;

/// The move order of a node without killers, history, counter-moves or a
/// tactical stage: the table move, then the rest sorted once by the game's
/// hint (stable: generation order among equal hints), or in generation
/// order without a hint. The same order the staged picker gives with those
/// stages empty, without its bookkeeping.
struct LeanOrder {
    /// `moves[..cursor]` have been yielded.
    cursor: usize,
    /// 0: the table move is next; 1: sort the rest; 2: yield in order.
    stage: u8,
}

impl LeanOrder {
    #[inline]
    fn new() -> Self {
        LeanOrder {
            cursor: 0,
            stage: 0,
        }
    }

    #[inline]
    fn next<G: Game>(
        &mut self,
        game: &G,
        moves: &mut G::Moves,
        tt_move: Option<G::Move>,
        hint: Option<HintFn<G>>,
    ) -> Option<G::Move> {
        let list = moves.as_mut_slice();
        if self.stage == 0 {
            self.stage = 1;
            if let Some(tt) = tt_move
                && let Some(at) = list.iter().position(|&m| m == tt)
            {
                list.swap(0, at);
                self.cursor = 1;
                return Some(tt);
            }
        }
        if self.stage == 1 {
            self.stage = 2;
            if let Some(h) = hint
                && list.len() > self.cursor + 1
            {
                let rest = &mut list[self.cursor..];
                let n = rest.len().min(LEAN_MAX);
                let mut scores = [0i32; LEAN_MAX];
                for (s, &m) in scores.iter_mut().zip(rest.iter()) {
                    *s = h(game, m).clamp(-(1 << 14), 1 << 14);
                }
                // Insertion sort, highest first, stable.
                for i in 1..n {
                    let (m, sc) = (rest[i], scores[i]);
                    let mut j = i;
                    while j > 0 && scores[j - 1] < sc {
                        rest[j] = rest[j - 1];
                        scores[j] = scores[j - 1];
                        j -= 1;
                    }
                    rest[j] = m;
                    scores[j] = sc;
                }
            }
        }
        let m = *list.get(self.cursor)?;
        self.cursor += 1;
        Some(m)
    }
}

/// A game's [`Forcing`] knowledge, as function pointers.
struct ForcingFns<G: Game> {
    winning: fn(&G) -> Option<G::Move>,
    non_losing: fn(&G, &mut G::Moves),
}

impl<G: Game> Clone for ForcingFns<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for ForcingFns<G> {}

impl<G: Game> std::fmt::Debug for ForcingFns<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ForcingFns")
    }
}

/// The per-thread move-ordering tables.
#[derive(Debug)]
struct Heuristics<M> {
    killers: Killers<M>,
    history: History<M>,
    counters: CounterMoves<M>,
}

impl<M: MoveIndex + Copy + Eq> Heuristics<M> {
    fn new(config: &Config) -> Self {
        Heuristics {
            killers: Killers::new(MAX_PLY),
            history: History::new(config.history.unwrap_or(Policy::Gravity))
                .with_malus(config.history_malus),
            counters: CounterMoves::new(),
        }
    }
}

/// A configurable alpha-beta searcher: one engine for every variant, each
/// proven equal to plain [`negamax`](crate::negamax) by `cargo xtask verify`.
///
/// Build it from a [`Config`], then call [`search`](Self::search)
/// (depth-limited, heuristic values at the horizon), [`solve`](Self::solve)
/// (to the end of the game, distance-encoded values),
/// [`solve_weak`](Self::solve_weak) (win/draw/loss by null windows) or
/// [`test`](Self::test) (is the value at least `x`?). The searcher keeps its
/// tables between calls; [`clear`](Self::clear) forgets them.
///
/// ```
/// use alphabeta::{AlphaBeta, Config, negamax};
/// use game::Limits;
/// use games_tictactoe::TicTacToe;
///
/// let mut searcher = AlphaBeta::<TicTacToe>::new(Config::default())?.with_tactics();
/// let mut board: TicTacToe = "X...O....".parse()?;
/// let report = searcher.search(&mut board, &Limits::depth(4));
/// assert_eq!(report.value, negamax(&mut board, 4).value);
/// let solved = searcher.solve(&mut board, &Limits::none());
/// assert_eq!(solved.value, game::Score::DRAW);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct AlphaBeta<G: Game> {
    config: Config,
    table: Option<TranspositionTable>,
    shared: Option<SharedTable>,
    heuristics: Heuristics<G::Move>,
    tactical: Option<TacticalFn<G>>,
    tactical_gen: Option<TacticalGen<G>>,
    forcing: Option<ForcingFns<G>>,
    hint: Option<HintFn<G>>,
    length_bound: Option<LengthBoundFn<G>>,
}

impl<G> AlphaBeta<G>
where
    G: Evaluate,
    G::Move: PackMove + MoveIndex,
{
    /// A searcher with `config`, allocating its table.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when the table size is refused (zero, too large, or
    /// the allocation failed).
    pub fn new(config: Config) -> Result<Self, SearchError> {
        let tt_config = ttable::Config::new()
            .probe_policy(config.tt_policy)
            .check_bits(config.tt_check_bits);
        let (table, shared) = match (config.tt, config.threads) {
            (TtUse::Off, _) => (None, None),
            (_, 1) => (
                Some(TranspositionTable::with_config(config.tt_bytes, tt_config)?),
                None,
            ),
            (_, _) => (
                None,
                Some(SharedTable::with_config(config.tt_bytes, tt_config)?),
            ),
        };
        Ok(AlphaBeta {
            heuristics: Heuristics::new(&config),
            config,
            table,
            shared,
            tactical: None,
            tactical_gen: None,
            forcing: None,
            hint: None,
            length_bound: None,
        })
    }

    /// Tells the searcher that the game is over within `bound(position)`
    /// more plies (for a board game that fills a cell per move: its empty
    /// cells). Used when solving: no win or loss lies further than that, so
    /// a node where neither can come in time is a draw, and the
    /// [`Algorithm::Bisection`] root tests values on the ladder of scores
    /// the position can still have (with [`Forcing`], wins on the side to
    /// move's plies and losses on the opponent's only), each test halving
    /// the remaining range the way Pons's Connect Four solver does: "at
    /// least a win (loss) in half the remaining plies?" first, then inward.
    ///
    /// The bound must hold for every position reached (a value found beyond
    /// it would be wrong); depth-limited searches ignore it.
    #[must_use]
    pub fn with_length_bound(mut self, bound: fn(&G) -> u32) -> Self {
        self.length_bound = Some(bound);
        self
    }

    /// Uses the game's [`OrderHint`] to order quiet moves (when
    /// [`Config::order_hints`] is on), history breaking ties.
    #[must_use]
    pub fn with_order_hints(mut self) -> Self
    where
        G: OrderHint,
    {
        self.hint = Some(<G as OrderHint>::order_hint);
        self
    }

    /// Uses the game's [`Forcing`] knowledge (when [`Config::forcing`] is
    /// on): a node with a winning move is scored at once, and moves that
    /// hand the opponent an immediate win are not searched (at remaining
    /// depth 2 or more, where that changes no value).
    #[must_use]
    pub fn with_forcing(mut self) -> Self
    where
        G: Forcing,
    {
        self.forcing = Some(ForcingFns {
            winning: <G as Forcing>::winning_move,
            non_losing: <G as Forcing>::non_losing_moves,
        });
        self
    }

    /// Uses the game's [`Tactical`] knowledge: tactical moves first in the
    /// move order (when [`Config::tactical_ordering`] is on) and quiescence
    /// search (when [`Config::quiescence`] is on).
    #[must_use]
    pub fn with_tactics(mut self) -> Self
    where
        G: Tactical,
    {
        self.tactical = Some(<G as Tactical>::tactical_score);
        self.tactical_gen = Some(<G as Tactical>::generate_tactical);
        self
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Forgets the table and the ordering heuristics.
    pub fn clear(&mut self) {
        if let Some(t) = &mut self.table {
            t.clear();
        }
        if let Some(t) = &self.shared {
            t.clear();
        }
        self.heuristics = Heuristics::new(&self.config);
    }

    /// Searches to the depth in `limits` (iterative deepening from depth 1
    /// when configured), stopping early on the node, time or cancel limit
    /// with the result of the last completed iteration. Without a depth
    /// limit, iterates until another limit stops it or the value is
    /// decisive (at most [`MAX_PLY`] plies).
    pub fn search(&mut self, game: &mut G, limits: &Limits) -> Report<G::Move>
    where
        G: Send,
        G::Move: Send + Sync,
    {
        let max = limits.depth.unwrap_or(MAX_PLY as u32).min(MAX_PLY as u32);
        self.run(game, limits, Mode::Depth(max))
    }

    /// Solves the position: searches to the end of the game (no
    /// evaluation), returning the game-theoretic value with the distance to
    /// the end (shortest win, longest loss). The normal table policy is
    /// sound here, since every stored value is exact to the end.
    ///
    /// For games whose positions can repeat ([`Game::CAN_REPEAT`], e.g.
    /// chess), a depth-first search to the end would wander around cycles,
    /// so the position is solved by iterative deepening instead: an
    /// iteration whose value is decisive has found the shortest win (or the
    /// longest loss) inside its horizon, which is exact; one in which no
    /// leaf was cut by the horizon has searched the whole game. A draw that
    /// needs the whole game searched (a position where neither side can
    /// force mate and play never ends by the rules) may take very long;
    /// give such searches a node or time limit. Values that rest on a
    /// repetition or a move-counter draw are never stored in the table (see
    /// [`Game::outcome_depends_on_history`]).
    pub fn solve(&mut self, game: &mut G, limits: &Limits) -> Report<G::Move>
    where
        G: Send,
        G::Move: Send + Sync,
    {
        let mode = if G::CAN_REPEAT {
            Mode::Prove
        } else {
            Mode::ToEnd
        };
        self.run(game, limits, mode)
    }

    /// Win, draw or loss only, by at most two null-window searches to the
    /// end (`value > 0?`, then `value < 0?`): usually much cheaper than
    /// [`solve`](Self::solve). The report's `value` is the bound that
    /// decided (its sign is the answer; its distance is not exact) and
    /// `outcome` is set.
    pub fn solve_weak(&mut self, game: &mut G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        self.new_search();
        let mut worker = self.worker(limits, &stop, start, None);
        if G::CAN_REPEAT {
            // As `solve`: iterative deepening, single thread.
            return worker.iterate(game, Mode::Prove);
        }
        worker.to_end = true;
        // Is the value at least a win in the longest possible game?
        let win = Score::win_in(Score::MAX_PLY);
        let v = worker.root(game, TO_END_DEPTH as u32, Score::new(win.get() - 1), win);
        let mut report = Report::default();
        if v >= win && !worker.stopped {
            report.outcome = Some(Outcome::Win);
        } else if !worker.stopped {
            let v2 = worker.root(game, TO_END_DEPTH as u32, Score::new(-1), Score::DRAW);
            if !worker.stopped {
                report.outcome = Some(if v2 >= Score::DRAW {
                    Outcome::Draw
                } else {
                    Outcome::Loss
                });
            }
        }
        report.value = match report.outcome {
            Some(Outcome::Win) => v,
            Some(Outcome::Draw) => Score::DRAW,
            _ => Score::LOSS,
        };
        report.best = worker.root_best;
        report.pv = report.best.into_iter().collect();
        report.stopped = worker.stop_reason;
        report.stats = worker.finish_stats();
        report.nodes = report.stats.nodes;
        report
    }

    /// The null-window test `value >= x?` at `depth` (the building block of
    /// MTD(f) and of weak solving).
    pub fn test(&mut self, game: &mut G, depth: u32, x: Score) -> bool {
        let stop = AtomicBool::new(false);
        self.new_search();
        let limits = Limits::none();
        let mut worker = self.worker(&limits, &stop, Instant::now(), None);
        let v = worker.root(game, depth, Score::new(x.get() - 1), x);
        v >= x
    }

    fn new_search(&mut self) {
        if let Some(t) = &mut self.table {
            t.new_generation();
        }
        if let Some(t) = &self.shared {
            t.new_generation();
        }
        if self.config.history.is_some() {
            self.heuristics.history.decay();
        }
        self.heuristics.killers.clear_all();
    }

    fn worker<'a>(
        &'a mut self,
        limits: &'a Limits,
        stop: &'a AtomicBool,
        start: Instant,
        shared: Option<&'a SharedTable>,
    ) -> Worker<'a, G, TranspositionTable> {
        let length_bound = self.length_bound;
        let mut w = Worker::new(
            &self.config,
            self.table.as_mut(),
            shared,
            &mut self.heuristics,
            self.tactical,
            self.tactical_gen,
            self.forcing,
            self.hint,
            limits,
            stop,
            start,
        );
        w.length_bound = length_bound;
        w
    }

    fn run(&mut self, game: &mut G, limits: &Limits, mode: Mode) -> Report<G::Move>
    where
        G: Send,
        G::Move: Send + Sync,
    {
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        self.new_search();
        if let Some(shared) = self.shared.take() {
            let report = self.run_parallel(game, limits, mode, &shared, &stop, start);
            self.shared = Some(shared);
            return report;
        }
        let mut worker = self.worker(limits, &stop, start, None);
        worker.iterate(game, mode)
    }

    fn run_parallel(
        &mut self,
        game: &mut G,
        limits: &Limits,
        mode: Mode,
        shared: &SharedTable,
        stop: &AtomicBool,
        start: Instant,
    ) -> Report<G::Move>
    where
        G: Send,
        G::Move: Send + Sync,
    {
        let helpers = self.config.threads - 1;
        let config = self.config;
        let tactical = self.tactical;
        let tactical_gen = self.tactical_gen;
        let forcing = self.forcing;
        let hint = self.hint;
        let length_bound = self.length_bound;
        std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(helpers);
            for i in 0..helpers {
                let mut g = game.clone();
                handles.push(scope.spawn(move || {
                    let mut h = Heuristics::new(&config);
                    let mut w: Worker<'_, G, TranspositionTable> = Worker::new(
                        &config,
                        None,
                        Some(shared),
                        &mut h,
                        tactical,
                        tactical_gen,
                        forcing,
                        hint,
                        limits,
                        stop,
                        start,
                    );
                    w.helper = Some(i + 1);
                    w.length_bound = length_bound;
                    let r = w.iterate(&mut g, mode);
                    r.stats.nodes
                }));
            }
            let mut main: Worker<'_, G, TranspositionTable> = Worker::new(
                &config,
                None,
                Some(shared),
                &mut self.heuristics,
                tactical,
                tactical_gen,
                forcing,
                hint,
                limits,
                stop,
                start,
            );
            main.length_bound = length_bound;
            let mut report = main.iterate(game, mode);
            stop.store(true, AtomicOrdering::Relaxed);
            let helper_nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            report.stats.nodes += helper_nodes;
            report.nodes = report.stats.nodes;
            report
        })
    }
}

/// The values a position can have when the game is over within `r` plies,
/// as consecutive ranks `-losses..=wins`: rank 0 is the draw, rank 1 the
/// slowest win, rank `wins` the quickest; rank -1 the slowest loss. With
/// `parity` (the [`Forcing`] contract: only the player who just moved can
/// win) wins come on odd distances and losses on even ones only.
#[derive(Clone, Copy, Debug)]
struct Ladder {
    parity: bool,
    wins: i32,
    losses: i32,
}

impl Ladder {
    fn new(r: u32, parity: bool) -> Ladder {
        let r = r as i32;
        if parity {
            Ladder {
                parity,
                wins: (r + 1) / 2,
                losses: r / 2,
            }
        } else {
            Ladder {
                parity,
                wins: r,
                losses: r,
            }
        }
    }

    fn min(self) -> i32 {
        -self.losses
    }

    fn max(self) -> i32 {
        self.wins
    }

    /// The score of rank `t` (`min() <= t <= max()`).
    fn score(self, t: i32) -> Score {
        if t == 0 {
            Score::DRAW
        } else if t > 0 {
            let k = (self.wins + 1 - t) as u32;
            Score::win_in(if self.parity { 2 * k - 1 } else { k })
        } else {
            let k = (self.losses + 1 + t) as u32;
            Score::loss_in(if self.parity { 2 * k } else { k })
        }
    }

    /// The largest rank whose score is at most `u` (`min()` if none).
    fn rank_at_most(self, u: Score) -> i32 {
        let mut t = self.max();
        while t > self.min() && self.score(t) > u {
            t -= 1;
        }
        t
    }

    /// The smallest rank whose score is at least `l` (`max()` if none).
    fn rank_at_least(self, l: Score) -> i32 {
        let mut t = self.min();
        while t < self.max() && self.score(t) < l {
            t += 1;
        }
        t
    }
}

/// Depth-limited or to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Depth(u32),
    ToEnd,
    /// Solving a game whose positions can repeat: iterative deepening until
    /// an iteration's value is decisive (a mate found inside the horizon is
    /// exact) or no leaf was cut by the horizon (the tree was searched to
    /// the end).
    Prove,
}

/// One thread's search state.
struct Worker<'a, G: Game, T: Table> {
    config: Config,
    table: Option<&'a mut T>,
    shared: Option<&'a SharedTable>,
    h: &'a mut Heuristics<G::Move>,
    tactical: Option<TacticalFn<G>>,
    tactical_gen: Option<TacticalGen<G>>,
    forcing: Option<ForcingFns<G>>,
    hint: Option<HintFn<G>>,
    limits: &'a Limits,
    stop: &'a AtomicBool,
    start: Instant,
    pv: PvTable<G::Move>,
    stats: Stats,
    stopped: bool,
    stop_reason: Option<Stop>,
    to_end: bool,
    root_best: Option<G::Move>,
    /// `Some(i)` for Lazy SMP helper thread `i` (never reports).
    helper: Option<usize>,
    /// The game's length bound ([`AlphaBeta::with_length_bound`]).
    length_bound: Option<LengthBoundFn<G>>,
    /// Set by a parent whose move list came from
    /// [`Forcing::non_losing_moves`] for the child it is about to search:
    /// the child's side to move has no immediate win, so the check is
    /// skipped. Taken (reset) on entry to every node.
    next_safe: bool,
    /// Whether the value of the subtree being searched rests on an outcome
    /// that depends on the path (a repetition draw, a move-counter draw) or
    /// on the ply cap: such values are not stored in the table.
    tainted: bool,
    /// Proving by iterative deepening ([`Mode::Prove`]).
    proving: bool,
    /// Whether the subtree being searched had a leaf cut by the horizon (or
    /// a table cutoff by a depth-limited entry): only a subtree without one
    /// is solved whatever the depth.
    horizon: bool,
    /// No killers, history, counter-moves or tactical stage: moves are
    /// ordered by [`LeanOrder`] instead of the staged picker.
    lean: bool,
    /// Enhanced transposition cutoffs ([`Config::etc`] with table cutoffs).
    etc: bool,
}

impl<'a, G, T> Worker<'a, G, T>
where
    G: Evaluate,
    G::Move: PackMove + MoveIndex,
    T: Table,
{
    #[allow(clippy::too_many_arguments)]
    fn new(
        config: &'a Config,
        table: Option<&'a mut T>,
        shared: Option<&'a SharedTable>,
        h: &'a mut Heuristics<G::Move>,
        tactical: Option<TacticalFn<G>>,
        tactical_gen: Option<TacticalGen<G>>,
        forcing: Option<ForcingFns<G>>,
        hint: Option<HintFn<G>>,
        limits: &'a Limits,
        stop: &'a AtomicBool,
        start: Instant,
    ) -> Self {
        let tactical = if config.tactical_ordering {
            tactical
        } else {
            None
        };
        Worker {
            lean: config.killers == 0
                && !config.counter_moves
                && config.history.is_none()
                && tactical.is_none(),
            etc: config.etc && config.tt == TtUse::Cutoffs,
            config: *config,
            table,
            shared,
            h,
            tactical,
            tactical_gen: if config.quiescence {
                tactical_gen
            } else {
                None
            },
            forcing: if config.forcing { forcing } else { None },
            hint: if config.order_hints { hint } else { None },
            limits,
            stop,
            start,
            pv: PvTable::new(),
            stats: Stats::default(),
            stopped: false,
            stop_reason: None,
            to_end: false,
            root_best: None,
            helper: None,
            length_bound: None,
            next_safe: false,
            tainted: false,
            proving: false,
            horizon: false,
        }
    }

    /// The counters, with the table's occupancy at the end.
    fn finish_stats(&self) -> Stats {
        let mut s = self.stats;
        s.hashfull = match (&self.table, self.shared) {
            (Some(t), _) => t.hashfull(),
            (None, Some(t)) => t.hashfull(),
            (None, None) => 0,
        };
        s
    }

    /// Iterative deepening (or a single search) in `mode`.
    fn iterate(&mut self, game: &mut G, mode: Mode) -> Report<G::Move> {
        let mut report = Report::default();
        let (first, last) = match mode {
            Mode::ToEnd => {
                self.to_end = true;
                (TO_END_DEPTH as u32, TO_END_DEPTH as u32)
            }
            Mode::Depth(d) if self.config.iterative_deepening => (d.min(1), d),
            Mode::Depth(d) => (d, d),
            Mode::Prove => {
                self.proving = true;
                (1, MAX_PLY as u32 - 1)
            }
        };
        let mut previous: Option<Score> = None;
        let mut depth = first;
        loop {
            // Lazy SMP: helpers start some iterations one ply deeper.
            let d = match self.helper {
                Some(i) if !self.to_end && i % 2 == 1 && depth < last => depth + 1,
                _ => depth,
            };
            self.horizon = false;
            let value = self.iteration(game, d, previous);
            if self.stopped {
                break;
            }
            // A decisive value is only accepted once the whole mate lies
            // inside the horizon: before that it can be a bound carried
            // over from the table rather than the shortest distance.
            let inside = value.plies_to_end().is_some_and(|k| k <= depth);
            if self.proving && d == depth && (inside || !self.horizon) {
                report.value = value;
                report.best = self.root_best;
                report.pv = self.pv.line(0).to_vec();
                report.depth = depth;
                report.completed = true;
                report.outcome = value.outcome();
                break;
            }
            if d == depth {
                previous = Some(value);
                report.value = value;
                report.best = self.root_best;
                report.pv = self.pv.line(0).to_vec();
                report.depth = if self.to_end { 0 } else { depth };
                // Proving: an iteration that proved nothing is not a result.
                report.completed = !self.proving;
            }
            if depth >= last {
                break;
            }
            if matches!(mode, Mode::Depth(_))
                && value.is_decisive()
                && limits_depth_open(self.limits)
            {
                // Without a depth limit, a decisive value ends the search.
                break;
            }
            depth += 1;
        }
        if self.to_end && report.completed {
            report.outcome = report.value.outcome();
        }
        report.stopped = self.stop_reason;
        report.stats = self.finish_stats();
        report.nodes = report.stats.nodes;
        report
    }

    /// One iteration at `depth`, by the configured root algorithm.
    fn iteration(&mut self, game: &mut G, depth: u32, previous: Option<Score>) -> Score {
        match self.config.algorithm {
            Algorithm::Mtdf => self.mtdf(game, depth, previous.unwrap_or(Score::DRAW)),
            Algorithm::Bisection => self.bisection(game, depth, previous.unwrap_or(Score::DRAW)),
            Algorithm::AlphaBeta | Algorithm::Pvs => match (self.config.aspiration, previous) {
                (Some(delta), Some(prev)) if !prev.is_decisive() => {
                    let alpha = Score::new(prev.get() - delta);
                    let beta = Score::new(prev.get() + delta);
                    let v = self.root(game, depth, alpha, beta);
                    if self.stopped || (v > alpha && v < beta) {
                        v
                    } else {
                        self.stats.aspiration_researches += 1;
                        self.root(game, depth, -Score::INFINITY, Score::INFINITY)
                    }
                }
                _ => self.root(game, depth, -Score::INFINITY, Score::INFINITY),
            },
        }
    }

    /// MTD(f): null-window passes from `guess` until the bounds meet.
    fn mtdf(&mut self, game: &mut G, depth: u32, guess: Score) -> Score {
        let (mut lower, mut upper) = (-Score::INFINITY, Score::INFINITY);
        let mut g = guess;
        let mut best = None;
        let mut line = Vec::new();
        while lower < upper {
            let beta = if g == lower {
                Score::new(g.get() + 1)
            } else {
                g
            };
            g = self.root(game, depth, Score::new(beta.get() - 1), beta);
            if self.stopped {
                return g;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
                best = self.root_best;
                line.clear();
                line.extend_from_slice(self.pv.line(0));
            }
            self.stats.mtdf_passes += 1;
        }
        self.root_best = best;
        self.pv.set_root(&line);
        g
    }

    /// Null-window bisection: each test at the middle of `[lower, upper)`,
    /// the first at `guess`.
    fn bisection(&mut self, game: &mut G, depth: u32, guess: Score) -> Score {
        if self.to_end
            && let Some(h) = self.length_bound
            && game.outcome().is_none()
        {
            let r = h(game);
            if (r as usize) < MAX_PLY - 2 {
                let ladder = Ladder::new(r, self.forcing.is_some());
                return self.ladder_bisection(game, depth, ladder);
            }
        }
        let (mut lower, mut upper) = (-Score::INFINITY, Score::INFINITY);
        let mut best = None;
        let mut line = Vec::new();
        let mut test = guess;
        while lower < upper {
            // The test value x decides "value > x?": x in [lower, upper).
            let x = test.clamp(lower, Score::new(upper.get() - 1));
            let g = self.root(game, depth, x, Score::new(x.get() + 1));
            if self.stopped {
                return g;
            }
            if g <= x {
                upper = g;
            } else {
                lower = g;
                best = self.root_best;
                line.clear();
                line.extend_from_slice(self.pv.line(0));
            }
            self.stats.mtdf_passes += 1;
            let (mut lo, mut hi) = (lower.get(), upper.get());
            if self.to_end {
                // Solving: every value is 0 or decisive, so bisect inside
                // the decisive range, not across empty heuristic values.
                if lo >= 1 {
                    lo = lo.max(Score::MAX_HEURISTIC);
                }
                if hi <= -1 {
                    hi = hi.min(-Score::MAX_HEURISTIC);
                }
            }
            test = Score::new(lo / 2 + hi / 2);
        }
        self.root_best = best;
        self.pv.set_root(&line);
        lower
    }

    /// Bisection on the ladder of the values a solved position can have
    /// (see [`Ladder`]): Pons's rule, each test at the middle of the
    /// remaining ranks but first at half the best possible loss (win) when
    /// the middle is on the losing (winning) side, so quick decisive results
    /// — cheap to refute, the short lines bounding the search — come first.
    fn ladder_bisection(&mut self, game: &mut G, depth: u32, ladder: Ladder) -> Score {
        let (mut lo, mut hi) = (ladder.min(), ladder.max());
        let mut best = None;
        let mut line = Vec::new();
        while lo < hi {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            // Is the value above the rank-`med` score?
            let x = ladder.score(med);
            let g = self.root(game, depth, x, Score::new(x.get() + 1));
            if self.stopped {
                return g;
            }
            if g <= x {
                hi = ladder.rank_at_most(g).min(med);
            } else {
                lo = ladder.rank_at_least(g).max(med + 1);
                best = self.root_best;
                line.clear();
                line.extend_from_slice(self.pv.line(0));
            }
            self.stats.mtdf_passes += 1;
        }
        if best.is_none() {
            // Never above the lowest rank: the quickest loss, which every
            // move achieves.
            let mut moves = G::Moves::default();
            game.generate(&mut moves);
            best = moves.as_slice().first().copied();
            line.clear();
            line.extend(best);
        }
        self.root_best = best;
        self.pv.set_root(&line);
        ladder.score(lo)
    }

    /// The root search: like [`Self::node`], but never cut by the table,
    /// and it records the best move.
    fn root(&mut self, game: &mut G, depth: u32, alpha: Score, beta: Score) -> Score {
        self.root_best = None;
        let fail_soft = self.config.fail_soft
            || matches!(
                self.config.algorithm,
                Algorithm::Mtdf | Algorithm::Bisection
            );
        self.search(game, depth, 0, alpha, beta, None, fail_soft)
    }

    fn check_limits(&mut self) {
        if self.stopped {
            return;
        }
        let reason = if self.stop.load(AtomicOrdering::Relaxed) || self.limits.is_cancelled() {
            Some(Stop::Cancelled)
        } else if self.limits.nodes.is_some_and(|n| self.stats.nodes >= n) {
            Some(Stop::Nodes)
        } else if self.limits.time.is_some_and(|t| self.start.elapsed() >= t) {
            Some(Stop::Time)
        } else {
            None
        };
        if let Some(r) = reason {
            self.stopped = true;
            self.stop_reason = Some(r);
        }
    }

    #[inline]
    fn tt_depth(&self, depth: u32) -> u8 {
        if self.to_end {
            TO_END_DEPTH
        } else {
            depth.min(u32::from(TO_END_DEPTH) - 1) as u8
        }
    }

    #[inline]
    fn probe(&mut self, key: u64, depth: u8, ply: u32) -> Option<ttable::Hit> {
        self.stats.tt_probes += 1;
        let hit = if let Some(t) = &self.table {
            t.probe(key, depth, ply)
        } else if let Some(s) = self.shared {
            s.probe(key, depth, ply)
        } else {
            None
        };
        if hit.is_some() {
            self.stats.tt_hits += 1;
        }
        hit
    }

    #[inline]
    fn store(&mut self, key: u64, ply: u32, entry: Entry) {
        if let Some(t) = &mut self.table {
            t.store(key, ply, entry);
        } else if let Some(s) = self.shared {
            s.store(key, ply, entry);
        }
    }

    /// The recursive search of one node: negamax value of `game` with
    /// `depth` plies left, `ply` plies below the root, window `(alpha, beta)`.
    #[allow(clippy::too_many_arguments)]
    /// The value of one node. Sets `self.tainted` when that value rests on a
    /// path-dependent outcome (see [`Game::outcome_depends_on_history`]),
    /// leaving it set if it was already.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        previous: Option<G::Move>,
        fail_soft: bool,
    ) -> Score {
        let outer = core::mem::replace(&mut self.tainted, false);
        let outer_horizon = core::mem::replace(&mut self.horizon, false);
        let v = self.node(game, depth, ply, alpha, beta, previous, fail_soft);
        self.tainted |= outer;
        self.horizon |= outer_horizon;
        v
    }

    /// A terminal node's value; marks the subtree tainted when the outcome
    /// depends on the game's history.
    #[inline]
    fn terminal(&mut self, game: &G, o: game::Outcome, ply: u32) -> Score {
        if game.outcome_depends_on_history() {
            self.tainted = true;
        }
        Score::terminal(o, ply)
    }

    /// [`Self::search`] without the taint bookkeeping: `self.tainted` is
    /// `false` on entry and tells on return whether the value may be stored.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        mut beta: Score,
        previous: Option<G::Move>,
        fail_soft: bool,
    ) -> Score {
        let safe = core::mem::take(&mut self.next_safe);
        self.stats.nodes += 1;
        if self.stats.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return Score::DRAW;
        }
        self.pv.clear(ply as usize);
        if let Some(o) = game.outcome() {
            return self.terminal(game, o, ply);
        }
        if !self.to_end && depth == 0 {
            self.horizon = true;
            return match self.tactical_gen {
                Some(generate) => self.quiescence(game, ply, 0, alpha, beta, generate),
                None => game.evaluate(),
            };
        }
        if ply as usize >= MAX_PLY - 1 {
            // The ply cap: a value of the path's length, not of the position.
            self.tainted = true;
            self.horizon = true;
            return game.evaluate();
        }
        // Mate-distance pruning: whatever happens below, the value lies
        // between a loss and a win on the next ply (tighter with the game's
        // forcing knowledge), so the window can be narrowed to that range
        // without changing any value.
        let forcing = self.forcing;
        let (alpha0, beta0) = (alpha, beta);
        let bounded = |v: Score| if fail_soft { v } else { v.clamp(alpha0, beta0) };
        let mut best_possible = Score::win_in(ply + 1);
        if let Some(f) = forcing {
            // (A child of a non-losing move list has no immediate win.)
            if !safe && let Some(m) = (f.winning)(game) {
                self.stats.forced += 1;
                return self.forced_result(ply, m, Score::win_in(ply + 1), alpha, beta, fail_soft);
            }
            // No win now: the earliest is after the opponent's reply.
            best_possible = Score::win_in(ply + 3);
        }
        // Solving with a length bound `r`: no win or loss further than `r`
        // plies, so none at all when the earliest possible one is further.
        let length_bound = match self.length_bound {
            Some(h) if self.to_end => {
                let r = h(game);
                (ply.saturating_add(r) < MAX_PLY as u32 - 2).then_some(r)
            }
            _ => None,
        };
        if length_bound.is_some_and(|r| r < if forcing.is_some() { 3 } else { 1 }) {
            best_possible = best_possible.min(Score::DRAW);
        }
        if beta > best_possible {
            beta = best_possible;
            if alpha >= beta {
                return bounded(beta);
            }
        }
        // (Not at the root, which must find a move reaching its value.)
        let worst_possible = Score::loss_in(ply + 1);
        if ply > 0 && alpha < worst_possible {
            alpha = worst_possible;
            if alpha >= beta {
                return bounded(alpha);
            }
        }
        // The moves first (as in Pons's solver): a node lost on the next
        // ply, or decided by the distance bounds, needs no table probe.
        let mut moves = G::Moves::default();
        let mut safe_children = false;
        match forcing {
            Some(f) if self.to_end || depth >= 2 => {
                safe_children = true;
                (f.non_losing)(game, &mut moves);
                if moves.is_empty() {
                    self.stats.forced += 1;
                    game.generate(&mut moves);
                    let m = moves.as_slice()[0];
                    return self.forced_result(
                        ply,
                        m,
                        Score::loss_in(ply + 2),
                        alpha,
                        beta,
                        fail_soft,
                    );
                }
                // Not lost on the next ply: the earliest loss is two moves away.
                let mut worst = Score::loss_in(ply + 4);
                if length_bound.is_some_and(|r| r < 4) {
                    worst = Score::DRAW;
                }
                if ply > 0 && alpha < worst {
                    alpha = worst;
                    if alpha >= beta {
                        return bounded(alpha);
                    }
                }
            }
            _ => game.generate(&mut moves),
        }
        let tt_on = self.config.tt != TtUse::Off;
        let key = game.hash();
        let tt_depth = self.tt_depth(depth);
        let mut tt_move = None;
        if tt_on && let Some(hit) = self.probe(key, tt_depth, ply) {
            tt_move = hit.entry.best_move.and_then(G::Move::unpack);
            if ply > 0
                && self.config.tt == TtUse::Cutoffs
                && let Some(v) = hit.cutoff(alpha.get(), beta.get())
            {
                self.stats.tt_cutoffs += 1;
                let v = Score::new(v);
                if hit.entry.depth != TO_END_DEPTH {
                    // A depth-limited value (even a decisive bound: "no
                    // mate faster than k" holds only inside its horizon).
                    self.horizon = true;
                }
                return if fail_soft { v } else { v.clamp(alpha, beta) };
            }
        }

        // Enhanced transposition cutoffs: a child whose stored bound
        // refutes the window settles the node without searching anything.
        if self.etc && ply > 0 && (self.to_end || depth >= 2) {
            let child_depth = self.tt_depth(depth - 1);
            if let Some(v) = self.etc_cutoff(game, &moves, child_depth, ply, alpha, beta) {
                self.stats.tt_cutoffs += 1;
                if !self.tainted {
                    self.store(
                        key,
                        ply,
                        Entry {
                            best_move: Some(v.1.pack()),
                            value: v.0.get(),
                            depth: tt_depth,
                            bound: Bound::Lower,
                        },
                    );
                }
                return if fail_soft {
                    v.0
                } else {
                    v.0.clamp(alpha, beta)
                };
            }
        }

        let alpha_start = alpha;
        debug_assert!(!moves.is_empty(), "a non-terminal position must have moves");
        let side = game.side_to_move();
        let plyu = ply as usize;
        // Without killers, history, counter-moves or a tactical stage the
        // order is the table move, then the game's hint (or generation
        // order): a plain sort replaces the staged picker.
        let mut lean = (self.lean && moves.len() <= LEAN_MAX).then(LeanOrder::new);
        if self.config.killers > 0 {
            self.h.killers.clear(plyu + 1);
        }
        let killers: &[G::Move] = if self.config.killers > 0 {
            let k = self.h.killers.get(plyu);
            &k[..k.len().min(usize::from(self.config.killers))]
        } else {
            &[]
        };
        let counter = match previous {
            Some(p) if self.config.counter_moves => self.h.counters.get(side, p),
            _ => None,
        };
        let mut picker = lean.is_none().then(|| {
            match self.tactical {
                Some(f) => MovePicker::<G>::with_tactical_fn(tt_move, f),
                None => MovePicker::<G>::new(tt_move),
            }
            .with_killers(killers)
            .with_counter(counter)
        });

        let mut best = -Score::INFINITY;
        let mut best_move = None;
        let mut searched = 0u32;
        let pvs = self.config.algorithm == Algorithm::Pvs;
        loop {
            let history = self.config.history.is_some();
            let next = if let Some(order) = &mut lean {
                order.next(&*game, &mut moves, tt_move, self.hint)
            } else if let Some(picker) = &mut picker {
                match self.hint {
                    Some(hint) => {
                        let order = HintOrder {
                            game: &*game,
                            hint,
                            history: history.then_some(&self.h.history),
                        };
                        picker.next(&*game, &mut moves, &order)
                    }
                    None if history => picker.next(game, &mut moves, &self.h.history),
                    None => picker.next(game, &mut moves, &NoHistory),
                }
            } else {
                None
            };
            let Some(m) = next else { break };
            let siblings_tainted = core::mem::replace(&mut self.tainted, false);
            let siblings_horizon = core::mem::replace(&mut self.horizon, false);
            let undo = game.make(m);
            self.next_safe = safe_children;
            let v = if searched == 0 || !pvs {
                -self.search(game, depth - 1, ply + 1, -beta, -alpha, Some(m), fail_soft)
            } else {
                let null = Score::new(alpha.get() + 1);
                let v = -self.search(game, depth - 1, ply + 1, -null, -alpha, Some(m), fail_soft);
                if v > alpha && v < beta && !self.stopped {
                    self.stats.pvs_researches += 1;
                    self.next_safe = safe_children;
                    -self.search(game, depth - 1, ply + 1, -beta, -alpha, Some(m), fail_soft)
                } else {
                    v
                }
            };
            game.unmake(m, undo);
            if self.stopped {
                return Score::DRAW;
            }
            let (child_tainted, child_horizon) = (self.tainted, self.horizon);
            self.tainted |= siblings_tainted;
            self.horizon |= siblings_horizon;
            searched += 1;
            if v > best {
                best = v;
                best_move = Some(m);
                if v > alpha {
                    alpha = v;
                    self.pv.update(plyu, m);
                    if ply == 0 {
                        self.root_best = Some(m);
                    }
                }
            }
            if v >= beta {
                // The lower bound is this move's value alone: it is as
                // storable as this move's subtree, whatever the siblings saw.
                self.tainted = child_tainted;
                self.horizon = child_horizon;
                self.stats.beta_cutoffs += 1;
                if searched == 1 {
                    self.stats.first_move_cutoffs += 1;
                }
                if let Some(picker) = &picker
                    && picker.last_is_quiet()
                {
                    if self.config.killers > 0 {
                        self.h.killers.store(plyu, m);
                    }
                    if self.config.counter_moves
                        && let Some(p) = previous
                    {
                        self.h.counters.store(side, p, m);
                    }
                    if self.config.history.is_some() {
                        let tried = picker.quiets_tried(&moves);
                        self.h.history.on_cutoff(side, m, tried, depth.min(64));
                    }
                }
                break;
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let value = if fail_soft {
            best
        } else {
            best.clamp(alpha_start, beta)
        };
        if tt_on && !self.tainted {
            self.store(
                key,
                ply,
                Entry {
                    best_move: if bound == Bound::Upper {
                        None
                    } else {
                        best_move.map(PackMove::pack)
                    },
                    value: value.get(),
                    // Proving: a subtree searched to the end is solved.
                    depth: if self.proving && !self.horizon && bound == Bound::Exact {
                        TO_END_DEPTH
                    } else {
                        tt_depth
                    },
                    bound,
                },
            );
        }
        value
    }

    /// Enhanced transposition cutoff: probes the table for each child of
    /// `moves` at `child_depth`; if one child's stored bound shows its value
    /// at most `-beta`, the node's value is at least `beta`: returns that
    /// lower bound and the move. Marks the horizon as a table cutoff does.
    fn etc_cutoff(
        &mut self,
        game: &mut G,
        moves: &G::Moves,
        child_depth: u8,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Option<(Score, G::Move)> {
        let (child_alpha, child_beta) = ((-beta).get(), (-alpha).get());
        for &m in moves.as_slice() {
            let undo = game.make(m);
            let key = game.hash();
            game.unmake(m, undo);
            if let Some(hit) = self.probe(key, child_depth, ply + 1)
                && let Some(v) = hit.cutoff(child_alpha, child_beta)
                && v <= child_alpha
            {
                if hit.entry.depth != TO_END_DEPTH {
                    self.horizon = true;
                }
                return Some((-Score::new(v), m));
            }
        }
        None
    }

    /// The value of a node decided by [`Forcing`] without expanding it.
    fn forced_result(
        &mut self,
        ply: u32,
        m: G::Move,
        value: Score,
        alpha: Score,
        beta: Score,
        fail_soft: bool,
    ) -> Score {
        let p = ply as usize;
        self.pv.clear(p + 1);
        if value > alpha {
            self.pv.update(p, m);
            if ply == 0 {
                self.root_best = Some(m);
            }
        }
        if fail_soft {
            value
        } else {
            value.clamp(alpha, beta)
        }
    }

    /// Quiescence: stand pat on the evaluation, then only tactical moves.
    fn quiescence(
        &mut self,
        game: &mut G,
        ply: u32,
        qply: u32,
        mut alpha: Score,
        beta: Score,
        generate: TacticalGen<G>,
    ) -> Score {
        if qply > 0 {
            self.stats.nodes += 1;
            if let Some(o) = game.outcome() {
                return self.terminal(game, o, ply);
            }
        }
        let stand = game.evaluate();
        if stand >= beta || qply >= MAX_QUIESCENCE_PLY {
            return stand;
        }
        if stand > alpha {
            alpha = stand;
        }
        let mut best = stand;
        let mut moves = G::Moves::default();
        generate(game, &mut moves);
        let mut picker = match self.tactical {
            Some(f) => MovePicker::<G>::with_tactical_fn(None, f),
            None => MovePicker::<G>::new(None),
        };
        while let Some(m) = picker.next(game, &mut moves, &NoHistory) {
            let undo = game.make(m);
            let v = -self.quiescence(game, ply + 1, qply + 1, -beta, -alpha, generate);
            game.unmake(m, undo);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                }
            }
            if v >= beta {
                break;
            }
        }
        best
    }
}

fn limits_depth_open(limits: &Limits) -> bool {
    limits.depth.is_none()
}
