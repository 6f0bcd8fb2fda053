//! Game-independent pieces of the verify rows: seeded random positions,
//! "search equals negamax", "solver agrees", and the oracle playouts.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt::{Debug, Display};
use std::ops::RangeInclusive;
use std::rc::Rc;

use gametree_alphabeta::{Report, negamax};
use gametree_game::{Find, Game, Limits, MoveBuffer, Player, Request, Score, Solution, Solver};
use rand_core::Rng;
use rand_pcg::Pcg64;

use super::Tally;

/// The generator every row draws from, seeded.
#[must_use]
pub fn rng(seed: u64) -> Pcg64 {
    Pcg64::new(u128::from(seed) | 1 << 100, 0x5eed)
}

/// Up to `count` distinct non-terminal positions reached by random playouts
/// of 0 to `max_plies` moves from `start` (positions told apart by their
/// hash; at most `20 * count` playouts).
pub fn random_positions<G: Game>(
    start: &G,
    rng: &mut Pcg64,
    count: usize,
    max_plies: u32,
) -> Vec<G> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut moves = G::Moves::default();
    let mut attempts = 0;
    while out.len() < count && attempts < count * 20 {
        attempts += 1;
        let mut g = start.clone();
        let plies = rng.next_u64() % u64::from(max_plies + 1);
        for _ in 0..plies {
            if g.outcome().is_some() {
                break;
            }
            g.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            g.make(m);
        }
        if g.outcome().is_none() && seen.insert(g.hash()) {
            out.push(g);
        }
    }
    out
}

/// The value of a child seen from the root, one ply further from the end:
/// negated when the move passed the turn (`parent != child`), as is when
/// the same player moves again.
pub(crate) fn child_value_from_root(parent: Player, child: Player, value: Score) -> Score {
    gametree_game::from_child(parent, child, value).to_root_relative(1)
}

/// Plain negamax values of a fixed set of positions, computed once and
/// shared by every row that compares a searcher with them (the reference
/// dominates a row's cost: one negamax per position and depth instead of
/// one per row).
pub(crate) struct References<G: Game> {
    positions: Vec<G>,
    /// Per position: (depth, negamax value).
    values: Vec<Vec<(u32, Score)>>,
    /// Per position: (depth, root move, the move's value seen from the
    /// root, `None` when the move is illegal).
    children: Vec<Vec<ChildValue<G::Move>>>,
}

/// (depth, root move, the move's value seen from the root or `None` when
/// the move is illegal).
type ChildValue<M> = (u32, M, Option<Score>);

impl<G: Game> References<G> {
    /// No value computed yet.
    pub(crate) fn new(positions: Vec<G>) -> References<G> {
        let n = positions.len();
        References {
            positions,
            values: vec![Vec::new(); n],
            children: vec![Vec::new(); n],
        }
    }

    /// Negamax's value of position `i` at depth `d`.
    fn value(&mut self, i: usize, d: u32) -> Score {
        if let Some(&(_, v)) = self.values[i].iter().find(|&&(depth, _)| depth == d) {
            return v;
        }
        let v = negamax(&mut self.positions[i].clone(), d).value;
        self.values[i].push((d, v));
        v
    }

    /// The value of playing `m` in position `i` and searching the child to
    /// depth `d - 1`, seen from the root; `None` if `m` is not legal there.
    fn child(&mut self, i: usize, d: u32, m: G::Move) -> Option<Score> {
        if let Some(&(_, _, v)) = self.children[i]
            .iter()
            .find(|&&(depth, mv, _)| depth == d && mv == m)
        {
            return v;
        }
        let mut c = self.positions[i].clone();
        let parent = c.side_to_move();
        let v = c
            .try_make(m)
            .is_ok()
            .then(|| child_value_from_root(parent, c.side_to_move(), negamax(&mut c, d - 1).value));
        self.children[i].push((d, m, v));
        v
    }
}

/// For every position and every depth in `depths` (ascending, so a failure
/// is reported at its smallest depth): `search` must return negamax's value,
/// restore the position, and return a best move that achieves the value.
pub(crate) fn equals_negamax<G, F>(positions: &[G], depths: &[u32], search: F) -> Tally
where
    G: Game + Display + PartialEq,
    F: FnMut(&mut G, u32) -> Report<G::Move>,
{
    let mut refs = References::new(positions.to_vec());
    equals_references(&mut refs, |_| depths.to_vec(), search)
}

/// [`equals_negamax`] against shared [`References`]; `depths(i)` lists the
/// depths at which position `i` is compared (ascending).
pub(crate) fn equals_references<G, F>(
    refs: &mut References<G>,
    depths: impl Fn(usize) -> Vec<u32>,
    mut search: F,
) -> Tally
where
    G: Game + Display + PartialEq,
    F: FnMut(&mut G, u32) -> Report<G::Move>,
{
    let mut tally = Tally::default();
    for i in 0..refs.positions.len() {
        for d in depths(i) {
            let reference = refs.value(i, d);
            let p = &refs.positions[i];
            let mut g = p.clone();
            let got = search(&mut g, d);
            if g != *p {
                tally.compare(
                    p,
                    Some(d),
                    "position restored".to_string(),
                    "position changed".to_string(),
                );
                break;
            }
            if !tally.compare(p, Some(d), reference, got.value) {
                break;
            }
            if d > 0 {
                let ok = got
                    .best
                    .is_some_and(|m| refs.child(i, d, m) == Some(got.value));
                if !ok {
                    tally.positions += 1;
                    tally.mismatches.push(super::Mismatch {
                        position: refs.positions[i].to_string(),
                        depth: Some(d),
                        expected: format!("a best move worth {}", got.value),
                        got: format!("{:?}", got.best),
                    });
                    break;
                }
            }
        }
    }
    tally
}

/// `solver`'s answer to a request within `limits` for what `find` asks
/// (alpha-beta: [`Find::Score`] for the exact score, [`Find::Outcome`] for
/// its weak solve).
pub(crate) fn solve_for<G: Game, S: Solver<G> + ?Sized>(
    solver: &mut S,
    g: &mut G,
    limits: &Limits,
    find: Find,
) -> Solution<G::Move> {
    solver.solve(g, &mut Request::new(limits).find(find))
}

/// A solution's score as the rows print it: `none` when the solver found
/// none (a limit stopped it).
pub(crate) fn score_text(score: Option<Score>) -> String {
    score.map_or_else(|| "none".to_string(), |s| s.to_string())
}

/// `solve` must return `reference`'s value on every position.
pub(crate) fn solvers_agree<G, R, S, T>(positions: &[G], mut reference: R, mut solve: S) -> Tally
where
    G: Game + Display,
    T: PartialEq + Display,
    R: FnMut(&mut G) -> T,
    S: FnMut(&mut G) -> T,
{
    let mut tally = Tally::default();
    for p in positions {
        let expected = reference(&mut p.clone());
        let got = solve(&mut p.clone());
        tally.compare(p, None, expected, got);
    }
    tally
}

/// `playouts` random games from `start` through [`gametree_game::check::playout`].
pub(crate) fn oracle_playouts<G>(start: &G, seed: u64, playouts: usize, max_plies: usize) -> Tally
where
    G: Game + Eq + Debug + Display,
{
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    for _ in 0..playouts {
        let mut choices = std::iter::from_fn(|| Some(rng.next_u64()));
        match gametree_game::check::playout(start, &mut choices, max_plies) {
            Ok(_) => {
                tally.positions += 1;
                tally.agreements += 1;
            }
            Err(failure) => {
                tally.positions += 1;
                tally.mismatches.push(super::Mismatch {
                    position: start.to_string(),
                    depth: None,
                    expected: "all invariants".to_string(),
                    got: failure.to_string(),
                });
            }
        }
    }
    tally
}

/// Every position reachable from `start` (by hash), with the count per ply.
pub(crate) fn reachable<G: Game>(start: &G) -> (Vec<G>, Vec<u64>) {
    let mut seen = HashSet::new();
    let mut by_ply = Vec::new();
    let mut out = Vec::new();
    let mut frontier = vec![start.clone()];
    seen.insert(start.hash());
    let mut moves = G::Moves::default();
    while !frontier.is_empty() {
        by_ply.push(frontier.len() as u64);
        let mut next = Vec::new();
        for g in &frontier {
            g.generate(&mut moves);
            for &m in moves.as_slice() {
                let mut c = g.clone();
                c.make(m);
                if seen.insert(c.hash()) {
                    next.push(c);
                }
            }
        }
        out.append(&mut frontier);
        frontier = next;
    }
    (out, by_ply)
}

/// One row per variant of [`gametree_alphabeta::variants::covering_set`], each
/// comparing the searcher with plain negamax on the same positions: drawn
/// once per game from the game's seed ([`super::Ctx::game_seed`]), their
/// negamax values computed once and shared by the rows. `depths(ctx, i)`
/// gives the depths of position `i` (so that the deepest, costliest depth
/// can be run on a prefix of the positions only).
pub(crate) fn searcher_rows<G>(
    game: &'static str,
    positions: fn(&super::Ctx) -> Vec<G>,
    depths: fn(&super::Ctx, usize) -> RangeInclusive<u32>,
    setup: fn(gametree_alphabeta::AlphaBeta<G>) -> gametree_alphabeta::AlphaBeta<G>,
) -> Vec<super::Check>
where
    G: Game + Display + PartialEq + Send + 'static,
    G::Move: Send + Sync,
{
    // (quick, game seed) the references were computed for, and them.
    type Shared<G> = Rc<RefCell<Option<((bool, u64), References<G>)>>>;
    let shared: Shared<G> = Rc::new(RefCell::new(None));
    gametree_alphabeta::variants::covering_set(1 << 20, 2)
        .into_iter()
        .map(|v| {
            let config = v.config;
            let shared = Rc::clone(&shared);
            super::Check::new(game, super::Family::Equivalence, v.name, move |ctx| {
                let mut searcher = match gametree_alphabeta::AlphaBeta::<G>::new(config) {
                    Ok(s) => setup(s),
                    Err(e) => return Tally::skip(format!("cannot build the searcher: {e}")),
                };
                let mut slot = shared.borrow_mut();
                let key = (ctx.quick, ctx.game_seed);
                if slot.as_ref().is_none_or(|(k, _)| *k != key) {
                    *slot = Some((key, References::new(positions(ctx))));
                }
                let (_, refs) = slot.as_mut().expect("just filled");
                equals_references(
                    refs,
                    |i| depths(ctx, i).collect(),
                    |g, d| searcher.search(g, &mut Request::new(&Limits::depth(d))),
                )
            })
        })
        .collect()
}

/// Random playouts from `start` checking [`gametree_game::check::forcing`] at every
/// position.
pub(crate) fn forcing_playouts<G>(start: &G, seed: u64, playouts: usize, max_plies: usize) -> Tally
where
    G: gametree_game::Game + Debug + Display,
{
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    let mut moves = G::Moves::default();
    for _ in 0..playouts {
        let mut g = start.clone();
        for _ in 0..max_plies {
            let got = gametree_game::check::forcing(&g)
                .map_or_else(|e| e.to_string(), |()| "consistent".into());
            if !tally.compare(&g, None, "consistent".to_string(), got) || g.outcome().is_some() {
                break;
            }
            g.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            g.make(m);
        }
    }
    tally
}
