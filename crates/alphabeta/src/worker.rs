//! One thread's search state ([`Worker`]) and the small services every
//! part of the search uses: limits, table probes and stores, the sign of a
//! child's value.

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Instant;

use gametree_game::{Game, Limits, Oracle, Outcome, Progress, Score};
use gametree_ttable::{Entry, SharedTable, Table};

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
    pub(crate) table: Option<&'a mut T>,
    pub(crate) shared: Option<&'a SharedTable>,
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
    /// Set by a parent whose move list came from
    /// [`Game::non_losing_moves`] for the child it is about to search: the
    /// child's side to move has no immediate win, so the check is skipped.
    /// Taken (reset) on entry to every node.
    pub(crate) next_safe: bool,
    /// Whether the value of the subtree being searched rests on an outcome
    /// that depends on the path (a repetition draw, a move-counter draw) or
    /// on the ply cap: such values are not stored in the table.
    pub(crate) tainted: bool,
    /// Proving by iterative deepening ([`Mode::Prove`]).
    pub(crate) proving: bool,
    /// Whether the subtree being searched had a leaf cut by the horizon (or
    /// a table cutoff by a depth-limited entry): only a subtree without one
    /// is solved whatever the depth.
    pub(crate) horizon: bool,
    /// No killers, history, counter-moves or tactical stage: moves are
    /// ordered by [`LeanOrder`](crate::order::LeanOrder) instead of the
    /// staged picker.
    pub(crate) lean: bool,
    /// Enhanced transposition cutoffs ([`Config::etc`] with table cutoffs).
    pub(crate) etc: bool,
    /// The caller's progress callback (the reporting thread only).
    pub(crate) progress: Option<&'a mut dyn FnMut(&Progress)>,
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
        table: Option<&'a mut T>,
        shared: Option<&'a SharedTable>,
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
            shared,
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
            progress: None,
            next_progress: config.progress_interval,
            root_best: None,
            helper: None,
            next_safe: false,
            tainted: false,
            proving: false,
            horizon: false,
            oracle: None,
            busy: None,
        }
    }

    /// The counters, with the table's occupancy at the end.
    pub(crate) fn finish_stats(&self) -> Stats {
        let mut s = self.stats;
        s.hashfull = match (&self.table, self.shared) {
            (Some(t), _) => t.hashfull(),
            (None, Some(t)) => t.hashfull(),
            (None, None) => 0,
        };
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
            && let Some(progress) = &mut self.progress
        {
            self.next_progress = self.stats.nodes + self.config.progress_interval;
            progress(&Progress {
                nodes: self.stats.nodes,
                elapsed: self.start.elapsed(),
                stored: 0,
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

    /// See [`gametree_ttable::Table::prefetch`].
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        if let Some(t) = &self.table {
            t.prefetch(key);
        } else if let Some(s) = self.shared {
            s.prefetch(key);
        }
    }

    #[inline]
    pub(crate) fn store(&mut self, key: u64, ply: u32, entry: Entry) {
        if let Some(t) = &mut self.table {
            t.store(key, ply, entry);
        } else if let Some(s) = self.shared {
            s.store(key, ply, entry);
        }
    }

    /// The value of one node, `depth` plies left, `ply` plies below the
    /// root, window `(alpha, beta)`. Sets `self.tainted` when that value
    /// rests on a path-dependent outcome (see
    /// [`Game::outcome_depends_on_history`]), leaving it set if it was
    /// already; likewise `self.horizon`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn search(
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

    /// The value, seen from the parent, of the child that move `m` (just
    /// made) leads to, searched inside the parent's window `(alpha, beta)`:
    /// negated with the window when the side to move changed, as is when
    /// the same player moves again.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn child(
        &mut self,
        game: &mut G,
        same_side: bool,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        m: G::Move,
        fail_soft: bool,
    ) -> Score {
        if same_side {
            self.search(game, depth, ply + 1, alpha, beta, Some(m), fail_soft)
        } else {
            -self.search(game, depth, ply + 1, -beta, -alpha, Some(m), fail_soft)
        }
    }

    /// A terminal node's value; marks the subtree tainted when the outcome
    /// depends on the game's history.
    #[inline]
    pub(crate) fn terminal(&mut self, game: &G, o: Outcome, ply: u32) -> Score {
        if game.outcome_depends_on_history() {
            self.tainted = true;
        }
        Score::terminal(o, ply)
    }
}
