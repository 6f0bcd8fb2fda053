//! Best-first proof-number search (Allis 1994) over an explicit tree, and
//! PN² (Breuker), in the negamax φ/δ form.

use std::mem::size_of;

use gametree_game::{Game, Limits, MoveBuffer, Outcome, Request, Solution, Solver, Use};
use gametree_threats::ThreatSearch;

use crate::common::Error;
use crate::common::{
    Budget, INFINITE, Number, Progress, Question, Report, add, answer_of, as_parent,
    child_needs_win, emit_progress, settled_by_bounds, solve_request, solved, success, table_stats,
};
use crate::options::{Knobs, ProofConfig};
use crate::proof::{Claim, Strategy};

/// The initial `(φ, δ)` of an unexpanded position that is not over: solved
/// when the game's win bounds settle it (and `knobs.bounds` is on), else
/// the game's [`Game::proof_hints`] when it declares them and
/// `knobs.hints` is on, else `(1, 1)`.
#[inline]
pub(crate) fn initial<G: Game>(game: &G, needs_win: bool, knobs: Knobs) -> (Number, Number) {
    if knobs.bounds
        && let Some(success) = settled_by_bounds(game, needs_win)
    {
        return solved(success);
    }
    if knobs.hints && G::KNOWLEDGE.has_proof_hints() {
        let (p, d) = game.proof_hints();
        (Number::from(p.max(1)), Number::from(d.max(1)))
    } else {
        (1, 1)
    }
}

/// The second level of PN²: how many expansions the inner search may spend
/// on one leaf of the outer tree.
///
/// Breuker sets the inner budget from the size of the outer tree (a
/// logistic function of it); here it is `fraction × outer tree size`,
/// clamped to `[min, max]`, which has the same effect of growing the inner
/// searches as the outer tree grows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SecondLevel {
    /// Inner budget as a fraction of the outer tree's node count.
    pub fraction: f64,
    /// The least inner budget.
    pub min: u64,
    /// The largest inner budget.
    pub max: u64,
}

impl Default for SecondLevel {
    fn default() -> Self {
        SecondLevel {
            fraction: 1.0,
            min: 16,
            max: 1 << 20,
        }
    }
}

/// Configuration of [`Pns`], built by value: the options every
/// proof-number search shares ([`ProofConfig`]) and PN²'s second level.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PnsConfig {
    proof: ProofConfig,
    second_level: Option<SecondLevel>,
}

impl PnsConfig {
    /// Plain best-first PNS with [`ProofConfig::new`]: the game's
    /// knowledge where it has it, no memory bound.
    #[must_use]
    pub fn new() -> PnsConfig {
        PnsConfig::default()
    }

    /// The options every proof-number search shares: memory bound,
    /// progress interval, knowledge and threat-space search.
    #[must_use]
    pub fn proof(mut self, proof: ProofConfig) -> PnsConfig {
        self.proof = proof;
        self
    }

    /// PN² with the given inner budget, or plain PNS (`None`).
    #[must_use]
    pub fn second_level(mut self, second: Option<SecondLevel>) -> PnsConfig {
        self.second_level = second;
        self
    }

    /// The shared options.
    #[must_use]
    pub fn get_proof(&self) -> ProofConfig {
        self.proof
    }
    /// The second level, if PN².
    #[must_use]
    pub fn get_second_level(&self) -> Option<SecondLevel> {
        self.second_level
    }
}

/// Best-first proof-number search over an explicit tree (Allis), or PN²
/// when configured with a [`SecondLevel`].
///
/// Each node holds its proof number φ and disproof number δ from the view
/// of its own side to move (the negamax form): `φ(n) = min δ(child)`,
/// `δ(n) = Σ φ(child)`. The search repeatedly walks down to the
/// most-proving node (a child whose δ equals its parent's φ), expands it,
/// and updates the ancestors, stopping the update early where a node's
/// numbers do not change and selecting again from there.
///
/// **Memory.** The tree is an arena (`Vec`) of nodes with contiguous
/// children: every expansion appends one node per legal move. This growth is
/// inherent to best-first PNS (the whole tree is the search's state); the
/// arena grows geometrically, so there is no allocation per node otherwise,
/// and [`ProofConfig::memory`](crate::ProofConfig::memory) bounds it. PN² keeps a second arena for
/// the inner searches and reuses it.
///
/// **Cycles.** A child whose position already lies on the path from the root
/// is scored as a draw by repetition (a solved leaf, valid for that path
/// only, which is what a tree stores).
#[derive(Clone, Debug, Default)]
pub struct Pns {
    config: PnsConfig,
}

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    parent: u32,
    first: u32,
    len: u32,
    /// Did the move to this node pass the turn?
    flip: bool,
    phi: Number,
    delta: Number,
}

struct Engine<G: Game> {
    tree: Vec<Node<G::Move>>,
    undos: Vec<G::Undo>,
    /// Threat-space search for the new leaves (not the root), if on.
    threats: Option<ThreatSearch>,
}

impl<G: Game> Engine<G> {
    fn new() -> Engine<G> {
        Engine {
            tree: Vec::new(),
            undos: Vec::new(),
            threats: None,
        }
    }

    /// An engine whose new leaves are also solved by threat-space search
    /// when `knobs` say so.
    fn with_threats(config: &ProofConfig, knobs: Knobs) -> Engine<G> {
        let mut e = Engine::new();
        if knobs.threats {
            e.threats = ThreatSearch::new(config.get_threat_limits()).ok();
        }
        e
    }

    /// The tree's arena and the threat table, if any.
    fn bytes(&self) -> usize {
        self.tree.capacity() * size_of::<Node<G::Move>>()
            + self.threats.as_ref().map_or(0, ThreatSearch::bytes)
    }

    /// Searches from `game` until its root is solved, the budget stops it,
    /// or `max_expansions` expansions were made. `game` is restored.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        game: &mut G,
        needs_win: bool,
        budget: &mut Budget<'_>,
        hashes: &mut Vec<u64>,
        knobs: Knobs,
        mut second: Option<(&mut Engine<G>, SecondLevel)>,
        max_expansions: u64,
        extra_bytes: usize,
    ) {
        self.tree.clear();
        self.undos.clear();
        budget.check_knowledge(game);
        let (phi, delta) = match game.outcome() {
            Some(o) => solved(success(o, needs_win)),
            None => initial(game, needs_win, knobs),
        };
        self.tree.push(Node {
            mv: None,
            parent: u32::MAX,
            first: 0,
            len: 0,
            flip: false,
            phi,
            delta,
        });
        // What the side to move at `cur` needs, along the path.
        let mut path_needs: Vec<bool> = vec![needs_win];
        hashes.push(game.hash());
        let mut cur = 0usize;
        let mut expansions = 0u64;
        while self.tree[0].phi != 0 && self.tree[0].delta != 0 && expansions < max_expansions {
            // Walk down to the most-proving node.
            while self.tree[cur].len > 0 {
                let n = self.tree[cur];
                let children = n.first as usize..(n.first + n.len) as usize;
                let proves = |c: usize| {
                    let c = self.tree[c];
                    as_parent(c.flip, (c.phi, c.delta)).0
                };
                let c = children
                    .clone()
                    .find(|&c| proves(c) == n.phi)
                    .unwrap_or_else(|| {
                        children
                            .min_by_key(|&c| proves(c))
                            .unwrap_or(n.first as usize)
                    });
                let mv = self.tree[c].mv.expect("children carry their move");
                self.undos.push(game.make(mv));
                hashes.push(game.hash());
                let above = *path_needs.last().expect("the root is on the path");
                path_needs.push(child_needs_win(above, self.tree[c].flip));
                cur = c;
            }
            let second_bytes = second.as_ref().map_or(0, |(e, _)| e.bytes());
            if !budget.expand(
                self.bytes() + second_bytes + extra_bytes,
                self.tree.len() as u64,
            ) {
                break;
            }
            expansions += 1;
            let node_needs_win = *path_needs.last().expect("the root is on the path");
            match second.as_mut() {
                None => self.expand(cur, game, node_needs_win, hashes, knobs, budget),
                Some((inner, params)) => {
                    let limit = ((self.tree.len() as f64 * params.fraction) as u64)
                        .clamp(params.min.max(1), params.max.max(1));
                    let outer_bytes = self.bytes();
                    inner.run(
                        game,
                        node_needs_win,
                        budget,
                        hashes,
                        knobs,
                        None,
                        limit,
                        outer_bytes,
                    );
                    // The inner root's children become this node's children.
                    let root = inner.tree[0];
                    let first = self.tree.len() as u32;
                    for c in root.first..root.first + root.len {
                        let child = inner.tree[c as usize];
                        self.tree.push(Node {
                            mv: child.mv,
                            parent: cur as u32,
                            first: 0,
                            len: 0,
                            flip: child.flip,
                            phi: child.phi,
                            delta: child.delta,
                        });
                    }
                    self.tree[cur].first = first;
                    self.tree[cur].len = root.len;
                    if root.len == 0 {
                        // Not expanded (budget) or no moves: take the root's numbers.
                        self.tree[cur].phi = root.phi;
                        self.tree[cur].delta = root.delta;
                    }
                }
            }
            // Update the ancestors while their numbers change.
            loop {
                let changed = self.update(cur);
                if !changed || cur == 0 {
                    break;
                }
                let mv = self.tree[cur].mv.expect("non-root nodes carry their move");
                let undo = self.undos.pop().expect("path and undo stack agree");
                game.unmake(mv, undo);
                hashes.pop();
                path_needs.pop();
                cur = self.tree[cur].parent as usize;
            }
        }
        while cur != 0 {
            let mv = self.tree[cur].mv.expect("non-root nodes carry their move");
            let undo = self.undos.pop().expect("path and undo stack agree");
            game.unmake(mv, undo);
            hashes.pop();
            cur = self.tree[cur].parent as usize;
        }
        hashes.pop();
    }

    /// Generates the children of `cur` and gives each its initial numbers.
    fn expand(
        &mut self,
        cur: usize,
        game: &mut G,
        needs_win: bool,
        hashes: &[u64],
        knobs: Knobs,
        budget: &mut Budget<'_>,
    ) {
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        if moves.is_empty() {
            // A game without moves should have an outcome; score it a draw.
            let (phi, delta) = solved(success(Outcome::Draw, needs_win));
            self.tree[cur].phi = phi;
            self.tree[cur].delta = delta;
            return;
        }
        let first = self.tree.len() as u32;
        let side = game.side_to_move();
        for &mv in moves.as_slice() {
            let undo = game.make(mv);
            budget.check_knowledge(game);
            let flip = game.side_to_move() != side;
            let mut numbers = child_numbers(game, child_needs_win(needs_win, flip), hashes, knobs);
            if numbers.0 != 0
                && numbers.1 != 0
                && let Some(t) = &mut self.threats
                && t.find_win(game).is_some()
            {
                // Its side to move wins, whatever it needs.
                numbers = solved(true);
            }
            let (phi, delta) = numbers;
            game.unmake(mv, undo);
            self.tree.push(Node {
                mv: Some(mv),
                parent: cur as u32,
                first: 0,
                len: 0,
                flip,
                phi,
                delta,
            });
        }
        self.tree[cur].first = first;
        self.tree[cur].len = moves.len() as u32;
    }

    /// Recomputes `(φ, δ)` of an expanded node from its children; returns
    /// whether they changed.
    fn update(&mut self, cur: usize) -> bool {
        let n = self.tree[cur];
        if n.len == 0 {
            return true;
        }
        let mut phi = INFINITE;
        let mut delta = 0;
        for c in &self.tree[n.first as usize..(n.first + n.len) as usize] {
            let (p, d) = as_parent(c.flip, (c.phi, c.delta));
            phi = phi.min(p);
            delta = add(delta, d);
        }
        self.tree[cur].phi = phi;
        self.tree[cur].delta = delta;
        phi != n.phi || delta != n.delta
    }
}

/// The initial numbers of a position just reached: solved if the game is
/// over or the position repeats one on `hashes`, else the hints.
pub(crate) fn child_numbers<G: Game>(
    game: &G,
    needs_win: bool,
    hashes: &[u64],
    knobs: Knobs,
) -> (Number, Number) {
    if let Some(o) = game.outcome() {
        solved(success(o, needs_win))
    } else if hashes.contains(&game.hash()) {
        solved(success(Outcome::Draw, needs_win))
    } else {
        initial(game, needs_win, knobs)
    }
}

/// The claim a solved root answers: the root side's if proven, else the
/// opponent's complementary one.
pub(crate) fn claim_of<G: Game>(game: &G, question: Question, proven: bool) -> Claim {
    let stm = game.side_to_move();
    if proven {
        Claim {
            prover: stm,
            at_least: question.target(),
        }
    } else {
        Claim {
            prover: stm.opponent(),
            at_least: if question.needs_win() {
                Outcome::Draw
            } else {
                Outcome::Win
            },
        }
    }
}

impl Pns {
    /// A searcher with the given configuration.
    ///
    /// # Errors
    ///
    /// [`Error::TooSmall`] for a memory bound that cannot hold one node;
    /// [`Error::Threats`] for threat-search limits that
    /// [`ThreatConfig::check`](gametree_threats::ThreatConfig::check) refuses (when threat-space search is on).
    pub fn new(config: PnsConfig) -> Result<Pns, Error> {
        let proof = config.proof;
        if proof.get_threats() != Use::Off {
            proof.get_threat_limits().check().map_err(Error::Threats)?;
        }
        let min = size_of::<Node<()>>();
        match proof.get_memory() {
            Some(bytes) if bytes < min => Err(Error::TooSmall { bytes, min }),
            _ => Ok(Pns { config }),
        }
    }

    /// PN² with the default [`SecondLevel`] and no memory bound.
    #[must_use]
    pub fn pn2() -> Pns {
        Pns {
            config: PnsConfig::new().second_level(Some(SecondLevel::default())),
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &PnsConfig {
        &self.config
    }

    /// Answers `question` about `game` (restored afterwards) within the
    /// request's limits (nodes = expansions, time, cancel; the depth limit
    /// is ignored), sending [`Event::Nodes`](gametree_game::Event::Nodes)
    /// to the request's sink every
    /// [progress interval](crate::ProofConfig::progress_interval).
    /// The request's oracle is ignored: PNS and PN² consult none (df-pn
    /// does, [`DfPn::search`](crate::DfPn::search)); what to find is
    /// always the answer to `question`.
    pub fn search<G: Game>(
        &mut self,
        game: &mut G,
        question: Question,
        request: &mut Request<'_, G>,
    ) -> Report<G::Move> {
        let limits = request.get_limits();
        self.run(game, question, limits, &mut |p| emit_progress(request, p))
            .0
    }

    /// [`search`](Pns::search) and, when the question is answered, extracts
    /// the proof tree of the answer: a [`Strategy`] for the root side if
    /// proven, for the opponent (of the complementary claim) if disproven.
    /// Check it with [`verify`](crate::verify).
    pub fn prove<G: Game>(
        &mut self,
        game: &mut G,
        question: Question,
        request: &mut Request<'_, G>,
    ) -> (Report<G::Move>, Option<Strategy<G::Move>>) {
        let limits = request.get_limits();
        let (report, engine, knobs) =
            self.run(game, question, limits, &mut |p| emit_progress(request, p));
        if let Some(knobs) = knobs
            && report.phi_or_delta_zero()
        {
            let claim = claim_of(game, question, report.proof == 0);
            let mut strategy = Strategy::new(claim);
            let mut hashes = Vec::new();
            extract(
                &engine,
                0,
                game,
                question.needs_win(),
                &mut strategy,
                &mut hashes,
                knobs,
            );
            (report, Some(strategy))
        } else {
            (report, None)
        }
    }

    fn run<G: Game>(
        &self,
        game: &mut G,
        question: Question,
        limits: &Limits,
        progress: &mut dyn FnMut(&Progress),
    ) -> (Report<G::Move>, Engine<G>, Option<Knobs>) {
        let proof = &self.config.proof;
        let knobs = match proof.knobs::<G>() {
            Ok(knobs) => knobs,
            Err(missing) => return (Report::refused(question, missing), Engine::new(), None),
        };
        let mut budget = Budget::new(
            limits,
            progress,
            proof.get_progress_interval(),
            proof.get_memory(),
        );
        // New leaves are made by `expand`: the outer tree's in PNS, the
        // inner one's in PN² (whose outer tree takes the inner root's
        // children). One threat search there, its table kept across the
        // inner searches.
        let (mut engine, mut inner) = if self.config.second_level.is_some() {
            (Engine::new(), Engine::with_threats(proof, knobs))
        } else {
            (Engine::with_threats(proof, knobs), Engine::new())
        };
        let mut hashes = Vec::new();
        let second = self.config.second_level.map(|p| (&mut inner, p));
        engine.run(
            game,
            question.needs_win(),
            &mut budget,
            &mut hashes,
            knobs,
            second,
            u64::MAX,
            0,
        );
        let root = engine.tree[0];
        let best = (root.phi == 0 && root.len > 0)
            .then(|| {
                engine.tree[root.first as usize..(root.first + root.len) as usize]
                    .iter()
                    .find(|c| as_parent(c.flip, (c.phi, c.delta)).0 == 0)
                    .and_then(|c| c.mv)
            })
            .flatten();
        let report = Report {
            question,
            answer: answer_of(root.phi, root.delta, budget.stop),
            proof: root.phi,
            disproof: root.delta,
            best,
            stats: table_stats(
                budget.nodes,
                engine.bytes() + inner.bytes(),
                engine.tree.len(),
                engine.tree.len() as u64,
                0,
            ),
            elapsed: budget.start.elapsed(),
        };
        (report, engine, Some(knobs))
    }
}

impl<M> Report<M> {
    fn phi_or_delta_zero(&self) -> bool {
        self.proof == 0 || self.disproof == 0
    }
}

/// Walks the solved tree below `node` (the position `game` is in) and writes
/// the proof tree into `strategy`; returns the strategy node. A solved node
/// without a subtree (solved at creation by PN²'s inner search) is solved
/// again by a plain PNS from that position.
fn extract<G: Game>(
    engine: &Engine<G>,
    node: usize,
    game: &mut G,
    needs_win: bool,
    strategy: &mut Strategy<G::Move>,
    hashes: &mut Vec<u64>,
    knobs: Knobs,
) -> u32 {
    let n = engine.tree[node];
    if game.outcome().is_none() && knobs.bounds && settled_by_bounds(game, needs_win).is_some() {
        // Solved by the game's win bounds: a leaf `verify_with` judges.
        return strategy.add_bound_leaf();
    }
    if game.outcome().is_some() {
        return strategy.add_node(&[]);
    }
    if n.len == 0 {
        // Solved without a subtree here (by PN²'s inner search, or by
        // threat-space search): re-solve this position alone, expanding
        // every position (no threat-space search).
        let limits = Limits::none();
        let mut progress = |_: &Progress| {};
        let mut budget = Budget::new(&limits, &mut progress, u64::MAX, None);
        let mut fresh = Engine::new();
        fresh.run(
            game,
            needs_win,
            &mut budget,
            hashes,
            Knobs {
                hints: false,
                threats: false,
                ..knobs
            },
            None,
            u64::MAX,
            0,
        );
        if fresh.tree[0].len == 0 {
            // A repetition or a position without moves: a leaf the verifier judges.
            return strategy.add_node(&[]);
        }
        return extract(&fresh, 0, game, needs_win, strategy, hashes, knobs);
    }
    let children = &engine.tree[n.first as usize..(n.first + n.len) as usize];
    let picked: Vec<(G::Move, usize)> = if n.phi == 0 {
        children
            .iter()
            .enumerate()
            .find(|(_, c)| as_parent(c.flip, (c.phi, c.delta)).0 == 0)
            .map(|(i, c)| (c.mv.expect("child move"), n.first as usize + i))
            .into_iter()
            .collect()
    } else {
        children
            .iter()
            .enumerate()
            .map(|(i, c)| (c.mv.expect("child move"), n.first as usize + i))
            .collect()
    };
    let moves: Vec<G::Move> = picked.iter().map(|p| p.0).collect();
    let me = strategy.add_node(&moves);
    hashes.push(game.hash());
    for (i, &(mv, child)) in picked.iter().enumerate() {
        let undo = game.make(mv);
        let flip = engine.tree[child].flip;
        let c = extract(
            engine,
            child,
            game,
            child_needs_win(needs_win, flip),
            strategy,
            hashes,
            knobs,
        );
        game.unmake(mv, undo);
        strategy.set_child(me, i, c);
    }
    hashes.pop();
    me
}

impl<G: Game> Solver<G> for Pns {
    /// The value of `game` for its side to move by two
    /// [`search`](Pns::search)es: "can it win?" and, if not, "can it
    /// draw?", within the request's limits, their events sent to its sink
    /// (the request's oracle is ignored: PNS consults none), then
    /// [`Event::Done`](gametree_game::Event::Done). The [`Solution`] has
    /// no exact score (proof-number search finds no distances) and the
    /// first move of the proof as its line; its
    /// [`stats`](Solution::stats) count the nodes of both searches and
    /// the tree of the last.
    fn solve(&mut self, game: &mut G, request: &mut Request<'_, G>) -> Solution<G::Move> {
        solve_request(game, request, |game, q, request| {
            self.search(game, q, request)
        })
    }
}
