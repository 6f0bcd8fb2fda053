//! Conspiracy-number search (McAllester 1988; Schaeffer 1990).

use std::mem::size_of;
use std::time::Duration;

use gametree_game::{Game, MoveBuffer, Outcome, Request, Score, Solution, Solver, Stats};

use crate::common::{
    Budget, Error, INFINITE, Number, Progress, Stop, add, emit_progress, table_stats,
};

/// The values conspiracy-number search distinguishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueSet {
    /// Loss, draw and win (`Score::LOSS`, `Score::DRAW`, `Score::WIN`), for
    /// solving. A finished game scores its [`Outcome`]; an unexpanded
    /// position scores the sign of its evaluation.
    Outcomes,
    /// An explicit list of scores: a finished game `ply` plies below the
    /// root scores [`Score::terminal`]`(outcome, ply)`, any other leaf its
    /// [`Game::evaluate`]. Every leaf value must be in the list, which
    /// must be sorted, without duplicates and symmetric under negation.
    Scores(Vec<Score>),
}

impl ValueSet {
    /// The scores a depth-limited search to `depth` plies can produce when
    /// evaluations lie in `heuristic` (inclusive): those, and wins and losses
    /// in `0..=depth` plies, with the draw.
    #[must_use]
    pub fn depth_limited(heuristic: std::ops::RangeInclusive<i32>, depth: u32) -> ValueSet {
        let bound = heuristic.start().abs().max(heuristic.end().abs());
        let mut v: Vec<Score> = (-bound..=bound).map(Score::heuristic).collect();
        for p in 0..=depth {
            v.push(Score::win_in(p));
            v.push(Score::loss_in(p));
        }
        v.push(Score::DRAW);
        v.sort();
        v.dedup();
        ValueSet::Scores(v)
    }

    fn grid(&self) -> Vec<Score> {
        match self {
            ValueSet::Outcomes => vec![Score::LOSS, Score::DRAW, Score::WIN],
            ValueSet::Scores(v) => v.clone(),
        }
    }
}

/// Configuration of [`Conspiracy`], built by value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConspiracyConfig {
    threshold: Number,
    values: ValueSet,
    memory: Option<usize>,
    progress_interval: u64,
}

impl Default for ConspiracyConfig {
    fn default() -> Self {
        ConspiracyConfig::new()
    }
}

impl ConspiracyConfig {
    /// Threshold ∞ over [`ValueSet::Outcomes`]: solves the position.
    #[must_use]
    pub fn new() -> ConspiracyConfig {
        ConspiracyConfig {
            threshold: INFINITE,
            values: ValueSet::Outcomes,
            memory: None,
            progress_interval: 1 << 16,
        }
    }

    /// The conspiracy threshold CT: the search stops when only the root's
    /// current value has a conspiracy number below CT. [`INFINITE`] (the
    /// default) searches until the value is certain.
    #[must_use]
    pub fn threshold(mut self, threshold: Number) -> ConspiracyConfig {
        self.threshold = threshold.max(1);
        self
    }

    /// The values distinguished.
    #[must_use]
    pub fn values(mut self, values: ValueSet) -> ConspiracyConfig {
        self.values = values;
        self
    }

    /// Stops the search ([`Stop::Memory`]) when the tree would use more
    /// than `bytes` (default: no bound). The same option, name and unit as
    /// [`ProofConfig::memory`](crate::ProofConfig::memory); conspiracy
    /// search uses none of the game's knowledge, so it takes no
    /// [`ProofConfig`](crate::ProofConfig).
    #[must_use]
    pub fn memory(mut self, bytes: usize) -> ConspiracyConfig {
        self.memory = Some(bytes);
        self
    }

    /// Sends [`Event::Nodes`](gametree_game::Event::Nodes) to the
    /// request's event sink about every `nodes` nodes, counted as the
    /// report's [`stats.nodes`](gametree_game::Stats::nodes) counts them
    /// (expansions; default 65,536, 0 is read as 1).
    #[must_use]
    pub fn progress_interval(mut self, nodes: u64) -> ConspiracyConfig {
        self.progress_interval = nodes.max(1);
        self
    }

    /// The threshold.
    #[must_use]
    pub fn get_threshold(&self) -> Number {
        self.threshold
    }
    /// The values.
    #[must_use]
    pub fn get_values(&self) -> &ValueSet {
        &self.values
    }
    /// The memory bound, `None` for none.
    #[must_use]
    pub fn get_memory(&self) -> Option<usize> {
        self.memory
    }
    /// The progress interval.
    #[must_use]
    pub fn get_progress_interval(&self) -> u64 {
        self.progress_interval
    }
}

/// The result of a conspiracy-number search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConspiracyReport<M> {
    /// The root's minimax value in the searched tree (side-to-move view).
    pub value: Score,
    /// The least value whose conspiracy number is below the threshold.
    pub low: Score,
    /// The largest value whose conspiracy number is below the threshold.
    pub high: Score,
    /// The values distinguished, ascending.
    pub values: Vec<Score>,
    /// `up[i]`: how many leaves must change for the root's value to reach
    /// at least `values[i]` ([`INFINITE`] if impossible).
    pub up: Vec<Number>,
    /// `down[i]`: how many leaves must change for the root's value to fall
    /// to at most `values[i]`.
    pub down: Vec<Number>,
    /// A move to a child that has the root's value.
    pub best: Option<M>,
    /// `None` when the range closed (`low == value == high`); else the
    /// limit that stopped the search.
    pub stopped: Option<Stop>,
    /// What the search counted: [`Stats::nodes`], the positions expanded,
    /// and the tree's use: [`Stats::table_bytes`], the bytes it holds at
    /// the end; [`Stats::table_used`], its nodes; [`Stats::table_stores`],
    /// the nodes added to it. The other counters are zero.
    pub stats: Stats,
    /// Wall-clock time spent.
    pub elapsed: Duration,
}

impl<M> ConspiracyReport<M> {
    /// With [`ValueSet::Outcomes`] and threshold ∞: the game-theoretic value
    /// once the range has closed. With scores: the outcome of a closed,
    /// decisive or drawn-by-rule value is not implied, so `None` unless the
    /// value is a win or a loss.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.stopped.is_some() || self.low != self.high {
            return None;
        }
        if self.values.len() == 3 && self.values[1] == Score::DRAW {
            return Some(if self.value == Score::WIN {
                Outcome::Win
            } else if self.value == Score::LOSS {
                Outcome::Loss
            } else {
                Outcome::Draw
            });
        }
        self.value.outcome().filter(|o| *o != Outcome::Draw)
    }
}

/// Conspiracy-number search over an explicit tree, in the negamax form.
///
/// Every node carries, for each value `v` of the [`ValueSet`], `up(v)`: the
/// least number of leaves whose values must change for the node's minimax
/// value to become `≥ v`, and `down(v)` for `≤ v`. An unexpanded leaf of
/// value `x` has `up(v) = 1` for `v > x` and `down(v) = 1` for `v < x` (0
/// otherwise); a finished game, or a leaf at the depth limit, has `∞`
/// instead of 1. A node combines its children (values negated): `up(v) =
/// min down_c(−v)`, `down(v) = Σ up_c(−v)`.
///
/// The root's likely range is the set of values with a conspiracy number
/// below the threshold CT. While it holds more than the current value, the
/// search picks the range's end with the smaller conspiracy number, walks
/// down to a leaf that conspires for it (at a node to raise: the child with
/// the least count to fall; at a node to lower: the child with the least
/// positive count to rise), expands it and updates the ancestors.
///
/// With CT = ∞ the search ends exactly when every other value needs a
/// finished game to change: the root value is then the minimax value of the
/// tree whose leaves are finished games (or positions at
/// [`Limits::depth`](gametree_game::Limits::depth), evaluated and treated
/// as final).
///
/// Memory: an arena of nodes plus `2 × |values|` numbers per node, grown per
/// expansion (inherent to a best-first search); bounded by
/// [`ConspiracyConfig::memory`].
#[derive(Clone, Debug, Default)]
pub struct Conspiracy {
    config: ConspiracyConfig,
}

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    parent: u32,
    first: u32,
    len: u32,
    /// Did the move to this node pass the turn?
    flip: bool,
    value: u32,
}

struct Tree<M> {
    nodes: Vec<Node<M>>,
    numbers: Vec<Number>,
    k: usize,
    scratch: Vec<Number>,
}

impl<M: Copy> Tree<M> {
    fn up(&self, n: usize) -> &[Number] {
        &self.numbers[n * 2 * self.k..n * 2 * self.k + self.k]
    }
    fn down(&self, n: usize) -> &[Number] {
        &self.numbers[n * 2 * self.k + self.k..(n + 1) * 2 * self.k]
    }
    fn push_leaf(&mut self, mv: Option<M>, parent: u32, flip: bool, value: usize, certain: bool) {
        let c = if certain { INFINITE } else { 1 };
        self.nodes.push(Node {
            mv,
            parent,
            first: 0,
            len: 0,
            flip,
            value: value as u32,
        });
        let k = self.k;
        self.numbers
            .extend((0..k).map(|v| if v <= value { 0 } else { c }));
        self.numbers
            .extend((0..k).map(|v| if v >= value { 0 } else { c }));
    }
    fn update(&mut self, n: usize) {
        let node = self.nodes[n];
        if node.len == 0 {
            return;
        }
        let k = self.k;
        let children = node.first as usize..(node.first + node.len) as usize;
        // A child's value index seen from this node.
        let nodes = &self.nodes;
        let seen = |c: usize, v: usize| if nodes[c].flip { k - 1 - v } else { v };
        let value = children
            .clone()
            .map(|c| seen(c, nodes[c].value as usize))
            .max()
            .unwrap_or(0);
        // Ups then downs, in a buffer kept between updates (no allocation
        // per node once it has grown to `2k`).
        let mut fresh = core::mem::take(&mut self.scratch);
        fresh.clear();
        fresh.resize(2 * k, 0);
        for v in 0..k {
            let mut up = INFINITE;
            let mut down = 0;
            for c in children.clone() {
                let cv = seen(c, v);
                if self.nodes[c].flip {
                    up = up.min(self.down(c)[cv]);
                    down = add(down, self.up(c)[cv]);
                } else {
                    up = up.min(self.up(c)[cv]);
                    down = add(down, self.down(c)[cv]);
                }
            }
            fresh[v] = up;
            fresh[k + v] = down;
        }
        self.nodes[n].value = value as u32;
        self.numbers[n * 2 * k..(n + 1) * 2 * k].copy_from_slice(&fresh);
        self.scratch = fresh;
    }
    fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node<M>>() + self.numbers.capacity() * size_of::<Number>()
    }
}

impl Conspiracy {
    /// A searcher with the given configuration.
    ///
    /// # Errors
    ///
    /// [`Error::BadValueSet`] when the value set is empty, unsorted, has
    /// duplicates or is not symmetric under negation.
    pub fn new(config: ConspiracyConfig) -> Result<Conspiracy, Error> {
        let grid = config.values.grid();
        let k = grid.len();
        let symmetric = (0..k).all(|i| grid[i] == -grid[k - 1 - i]);
        if k == 0 || !grid.windows(2).all(|w| w[0] < w[1]) || !symmetric {
            return Err(Error::BadValueSet);
        }
        Ok(Conspiracy { config })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &ConspiracyConfig {
        &self.config
    }

    /// Searches `game` (restored afterwards) within the request's limits:
    /// nodes (expansions), time, cancel, and `depth`, which makes positions
    /// that many plies below the root final leaves valued by their
    /// evaluation. Sends [`Event::Nodes`](gametree_game::Event::Nodes) to
    /// the request's sink every
    /// [progress interval](ConspiracyConfig::progress_interval). The
    /// request's oracle is ignored (conspiracy search consults none), and
    /// so is what it asks to find: the report holds the root's value and
    /// its range.
    ///
    /// # Errors
    ///
    /// [`Error::ValueNotInSet`] when a leaf's value is not in the value set.
    pub fn search<G: Game>(
        &mut self,
        game: &mut G,
        request: &mut Request<'_, G>,
    ) -> Result<ConspiracyReport<G::Move>, Error> {
        let limits = request.get_limits();
        let mut progress = |p: &Progress| emit_progress(request, p);
        let progress: &mut dyn FnMut(&Progress) = &mut progress;
        let grid = self.config.values.grid();
        let k = grid.len();
        let outcomes = self.config.values == ValueSet::Outcomes;
        let index = |s: Score| grid.binary_search(&s).map_err(|_| Error::ValueNotInSet(s));
        // The value of a leaf and whether it is final.
        let leaf = |game: &G, ply: u32, repeated: bool| -> Result<(usize, bool), Error> {
            let at_limit = limits.depth.is_some_and(|d| ply >= d);
            let over = if repeated {
                Some(Outcome::Draw)
            } else {
                game.outcome()
            };
            if let Some(o) = over {
                let s = if outcomes {
                    Score::terminal(o, 0)
                } else {
                    Score::terminal(o, ply)
                };
                let s = if outcomes && o != Outcome::Draw {
                    if o == Outcome::Win {
                        Score::WIN
                    } else {
                        Score::LOSS
                    }
                } else {
                    s
                };
                return Ok((index(s)?, true));
            }
            let e = game.evaluate();
            let s = if outcomes {
                match e.get().signum() {
                    1 => Score::WIN,
                    -1 => Score::LOSS,
                    _ => Score::DRAW,
                }
            } else {
                e
            };
            Ok((index(s)?, at_limit))
        };

        let mut budget = Budget::new(
            limits,
            progress,
            self.config.progress_interval,
            self.config.memory,
        );
        let mut tree: Tree<G::Move> = Tree {
            nodes: Vec::new(),
            numbers: Vec::new(),
            k,
            scratch: Vec::new(),
        };
        budget.check_knowledge(game);
        let (v0, c0) = leaf(game, 0, false)?;
        tree.push_leaf(None, u32::MAX, false, v0, c0);
        let ct = self.config.threshold;
        let mut undos: Vec<G::Undo> = Vec::new();
        let mut hashes: Vec<u64> = Vec::new();
        let mut result = Ok(());
        let range = |tree: &Tree<G::Move>| {
            let v = tree.nodes[0].value as usize;
            let high = (v..k)
                .take_while(|&i| tree.up(0)[i] < ct)
                .last()
                .unwrap_or(v);
            let low = (0..=v)
                .rev()
                .take_while(|&i| tree.down(0)[i] < ct)
                .last()
                .unwrap_or(v);
            (low, v, high)
        };
        loop {
            let (low, v, high) = range(&tree);
            if low == high {
                break;
            }
            // Raise towards `high` or lower towards `low`, whichever is cheaper.
            let mut raise = high > v && (low == v || tree.up(0)[high] <= tree.down(0)[low]);
            let mut target = if raise { high } else { low };
            let mut cur = 0usize;
            hashes.push(game.hash());
            while tree.nodes[cur].len > 0 {
                let n = tree.nodes[cur];
                let children = n.first as usize..(n.first + n.len) as usize;
                // What raising (lowering) this node asks of a child: the
                // opposite, at the mirrored value, when the move passed the
                // turn; the same otherwise.
                let ask = |c: usize| {
                    if tree.nodes[c].flip {
                        (!raise, k - 1 - target)
                    } else {
                        (raise, target)
                    }
                };
                let count = |c: usize| {
                    let (r, t) = ask(c);
                    if r { tree.up(c)[t] } else { tree.down(c)[t] }
                };
                let c = if raise {
                    children.min_by_key(|&c| count(c))
                } else {
                    children.filter(|&c| count(c) > 0).min_by_key(|&c| count(c))
                }
                .expect("a node with a finite positive count has a conspiring child");
                let mv = tree.nodes[c].mv.expect("children carry their move");
                undos.push(game.make(mv));
                hashes.push(game.hash());
                (raise, target) = ask(c);
                cur = c;
            }
            if !budget.expand(tree.bytes(), tree.nodes.len() as u64) {
                hashes.pop();
                while cur != 0 {
                    let mv = tree.nodes[cur].mv.expect("move");
                    game.unmake(mv, undos.pop().expect("undo"));
                    hashes.pop();
                    cur = tree.nodes[cur].parent as usize;
                }
                break;
            }
            // Expand the leaf.
            let ply = undos.len() as u32;
            let mut moves = G::Moves::default();
            game.generate(&mut moves);
            if moves.is_empty() {
                // No moves but not over: a draw, final.
                let d = match index(Score::DRAW) {
                    Ok(d) => d,
                    Err(e) => {
                        result = Err(e);
                        0
                    }
                };
                let k2 = 2 * k;
                tree.nodes[cur].value = d as u32;
                for v in 0..k {
                    tree.numbers[cur * k2 + v] = if v <= d { 0 } else { INFINITE };
                    tree.numbers[cur * k2 + k + v] = if v >= d { 0 } else { INFINITE };
                }
            } else {
                let first = tree.nodes.len() as u32;
                let side = game.side_to_move();
                for &mv in moves.as_slice() {
                    let undo = game.make(mv);
                    let flip = game.side_to_move() != side;
                    let repeated = hashes.contains(&game.hash());
                    budget.check_knowledge(game);
                    let l = leaf(game, ply + 1, repeated);
                    game.unmake(mv, undo);
                    match l {
                        Ok((value, certain)) => {
                            tree.push_leaf(Some(mv), cur as u32, flip, value, certain)
                        }
                        Err(e) => {
                            result = Err(e);
                            tree.push_leaf(Some(mv), cur as u32, flip, 0, true);
                        }
                    }
                }
                tree.nodes[cur].first = first;
                tree.nodes[cur].len = moves.len() as u32;
            }
            // Update every ancestor, back to the root.
            loop {
                tree.update(cur);
                hashes.pop();
                if cur == 0 {
                    break;
                }
                let mv = tree.nodes[cur].mv.expect("move");
                game.unmake(mv, undos.pop().expect("undo"));
                cur = tree.nodes[cur].parent as usize;
            }
            if result.is_err() {
                break;
            }
        }
        result?;
        let (low, v, high) = range(&tree);
        let best = best_child(&tree, k, v, low == high);
        Ok(ConspiracyReport {
            value: grid[v],
            low: grid[low],
            high: grid[high],
            up: tree.up(0).to_vec(),
            down: tree.down(0).to_vec(),
            values: grid,
            best,
            stopped: if low == high {
                None
            } else {
                Some(budget.stop.unwrap_or(Stop::Nodes))
            },
            stats: table_stats(
                budget.nodes,
                tree.bytes(),
                tree.nodes.len(),
                tree.nodes.len() as u64,
                0,
            ),
            elapsed: budget.start.elapsed(),
        })
    }
}

/// The move to a root child that has the root's value `v` (an index into
/// the `k` values) and **cannot fall below it**: no set of leaves, however
/// large, changes it to less than `v` seen from the root (its conspiracy
/// number for that is infinite). A child merely showing `v` in the tree
/// may be an unexpanded leaf whose value is a guess. Once the root's range
/// has `closed` such a child exists (`None` if not: no other move is
/// offered in its place); before, the first child showing `v` is given.
fn best_child<M: Copy>(tree: &Tree<M>, k: usize, v: usize, closed: bool) -> Option<M> {
    let root = tree.nodes[0];
    let children = root.first as usize..(root.first + root.len) as usize;
    // Seen from the root: the child's value, and how many leaves must
    // change for it to fall to at most `t`.
    let seen = |c: usize| {
        let child = tree.nodes[c];
        if child.flip {
            k - 1 - child.value as usize
        } else {
            child.value as usize
        }
    };
    let can_fall_to = |c: usize, t: usize| {
        if tree.nodes[c].flip {
            tree.up(c)[k - 1 - t]
        } else {
            tree.down(c)[t]
        }
    };
    let certain = |c: usize| v == 0 || can_fall_to(c, v - 1) == INFINITE;
    let mut children = children;
    let found = if closed {
        children.find(|&c| seen(c) == v && certain(c))
    } else {
        children.find(|&c| seen(c) == v)
    };
    found.and_then(|c| tree.nodes[c].mv)
}

impl<G: Game> Solver<G> for Conspiracy {
    /// [`Conspiracy::search`] as a [`Solution`]: the outcome once the range
    /// has closed (threshold ∞ over [`ValueSet::Outcomes`] solves the
    /// position), with the move to a child of the root's value and the
    /// search's [`stats`](Solution::stats); its events go to the request's
    /// sink, then [`Event::Done`](gametree_game::Event::Done). A search
    /// error (a leaf value outside the value set) reads as no outcome.
    fn solve(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Solution<G::Move> {
        let start = std::time::Instant::now();
        if let Some(o) = game.outcome() {
            return request.finish(Solution::terminal(o));
        }
        let solution = match self.search(game, request) {
            Ok(r) => {
                let outcome = r.outcome();
                Solution {
                    outcome,
                    score: None,
                    best: r.best,
                    line: r.best.into_iter().collect(),
                    stopped: if outcome.is_some() { None } else { r.stopped },
                    elapsed: start.elapsed(),
                    stats: r.stats,
                }
            }
            Err(_) => Solution {
                elapsed: start.elapsed(),
                ..Solution::default()
            },
        };
        request.finish(solution)
    }
}
