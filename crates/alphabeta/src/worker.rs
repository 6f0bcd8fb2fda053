//! One thread's search state ([`Worker`]) and the small services every
//! part of the search uses: limits, table probes and stores, the sign of a
//! child's value.

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Instant;

use gametree_game::{Event, Game, Limits, Oracle, Outcome, Progress, Score};
use gametree_ttable::{Entry, Table};

use crate::busy::Busy;
use crate::config::{Algorithm, Config, TtUse};
use crate::order::Heuristics;
use crate::reference::PvTable;
use crate::searcher::Uses;
use crate::{Stats, Stop};

/// The depth stored in the table for a search to the end of the game.
pub(crate) const TO_END_DEPTH: u8 = u8::MAX;

/// Depth-limited or to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Depth(u32),
    ToEnd,
    /// Solving a game whose positions can repeat: iterative deepening until
    /// an iteration's value is decisive (a mate found inside the horizon is
    /// exact) or no leaf was cut by the horizon (the tree was searched to
    /// the end).
    Prove,
}

/// One thread's search state.
pub(crate) struct Worker<'a, G: Game, T: Table> {
    pub(crate) config: Config,
    pub(crate) uses: Uses,
    /// The transposition table (`&mut TranspositionTable` on one thread,
    /// `&SharedTable` on several), `None` when the table is off.
    pub(crate) table: Option<T>,
    pub(crate) h: &'a mut Heuristics<G>,
    pub(crate) limits: &'a Limits,
    pub(crate) stop: &'a AtomicBool,
    pub(crate) start: Instant,
    pub(crate) pv: PvTable<G::Move>,
    pub(crate) stats: Stats,
    pub(crate) stopped: bool,
    pub(crate) stop_reason: Option<Stop>,
    pub(crate) to_end: bool,
    /// The configuration asked for [`Algorithm::Auto`].
    pub(crate) auto_algorithm: bool,
    pub(crate) root_best: Option<G::Move>,
    /// `Some(i)` for Lazy SMP helper thread `i` (never reports).
    pub(crate) helper: Option<usize>,
    /// Proving by iterative deepening ([`Mode::Prove`]).
    pub(crate) proving: bool,
    /// Whether a root search of the current iteration had a leaf cut by
    /// the horizon (or a table cutoff by a depth-limited entry): only an
    /// iteration without one has searched the whole game.
    pub(crate) iteration_horizon: bool,
    /// No killers, history, counter-moves or tactical stage: moves are
    /// ordered by [`LeanOrder`](crate::order::LeanOrder) instead of the
    /// staged picker.
    pub(crate) lean: bool,
    /// Enhanced transposition cutoffs ([`Config::etc`] with table cutoffs).
    pub(crate) etc: bool,
    /// The caller's event sink (the reporting thread only): node counts
    /// and finished iterations.
    pub(crate) events: Option<&'a mut gametree_game::EventSink<'a, G::Move>>,
    /// Complete the lines of proven iterations sent to the event sink
    /// ([`Config::complete_line`] of the caller's configuration).
    pub(crate) complete_lines: bool,
    /// The node count at which progress is reported next.
    pub(crate) next_progress: u64,
    /// Exact values of positions below the root (an endgame database).
    pub(crate) oracle: Option<&'a dyn Oracle<G>>,
    /// Parallel search: the positions other threads are searching, whose
    /// moves this thread puts off near the root.
    pub(crate) busy: Option<&'a Busy>,
}

impl<'a, G: Game, T: Table> Worker<'a, G, T> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        config: &'a Config,
        uses: Uses,
        table: Option<T>,
        h: &'a mut Heuristics<G>,
        limits: &'a Limits,
        stop: &'a AtomicBool,
        start: Instant,
    ) -> Self {
        Worker {
            lean: uses.killers == 0
                && !uses.counter_moves
                && uses.history.is_none()
                && !uses.tactical,
            etc: config.etc && config.table.usage == TtUse::Cutoffs,
            // `Auto` is PVS until `iterate` learns it solves to the end.
            config: config.resolved(Algorithm::Pvs),
            uses,
            table,
            h,
            limits,
            stop,
            start,
            pv: PvTable::new(),
            stats: Stats::default(),
            stopped: false,
            stop_reason: None,
            to_end: false,
            auto_algorithm: config.algorithm == Algorithm::Auto,
            events: None,
            complete_lines: config.complete_line,
            next_progress: config.progress_interval,
            root_best: None,
            helper: None,
            proving: false,
            iteration_horizon: false,
            oracle: None,
            busy: None,
        }
    }

    /// The counters, with the table's occupancy at the end.
    pub(crate) fn finish_stats(&self) -> Stats {
        let mut s = self.stats;
        s.hashfull = self.table.as_ref().map_or(0, Table::hashfull);
        s
    }

    pub(crate) fn check_limits(&mut self) {
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
        if self.stats.nodes >= self.next_progress
            && let Some(events) = &mut self.events
        {
            self.next_progress = self.stats.nodes + self.config.progress_interval;
            events(&Event::Nodes(Progress {
                nodes: self.stats.nodes,
                elapsed: self.start.elapsed(),
                stored: 0,
            }));
        }
    }

    /// Sends the iteration that just finished at `depth` with `value` and
    /// `line` to the event sink: from the
    /// reporting thread only, and not for a search to the end (one pass,
    /// no depth).
    pub(crate) fn report_iteration(&mut self, depth: u32, value: Score, line: &[G::Move]) {
        if self.helper.is_some() || self.to_end {
            return;
        }
        if let Some(events) = &mut self.events {
            events(&Event::Iteration {
                depth,
                value,
                line,
                nodes: self.stats.nodes,
                elapsed: self.start.elapsed(),
            });
        }
    }

    #[inline]
    pub(crate) fn tt_depth(&self, depth: u32) -> u8 {
        if self.to_end {
            TO_END_DEPTH
        } else {
            depth.min(u32::from(TO_END_DEPTH) - 1) as u8
        }
    }

    #[inline]
    pub(crate) fn probe(&mut self, key: u64, depth: u8, ply: u32) -> Option<gametree_ttable::Hit> {
        self.stats.tt_probes += 1;
        let hit = self.table.as_ref().and_then(|t| t.probe(key, depth, ply));
        if hit.is_some() {
            self.stats.tt_hits += 1;
        }
        hit
    }

    /// See [`gametree_ttable::Table::prefetch`].
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        if let Some(t) = &self.table {
            t.prefetch(key);
        }
    }

    #[inline]
    pub(crate) fn store(&mut self, key: u64, ply: u32, entry: Entry) {
        if let Some(t) = &mut self.table {
            t.store(key, ply, entry);
        }
    }

    /// The value, seen from the parent, of the child that a move (just
    /// made) leads to, `f` its frame with the parent's window: the window
    /// negated and the value with it when the side to move changed, as is
    /// when the same player moves again.
    #[inline]
    pub(crate) fn child(&mut self, game: &mut G, same_side: bool, f: Frame<G::Move>) -> NodeValue {
        if same_side {
            self.node::<false>(game, f)
        } else {
            let f = Frame {
                alpha: -f.beta,
                beta: -f.alpha,
                ..f
            };
            -self.node::<false>(game, f)
        }
    }

    /// A terminal node's value, tainted when the outcome depends on the
    /// game's history.
    #[inline]
    pub(crate) fn terminal(&mut self, game: &G, o: Outcome, ply: u32) -> NodeValue {
        let taint = if game.outcome_depends_on_history() {
            Taint::PATH
        } else {
            Taint::NONE
        };
        NodeValue::new(Score::terminal(o, ply), taint)
    }
}

/// Plays `m`, runs `f` on the position after it, and takes `m` back.
#[inline(always)]
pub(crate) fn with_move<G: Game, R>(game: &mut G, m: G::Move, f: impl FnOnce(&mut G) -> R) -> R {
    let undo = game.make(m);
    let r = f(game);
    game.unmake(m, undo);
    r
}

/// What a node is asked: its remaining depth, its distance from the root,
/// its window, the move that led to it, and two facts about the search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame<M> {
    pub(crate) depth: u32,
    pub(crate) ply: u32,
    pub(crate) alpha: Score,
    pub(crate) beta: Score,
    pub(crate) previous: Option<M>,
    /// The parent's moves were the non-losing ones
    /// ([`Game::non_losing_moves`]): this node's side to move has no
    /// immediate win, and the game's cheaper outcome test applies.
    pub(crate) safe: bool,
    /// Fail-soft (values outside the window are returned as found).
    pub(crate) fail_soft: bool,
}

impl<M: Copy> Frame<M> {
    /// The root's frame.
    pub(crate) fn root(depth: u32, alpha: Score, beta: Score, fail_soft: bool) -> Self {
        Frame {
            depth,
            ply: 0,
            alpha,
            beta,
            previous: None,
            safe: false,
            fail_soft,
        }
    }

    /// The frame of the child after `m`, window `(alpha, beta)` seen from
    /// this node.
    #[inline(always)]
    pub(crate) fn below(&self, m: M, alpha: Score, beta: Score, safe: bool) -> Self {
        Frame {
            depth: self.depth - 1,
            ply: self.ply + 1,
            alpha,
            beta,
            previous: Some(m),
            safe,
            fail_soft: self.fail_soft,
        }
    }
}

/// Why a value may not hold everywhere the position occurs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Taint {
    /// It rests on an outcome that depends on the path (a repetition draw,
    /// a move-counter draw) or on the ply cap: it is not stored.
    pub(crate) path: bool,
    /// A leaf below was cut by the horizon (or by a depth-limited table
    /// entry): the value is not a solved one.
    pub(crate) horizon: bool,
}

impl Taint {
    pub(crate) const NONE: Taint = Taint {
        path: false,
        horizon: false,
    };
    pub(crate) const PATH: Taint = Taint {
        path: true,
        horizon: false,
    };
    pub(crate) const HORIZON: Taint = Taint {
        path: false,
        horizon: true,
    };

    /// Both taints.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn or(self, other: Taint) -> Taint {
        Taint {
            path: self.path | other.path,
            horizon: self.horizon | other.horizon,
        }
    }
}

/// A node's value and its taint, returned to the parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeValue {
    pub(crate) value: Score,
    pub(crate) taint: Taint,
}

impl NodeValue {
    #[inline(always)]
    pub(crate) const fn new(value: Score, taint: Taint) -> Self {
        NodeValue { value, taint }
    }

    /// An untainted value.
    #[inline(always)]
    pub(crate) const fn clean(value: Score) -> Self {
        NodeValue::new(value, Taint::NONE)
    }

    /// The same value, with `taint` added.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn with(self, taint: Taint) -> Self {
        NodeValue::new(self.value, self.taint.or(taint))
    }
}

impl core::ops::Neg for NodeValue {
    type Output = NodeValue;
    #[inline(always)]
    fn neg(self) -> NodeValue {
        NodeValue::new(-self.value, self.taint)
    }
}
