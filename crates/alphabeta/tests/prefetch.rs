//! Table prefetch ([`Config::prefetch`]) is a cache hint only: a search
//! with it returns the same value, best move and principal line after the
//! same number of nodes as the search without it, solving Connect Four
//! and m,n,k positions and searching chess to a depth, on one thread's
//! table and on the table Lazy SMP shares.

use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver};
use gametree_game::{Game, MoveBuffer, Score};
use gametree_games_chess::Position as Chess;
use gametree_games_connect4::{Board, Size};
use gametree_games_mnk::Mnk;
use rand_core::Rng;
use rand_pcg::Pcg64;

/// The generator of the verification table (`gametree_verify::rng`),
/// seeded.
fn rng(seed: u64) -> Pcg64 {
    Pcg64::new(u128::from(seed) | 1 << 100, 0x5eed)
}

/// Up to `count` distinct non-terminal positions reached by random
/// playouts of 0 to `max_plies` moves from `start`, drawn as the
/// verification table draws them (`gametree_verify::random_positions`).
fn random_positions<G: Game>(start: &G, rng: &mut Pcg64, count: usize, max_plies: u32) -> Vec<G> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut moves = G::Moves::default();
    for _ in 0..count * 20 {
        if out.len() == count {
            break;
        }
        let mut g = start.clone();
        for _ in 0..rng.next_u64() % u64::from(max_plies + 1) {
            if g.outcome().is_some() {
                break;
            }
            g.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.make(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        if g.outcome().is_none() && seen.insert(g.hash()) {
            out.push(g);
        }
    }
    out
}

/// The value (`None`: unsolved), best move, line and nodes of a search.
type Answer<M> = (Option<Score>, Option<M>, Vec<M>, u64);

/// What `searcher` finds at `p`: searching to the depth of `limits`, or
/// solving for the exact score without one.
fn answer<G>(searcher: &mut AlphaBeta<G>, p: &mut G, limits: &Limits) -> Answer<G::Move>
where
    G: Game + Send,
    G::Move: Send + Sync,
{
    if limits.depth.is_some() {
        let r = searcher.search(p, &mut Request::new(limits));
        (Some(r.value), r.best, r.line, r.stats.nodes)
    } else {
        let s = searcher.solve(p, &mut Request::new(limits).find(Find::Score));
        (s.score, s.best, s.line, s.stats.nodes)
    }
}

/// Searches every position with prefetch on and off and compares the
/// reports; returns the nodes searched, so that callers can check the
/// comparison covered real work.
fn same_with_and_without<G>(positions: &[G], limits: &Limits, base: Config) -> u64
where
    G: Game + Send + std::fmt::Debug,
    G::Move: Send + Sync,
{
    let mut on = AlphaBeta::<G>::new(base.prefetch(true)).expect("a config");
    let mut off = AlphaBeta::<G>::new(base.prefetch(false)).expect("a config");
    let mut nodes = 0;
    for p in positions {
        on.clear();
        off.clear();
        let (mut a, mut b) = (p.clone(), p.clone());
        let (va, best_a, line_a, nodes_a) = answer(&mut on, &mut a, limits);
        let (vb, best_b, line_b, nodes_b) = answer(&mut off, &mut b, limits);
        assert!(va.is_some(), "value of {p:?}");
        assert_eq!(va, vb, "value of {p:?}");
        assert_eq!(best_a, best_b, "best move of {p:?}");
        assert_eq!(line_a, line_b, "line of {p:?}");
        assert_eq!(nodes_a, nodes_b, "nodes of {p:?}");
        nodes += nodes_a;
    }
    nodes
}

#[test]
fn prefetch_changes_nothing_but_timing() {
    let base = Config::default().memory(1 << 20);
    let c4 = random_positions(
        &Board::new(Size::new(6, 5).expect("a size")),
        &mut rng(1),
        12,
        12,
    );
    assert!(same_with_and_without(&c4, &Limits::none(), base) > 10_000);
    let mnk = random_positions(&Mnk::new(5, 5, 4).expect("a size"), &mut rng(2), 8, 8);
    assert!(same_with_and_without(&mnk, &Limits::none(), base) > 1_000);
    let chess = random_positions(&Chess::startpos(), &mut rng(3), 4, 12);
    assert!(same_with_and_without(&chess, &Limits::depth(4), base) > 10_000);
}

#[test]
fn prefetch_on_the_shared_table_keeps_values() {
    // Lazy SMP: node counts depend on the threads' timing, values do not.
    let base = Config::default().memory(1 << 20).threads(2);
    let c4 = random_positions(
        &Board::new(Size::new(5, 5).expect("a size")),
        &mut rng(4),
        6,
        10,
    );
    let mut on = AlphaBeta::<Board>::new(base.prefetch(true)).expect("a config");
    let mut off = AlphaBeta::<Board>::new(base.prefetch(false)).expect("a config");
    for p in &c4 {
        let (mut a, mut b) = (*p, *p);
        let none = Limits::none();
        let (ra, rb) = (
            on.solve(&mut a, &mut Request::new(&none).find(Find::Score)),
            off.solve(&mut b, &mut Request::new(&none).find(Find::Score)),
        );
        assert!(ra.score.is_some(), "value of {p:?}");
        assert_eq!(ra.score, rb.score, "value of {p:?}");
    }
}

#[test]
fn prefetch_is_on_by_default() {
    assert!(Config::default().get_prefetch());
    assert!(!Config::plain().get_prefetch());
}
