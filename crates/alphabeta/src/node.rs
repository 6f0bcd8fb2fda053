//! The recursive search of one node, as a short driver ([`Worker::node`])
//! over named steps in the order they run:
//!
//! 1. [`enter`](Worker::enter): count the node, check the limits;
//! 2. [`end_of_search`](Worker::end_of_search): game over, the oracle's
//!    exact value, the horizon, the ply cap;
//! 3. [`distance_bounds`](Worker::distance_bounds): mate-distance pruning
//!    tightened by the game's forcing knowledge, length bound and win
//!    bounds;
//! 4. [`generate`](Worker::generate): the moves (the non-losing ones when
//!    the game knows them; a node lost on the next ply ends here);
//! 5. [`probe`](Worker::probe_table): the table's move and cutoff;
//! 6. [`prefetch_children`](Worker::prefetch_children);
//! 7. [`etc`](Worker::etc): enhanced transposition cutoffs;
//! 8. [`threat_bound`](Worker::threat_bound): threat-space search;
//! 9. [`move_loop`](Worker::move_loop): the moves in order, PVS null
//!    windows, any turn order, the heuristics updated on a cutoff;
//! 10. [`store_result`](Worker::store_result).
//!
//! A step either lets the node go on (`Continue`) or settles its value
//! (`Break`). The state of the node is one [`Node`] on the stack; what a
//! child tells its parent is its returned [`NodeValue`]. Whether the node
//! is the root is a compile-time parameter.

use core::ops::ControlFlow::{self, Break, Continue};

use arrayvec::ArrayVec;
use gametree_game::{Game, MoveBuffer, Score};
use gametree_ordering::MovePicker;
use gametree_ttable::{Bound, Entry, Table};

use crate::busy::{Busy, DEFER_MAX, DEFER_PLY};
use crate::config::{Algorithm, TtUse};
use crate::order::{LEAN_MAX, LeanOrder, QuietKey, move_code, move_of_code};
use crate::searcher::MAX_PLY;
use crate::worker::{Frame, NodeValue, TO_END_DEPTH, Taint, Worker, with_move};

/// What one node knows while it is searched: its frame (depth, ply,
/// window), what the bounds steps learned, its moves and table entry.
struct Node<G: Game> {
    f: Frame<G::Move>,
    /// The window on entry (early results of a fail-hard search are
    /// clamped to it where the window is not yet narrowed).
    entry: (Score, Score),
    /// The best value the node can still have.
    best_possible: Score,
    /// The worst value the node can still have.
    worst_possible: Score,
    /// The game's length bound, when solving with it.
    length_bound: Option<u32>,
    moves: G::Moves,
    /// The moves are the non-losing ones: no child has an immediate win.
    safe_children: bool,
    key: u64,
    tt_depth: u8,
    tt_move: Option<G::Move>,
}

impl<G: Game> Node<G> {
    #[inline(always)]
    fn new(f: Frame<G::Move>) -> Self {
        Node {
            entry: (f.alpha, f.beta),
            f,
            best_possible: Score::win_in(f.ply + 1),
            worst_possible: Score::loss_in(f.ply + 1),
            length_bound: None,
            moves: G::Moves::default(),
            safe_children: false,
            key: 0,
            tt_depth: 0,
            tt_move: None,
        }
    }

    /// `v` as returned: as is when fail-soft, else inside the current
    /// window.
    #[inline(always)]
    fn bounded(&self, v: Score) -> Score {
        if self.f.fail_soft {
            v
        } else {
            v.clamp(self.f.alpha, self.f.beta)
        }
    }

    /// `v` as returned: as is when fail-soft, else inside the window the
    /// node was entered with.
    #[inline(always)]
    fn bounded_by_entry(&self, v: Score) -> Score {
        if self.f.fail_soft {
            v
        } else {
            v.clamp(self.entry.0, self.entry.1)
        }
    }

    /// Whether children are searched deeply enough to probe the table.
    #[inline(always)]
    fn deep(&self, to_end: bool) -> bool {
        to_end || self.f.depth >= 2
    }
}

/// The move loop's order: the lean order or the staged picker, and the
/// moves put off because another thread is searching them.
struct Order<'b, G: Game> {
    lean: Option<LeanOrder>,
    picker: Option<MovePicker<G>>,
    busy: Option<&'b Busy>,
    deferred: ArrayVec<G::Move, DEFER_MAX>,
    next_deferred: usize,
}

impl<'a, G: Game, T: Table> Worker<'a, G, T> {
    /// The value of the node `f` describes (see the module's steps).
    #[inline]
    pub(crate) fn node<const ROOT: bool>(&mut self, game: &mut G, f: Frame<G::Move>) -> NodeValue {
        let mut n = Node::<G>::new(f);
        match self.steps::<ROOT>(game, &mut n) {
            Break(v) | Continue(v) => v,
        }
    }

    #[inline(always)]
    fn steps<const ROOT: bool>(
        &mut self,
        game: &mut G,
        n: &mut Node<G>,
    ) -> ControlFlow<NodeValue, NodeValue> {
        self.enter(n)?;
        self.end_of_search::<ROOT>(game, n)?;
        self.distance_bounds::<ROOT>(game, n)?;
        self.generate::<ROOT>(game, n)?;
        self.probe_table::<ROOT>(game, n)?;
        self.prefetch_children(game, n);
        self.etc::<ROOT>(game, n)?;
        self.threat_bound::<ROOT>(game, n)?;
        let (best, best_move, taint) = self.move_loop::<ROOT>(game, n)?;
        Continue(self.store_result(game, n, best, best_move, taint))
    }

    /// Step 1: counts the node, checks the limits now and then.
    #[inline(always)]
    fn enter(&mut self, n: &Node<G>) -> ControlFlow<NodeValue> {
        self.stats.nodes += 1;
        if self.stats.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return Break(NodeValue::clean(Score::DRAW));
        }
        self.pv.clear(n.f.ply as usize);
        Continue(())
    }

    /// Step 2: the nodes whose value needs no move: the game is over, an
    /// oracle knows it exactly (not at the root, which must find a move
    /// reaching it), the horizon, the ply cap.
    #[inline(always)]
    fn end_of_search<const ROOT: bool>(
        &mut self,
        game: &mut G,
        n: &Node<G>,
    ) -> ControlFlow<NodeValue> {
        #[cfg(debug_assertions)]
        gametree_game::check::sampled_knowledge(game, self.stats.nodes);
        // A node whose parent had no immediate win (`safe`) was not
        // reached by a winning move: the game's cheaper test.
        let outcome = if n.f.safe {
            game.outcome_unless_won()
        } else {
            game.outcome()
        };
        if let Some(o) = outcome {
            return Break(self.terminal(game, o, n.f.ply));
        }
        if !ROOT
            && let Some(oracle) = self.oracle
            && let Some(v) = oracle.probe(game)
        {
            self.stats.oracle_hits += 1;
            return Break(NodeValue::clean(n.bounded(v.to_root_relative(n.f.ply))));
        }
        if !self.to_end && n.f.depth == 0 {
            let v = if self.uses.quiescence {
                self.quiescence(game, n.f.ply, 0, n.f.alpha, n.f.beta)
            } else {
                NodeValue::clean(game.evaluate())
            };
            return Break(v.with(Taint::HORIZON));
        }
        if n.f.ply as usize >= MAX_PLY - 1 {
            // The ply cap: a value of the path's length, not of the position.
            return Break(NodeValue::new(
                game.evaluate(),
                Taint::PATH.or(Taint::HORIZON),
            ));
        }
        Continue(())
    }

    /// Step 3: mate-distance pruning: whatever happens below, the value
    /// lies between a loss and a win on the next ply (tighter with the
    /// game's forcing knowledge, its length bound and its win bounds), so
    /// the window is narrowed to that range without changing any value.
    #[inline(always)]
    fn distance_bounds<const ROOT: bool>(
        &mut self,
        game: &mut G,
        n: &mut Node<G>,
    ) -> ControlFlow<NodeValue> {
        let ply = n.f.ply;
        let forcing = self.uses.forcing;
        if forcing {
            // (A child of a non-losing move list has no immediate win.)
            if !n.f.safe
                && let Some(m) = game.winning_move()
            {
                self.stats.forced += 1;
                return Break(self.forced_result::<ROOT>(n, m, Score::win_in(ply + 1)));
            }
            // No win now: the earliest is after the opponent's reply.
            n.best_possible = Score::win_in(ply + 3);
        }
        // Solving with a length bound `r`: no win or loss further than `r`
        // plies, so none at all when the earliest possible one is further.
        if self.to_end && self.uses.length_bound {
            n.length_bound = game
                .remaining_plies()
                .filter(|&r| ply.saturating_add(r) < MAX_PLY as u32 - 2);
        }
        if n.length_bound
            .is_some_and(|r| r < if forcing { 3 } else { 1 })
        {
            n.best_possible = n.best_possible.min(Score::DRAW);
        }
        if self.to_end && self.uses.win_bounds {
            Self::win_bounds::<ROOT>(game, n);
        }
        if n.f.beta > n.best_possible {
            n.f.beta = n.best_possible;
            if n.f.alpha >= n.f.beta {
                return Break(NodeValue::clean(n.bounded_by_entry(n.f.beta)));
            }
        }
        // (Not at the root, which must find a move reaching its value.)
        if !ROOT && n.f.alpha < n.worst_possible {
            n.f.alpha = n.worst_possible;
            if n.f.alpha >= n.f.beta {
                return Break(NodeValue::clean(n.bounded_by_entry(n.f.alpha)));
            }
        }
        Continue(())
    }

    /// Step 3b: the game's proofs that a player cannot win any more, or
    /// loses (asked only when they could cut the window; a player that
    /// loses cannot win, so [`Game::cannot_draw`] is asked only after
    /// [`Game::cannot_win`] said yes): a side to move that cannot win is
    /// held to a draw, one that loses to its slowest loss (within the
    /// game's length bound, when there is one); an opponent the other way
    /// round.
    #[inline(always)]
    fn win_bounds<const ROOT: bool>(game: &G, n: &mut Node<G>) {
        let side = game.side_to_move();
        let horizon = n.length_bound.map_or(Score::MAX_PLY, |r| {
            n.f.ply.saturating_add(r).min(Score::MAX_PLY)
        });
        let slowest_loss = Score::loss_in(horizon);
        if n.f.beta > slowest_loss && n.best_possible > slowest_loss && game.cannot_win(side) {
            n.best_possible = n.best_possible.min(Score::DRAW);
            if game.cannot_draw(side) {
                n.best_possible = slowest_loss;
            }
        }
        if !ROOT && n.f.alpha < Score::DRAW && game.cannot_win(side.opponent()) {
            n.worst_possible = n.worst_possible.max(Score::DRAW);
            if game.cannot_draw(side.opponent()) {
                n.worst_possible = Score::win_in(horizon);
            }
        }
    }

    /// Step 4: the moves, before the table (as in Pons's solver): a node
    /// lost on the next ply, or decided by the distance bounds, needs no
    /// probe.
    #[inline(always)]
    fn generate<const ROOT: bool>(
        &mut self,
        game: &mut G,
        n: &mut Node<G>,
    ) -> ControlFlow<NodeValue> {
        if !(self.uses.forcing && n.deep(self.to_end)) {
            game.generate(&mut n.moves);
            return Continue(());
        }
        n.safe_children = true;
        game.non_losing_moves(&mut n.moves);
        if n.moves.is_empty() {
            self.stats.forced += 1;
            game.generate(&mut n.moves);
            let m = n.moves.as_slice()[0];
            return Break(self.forced_result::<ROOT>(n, m, Score::loss_in(n.f.ply + 2)));
        }
        // Not lost on the next ply: the earliest loss is two moves away.
        let mut worst = Score::loss_in(n.f.ply + 4);
        if n.length_bound.is_some_and(|r| r < 4) {
            worst = Score::DRAW;
        }
        if !ROOT && n.f.alpha < worst {
            n.f.alpha = worst;
            if n.f.alpha >= n.f.beta {
                return Break(NodeValue::clean(n.bounded_by_entry(n.f.alpha)));
            }
        }
        Continue(())
    }

    /// Step 5: the table's move for the order, and its bound as a cutoff
    /// (not at the root, which must find a move reaching its value).
    #[inline(always)]
    fn probe_table<const ROOT: bool>(
        &mut self,
        game: &mut G,
        n: &mut Node<G>,
    ) -> ControlFlow<NodeValue> {
        n.key = game.table_key();
        n.tt_depth = self.tt_depth(n.f.depth);
        if self.config.table.usage == TtUse::Off {
            return Continue(());
        }
        let Some(hit) = self.probe(n.key, n.tt_depth, n.f.ply) else {
            return Continue(());
        };
        n.tt_move = hit
            .entry
            .best_move
            .and_then(|code| move_of_code(&*game, &n.moves, code));
        if !ROOT
            && self.config.table.usage == TtUse::Cutoffs
            && let Some(v) = hit.cutoff(n.f.alpha.get(), n.f.beta.get())
        {
            self.stats.tt_cutoffs += 1;
            // A depth-limited value (even a decisive bound: "no mate faster
            // than k" holds only inside its horizon) is cut by the horizon.
            let taint = if hit.entry.depth == TO_END_DEPTH {
                Taint::NONE
            } else {
                Taint::HORIZON
            };
            return Break(NodeValue::new(n.bounded(Score::new(v)), taint));
        }
        Continue(())
    }

    /// Step 6: starts loading every child's table entry, so that their
    /// probes overlap instead of each waiting for memory in turn (children
    /// on the horizon do not probe).
    #[inline(always)]
    fn prefetch_children(&mut self, game: &mut G, n: &Node<G>) {
        if self.config.table.usage != TtUse::Off
            && self.config.prefetch
            && n.deep(self.to_end)
            && n.moves.len() > 1
        {
            for &m in n.moves.as_slice() {
                let key = key_after(game, m);
                self.prefetch(key);
            }
        }
    }

    /// Step 7: enhanced transposition cutoffs: a child whose stored bound
    /// refutes the window settles the node without searching anything.
    #[inline(always)]
    fn etc<const ROOT: bool>(&mut self, game: &mut G, n: &Node<G>) -> ControlFlow<NodeValue> {
        if !self.etc || ROOT || !n.deep(self.to_end) {
            return Continue(());
        }
        let child_depth = self.tt_depth(n.f.depth - 1);
        let Some((v, m, taint)) = self.etc_cutoff(game, n, child_depth) else {
            return Continue(());
        };
        self.stats.tt_cutoffs += 1;
        self.store(
            n.key,
            n.f.ply,
            Entry {
                best_move: Some(move_code(&*game, m)),
                value: v.get(),
                depth: n.tt_depth,
                bound: Bound::Lower,
            },
        );
        Break(NodeValue::new(n.bounded(v), taint))
    }

    /// Step 8: threat-space search: a win by a sequence of threats within
    /// `p` plies bounds the value from below by a win in `p`. (Not at the
    /// root, which must find a move reaching its value; never past a
    /// horizon, where plain negamax would not see the win.)
    #[inline(always)]
    fn threat_bound<const ROOT: bool>(
        &mut self,
        game: &mut G,
        n: &mut Node<G>,
    ) -> ControlFlow<NodeValue> {
        if ROOT || !self.uses.threats || !self.to_end || n.f.alpha >= Score::win_in(n.f.ply + 3) {
            return Continue(());
        }
        let Some(ts) = &mut self.h.threats else {
            return Continue(());
        };
        let Some(win) = ts.find_win(game) else {
            return Continue(());
        };
        let lower = Score::win_in(n.f.ply + win.plies);
        if lower >= n.f.beta {
            self.stats.threat_cutoffs += 1;
            if self.config.table.usage != TtUse::Off {
                self.store(
                    n.key,
                    n.f.ply,
                    Entry {
                        best_move: Some(move_code(&*game, win.first)),
                        value: lower.get(),
                        depth: TO_END_DEPTH,
                        bound: Bound::Lower,
                    },
                );
            }
            return Break(NodeValue::clean(n.bounded_by_entry(lower)));
        }
        if lower > n.f.alpha {
            n.f.alpha = lower;
        }
        Continue(())
    }

    /// Step 9: the moves in order. Returns the best value, its move and
    /// the taint of the value (the cutting child's alone on a cutoff: the
    /// lower bound is that move's value, as storable as its subtree); a
    /// stop breaks out.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn move_loop<const ROOT: bool>(
        &mut self,
        game: &mut G,
        n: &mut Node<G>,
    ) -> ControlFlow<NodeValue, (Score, Option<G::Move>, Taint)> {
        debug_assert!(
            !n.moves.is_empty(),
            "a non-terminal position must have moves"
        );
        let side = game.side_to_move();
        let mut order = self.order(n, side);
        let pvs = self.config.algorithm == Algorithm::Pvs;
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        let mut taint = Taint::NONE;
        let mut searched = 0u32;
        // (`n.f.alpha` stays the window's low end on entry to the loop,
        // which decides the bound stored.)
        let mut alpha = n.f.alpha;
        loop {
            let (m, from_picker) = match self.next_move(game, n, &mut order) {
                Some(m) => (m, true),
                None => match order.deferred.get(order.next_deferred) {
                    Some(&m) => {
                        order.next_deferred += 1;
                        (m, false)
                    }
                    None => break,
                },
            };
            let busy_key = order.busy.map(|b| (b, key_after(game, m)));
            if let Some((b, k)) = busy_key {
                if from_picker && searched > 0 && !order.deferred.is_full() && b.contains(k) {
                    order.deferred.push(m);
                    continue;
                }
                b.enter(k);
            }
            let first = searched == 0 || !pvs;
            let v = with_move(game, m, |g| self.search_move(g, n, m, side, alpha, first));
            if let Some((b, k)) = busy_key {
                b.leave(k);
            }
            if self.stopped {
                return Break(NodeValue::clean(Score::DRAW));
            }
            searched += 1;
            taint = taint.or(v.taint);
            if v.value > best {
                best = v.value;
                best_move = Some(m);
                if v.value > alpha {
                    alpha = v.value;
                    self.pv.update(n.f.ply as usize, m);
                    if ROOT {
                        self.root_best = Some(m);
                    }
                }
            }
            if v.value >= n.f.beta {
                self.stats.beta_cutoffs += 1;
                if searched == 1 {
                    self.stats.first_move_cutoffs += 1;
                }
                if from_picker {
                    self.on_cutoff(n, &order, side, m);
                }
                return Continue((best, best_move, v.taint));
            }
        }
        Continue((best, best_move, taint))
    }

    /// The move order of the node: the lean order without heuristic
    /// tables, else the staged picker with the table move, killers and
    /// counter-move.
    #[inline(always)]
    fn order(&mut self, n: &Node<G>, side: gametree_game::Player) -> Order<'a, G> {
        let plyu = n.f.ply as usize;
        let lean = (self.lean && n.moves.len() <= LEAN_MAX).then(LeanOrder::new);
        let picker = if lean.is_some() {
            None
        } else {
            if self.uses.killers > 0 {
                self.h.killers.clear(plyu + 1);
            }
            let killers: &[G::Move] = if self.uses.killers > 0 {
                let k = self.h.killers.get(plyu);
                &k[..k.len().min(usize::from(self.uses.killers))]
            } else {
                &[]
            };
            let counter = match n.f.previous {
                Some(p) if self.uses.counter_moves => self.h.counters.get(side, p),
                _ => None,
            };
            let picker = if self.uses.tactical {
                MovePicker::<G>::new_tactical(n.tt_move)
            } else {
                MovePicker::<G>::new(n.tt_move)
            };
            Some(picker.with_killers(killers).with_counter(counter))
        };
        Order {
            lean,
            picker,
            // Solving on several threads, near the root: moves another
            // thread is searching are put off until the others are done
            // (see `busy`); the first move never is.
            busy: self
                .busy
                .filter(|_| self.to_end && n.f.ply < DEFER_PLY && n.moves.len() > 1),
            deferred: ArrayVec::new(),
            next_deferred: 0,
        }
    }

    /// The next move of the lean order or the picker.
    #[inline(always)]
    fn next_move(
        &mut self,
        game: &G,
        n: &mut Node<G>,
        order: &mut Order<'_, G>,
    ) -> Option<G::Move> {
        let hints = self.uses.hints;
        if let Some(lean) = &mut order.lean {
            return lean.next(game, &mut n.moves, n.tt_move, hints);
        }
        let picker = order.picker.as_mut()?;
        let history = self.uses.history.is_some().then_some(&self.h.history);
        let key = match (hints, history) {
            (true, history) => QuietKey::Hints { game, history },
            (false, Some(history)) => QuietKey::History(history),
            (false, None) => QuietKey::Buffer,
        };
        picker.next(game, &mut n.moves, &key)
    }

    /// The value of move `m` (just made) seen from the node, whose window
    /// is now `(alpha, n.f.beta)`: a full-window search for the `first` move, else a null window and a re-search
    /// when it lands inside the window (PVS).
    #[inline(always)]
    fn search_move(
        &mut self,
        game: &mut G,
        n: &Node<G>,
        m: G::Move,
        side: gametree_game::Player,
        alpha: Score,
        first: bool,
    ) -> NodeValue {
        let same = game.side_to_move() == side;
        let beta = n.f.beta;
        let below = |a, b| n.f.below(m, a, b, n.safe_children);
        if first {
            return self.child(game, same, below(alpha, beta));
        }
        let null = Score::new(alpha.get() + 1);
        let v = self.child(game, same, below(alpha, null));
        if v.value > alpha && v.value < beta && !self.stopped {
            self.stats.pvs_researches += 1;
            // (A value found by either search is as tainted as both.)
            let again = self.child(game, same, below(alpha, beta));
            return again.with(v.taint);
        }
        v
    }

    /// The heuristic tables learn a quiet move that cut.
    #[inline(always)]
    fn on_cutoff(
        &mut self,
        n: &Node<G>,
        order: &Order<'_, G>,
        side: gametree_game::Player,
        m: G::Move,
    ) {
        let Some(picker) = &order.picker else { return };
        if !picker.last_is_quiet() {
            return;
        }
        if self.uses.killers > 0 {
            self.h.killers.store(n.f.ply as usize, m);
        }
        if self.uses.counter_moves
            && let Some(p) = n.f.previous
        {
            self.h.counters.store(side, p, m);
        }
        if self.uses.history.is_some() {
            let tried = picker.quiets_tried(&n.moves);
            self.h.history.on_cutoff(side, m, tried, n.f.depth.min(64));
        }
    }

    /// Step 10: the node's value, stored in the table unless it rests on a
    /// path-dependent outcome.
    #[inline(always)]
    fn store_result(
        &mut self,
        game: &G,
        n: &Node<G>,
        best: Score,
        best_move: Option<G::Move>,
        taint: Taint,
    ) -> NodeValue {
        let (alpha, beta) = (n.f.alpha, n.f.beta);
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let value = if n.f.fail_soft {
            best
        } else {
            best.clamp(alpha, beta)
        };
        if self.config.table.usage != TtUse::Off && !taint.path {
            self.store(
                n.key,
                n.f.ply,
                Entry {
                    best_move: if bound == Bound::Upper {
                        None
                    } else {
                        best_move.map(|m| move_code(game, m))
                    },
                    value: value.get(),
                    // Proving: a subtree searched to the end is solved.
                    depth: if self.proving && !taint.horizon && bound == Bound::Exact {
                        TO_END_DEPTH
                    } else {
                        n.tt_depth
                    },
                    bound,
                },
            );
        }
        NodeValue::new(value, taint)
    }

    /// Enhanced transposition cutoff: probes the table for each child at
    /// `child_depth`; if one child's stored bound shows that the node's
    /// value is at least `beta` (seen from the node: the bound is negated
    /// when the side to move changes), returns that lower bound, the move,
    /// and the horizon taint of a depth-limited entry.
    fn etc_cutoff(
        &mut self,
        game: &mut G,
        n: &Node<G>,
        child_depth: u8,
    ) -> Option<(Score, G::Move, Taint)> {
        let (alpha, beta) = (n.f.alpha, n.f.beta);
        let side = game.side_to_move();
        for &m in n.moves.as_slice() {
            let (key, same) = with_move(game, m, |g| (g.table_key(), g.side_to_move() == side));
            let Some(hit) = self.probe(key, child_depth, n.f.ply + 1) else {
                continue;
            };
            let found = if same {
                hit.cutoff(alpha.get(), beta.get())
                    .filter(|&v| v >= beta.get())
                    .map(Score::new)
            } else {
                hit.cutoff((-beta).get(), (-alpha).get())
                    .filter(|&v| v <= (-beta).get())
                    .map(|v| -Score::new(v))
            };
            if let Some(v) = found {
                let taint = if hit.entry.depth == TO_END_DEPTH {
                    Taint::NONE
                } else {
                    Taint::HORIZON
                };
                return Some((v, m, taint));
            }
        }
        None
    }

    /// The value of a node decided by the game's forcing knowledge without
    /// expanding it.
    #[inline]
    fn forced_result<const ROOT: bool>(
        &mut self,
        n: &Node<G>,
        m: G::Move,
        value: Score,
    ) -> NodeValue {
        let p = n.f.ply as usize;
        self.pv.clear(p + 1);
        if value > n.f.alpha {
            self.pv.update(p, m);
            if ROOT {
                self.root_best = Some(m);
            }
        }
        NodeValue::clean(n.bounded(value))
    }
}

/// The table key of the position after `m`: the game's shortcut when it
/// has one, else by making and unmaking the move.
#[inline(always)]
fn key_after<G: Game>(game: &mut G, m: G::Move) -> u64 {
    match game.table_key_after(m) {
        Some(key) => key,
        None => with_move(game, m, |g| g.table_key()),
    }
}
