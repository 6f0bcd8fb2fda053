//! Game-independent pieces of the verify rows: seeded random positions,
//! "search equals negamax", "solver agrees", and the oracle playouts.

use std::collections::HashSet;
use std::fmt::{Debug, Display};

use alphabeta::{Report, negamax};
use game::{Evaluate, Game, MoveBuffer, Score};
use rand_core::Rng;
use rand_pcg::Pcg64;

use super::Tally;

/// The generator every row draws from.
pub(crate) fn rng(seed: u64) -> Pcg64 {
    Pcg64::new(u128::from(seed) | 1 << 100, 0x5eed)
}

/// Up to `count` distinct non-terminal positions reached by random playouts
/// of 0 to `max_plies` moves from `start`.
pub(crate) fn random_positions<G: Game>(
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

/// The value of `best` seen from the root: `-(value of the child)`, one ply
/// further from the end.
pub(crate) fn child_value_from_root(child: Score) -> Score {
    (-child).to_root_relative(1)
}

/// For every position and every depth in `depths` (ascending, so a failure
/// is reported at its smallest depth): `search` must return negamax's value,
/// restore the position, and return a best move that achieves the value.
pub(crate) fn equals_negamax<G, F>(positions: &[G], depths: &[u32], mut search: F) -> Tally
where
    G: Evaluate + Display + PartialEq,
    F: FnMut(&mut G, u32) -> Report<G::Move>,
{
    let mut tally = Tally::default();
    for p in positions {
        for &d in depths {
            let reference = negamax(&mut p.clone(), d);
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
            if !tally.compare(p, Some(d), reference.value, got.value) {
                break;
            }
            if d > 0 {
                let ok = got.best.is_some_and(|m| {
                    let mut c = p.clone();
                    c.try_make(m).is_ok()
                        && child_value_from_root(negamax(&mut c, d - 1).value) == got.value
                });
                if !ok {
                    tally.positions += 1;
                    tally.mismatches.push(super::Mismatch {
                        position: p.to_string(),
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

/// `playouts` random games from `start` through [`game::check::playout`].
pub(crate) fn oracle_playouts<G>(start: &G, seed: u64, playouts: usize, max_plies: usize) -> Tally
where
    G: Game + Eq + Debug + Display,
{
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    for _ in 0..playouts {
        let mut choices = std::iter::from_fn(|| Some(rng.next_u64()));
        match game::check::playout(start, &mut choices, max_plies) {
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

/// One equivalence row per variant of the alpha-beta covering set
/// (exact-depth table): the searcher's value equals negamax at every depth
/// of `depths`, on the positions `positions` builds, and its best move
/// achieves the value. `setup` hands the searcher the game's optional
/// knowledge (`with_tactics`, `with_forcing`).
pub(crate) fn searcher_rows<G>(
    game: &'static str,
    positions: fn(&super::Ctx) -> Vec<G>,
    depths: fn(&super::Ctx) -> Vec<u32>,
    setup: fn(alphabeta::AlphaBeta<G>) -> alphabeta::AlphaBeta<G>,
) -> Vec<super::Check>
where
    G: Evaluate + Display + PartialEq + Send + 'static,
    G::Move: game::PackMove + game::MoveIndex + Send + Sync,
{
    alphabeta::variants::covering_set(1 << 20, 2)
        .into_iter()
        .map(|v| {
            let config = v.config;
            super::Check::new(game, super::Family::Equivalence, v.name, move |ctx| {
                let mut searcher = match alphabeta::AlphaBeta::<G>::new(config) {
                    Ok(s) => setup(s),
                    Err(e) => return Tally::skip(format!("cannot build the searcher: {e}")),
                };
                let ps = positions(ctx);
                let ds = depths(ctx);
                equals_negamax(&ps, &ds, |g, d| searcher.search(g, &game::Limits::depth(d)))
            })
        })
        .collect()
}

/// Random playouts from `start` checking [`game::check::forcing`] at every
/// position.
pub(crate) fn forcing_playouts<G>(start: &G, seed: u64, playouts: usize, max_plies: usize) -> Tally
where
    G: game::Forcing + Debug + Display,
{
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    let mut moves = G::Moves::default();
    for _ in 0..playouts {
        let mut g = start.clone();
        for _ in 0..max_plies {
            let got =
                game::check::forcing(&g).map_or_else(|e| e.to_string(), |()| "consistent".into());
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
