//! The configurable searcher: [`AlphaBeta`], its public calls.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use gametree_game::{
    Event, Find, Game, Knowledge, Limits, MissingKnowledge, Oracle, Outcome, Request, Score,
    Solution, Solver, Use,
};
use gametree_ttable::{SharedTable, Table, TranspositionTable};

use crate::config::{Config, TtUse};
use crate::order::Heuristics;
use crate::worker::{Mode, TO_END_DEPTH, Worker};
use crate::{Report, SearchError};

/// The deepest ply a search reaches (killer table size, depth cap of
/// iterative deepening without a depth limit).
pub const MAX_PLY: usize = 256;

/// Which of the game's knowledge a searcher uses, decided once from the
/// configuration and [`Game::KNOWLEDGE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Uses {
    /// Tactical moves first in the move order.
    pub(crate) tactical: bool,
    /// Quiescence search at the horizon.
    pub(crate) quiescence: bool,
    /// Immediate wins and non-losing moves.
    pub(crate) forcing: bool,
    /// Quiet moves ordered by the game's hint.
    pub(crate) hints: bool,
    /// The game's length bound when solving.
    pub(crate) length_bound: bool,
    /// The game's win bounds when solving.
    pub(crate) win_bounds: bool,
    /// Killers per ply, in effect.
    pub(crate) killers: u8,
    /// The history policy, in effect.
    pub(crate) history: Option<gametree_ordering::Policy>,
    /// Counter-moves, in effect.
    pub(crate) counter_moves: bool,
    /// Threat-space search when solving.
    pub(crate) threats: bool,
}

impl Uses {
    /// What `config` uses of `knowledge`, or the first option that needs
    /// an item the game lacks.
    fn resolve(
        config: &Config,
        knowledge: Knowledge,
        can_repeat: bool,
    ) -> Result<Uses, SearchError> {
        let need = |u: Use, has: bool, option: &'static str, item: &'static str| {
            u.require(has, option, item)
                .map_err(SearchError::MissingKnowledge)
        };
        let tactics = knowledge.has_tactics();
        if config.quiescence && !tactics {
            return Err(SearchError::MissingKnowledge(MissingKnowledge::new(
                "quiescence",
                "tactics",
            )));
        }
        let forcing = need(
            config.forcing,
            knowledge.has_forcing(),
            "forcing",
            "forcing",
        )?;
        let hints = need(
            config.order_hints,
            knowledge.has_order_hints(),
            "order_hints",
            "order hints",
        )?;
        let mut tactical = need(
            config.tactical_ordering,
            tactics,
            "tactical_ordering",
            "tactics",
        )?;
        if config.tactical_ordering == Use::Auto && forcing {
            // Immediate wins end the node and forced blocks are the only
            // non-losing moves: a tactical stage would find nothing new.
            tactical = false;
        }
        Ok(Uses {
            tactical,
            quiescence: config.quiescence,
            forcing,
            hints,
            length_bound: need(
                config.length_bound,
                knowledge.has_length_bound(),
                "length_bound",
                "length bound",
            )?,
            win_bounds: need(
                config.win_bounds,
                knowledge.has_win_bounds(),
                "win_bounds",
                "win bounds",
            )?,
            killers: config.killers.resolve(hints, 0),
            history: config.history.resolve(hints, None),
            counter_moves: config.counter_moves.resolve(hints, false),
            threats: need(
                config.threats,
                knowledge.has_threats() && knowledge.has_forcing() && !can_repeat,
                "threats",
                "threat moves with forcing knowledge, in a game without repetitions",
            )?,
        })
    }
}

/// A configurable alpha-beta searcher: one engine for every variant, each
/// proven equal to plain [`negamax`](crate::negamax) by `cargo xtask verify`.
///
/// Build it from a [`Config`], then answer a [`Request`] (limits, what to
/// find, an event sink, an oracle) with one of its two calls:
///
/// * [`search`](Self::search): depth-limited, heuristic values at the
///   horizon, returning a [`Report`];
/// * [`Solver::solve`]: to the end of the game, returning a [`Solution`]:
///   with [`Find::Score`] the exact score with the distance to the end
///   (shortest win, longest loss), the best move and the principal line;
///   with [`Find::Outcome`] (the default) win, draw or loss only, by at
///   most two null-window searches (usually much cheaper).
///
/// The searcher uses the game's knowledge ([`Game::KNOWLEDGE`]) by itself,
/// keeps its tables between calls, and [`Solver::clear`] forgets them.
///
/// ```
/// use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver, negamax};
/// use gametree_game::{Outcome, Score};
/// use gametree_games_tictactoe::TicTacToe;
///
/// let mut searcher = AlphaBeta::<TicTacToe>::new(Config::default())?;
/// let mut board: TicTacToe = "X...O....".parse()?;
/// let depth = Limits::depth(4);
/// let report = searcher.search(&mut board, &mut Request::new(&depth));
/// assert_eq!(report.value, negamax(&mut board, 4).value);
/// let none = Limits::none();
/// let solved = searcher.solve(&mut board, &mut Request::new(&none).find(Find::Score));
/// assert_eq!(solved.score, Some(Score::DRAW));
/// let weak = searcher.solve(&mut board, &mut Request::new(&none).find(Find::Outcome));
/// assert_eq!((weak.outcome, weak.score), (Some(Outcome::Draw), None));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Oracle
///
/// A request may carry an [`Oracle`] (an endgame database,
/// [`Request::oracle`]): the search then asks it at each node below the
/// root, before anything else but the game's own
/// [`outcome`](Game::outcome), and takes its answer as the node's exact
/// value ([`Stats::oracle_hits`](crate::Stats::oracle_hits) counts them);
/// the root is always searched, so that a best move comes with its value.
/// Depth-limited searches use the answers too: an oracle's value is better
/// than the evaluation at the horizon. The table keeps what earlier
/// searches stored: when requests change their oracle,
/// [`clear`](Solver::clear) the searcher in between if values stored with
/// the old one must not be reused.
///
/// ```
/// use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver, negamax_solve};
/// use gametree_game::Game;
/// use gametree_games_tictactoe::TicTacToe;
///
/// // A "database" of every position with six stones or more, by plain
/// // negamax.
/// let db = |p: &TicTacToe| {
///     (p.marks() >= 6)
///         .then(|| negamax_solve(&mut p.clone()).value)
/// };
/// let mut searcher = AlphaBeta::<TicTacToe>::new(Config::default())?;
/// let mut board: TicTacToe = "X...O....".parse()?;
/// let limits = Limits::none();
/// let mut request = Request::new(&limits).find(Find::Score).oracle(&db);
/// let solved = searcher.solve(&mut board, &mut request);
/// assert_eq!(solved.score, Some(negamax_solve(&mut board).value));
/// assert!(solved.stats.oracle_hits > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct AlphaBeta<G: Game> {
    pub(crate) config: Config,
    pub(crate) uses: Uses,
    table: Option<TranspositionTable>,
    shared: Option<SharedTable>,
    pub(crate) heuristics: Heuristics<G>,
}

impl<G: Game> AlphaBeta<G> {
    /// A searcher with `config`, allocating its table.
    ///
    /// # Errors
    ///
    /// [`SearchError::Table`] when the table is refused (zero, too large,
    /// bad verification bits, or the allocation failed);
    /// [`SearchError::MissingKnowledge`] when an option requires knowledge
    /// the game does not declare (e.g. quiescence without tactical moves);
    /// [`SearchError::Threats`] when threat-space search is in use and its
    /// limits are refused.
    pub fn new(config: Config) -> Result<Self, SearchError> {
        let config = config.with_thread_count();
        let uses = Uses::resolve(&config, G::KNOWLEDGE, G::CAN_REPEAT)?;
        if uses.threats {
            config.threat_limits.check().map_err(SearchError::Threats)?;
        }
        let (bytes, tt_config) = (config.table.memory, config.table.derive(false));
        let (table, shared) = match (config.table.usage, config.threads) {
            (TtUse::Off, _) => (None, None),
            (_, 1) => (
                Some(TranspositionTable::with_config(bytes, tt_config)?),
                None,
            ),
            (_, _) => (None, Some(SharedTable::with_config(bytes, tt_config)?)),
        };
        Ok(AlphaBeta {
            heuristics: Heuristics::new(&config, &uses),
            uses,
            config,
            table,
            shared,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Searches to the depth in the request's limits (iterative deepening
    /// from depth 1 when configured), stopping early on the node, time or
    /// cancel limit with the result of the last completed iteration.
    /// Without a depth limit, iterates until another limit stops it or the
    /// value is decisive (at most [`MAX_PLY`] plies).
    ///
    /// The request's oracle, if any, is consulted (see the
    /// [oracle](AlphaBeta#oracle) section); its sink gets an
    /// [`Event::Iteration`] after each finished iteration (depth, value,
    /// principal line, the reporting thread's nodes and the time so far)
    /// and an [`Event::Nodes`] about every [`Config::progress_interval`]
    /// nodes. The request's [`Find`] is not read: a search finds the value
    /// at its depth. No [`Event::Done`] is sent (that is
    /// [`Solver::solve`]'s).
    ///
    /// ```
    /// use gametree_alphabeta::{AlphaBeta, Config, Limits, Request};
    /// use gametree_game::Event;
    /// use gametree_games_tictactoe::TicTacToe;
    ///
    /// let mut searcher = AlphaBeta::<TicTacToe>::new(Config::default())?;
    /// let mut board: TicTacToe = "X...O....".parse()?;
    /// let mut depths = Vec::new();
    /// let mut sink = |e: &Event<'_, _>| {
    ///     if let Event::Iteration { depth, line, .. } = e {
    ///         assert!(!line.is_empty());
    ///         depths.push(*depth);
    ///     }
    /// };
    /// let limits = Limits::depth(4);
    /// let report = searcher.search(&mut board, &mut Request::new(&limits).events(&mut sink));
    /// // Iterative deepening: one event per depth, the last one the report's.
    /// assert_eq!(depths, [1, 2, 3, 4]);
    /// assert_eq!(report.depth, 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Report<G::Move>
    where
        G: Send,
        G::Move: Send + Sync,
    {
        let depth = request.get_limits().depth;
        let max = depth.unwrap_or(MAX_PLY as u32).min(MAX_PLY as u32);
        self.run(game, request, Mode::Depth(max))
    }

    /// [`Find::Score`]: searches to the end of the game (no evaluation),
    /// for the game-theoretic value with the distance to the end (shortest
    /// win, longest loss), on the configured threads. The normal table
    /// policy is sound here, since every stored value is exact to the end.
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
    ///
    /// The sink gets an [`Event::Nodes`] about every
    /// [`Config::progress_interval`] nodes (from the reporting thread) and,
    /// when the game's positions can repeat, an [`Event::Iteration`] after
    /// each finished iteration; a solve to the end in one pass sends no
    /// iteration.
    fn solve_score(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Report<G::Move>
    where
        G: Send,
        G::Move: Send + Sync,
    {
        let mode = if G::CAN_REPEAT {
            Mode::Prove
        } else {
            Mode::ToEnd
        };
        self.run(game, request, mode)
    }

    /// [`Find::Outcome`]: win, draw or loss only, by at most two
    /// null-window searches to the end (`value > 0?`, then `value < 0?`),
    /// on one thread. The report's `value` is the bound that decided (its
    /// sign is the answer; its distance is not exact), `outcome` is set and
    /// `best` is the move that decided. A game whose positions can repeat is
    /// proved by iterative deepening, as for [`Find::Score`].
    ///
    /// The sink gets an [`Event::Nodes`] about every
    /// [`Config::progress_interval`] nodes and, for a game whose positions
    /// can repeat, an [`Event::Iteration`] after each finished iteration
    /// (its line as the search found it: only the final line is completed).
    fn solve_outcome(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Report<G::Move> {
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        let limits = request.get_limits();
        let oracle = request.get_oracle();
        let mut events = |e: &Event<'_, G::Move>| request.emit(e);
        self.lay_out_table(!G::CAN_REPEAT);
        self.new_search();
        let mut worker = self.worker(limits, oracle, &stop, start);
        worker.events = Some(&mut events);
        // Completing the line of each proven iteration costs nodes: the
        // outcome needs the final line only.
        worker.complete_lines = false;
        if G::CAN_REPEAT {
            // As for the score: iterative deepening, single thread.
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
        report.completed = report.outcome.is_some();
        report.best = worker.root_best;
        report.line = report.best.into_iter().collect();
        report.stopped = worker.stop_reason;
        report.stats = worker.finish_stats();
        report.elapsed = start.elapsed();
        report
    }

    /// Switches the table (single-threaded or shared) to the solved layout for a solve
    /// to the end (`to_end`), or back for anything else, when the
    /// configuration allows it ([`TableConfig::solved_layout`]), as
    /// [`TableConfig::derive`] decides. A table the layout cannot serve
    /// (under 16 MiB) keeps the full layout.
    ///
    /// [`TableConfig::solved_layout`]: crate::TableConfig::solved_layout
    /// [`TableConfig::derive`]: crate::TableConfig
    fn lay_out_table(&mut self, to_end: bool) {
        let derived = self.config.table.derive(to_end);
        let (want, grow) = (derived.get_solved(), derived.get_grow());
        if let Some(t) = &mut self.table
            && (t.config().get_solved() != want || t.config().get_grow() != grow)
        {
            // Refused only for a table too small to be exact: it then
            // keeps its layout, which is always sound.
            let _ = t.reconfigure(t.config().solved(want).grow(grow));
        }
        if let Some(t) = &mut self.shared
            && t.config().get_solved() != want
        {
            let _ = t.reconfigure(t.config().solved(want));
        }
    }

    fn new_search(&mut self) {
        if let Some(t) = &mut self.table {
            t.new_generation();
        }
        if let Some(t) = &self.shared {
            t.new_generation();
        }
        if self.uses.history.is_some() {
            self.heuristics.history.decay();
        }
        self.heuristics.killers.clear_all();
    }

    /// A single-thread worker within `limits` over the searcher's table,
    /// consulting `oracle`.
    fn worker<'a>(
        &'a mut self,
        limits: &'a Limits,
        oracle: Option<&'a dyn Oracle<G>>,
        stop: &'a AtomicBool,
        start: Instant,
    ) -> Worker<'a, G, &'a mut TranspositionTable> {
        let mut worker = Worker::new(
            &self.config,
            self.uses,
            self.table.as_mut(),
            &mut self.heuristics,
            limits,
            stop,
            start,
        );
        worker.oracle = oracle;
        worker
    }

    /// Searches `game` in `mode` for `request` (its limits, oracle and
    /// event sink), on the configured threads.
    fn run(&mut self, game: &mut G, request: &mut Request<'_, G>, mode: Mode) -> Report<G::Move>
    where
        G: Send,
        G::Move: Send + Sync,
    {
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        let limits = request.get_limits();
        let oracle = request.get_oracle();
        let mut events = |e: &Event<'_, G::Move>| request.emit(e);
        self.lay_out_table(mode == Mode::ToEnd);
        self.new_search();
        if let Some(shared) = self.shared.take() {
            let report = crate::parallel::run(
                self,
                game,
                limits,
                mode,
                &shared,
                &stop,
                start,
                oracle,
                &mut events,
            );
            self.shared = Some(shared);
            return report;
        }
        let mut worker = self.worker(limits, oracle, &stop, start);
        worker.events = Some(&mut events);
        worker.iterate(game, mode)
    }
}

impl<G> Solver<G> for AlphaBeta<G>
where
    G: Game + Send,
    G::Move: Send + Sync,
{
    /// Solves the position as the request's [`Find`] asks:
    ///
    /// * [`Find::Score`]: the exact score with the distance to the end,
    ///   the best move and the principal line (to the end of the game with
    ///   [`Config::complete_line`]), on the configured threads; a game
    ///   whose positions can repeat is proved by iterative deepening;
    /// * [`Find::Outcome`]: win, draw or loss by at most two null-window
    ///   searches on one thread: `score` is `None`, `best` is the move that
    ///   decided and `line` that move alone (a game whose positions can
    ///   repeat: the proved line).
    ///
    /// The request's oracle, if any, is consulted (see the
    /// [oracle](AlphaBeta#oracle) section); its sink gets an
    /// [`Event::Nodes`] about every [`Config::progress_interval`] nodes,
    /// an [`Event::Iteration`] after each finished iteration of a game whose
    /// positions can repeat, then [`Event::Done`]. A position where the
    /// game is over is answered without a search
    /// ([`Solution::terminal`]).
    fn solve(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Solution<G::Move> {
        let start = Instant::now();
        if let Some(o) = game.outcome() {
            return request.finish(Solution::terminal(o));
        }
        let solution = match request.get_find() {
            Find::Score => {
                let report = self.solve_score(game, request);
                let outcome = report.completed.then(|| report.value.outcome()).flatten();
                Solution {
                    outcome,
                    score: outcome.map(|_| report.value),
                    ..solution_of(report)
                }
            }
            Find::Outcome => {
                let report = self.solve_outcome(game, request);
                Solution {
                    outcome: report.outcome,
                    ..solution_of(report)
                }
            }
        };
        request.finish(Solution {
            elapsed: start.elapsed(),
            ..solution
        })
    }

    /// Forgets the table and the ordering heuristics.
    fn clear(&mut self) {
        if let Some(t) = &mut self.table {
            t.clear();
        }
        if let Some(t) = &self.shared {
            t.clear();
        }
        self.heuristics = Heuristics::new(&self.config, &self.uses);
    }
}

/// The move, line, stop reason and counters of `report` as a [`Solution`]
/// with neither outcome nor score.
fn solution_of<M>(report: Report<M>) -> Solution<M> {
    Solution {
        outcome: None,
        score: None,
        best: report.best,
        line: report.line,
        stopped: report.stopped,
        elapsed: report.elapsed,
        stats: report.stats,
    }
}
