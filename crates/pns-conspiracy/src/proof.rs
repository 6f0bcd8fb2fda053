//! Proof trees (strategies) and the independent verifier that replays them
//! against the game.

use std::error::Error;
use std::fmt;

use gametree_game::{Game, MoveBuffer, Outcome, Player};

/// What a [`Strategy`] claims: `prover` can force a result of at least
/// `at_least` (from the prover's point of view).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    /// The player the strategy is for.
    pub prover: Player,
    /// The least result the prover is claimed to force (`Win` or `Draw`).
    pub at_least: Outcome,
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} player forces at least a {}",
            self.prover, self.at_least
        )
    }
}

/// A proof tree: a strategy for [`Claim::prover`] that gives one move at
/// each position where the prover is to move and answers every legal move
/// of the opponent, down to finished games.
///
/// Node `0` is the root. A node's edges are `(move, child node)`; a node
/// without edges stands for a finished game. Strategies are produced by
/// [`Pns::prove`](crate::Pns::prove) and [`DfPn::prove`](crate::DfPn::prove)
/// and checked by [`verify`], which trusts nothing but the [`Game`] rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy<M> {
    claim: Claim,
    nodes: Vec<(u32, u32)>,
    edges: Vec<(M, u32)>,
    /// Per node: a leaf where the game goes on but its win bounds settle
    /// the claim ([`Strategy::is_bound_leaf`]).
    bound: Vec<bool>,
}

impl<M: Copy> Strategy<M> {
    pub(crate) fn new(claim: Claim) -> Strategy<M> {
        Strategy {
            claim,
            nodes: Vec::new(),
            edges: Vec::new(),
            bound: Vec::new(),
        }
    }

    /// Adds a leaf where the game goes on but the game's win bounds
    /// ([`Game::cannot_win`], [`Game::cannot_draw`]) prove the claim, and
    /// returns its index.
    pub(crate) fn add_bound_leaf(&mut self) -> u32 {
        let index = self.add_node(&[]);
        self.bound[index as usize] = true;
        index
    }

    /// Adds a node with the given moves (children not yet known) and returns
    /// its index.
    pub(crate) fn add_node(&mut self, moves: &[M]) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes
            .push((self.edges.len() as u32, moves.len() as u32));
        self.edges.extend(moves.iter().map(|&m| (m, u32::MAX)));
        self.bound.push(false);
        index
    }

    /// The strategy's size, for [`Strategy::rollback`].
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.nodes.len(), self.edges.len())
    }

    /// Forgets every node added since `mark` was taken.
    pub(crate) fn rollback(&mut self, (nodes, edges): (usize, usize)) {
        self.nodes.truncate(nodes);
        self.bound.truncate(nodes);
        self.edges.truncate(edges);
    }

    /// Points edge `i` of `node` at `child`.
    pub(crate) fn set_child(&mut self, node: u32, i: usize, child: u32) {
        let (start, _) = self.nodes[node as usize];
        self.edges[start as usize + i].1 = child;
    }

    /// What the strategy claims.
    #[must_use]
    pub fn claim(&self) -> Claim {
        self.claim
    }

    /// The number of positions in the proof tree.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Is the proof tree empty (no root)?
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Is `node` a leaf where the game goes on and the claim rests on the
    /// game's win bounds ([`Game::cannot_draw`] or [`Game::cannot_win`]:
    /// the prover's opponent loses, or cannot win, from there)? Only [`verify_with`] and [`Trust::WinBounds`]
    /// accept such leaves.
    #[must_use]
    pub fn is_bound_leaf(&self, node: u32) -> bool {
        self.bound.get(node as usize).copied().unwrap_or(false)
    }

    /// The number of leaves that rest on the game's win bounds.
    #[must_use]
    pub fn bound_leaves(&self) -> usize {
        self.bound.iter().filter(|&&b| b).count()
    }

    /// The `(move, child)` edges of `node`, or `None` for an index out of range.
    #[must_use]
    pub fn edges(&self, node: u32) -> Option<&[(M, u32)]> {
        let &(start, len) = self.nodes.get(node as usize)?;
        self.edges.get(start as usize..(start + len) as usize)
    }
}

/// What [`verify`] found wrong with a strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyErrorKind {
    /// The strategy has no root node.
    Empty,
    /// A leaf of the strategy is a finished game short of the claim.
    ShortOfClaim(Outcome),
    /// A leaf of the strategy is a position where the game goes on.
    Unfinished,
    /// At a prover node the strategy gives this many moves instead of one.
    NotOneMove(usize),
    /// The strategy plays a move that is not legal.
    IllegalMove(String),
    /// An opponent move the strategy does not answer.
    MissingReply(String),
    /// The strategy lists an opponent move twice or one that is not legal.
    ExtraReply(String),
    /// A child index that points nowhere.
    BadIndex(u32),
    /// A position repeats along a line of the strategy (no finite proof).
    Repetition,
    /// A finished game lists moves anyway.
    MovesAfterEnd,
    /// A leaf that rests on the game's win bounds, where they are not
    /// trusted ([`Trust::RulesOnly`]), or where they do not prove the claim
    /// ([`Game::cannot_draw`] says nothing there, and the claim is a win
    /// or [`Game::cannot_win`] says nothing either).
    BoundLeaf,
}

/// A strategy that does not prove its claim, with the line where it fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    kind: VerifyErrorKind,
    line: Vec<String>,
}

impl VerifyError {
    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> &VerifyErrorKind {
        &self.kind
    }

    /// The moves from the root to the failing position, in the game's notation.
    #[must_use]
    pub fn line(&self) -> &[String] {
        &self.line
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "strategy fails after [{}]: ", self.line.join(" "))?;
        match &self.kind {
            VerifyErrorKind::Empty => f.write_str("empty strategy"),
            VerifyErrorKind::ShortOfClaim(o) => write!(f, "game ends in a {o} for the prover"),
            VerifyErrorKind::Unfinished => f.write_str("leaf where the game is not over"),
            VerifyErrorKind::NotOneMove(n) => write!(f, "{n} moves at a prover node"),
            VerifyErrorKind::IllegalMove(m) => write!(f, "illegal move {m}"),
            VerifyErrorKind::MissingReply(m) => write!(f, "no answer to opponent move {m}"),
            VerifyErrorKind::ExtraReply(m) => write!(f, "unexpected opponent move {m}"),
            VerifyErrorKind::BadIndex(i) => write!(f, "child index {i} out of range"),
            VerifyErrorKind::Repetition => f.write_str("position repeats"),
            VerifyErrorKind::MovesAfterEnd => f.write_str("moves listed after the game ended"),
            VerifyErrorKind::BoundLeaf => {
                f.write_str("a leaf resting on win bounds that are not trusted or do not hold")
            }
        }
    }
}

impl Error for VerifyError {}

/// What [`verify`] checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifyStats {
    /// Positions replayed.
    pub nodes: u64,
    /// Finished games reached.
    pub leaves: u64,
    /// The longest line, in plies.
    pub depth: u32,
    /// Leaves accepted on the game's win bounds ([`Trust::WinBounds`]).
    pub bound_leaves: u64,
}

/// What [`verify_with`] may take on trust besides the rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Trust {
    /// Nothing: every line must end in a finished game.
    #[default]
    RulesOnly,
    /// A leaf where the game goes on is accepted when the game's
    /// [`Game::cannot_draw`] says the prover's opponent loses there, or,
    /// for a claimed draw, when [`Game::cannot_win`] says it cannot win.
    /// The bounds are the game's knowledge, checked by
    /// `gametree_game::check::win_bounds` against exhaustive search, not
    /// by the verifier.
    WinBounds,
}

/// Replays `strategy` against `game` (the position it was made for) and
/// checks that it proves its claim: at every position where the prover is
/// to move the strategy gives exactly one legal move, at every position
/// where the opponent is to move it answers every legal move (and nothing
/// else), and every line ends in a finished game whose result, for the
/// prover, is at least the claim. A position that repeats along a line is
/// rejected. It uses nothing but the [`Game`] trait's rules; `game` is
/// restored. In a game whose positions cannot repeat
/// ([`Game::CAN_REPEAT`] `false`), a node reached again at the same
/// position (a strategy that shares transpositions) is checked once.
///
/// # Errors
///
/// A [`VerifyError`] with the line where the strategy fails.
pub fn verify<G: Game>(
    game: &mut G,
    strategy: &Strategy<G::Move>,
) -> Result<VerifyStats, VerifyError> {
    verify_with(game, strategy, Trust::RulesOnly)
}

/// [`verify`], also accepting the leaves that `trust` allows (see
/// [`Trust`]); [`VerifyStats::bound_leaves`] counts them.
///
/// # Errors
///
/// A [`VerifyError`] with the line where the strategy fails.
pub fn verify_with<G: Game>(
    game: &mut G,
    strategy: &Strategy<G::Move>,
    trust: Trust,
) -> Result<VerifyStats, VerifyError> {
    let mut stats = VerifyStats::default();
    let mut line = Vec::new();
    let mut hashes = Vec::new();
    if strategy.is_empty() {
        return Err(VerifyError {
            kind: VerifyErrorKind::Empty,
            line: Vec::new(),
        });
    }
    let mut ctx = Context {
        trust,
        done: std::collections::HashSet::new(),
    };
    check(
        game,
        strategy,
        0,
        &mut line,
        &mut hashes,
        &mut stats,
        &mut ctx,
    )
    .map_err(|kind| VerifyError {
        kind,
        line: line.iter().map(|m: &G::Move| m.to_string()).collect(),
    })?;
    Ok(stats)
}

/// What [`check`] carries besides the line.
struct Context {
    trust: Trust,
    /// `(node, position hash)` pairs already verified (acyclic games only).
    done: std::collections::HashSet<(u32, u64)>,
}

fn check<G: Game>(
    game: &mut G,
    strategy: &Strategy<G::Move>,
    node: u32,
    line: &mut Vec<G::Move>,
    hashes: &mut Vec<u64>,
    stats: &mut VerifyStats,
    ctx: &mut Context,
) -> Result<(), VerifyErrorKind> {
    let claim = strategy.claim;
    let edges = strategy
        .edges(node)
        .ok_or(VerifyErrorKind::BadIndex(node))?;
    if !G::CAN_REPEAT && ctx.done.contains(&(node, game.hash())) {
        return Ok(());
    }
    stats.nodes += 1;
    stats.depth = stats.depth.max(line.len() as u32);
    let prover_to_move = game.side_to_move() == claim.prover;
    if let Some(outcome) = game.outcome() {
        let for_prover = if prover_to_move {
            outcome
        } else {
            outcome.flip()
        };
        if !edges.is_empty() {
            return Err(VerifyErrorKind::MovesAfterEnd);
        }
        if for_prover < claim.at_least {
            return Err(VerifyErrorKind::ShortOfClaim(for_prover));
        }
        stats.leaves += 1;
        return Ok(());
    }
    if strategy.is_bound_leaf(node) {
        let opponent = claim.prover.opponent();
        let holds = ctx.trust == Trust::WinBounds
            && G::KNOWLEDGE.has_win_bounds()
            && (game.cannot_draw(opponent)
                || (claim.at_least == Outcome::Draw && game.cannot_win(opponent)));
        if !holds {
            return Err(VerifyErrorKind::BoundLeaf);
        }
        stats.bound_leaves += 1;
        stats.leaves += 1;
        return Ok(());
    }
    if edges.is_empty() {
        return Err(VerifyErrorKind::Unfinished);
    }
    let hash = game.hash();
    if hashes.contains(&hash) {
        return Err(VerifyErrorKind::Repetition);
    }
    if prover_to_move {
        if edges.len() != 1 {
            return Err(VerifyErrorKind::NotOneMove(edges.len()));
        }
    } else {
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        for m in moves.as_slice() {
            match edges.iter().filter(|(e, _)| e == m).count() {
                0 => return Err(VerifyErrorKind::MissingReply(m.to_string())),
                1 => {}
                _ => return Err(VerifyErrorKind::ExtraReply(m.to_string())),
            }
        }
        if let Some((extra, _)) = edges.iter().find(|(e, _)| !moves.as_slice().contains(e)) {
            return Err(VerifyErrorKind::ExtraReply(extra.to_string()));
        }
    }
    hashes.push(hash);
    for &(m, child) in edges {
        let undo = game
            .try_make(m)
            .map_err(|_| VerifyErrorKind::IllegalMove(m.to_string()))?;
        line.push(m);
        let result = check(game, strategy, child, line, hashes, stats, ctx);
        if result.is_ok() {
            line.pop();
        }
        game.unmake(m, undo);
        result?;
    }
    hashes.pop();
    if !G::CAN_REPEAT {
        ctx.done.insert((node, game.hash()));
    }
    Ok(())
}

/// Why [`build_strategy`] could not write a proof tree.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// The oracle gave no value (it hit a limit) for the position after
    /// these moves.
    OracleGaveUp(Vec<String>),
    /// At the position after these moves, where the prover is to move, no
    /// move keeps the claim according to the oracle: the claim is false or
    /// the oracle is wrong.
    NoMove(Vec<String>),
    /// A position repeats along a line: no finite proof tree.
    Repetition(Vec<String>),
    /// The tree would hold more than this many positions.
    TooLarge(usize),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::OracleGaveUp(l) => {
                write!(f, "the oracle gave no value after [{}]", l.join(" "))
            }
            BuildError::NoMove(l) => write!(
                f,
                "no move keeps the claim after [{}] (the claim is false or the oracle is wrong)",
                l.join(" ")
            ),
            BuildError::Repetition(l) => write!(f, "a position repeats after [{}]", l.join(" ")),
            BuildError::TooLarge(n) => {
                write!(f, "the proof tree would hold more than {n} positions")
            }
        }
    }
}

impl Error for BuildError {}

/// Writes a proof tree for `claim` from the position `game` is in, asking
/// `oracle` for the exact win/draw/loss value (for the side to move) of the
/// positions it needs: at a prover node it keeps the first move that
/// finishes the game in the claim's favour, or reaches a leaf that `trust`
/// accepts, or else whose oracle value meets the claim (trying the moves
/// in the order of the game's quiet hints when it declares them); at an
/// opponent node it answers every move. In a game whose positions cannot
/// repeat, transpositions share one subtree. Any solver serves as the
/// oracle (an alpha-beta weak solve with a table kept between calls is
/// cheap); the result should be checked by [`verify_with`], which trusts
/// neither the oracle nor this builder. `game` is restored.
///
/// # Errors
///
/// [`BuildError`]: the oracle gave up, contradicted the claim, a line
/// repeats, or the tree would exceed `max_positions`.
pub fn build_strategy<G: Game>(
    game: &mut G,
    claim: Claim,
    trust: Trust,
    max_positions: usize,
    oracle: &mut dyn FnMut(&mut G) -> Option<Outcome>,
) -> Result<Strategy<G::Move>, BuildError> {
    let mut b = Builder {
        claim,
        trust,
        max_positions,
        strategy: Strategy::new(claim),
        memo: std::collections::HashMap::new(),
        path: Vec::new(),
        line: Vec::new(),
    };
    b.node(game, oracle)?;
    Ok(b.strategy)
}

struct Builder<M> {
    claim: Claim,
    trust: Trust,
    max_positions: usize,
    strategy: Strategy<M>,
    memo: std::collections::HashMap<u64, u32>,
    path: Vec<u64>,
    line: Vec<M>,
}

impl<M: Copy + fmt::Display> Builder<M> {
    fn line(&self) -> Vec<String> {
        self.line.iter().map(ToString::to_string).collect()
    }

    /// Does the position `game` is in meet the claim without a search: a
    /// finished game in the prover's favour, or a trusted bound leaf?
    /// `Some(true)` for a bound leaf, `Some(false)` for a finished game
    /// that meets it, `None` otherwise.
    fn settled<G: Game<Move = M>>(&self, game: &G) -> Option<bool> {
        if let Some(o) = game.outcome() {
            let for_prover = if game.side_to_move() == self.claim.prover {
                o
            } else {
                o.flip()
            };
            return (for_prover >= self.claim.at_least).then_some(false);
        }
        let bound = self.trust == Trust::WinBounds
            && self.claim.at_least == Outcome::Draw
            && G::KNOWLEDGE.has_win_bounds()
            && game.cannot_win(self.claim.prover.opponent());
        bound.then_some(true)
    }

    fn node<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        oracle: &mut dyn FnMut(&mut G) -> Option<Outcome>,
    ) -> Result<u32, BuildError> {
        if game.outcome().is_some() {
            return Ok(self.strategy.add_node(&[]));
        }
        if self.settled(game) == Some(true) {
            return Ok(self.strategy.add_bound_leaf());
        }
        let hash = game.hash();
        if !G::CAN_REPEAT
            && let Some(&n) = self.memo.get(&hash)
        {
            return Ok(n);
        }
        if self.path.contains(&hash) {
            return Err(BuildError::Repetition(self.line()));
        }
        if self.strategy.len() >= self.max_positions {
            return Err(BuildError::TooLarge(self.max_positions));
        }
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        let picked: &[M] = if game.side_to_move() == self.claim.prover {
            let m = self.prover_move(game, moves.as_slice(), oracle)?;
            moves.clear();
            moves.push(m);
            moves.as_slice()
        } else {
            moves.as_slice()
        };
        let me = self.strategy.add_node(picked);
        self.path.push(hash);
        for (i, &m) in picked.iter().enumerate() {
            let undo = game.make(m);
            self.line.push(m);
            let child = self.node(game, oracle);
            game.unmake(m, undo);
            let child = child?;
            self.line.pop();
            self.strategy.set_child(me, i, child);
        }
        self.path.pop();
        if !G::CAN_REPEAT {
            self.memo.insert(hash, me);
        }
        Ok(me)
    }

    /// A move of the prover that keeps the claim.
    fn prover_move<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        moves: &[M],
        oracle: &mut dyn FnMut(&mut G) -> Option<Outcome>,
    ) -> Result<M, BuildError> {
        // Moves that settle the claim at once first.
        for &m in moves {
            let undo = game.make(m);
            let settled = self.settled(game).is_some();
            game.unmake(m, undo);
            if settled {
                return Ok(m);
            }
        }
        let mut order: Vec<(i32, M)> = moves.iter().map(|&m| (0, m)).collect();
        if G::KNOWLEDGE.has_order_hints() {
            let mut hints = vec![0; moves.len()];
            game.quiet_hints(moves, &mut hints);
            for (o, h) in order.iter_mut().zip(hints) {
                o.0 = h;
            }
            order.sort_by_key(|&(h, _)| core::cmp::Reverse(h));
        }
        let side = game.side_to_move();
        for (_, m) in order {
            let undo = game.make(m);
            let value = if game.outcome().is_some() {
                None
            } else {
                Some(oracle(game))
            };
            let flip = game.side_to_move() != side;
            game.unmake(m, undo);
            let Some(value) = value else { continue };
            let Some(value) = value else {
                self.line.push(m);
                let line = self.line();
                self.line.pop();
                return Err(BuildError::OracleGaveUp(line));
            };
            let for_prover = if flip { value.flip() } else { value };
            if for_prover >= self.claim.at_least {
                return Ok(m);
            }
        }
        Err(BuildError::NoMove(self.line()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrayvec::ArrayVec;

    /// Take one or two stones; taking the last one wins.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Take {
        stones: u32,
        to_move: Player,
    }

    impl Game for Take {
        type Move = u32;
        type Undo = ();
        type Moves = ArrayVec<u32, 2>;
        fn side_to_move(&self) -> Player {
            self.to_move
        }
        fn generate(&self, out: &mut Self::Moves) {
            out.clear();
            for t in 1..=2.min(self.stones) {
                out.push(t);
            }
        }
        fn make(&mut self, m: u32) {
            self.stones -= m;
            self.to_move = self.to_move.opponent();
        }
        fn unmake(&mut self, m: u32, (): ()) {
            self.stones += m;
            self.to_move = self.to_move.opponent();
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.stones == 0).then_some(Outcome::Loss)
        }
        fn hash(&self) -> u64 {
            u64::from(self.stones) << 1 | self.to_move.index() as u64
        }
        fn recompute_hash(&self) -> u64 {
            self.hash()
        }
    }

    const SECOND_WINS: Claim = Claim {
        prover: Player::Second,
        at_least: Outcome::Win,
    };

    /// Three stones, First to move: Second answers 1 with 2 and 2 with 1.
    /// `answers` gives Second's replies after First's 1 and First's 2.
    fn strategy(claim: Claim, root: &[u32], answers: [&[u32]; 2]) -> Strategy<u32> {
        let mut s = Strategy::new(claim);
        let r = s.add_node(root);
        for (i, answer) in answers.iter().enumerate().take(root.len()) {
            let c = s.add_node(answer);
            s.set_child(r, i, c);
            for j in 0..answer.len() {
                let leaf = s.add_node(&[]);
                s.set_child(c, j, leaf);
            }
        }
        s
    }

    fn check(s: &Strategy<u32>) -> Result<VerifyStats, VerifyErrorKind> {
        let mut g = Take {
            stones: 3,
            to_move: Player::First,
        };
        let r = verify(&mut g, s).map_err(|e| e.kind().clone());
        assert_eq!(g.stones, 3, "restored");
        r
    }

    #[test]
    fn a_correct_strategy_verifies() {
        let stats = check(&strategy(SECOND_WINS, &[1, 2], [&[2], &[1]])).unwrap();
        assert_eq!((stats.nodes, stats.leaves, stats.depth), (5, 2, 2));
    }

    #[test]
    fn every_kind_of_flaw_is_caught() {
        use VerifyErrorKind as K;
        let cases: [(Strategy<u32>, K); 6] = [
            (
                strategy(SECOND_WINS, &[1], [&[2], &[1]]),
                K::MissingReply("2".into()),
            ),
            (
                strategy(SECOND_WINS, &[1, 2], [&[2, 1], &[1]]),
                K::NotOneMove(2),
            ),
            (strategy(SECOND_WINS, &[1, 2], [&[1], &[1]]), K::Unfinished),
            (
                strategy(SECOND_WINS, &[1, 2], [&[2], &[2]]),
                K::IllegalMove("2".into()),
            ),
            (
                strategy(SECOND_WINS, &[2, 2], [&[1], &[1]]),
                K::MissingReply("1".into()),
            ),
            (Strategy::new(SECOND_WINS), K::Empty),
        ];
        for (s, kind) in cases {
            assert_eq!(check(&s).unwrap_err(), kind);
        }
        // The opponent of the claimed prover cannot claim the same win.
        let first = Claim {
            prover: Player::First,
            at_least: Outcome::Draw,
        };
        let mut s = Strategy::new(first);
        let r = s.add_node(&[2]);
        let c = s.add_node(&[1]);
        s.set_child(r, 0, c);
        let leaf = s.add_node(&[]);
        s.set_child(c, 0, leaf);
        assert_eq!(check(&s).unwrap_err(), K::ShortOfClaim(Outcome::Loss));
        // A child index pointing nowhere.
        let mut s = Strategy::new(SECOND_WINS);
        s.add_node(&[1, 2]);
        assert_eq!(check(&s).unwrap_err(), K::BadIndex(u32::MAX));
        // An opponent move listed twice, or one that is not legal.
        let twice = strategy(SECOND_WINS, &[1, 2, 1], [&[2], &[1]]);
        assert_eq!(check(&twice).unwrap_err(), K::ExtraReply("1".into()));
        let unknown = strategy(SECOND_WINS, &[1, 2, 9], [&[2], &[1]]);
        assert_eq!(check(&unknown).unwrap_err(), K::ExtraReply("9".into()));
    }
}
