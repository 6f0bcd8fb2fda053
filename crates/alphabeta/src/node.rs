//! The recursive search of one node: mate-distance and length-bound
//! pruning, the game's forcing knowledge, the table probe, enhanced
//! transposition cutoffs, the move loop (PVS null windows, any turn order)
//! and the store.

use arrayvec::ArrayVec;
use gametree_game::{Game, MoveBuffer, Score};
use gametree_ordering::{MovePicker, NoHistory};
use gametree_ttable::{Bound, Entry, Table};

use crate::busy::{DEFER_MAX, DEFER_PLY};
use crate::config::{Algorithm, TtUse};
use crate::order::{HintOrder, LEAN_MAX, LeanOrder, move_code, move_of_code};
use crate::searcher::MAX_PLY;
use crate::worker::{TO_END_DEPTH, Worker};

impl<G: Game, T: Table> Worker<'_, G, T> {
    /// [`Self::search`] without the taint bookkeeping: `self.tainted` is
    /// `false` on entry and tells on return whether the value may be stored.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn node(
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
        #[cfg(debug_assertions)]
        gametree_game::check::sampled_knowledge(game, self.stats.nodes);
        if self.stats.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return Score::DRAW;
        }
        self.pv.clear(ply as usize);
        // A node whose parent had no immediate win (`safe`, see below) was
        // not reached by a winning move: the game's cheaper test.
        let outcome = if safe {
            game.outcome_unless_won()
        } else {
            game.outcome()
        };
        if let Some(o) = outcome {
            return self.terminal(game, o, ply);
        }
        // An oracle's value is exact (not at the root, which must find a
        // move reaching its value).
        if ply > 0
            && let Some(oracle) = self.oracle
            && let Some(v) = oracle.probe(game)
        {
            self.stats.oracle_hits += 1;
            let v = v.to_root_relative(ply);
            return if fail_soft { v } else { v.clamp(alpha, beta) };
        }
        if !self.to_end && depth == 0 {
            self.horizon = true;
            return if self.uses.quiescence {
                self.quiescence(game, ply, 0, alpha, beta)
            } else {
                game.evaluate()
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
        let forcing = self.uses.forcing;
        let (alpha0, beta0) = (alpha, beta);
        let bounded = |v: Score| if fail_soft { v } else { v.clamp(alpha0, beta0) };
        let mut best_possible = Score::win_in(ply + 1);
        if forcing {
            // (A child of a non-losing move list has no immediate win.)
            if !safe && let Some(m) = game.winning_move() {
                self.stats.forced += 1;
                return self.forced_result(ply, m, Score::win_in(ply + 1), alpha, beta, fail_soft);
            }
            // No win now: the earliest is after the opponent's reply.
            best_possible = Score::win_in(ply + 3);
        }
        // Solving with a length bound `r`: no win or loss further than `r`
        // plies, so none at all when the earliest possible one is further.
        let length_bound = if self.to_end && self.uses.length_bound {
            game.remaining_plies()
                .filter(|&r| ply.saturating_add(r) < MAX_PLY as u32 - 2)
        } else {
            None
        };
        if length_bound.is_some_and(|r| r < if forcing { 3 } else { 1 }) {
            best_possible = best_possible.min(Score::DRAW);
        }
        // The game's proofs that a player cannot win any more (asked only
        // when they could cut the window).
        let mut worst_possible = Score::loss_in(ply + 1);
        if self.to_end && self.uses.win_bounds {
            let side = game.side_to_move();
            if beta > Score::DRAW && best_possible > Score::DRAW && game.cannot_win(side) {
                best_possible = Score::DRAW;
            }
            if ply > 0 && alpha < Score::DRAW && game.cannot_win(side.opponent()) {
                worst_possible = Score::DRAW;
            }
        }
        if beta > best_possible {
            beta = best_possible;
            if alpha >= beta {
                return bounded(beta);
            }
        }
        // (Not at the root, which must find a move reaching its value.)
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
        if forcing && (self.to_end || depth >= 2) {
            safe_children = true;
            game.non_losing_moves(&mut moves);
            if moves.is_empty() {
                self.stats.forced += 1;
                game.generate(&mut moves);
                let m = moves.as_slice()[0];
                return self.forced_result(ply, m, Score::loss_in(ply + 2), alpha, beta, fail_soft);
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
        } else {
            game.generate(&mut moves);
        }
        let tt_on = self.config.table.usage != TtUse::Off;
        let key = game.table_key();
        let tt_depth = self.tt_depth(depth);
        let mut tt_move = None;
        if tt_on && let Some(hit) = self.probe(key, tt_depth, ply) {
            tt_move = hit
                .entry
                .best_move
                .and_then(|code| move_of_code(&*game, &moves, code));
            if ply > 0
                && self.config.table.usage == TtUse::Cutoffs
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

        // Start loading every child's table entry now, so that their
        // probes overlap instead of each waiting for memory in turn
        // (children on the horizon do not probe).
        if tt_on && self.config.prefetch && (self.to_end || depth >= 2) && moves.len() > 1 {
            for &m in moves.as_slice() {
                let key = match game.table_key_after(m) {
                    Some(key) => key,
                    None => {
                        let undo = game.make(m);
                        let key = game.table_key();
                        game.unmake(m, undo);
                        key
                    }
                };
                self.prefetch(key);
            }
        }

        // Enhanced transposition cutoffs: a child whose stored bound
        // refutes the window settles the node without searching anything.
        if self.etc && ply > 0 && (self.to_end || depth >= 2) {
            let child_depth = self.tt_depth(depth - 1);
            if let Some((v, m)) = self.etc_cutoff(game, &moves, child_depth, ply, alpha, beta) {
                self.stats.tt_cutoffs += 1;
                if !self.tainted {
                    self.store(
                        key,
                        ply,
                        Entry {
                            best_move: Some(move_code(&*game, m)),
                            value: v.get(),
                            depth: tt_depth,
                            bound: Bound::Lower,
                        },
                    );
                }
                return if fail_soft { v } else { v.clamp(alpha, beta) };
            }
        }

        // Threat-space search: a win by a sequence of threats within `p`
        // plies bounds the value from below by a win in `p`. (Not at the
        // root, which must find a move reaching its value; never past a
        // horizon, where plain negamax would not see the win.)
        if self.uses.threats
            && self.to_end
            && ply > 0
            && alpha < Score::win_in(ply + 3)
            && let Some(ts) = &mut self.h.threats
            && let Some(win) = ts.find_win(game)
        {
            let lower = Score::win_in(ply + win.plies);
            if lower >= beta {
                self.stats.threat_cutoffs += 1;
                if tt_on && !self.tainted {
                    self.store(
                        key,
                        ply,
                        Entry {
                            best_move: Some(move_code(&*game, win.first)),
                            value: lower.get(),
                            depth: TO_END_DEPTH,
                            bound: Bound::Lower,
                        },
                    );
                }
                return bounded(lower);
            }
            if lower > alpha {
                alpha = lower;
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
        if self.uses.killers > 0 {
            self.h.killers.clear(plyu + 1);
        }
        let killers: &[G::Move] = if self.uses.killers > 0 {
            let k = self.h.killers.get(plyu);
            &k[..k.len().min(usize::from(self.uses.killers))]
        } else {
            &[]
        };
        let counter = match previous {
            Some(p) if self.uses.counter_moves => self.h.counters.get(side, p),
            _ => None,
        };
        let mut picker = lean.is_none().then(|| {
            if self.uses.tactical {
                MovePicker::<G>::new_tactical(tt_move)
            } else {
                MovePicker::<G>::new(tt_move)
            }
            .with_killers(killers)
            .with_counter(counter)
        });

        let mut best = -Score::INFINITY;
        let mut best_move = None;
        let mut searched = 0u32;
        // Solving on several threads, near the root: moves another thread
        // is searching are put off until the others are done (see `busy`);
        // the first move never is.
        let busy = self
            .busy
            .filter(|_| self.to_end && ply < DEFER_PLY && moves.len() > 1);
        let mut deferred = ArrayVec::<G::Move, DEFER_MAX>::new();
        let mut next_deferred = 0;
        let pvs = self.config.algorithm == Algorithm::Pvs;
        let hints = self.uses.hints;
        let history = self.uses.history.is_some();
        loop {
            let next = if let Some(order) = &mut lean {
                order.next(&*game, &mut moves, tt_move, hints)
            } else if let Some(picker) = &mut picker {
                if hints {
                    let order = HintOrder {
                        game: &*game,
                        history: history.then_some(&self.h.history),
                    };
                    picker.next(&*game, &mut moves, &order)
                } else if history {
                    picker.next(game, &mut moves, &self.h.history)
                } else {
                    picker.next(game, &mut moves, &NoHistory)
                }
            } else {
                None
            };
            let from_picker = next.is_some();
            let Some(m) = next.or_else(|| {
                next_deferred += 1;
                deferred.get(next_deferred - 1).copied()
            }) else {
                break;
            };
            let undo = game.make(m);
            let child_key = busy.map(|b| {
                let k = game.table_key();
                (b, k)
            });
            if let Some((b, k)) = child_key {
                if from_picker && searched > 0 && !deferred.is_full() && b.contains(k) {
                    game.unmake(m, undo);
                    deferred.push(m);
                    continue;
                }
                b.enter(k);
            }
            let siblings_tainted = core::mem::replace(&mut self.tainted, false);
            let siblings_horizon = core::mem::replace(&mut self.horizon, false);
            let same = game.side_to_move() == side;
            self.next_safe = safe_children;
            let v = if searched == 0 || !pvs {
                self.child(game, same, depth - 1, ply, alpha, beta, m, fail_soft)
            } else {
                let null = Score::new(alpha.get() + 1);
                let v = self.child(game, same, depth - 1, ply, alpha, null, m, fail_soft);
                if v > alpha && v < beta && !self.stopped {
                    self.stats.pvs_researches += 1;
                    self.next_safe = safe_children;
                    self.child(game, same, depth - 1, ply, alpha, beta, m, fail_soft)
                } else {
                    v
                }
            };
            game.unmake(m, undo);
            if let Some((b, k)) = child_key {
                b.leave(k);
            }
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
                if from_picker
                    && let Some(picker) = &picker
                    && picker.last_is_quiet()
                {
                    if self.uses.killers > 0 {
                        self.h.killers.store(plyu, m);
                    }
                    if self.uses.counter_moves
                        && let Some(p) = previous
                    {
                        self.h.counters.store(side, p, m);
                    }
                    if history {
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
                        best_move.map(|m| move_code(&*game, m))
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
    /// `moves` at `child_depth`; if one child's stored bound shows that the
    /// node's value is at least `beta` (seen from the node: the bound is
    /// negated when the side to move changes), returns that lower bound
    /// and the move. Marks the horizon as a table cutoff does.
    fn etc_cutoff(
        &mut self,
        game: &mut G,
        moves: &G::Moves,
        child_depth: u8,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Option<(Score, G::Move)> {
        let side = game.side_to_move();
        for &m in moves.as_slice() {
            let undo = game.make(m);
            let key = game.table_key();
            let same = game.side_to_move() == side;
            game.unmake(m, undo);
            let Some(hit) = self.probe(key, child_depth, ply + 1) else {
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
                if hit.entry.depth != TO_END_DEPTH {
                    self.horizon = true;
                }
                return Some((v, m));
            }
        }
        None
    }

    /// The value of a node decided by the game's forcing knowledge without
    /// expanding it.
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
}
