//! Depth-first proof-number search (Nagai) with a transposition table, the
//! 1+ε trick (Pawlewicz and Lew) and path-based repetition handling.

use gametree_game::{Game, Limits, MoveBuffer, Oracle, Outcome, Player, Request, Solution, Solver};

use crate::common::{
    Budget, Error, INFINITE, Number, Progress, Question, Report, add, answer_of, as_parent,
    child_needs_win, emit_progress, settled_by_bounds, solve_request, solved, success, table_stats,
};
use crate::options::Knobs;
use crate::pns::{claim_of, initial};
use crate::proof::Strategy;
use gametree_threats::ThreatSearch;

mod config;
mod table;
pub use config::DfPnConfig;
use table::Table;

/// Depth-first proof-number search (Nagai 2002) in the negamax form.
///
/// `MID(n, th_φ, th_δ)` expands `n` and keeps searching its best child (the
/// one with the least δ) while `φ(n) < th_φ` and `δ(n) < th_δ`, where
/// `φ(n) = min δ(child)` ("deltaMin") and `δ(n) = Σ φ(child)` ("phiSum").
/// The best child gets the thresholds `th_φ(c) = th_δ(n) − δ(n) + φ(c)` and
/// `th_δ(c) = min(th_φ(n), ⌈δ₂·(1+ε)⌉)` with δ₂ the second-least δ of the
/// children (the 1+ε trick; ε = 0 is plain df-pn). Children's numbers live
/// in a transposition table of a fixed size in bytes: 4-entry buckets,
/// replacement of the entry with the least *work* (expansions spent below
/// it), so expensive results survive.
///
/// **Cycles and the graph-history-interaction problem.** Tic-tac-toe,
/// m,n,k-games and Connect Four are acyclic and need nothing. For games
/// whose positions can repeat, df-pn keeps the hashes of the current path;
/// a move into a position on the path is scored as a draw by repetition
/// (a loss for the side that needs a win), so recursion never loops. That
/// score is right for this path only, and a table that stored what was
/// derived from it would hand it to other paths, where the repeated
/// position is not above: the graph-history-interaction (GHI) problem,
/// which makes a plain df-pn give wrong answers (`tests/ghi.rs` has a
/// seven-position game where it does). Here every solved result carries
/// the depth of the shallowest path position whose repetition it assumed
/// (a proven node: its least dependent proving child; a disproven node:
/// all its children). A result that rests only on positions at or below
/// the node holds whatever the path above, and is stored; one that rests
/// on a position above is used by the nodes between, which share that
/// path, and never stored. An outcome that depends on the game's history
/// ([`Game::outcome_depends_on_history`]: chess's fifty-move rule) rests on
/// the whole path. Answers are therefore those of the path rule (a game's
/// value with endless play a draw), checked against exact retrograde
/// values on random cyclic graphs and against chess databases. This is the
/// conservative solution: Kishimoto and Müller's GHI solution also reuses
/// path-dependent results, by storing path information, and would solve
/// cyclic positions with fewer re-searches. What it costs: a draw that
/// rests on long cycles is re-derived each time the search comes back,
/// and some such positions exhaust a node limit (the answer is then
/// unknown, never wrong).
#[derive(Debug)]
pub struct DfPn {
    config: DfPnConfig,
    table: Table,
    threats: ThreatSearch,
}

/// The most positions [`DfPn::prove`] visits while writing a proof tree in
/// a game whose positions repeat: writing it may backtrack there (a proven
/// move whose table proof runs through the current path is replaced by the
/// next), which can take exponential time; past this many steps `prove`
/// gives up and returns no strategy. (In an acyclic game it never
/// backtracks, and shares transpositions.)
const EXTRACT_STEPS: u64 = 1 << 22;

/// The path depth a solved result rests on: the shallowest position of the
/// current path whose repetition the result assumed, or [`FREE`] when the
/// result holds whatever the path.
type Dep = u32;

/// A result that does not depend on the path.
const FREE: Dep = Dep::MAX;

#[derive(Clone, Copy, Debug)]
struct Child {
    hash: u64,
    phi: Number,
    delta: Number,
    /// For a solved child: the path depth its result rests on.
    dep: Dep,
    fixed: bool,
    /// Did the move to this child pass the turn?
    flip: bool,
}

impl Child {
    /// Takes in newer numbers for this child. Within one node's loop the
    /// numbers of an unsolved child never decrease and a solved child stays
    /// solved: this keeps the loop's progress monotone, so positions whose
    /// table entries change behind its back (transpositions, cycles, a
    /// small table) cannot make it oscillate forever. In an acyclic game
    /// solved numbers are exact, so answers are unaffected.
    /// `dep` is the path depth a solved `(phi, delta)` rests on.
    fn merge(&mut self, (phi, delta): (Number, Number), dep: Dep) {
        let solved = |p: Number, d: Number| p == 0 || d == 0;
        if solved(self.phi, self.delta) {
            return;
        }
        if solved(phi, delta) {
            (self.phi, self.delta, self.dep) = (phi, delta, dep);
        } else {
            self.phi = self.phi.max(phi);
            self.delta = self.delta.max(delta);
        }
    }
}

struct Searcher<'t, G: Game> {
    table: &'t mut Table,
    /// Threat-space search, when on and the game allows it.
    threats: Option<&'t mut ThreatSearch>,
    /// XORed into table keys: the two questions of a solve share a table.
    salt: u64,
    children: Vec<Child>,
    hashes: Vec<u64>,
    epsilon: f64,
    knobs: Knobs,
    /// Positions already written by [`Self::extract`], by hash.
    extracted: std::collections::HashMap<u64, u32>,
    /// The root's move that proved it, set by [`Self::mid`] at depth 0
    /// (its child's result may rest on the root's place on the path and
    /// then is not in the table).
    root_proof: Option<usize>,
    /// Calls of [`Self::extract`] so far, against [`EXTRACT_STEPS`].
    extract_steps: u64,
    /// Exact values of positions below the root (an endgame database).
    oracle: Option<&'t dyn Oracle<G>>,
    game: core::marker::PhantomData<fn(&G)>,
}

impl<G: Game> Searcher<'_, G> {
    /// A child's numbers before it is searched, the path depth a solved
    /// value rests on, and whether the value is final whatever the search
    /// (`fixed`): a finished game is final ([`FREE`]) unless its outcome
    /// depends on the game's history (then it rests on the whole path,
    /// depth 0); a position on the path is a draw by repetition that rests
    /// on that position's depth; table entries are not fixed.
    /// `key` is the child's table key (`table::key` of its hash).
    fn child_value(
        &mut self,
        game: &mut G,
        key: u64,
        needs_win: bool,
    ) -> ((Number, Number), Dep, bool) {
        if let Some(o) = game.outcome() {
            let dep = if game.outcome_depends_on_history() {
                0
            } else {
                FREE
            };
            (solved(success(o, needs_win)), dep, true)
        } else if let Some(at) = self.hashes.iter().position(|&h| h == game.hash()) {
            (solved(success(Outcome::Draw, needs_win)), at as Dep, true)
        } else if let Some(o) = self
            .oracle
            .and_then(|oracle| oracle.probe(game))
            .and_then(|v| v.outcome())
        {
            // An oracle's value is exact whatever the path.
            (solved(success(o, needs_win)), FREE, true)
        } else {
            let v = match self.table.get(key) {
                Some(v) => v,
                None => self.unexpanded(game, needs_win),
            };
            (v, FREE, false)
        }
    }

    /// The numbers of a position not in the table: [`initial`], except
    /// that a side to move with a threat sequence has won (whatever it
    /// needs: a win is also at least a draw).
    fn unexpanded(&mut self, game: &mut G, needs_win: bool) -> (Number, Number) {
        let v = initial(game, needs_win, self.knobs);
        if v.0 == 0 || v.1 == 0 {
            return v;
        }
        let won = self
            .threats
            .as_deref_mut()
            .is_some_and(|t| t.find_win(game).is_some());
        if won { solved(true) } else { v }
    }

    fn widen(&self, second: Number) -> Number {
        if second >= INFINITE - 1 {
            return INFINITE;
        }
        let scaled = (second as f64 * (1.0 + self.epsilon)).ceil();
        let scaled = if scaled >= (INFINITE - 1) as f64 {
            INFINITE - 1
        } else {
            scaled as Number
        };
        scaled.max(second + 1)
    }

    /// Nagai's MID at a non-terminal position; returns its `(φ, δ)` and,
    /// when solved, the path depth the result rests on ([`FREE`] if none).
    ///
    /// **Graph-history interaction.** A repetition of a position on the
    /// path is a draw, which is right for this path only. Each solved
    /// result therefore carries the depth of the shallowest repeated
    /// position it assumed: a proven node rests on its least dependent
    /// proving child, a disproven one on all its children. A result that
    /// rests only on positions at or below the node itself holds whatever
    /// the path above (within its subtree, returning to a position is the
    /// same infinite play, whichever path led there) and is stored; one
    /// that rests on a position above the node is returned to the caller,
    /// which is on that path, but never stored, so it cannot be read back
    /// on a path where that position is absent.
    fn mid(
        &mut self,
        game: &mut G,
        needs_win: bool,
        th_phi: Number,
        th_delta: Number,
        budget: &mut Budget<'_>,
    ) -> ((Number, Number), Dep) {
        let key = table::key(game.hash(), self.salt);
        if !budget.expand(self.table.bytes(), self.table.stores) {
            let v = self
                .table
                .get(key)
                .unwrap_or_else(|| initial(game, needs_win, self.knobs));
            return (v, FREE);
        }
        let start = budget.nodes;
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        if moves.is_empty() {
            let (phi, delta) = solved(success(Outcome::Draw, needs_win));
            self.table.put(key, phi, delta, 1);
            return ((phi, delta), FREE);
        }
        let depth = self.hashes.len() as Dep;
        self.hashes.push(game.hash());
        // This node's frame of the children stack: each child's hash, last
        // known numbers, and whether they are final (game over or repetition).
        let frame = self.children.len();
        let side = game.side_to_move();
        for &mv in moves.as_slice() {
            let undo = game.make(mv);
            budget.check_knowledge(game);
            let flip = game.side_to_move() != side;
            let child_key = table::key(game.hash(), self.salt);
            let ((cp, cd), dep, fixed) =
                self.child_value(game, child_key, child_needs_win(needs_win, flip));
            self.children.push(Child {
                hash: child_key,
                phi: cp,
                delta: cd,
                dep,
                fixed,
                flip,
            });
            game.unmake(mv, undo);
        }
        let (phi, delta, best) = loop {
            let mut delta = 0;
            let (mut best, mut best_delta, mut best_phi, mut second) = (0, INFINITE, 0, INFINITE);
            for i in 0..moves.len() {
                let child = &mut self.children[frame + i];
                // Re-read the table (transpositions may have moved the
                // numbers); a child the table lost keeps its last numbers,
                // so a tiny table cannot make the loop forget its progress.
                if !child.fixed
                    && let Some(read) = self.table.get(child.hash)
                {
                    child.merge(read, FREE);
                }
                // The child's numbers as this node combines them: `proves`
                // enters the node's φ (a minimum), `sums` its δ (a sum).
                let (proves, sums) = as_parent(child.flip, (child.phi, child.delta));
                delta = add(delta, sums);
                if proves < best_delta || i == 0 {
                    second = best_delta;
                    best_delta = proves;
                    best_phi = sums;
                    best = i;
                } else if proves < second {
                    second = proves;
                }
            }
            let phi = best_delta;
            if phi >= th_phi || delta >= th_delta || budget.stop.is_some() {
                break (phi, delta, best);
            }
            // Thresholds of the best child in this node's orientation, then
            // in its own: swapped back when the move passed the turn.
            let th_sums = th_delta - delta + best_phi;
            let th_proves = th_phi.min(self.widen(second));
            let flip = self.children[frame + best].flip;
            let (child_th_phi, child_th_delta) = if flip {
                (th_sums, th_proves)
            } else {
                (th_proves, th_sums)
            };
            let mv = moves.as_slice()[best];
            let undo = game.make(mv);
            let child_needs = child_needs_win(needs_win, flip);
            let (v, dep) = self.mid(game, child_needs, child_th_phi, child_th_delta, budget);
            game.unmake(mv, undo);
            self.children[frame + best].merge(v, dep);
        };
        let children = &self.children[frame..];
        let proves = |c: &Child| as_parent(c.flip, (c.phi, c.delta)).0 == 0;
        let dep = if phi == 0 {
            // Proven by any proving child: take the least dependent one.
            let proof = (0..children.len())
                .filter(|&i| proves(&children[i]))
                .max_by_key(|&i| children[i].dep)
                .unwrap_or(best);
            if depth == 0 {
                self.root_proof = Some(proof);
            }
            children[proof].dep
        } else if delta == 0 {
            // Disproven: every child refutes it.
            children.iter().map(|c| c.dep).min().unwrap_or(FREE)
        } else {
            FREE
        };
        self.children.truncate(frame);
        self.hashes.pop();
        // At the root, depth 0 also marks an outcome that rests on the
        // game's history: such a result is never stored.
        if dep >= depth.max(1) {
            self.table.put(key, phi, delta, budget.nodes - start);
            ((phi, delta), FREE)
        } else {
            // Rests on a repetition above this node: valid on this path only.
            ((phi, delta), dep)
        }
    }

    /// The `(φ, δ)` of a position on the current path, re-solving it if
    /// the table lost it or never held it (a result that rests on the path).
    fn solved_value(
        &mut self,
        game: &mut G,
        needs_win: bool,
        budget: &mut Budget<'_>,
    ) -> (Number, Number) {
        let key = table::key(game.hash(), self.salt);
        let (v, _, _) = self.child_value(game, key, needs_win);
        if v.0 == 0 || v.1 == 0 {
            v
        } else {
            self.mid(game, needs_win, INFINITE, INFINITE, budget).0
        }
    }

    /// Forgets the nodes written since `mark`, and the transpositions that
    /// pointed at them.
    fn rollback(&mut self, strategy: &mut Strategy<G::Move>, mark: (usize, usize)) {
        strategy.rollback(mark);
        if !G::CAN_REPEAT {
            self.extracted
                .retain(|_, &mut node| (node as usize) < mark.0);
        }
    }

    /// Writes the proof tree below a solved position into `strategy`. At a
    /// prover node it takes the first child whose numbers (from the table,
    /// or re-solved when the table lost them) show it won for the prover
    /// and whose own tree can be written; at an opponent node it takes
    /// every child. `None` when no finite tree exists below this position
    /// on this path: every line the numbers allow returns to a position on
    /// the path (a result that rests on endless play, or a proven child
    /// whose table proof runs through the path; another child is tried).
    fn extract(
        &mut self,
        game: &mut G,
        needs_win: bool,
        prover: Player,
        strategy: &mut Strategy<G::Move>,
        budget: &mut Budget<'_>,
    ) -> Option<u32> {
        self.extract_steps += 1;
        if G::CAN_REPEAT && self.extract_steps > EXTRACT_STEPS {
            return None;
        }
        let prover_to_move = game.side_to_move() == prover;
        let side = game.side_to_move();
        let mut moves = G::Moves::default();
        if game.outcome().is_none() {
            if self.knobs.bounds && settled_by_bounds(game, needs_win).is_some() {
                // Solved by the game's win bounds: a leaf `verify_with` judges.
                return Some(strategy.add_bound_leaf());
            }
            game.generate(&mut moves);
        }
        if moves.is_empty() {
            return Some(strategy.add_node(&[]));
        }
        if self.hashes.contains(&game.hash()) {
            return None;
        }
        // In a game without repetitions a position's subtree does not
        // depend on the path: transpositions share one.
        if !G::CAN_REPEAT
            && let Some(&node) = self.extracted.get(&game.hash())
        {
            return Some(node);
        }
        self.hashes.push(game.hash());
        let mut found = None;
        if prover_to_move {
            for &mv in moves.as_slice() {
                let undo = game.make(mv);
                let flip = game.side_to_move() != side;
                let child_needs = child_needs_win(needs_win, flip);
                let v = self.solved_value(game, child_needs, budget);
                let mut written = None;
                if as_parent(flip, v).0 == 0 {
                    let mark = strategy.mark();
                    let me = strategy.add_node(&[mv]);
                    match self.extract(game, child_needs, prover, strategy, budget) {
                        Some(c) => {
                            strategy.set_child(me, 0, c);
                            written = Some(me);
                        }
                        None => self.rollback(strategy, mark),
                    }
                }
                game.unmake(mv, undo);
                if written.is_some() {
                    found = written;
                    break;
                }
            }
        } else {
            let mark = strategy.mark();
            let me = strategy.add_node(moves.as_slice());
            found = Some(me);
            for (i, &mv) in moves.as_slice().iter().enumerate() {
                let undo = game.make(mv);
                let flip = game.side_to_move() != side;
                let child_needs = child_needs_win(needs_win, flip);
                let c = self.extract(game, child_needs, prover, strategy, budget);
                game.unmake(mv, undo);
                match c {
                    Some(c) => strategy.set_child(me, i, c),
                    None => {
                        self.rollback(strategy, mark);
                        found = None;
                        break;
                    }
                }
            }
        }
        self.hashes.pop();
        if !G::CAN_REPEAT
            && let Some(me) = found
        {
            self.extracted.insert(game.hash(), me);
        }
        found
    }
}

impl DfPn {
    /// A searcher with the given configuration; allocates its table.
    ///
    /// # Errors
    ///
    /// [`Error::TooSmall`] below one bucket, [`Error::TooLarge`] above a
    /// terabyte, [`Error::AllocationFailed`] when the memory is refused.
    pub fn new(config: DfPnConfig) -> Result<DfPn, Error> {
        Ok(DfPn {
            table: Table::new(config.get_memory())?,
            threats: ThreatSearch::new(config.proof.get_threat_limits()).map_err(Error::Threats)?,
            config,
        })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &DfPnConfig {
        &self.config
    }

    /// Answers `question` about `game` (restored afterwards) within the
    /// request's limits (nodes = expansions, time, cancel; the depth limit
    /// is ignored), sending [`Event::Nodes`](gametree_game::Event::Nodes)
    /// to the request's sink every
    /// [progress interval](crate::ProofConfig::progress_interval); what
    /// to find is always the answer to `question`.
    ///
    /// The request's [`Oracle`] (an endgame database), when it has one, is
    /// asked about every position below the root before it is expanded
    /// (after the game's own outcome and the repetition rule); an answer
    /// settles the position as a win, draw or loss, whatever the path.
    /// Results stored in the table with an oracle are kept for later
    /// searches, as any others: [`Solver::clear`] after changing oracles
    /// if that matters.
    ///
    /// Table entries are kept between searches, keyed by the question and
    /// the root's side to move; results stay correct without
    /// [`Solver::clear`], only the node counts depend on what is kept.
    pub fn search<G: Game>(
        &mut self,
        game: &mut G,
        question: Question,
        request: &mut Request<'_, G>,
    ) -> Report<G::Move> {
        let (limits, oracle) = (request.get_limits(), request.get_oracle());
        let mut progress = |p: &Progress| emit_progress(request, p);
        self.run(game, question, limits, &mut progress, false, oracle)
            .0
    }

    /// [`search`](DfPn::search) and, when the question is answered,
    /// extracts the proof tree (for the root side if proven, for the
    /// opponent if disproven) from the table, re-solving any position the
    /// table has lost. Check it with [`verify`](crate::verify). The
    /// request's oracle is not consulted: a proof tree ends in positions
    /// that the game's rules decide. In a game whose positions repeat
    /// there is no strategy when the answer rests on endless play (a draw
    /// that the opponent can only hold by repeating): no finite proof tree
    /// shows it; nor when writing the tree visits more than 2^22 positions
    /// (writing it may backtrack there).
    pub fn prove<G: Game>(
        &mut self,
        game: &mut G,
        question: Question,
        request: &mut Request<'_, G>,
    ) -> (Report<G::Move>, Option<Strategy<G::Move>>) {
        let limits = request.get_limits();
        let mut progress = |p: &Progress| emit_progress(request, p);
        self.run(game, question, limits, &mut progress, true, None)
    }

    fn run<G: Game>(
        &mut self,
        game: &mut G,
        question: Question,
        limits: &Limits,
        progress: &mut dyn FnMut(&Progress),
        with_strategy: bool,
        oracle: Option<&dyn Oracle<G>>,
    ) -> (Report<G::Move>, Option<Strategy<G::Move>>) {
        let knobs = match self.config.proof.knobs::<G>() {
            Ok(knobs) => knobs,
            Err(missing) => return (Report::refused(question, missing), None),
        };
        let table = &mut self.table;
        let threats = knobs.threats.then_some(&mut self.threats);
        let interval = self.config.proof.get_progress_interval();
        let mut budget = Budget::new(limits, progress, interval, None);
        let (stores, replacements) = (table.stores, table.replacements);
        let mut searcher = Searcher {
            table,
            threats,
            // What a position's numbers mean depends on the question and
            // on which side the root's player is: both go into the key.
            salt: table::salt(question.needs_win(), game.side_to_move()),
            children: Vec::new(),
            hashes: Vec::new(),
            epsilon: self.config.epsilon,
            knobs,
            extracted: std::collections::HashMap::new(),
            root_proof: None,
            extract_steps: 0,
            oracle,
            game: core::marker::PhantomData,
        };
        let needs_win = question.needs_win();
        let (phi, delta) = match game.outcome() {
            Some(o) => solved(success(o, needs_win)),
            None => {
                searcher
                    .mid(game, needs_win, INFINITE, INFINITE, &mut budget)
                    .0
            }
        };
        let mut best = None;
        if phi == 0
            && let Some(i) = searcher.root_proof
        {
            let mut moves = G::Moves::default();
            game.generate(&mut moves);
            best = moves.as_slice().get(i).copied();
        }
        let report = Report {
            question,
            answer: answer_of(phi, delta, budget.stop),
            proof: phi,
            disproof: delta,
            best,
            stats: table_stats(
                budget.nodes,
                searcher.table.bytes(),
                searcher.table.used(),
                searcher.table.stores - stores,
                searcher.table.replacements - replacements,
            ),
            elapsed: budget.start.elapsed(),
        };
        let strategy = (with_strategy && (phi == 0 || delta == 0))
            .then(|| {
                let none = Limits::none();
                let mut quiet = |_: &Progress| {};
                let mut unlimited = Budget::new(&none, &mut quiet, u64::MAX, None);
                let claim = claim_of(game, question, phi == 0);
                let mut strategy = Strategy::new(claim);
                searcher
                    .extract(game, needs_win, claim.prover, &mut strategy, &mut unlimited)
                    .map(|_| strategy)
            })
            .flatten();
        (report, strategy)
    }
}

impl<G: Game> Solver<G> for DfPn {
    /// The value of `game` for its side to move by two
    /// [`search`](DfPn::search)es, which share the table (keys are salted
    /// by the question): "can it win?" and, if not, "can it draw?", within
    /// the request's limits, consulting the request's oracle below the
    /// root when it has one, their events sent to its sink, then
    /// [`Event::Done`](gametree_game::Event::Done). The [`Solution`] has
    /// no exact score and the first move of the proof as its line; its
    /// [`stats`](Solution::stats) count the nodes of both searches and
    /// the table figures of the last.
    ///
    /// ```
    /// use gametree_alphabeta::negamax_solve;
    /// use gametree_game::{Limits, Outcome, Request, Solver};
    /// use gametree_games_tictactoe::TicTacToe;
    /// use gametree_pns_conspiracy::{DfPn, DfPnConfig};
    ///
    /// // Every position with five stones or more, by plain negamax.
    /// let db = |p: &TicTacToe| {
    ///     (p.marks() >= 5)
    ///         .then(|| negamax_solve(&mut p.clone()).value)
    /// };
    /// let mut dfpn = DfPn::new(DfPnConfig::new())?;
    /// let mut board: TicTacToe = "X........".parse()?;
    /// let limits = Limits::none();
    /// let solution = dfpn.solve(&mut board, &mut Request::new(&limits).oracle(&db));
    /// assert_eq!(solution.outcome, Some(Outcome::Draw));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn solve(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Solution<G::Move> {
        solve_request(game, request, |game, q, request| {
            self.search(game, q, request)
        })
    }

    /// Forgets every table entry (and the threat-space search's table).
    /// Results stay correct without it: entries are kept between searches,
    /// keyed by the question and the root's side to move, and only the
    /// node counts depend on what is kept.
    fn clear(&mut self) {
        self.table.clear();
        self.threats.clear();
    }
}
