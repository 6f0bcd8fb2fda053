//! The configurable searcher against the references on tic-tac-toe: every
//! variant of the covering set equals negamax from every reachable
//! position at every depth (exact-depth table), solving equals
//! `negamax_solve` with the normal table policy, weak solving gives the
//! right sign, limits stop the search, quiescence equals its reference.

use gametree_alphabeta::TableConfig;
use std::collections::HashSet;

use gametree_alphabeta::variants::covering_set;
use gametree_alphabeta::{
    AlphaBeta, Config, Find, Limits, Request, Solver, Stop, TtUse, negamax, negamax_quiescence,
    negamax_solve,
};
use gametree_game::{Game, Score};
use gametree_games_tictactoe::TicTacToe;
use gametree_ttable::ProbePolicy;

fn reachable() -> Vec<TicTacToe> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![TicTacToe::new()];
    while let Some(b) = stack.pop() {
        if !seen.insert((b.x_mask(), b.o_mask())) {
            continue;
        }
        if b.outcome().is_none() {
            out.push(b);
        }
        let mut moves = <TicTacToe as Game>::Moves::default();
        b.generate(&mut moves);
        for &m in moves.as_slice() {
            let mut c = b;
            c.make(m);
            stack.push(c);
        }
    }
    out
}

fn best_achieves(
    p: &TicTacToe,
    best: Option<gametree_games_tictactoe::Square>,
    depth: u32,
    value: Score,
) -> bool {
    best.is_some_and(|m| {
        let mut c = *p;
        c.try_make(m).is_ok() && (-negamax(&mut c, depth - 1).value).to_root_relative(1) == value
    })
}

#[test]
fn every_variant_equals_negamax() {
    let positions = reachable();
    let variants = covering_set(1 << 16, 2);
    assert!(variants.len() >= 14);
    for v in &variants {
        let mut searcher = AlphaBeta::<TicTacToe>::new(v.config).unwrap();
        for p in &positions {
            for depth in 1..=(9 - p.marks()) {
                let expected = negamax(&mut p.clone(), depth).value;
                let mut g = *p;
                let r = searcher.search(&mut g, &mut Request::new(&Limits::depth(depth)));
                assert_eq!(g, *p, "{}: position not restored", v.name);
                assert!(r.completed);
                assert_eq!(r.value, expected, "{} on {p} at depth {depth}", v.name);
                assert!(
                    best_achieves(p, r.best, depth, r.value),
                    "{} on {p} at depth {depth}: best {:?} does not achieve {}",
                    v.name,
                    r.best,
                    r.value
                );
            }
        }
    }
}

#[test]
fn solve_with_normal_table_equals_negamax_solve() {
    let positions = reachable();
    for config in [
        Config::default(),
        Config::default().algorithm(gametree_alphabeta::Algorithm::Mtdf),
        Config::default().threads(2),
    ] {
        let mut searcher = AlphaBeta::<TicTacToe>::new(config.memory(1 << 16)).unwrap();
        let none = Limits::none();
        for p in &positions {
            let expected = negamax_solve(&mut p.clone());
            let r = searcher.solve(&mut p.clone(), &mut Request::new(&none).find(Find::Score));
            assert_eq!(r.score, Some(expected.value), "{p}");
            assert_eq!(r.outcome, expected.value.outcome());
            let weak = searcher.solve(&mut p.clone(), &mut Request::new(&none).find(Find::Outcome));
            assert_eq!(weak.outcome, expected.value.outcome(), "weak {p}");
        }
    }
}

#[test]
fn node_limit_and_cancel_stop_the_search() {
    let mut searcher = AlphaBeta::<TicTacToe>::new(Config::plain()).unwrap();
    let nodes = Limits::none().with_nodes(5_000);
    let r = searcher.solve(
        &mut TicTacToe::new(),
        &mut Request::new(&nodes).find(Find::Score),
    );
    assert_eq!(r.stopped, Some(Stop::Nodes));
    assert_eq!((r.outcome, r.score), (None, None));
    let mut limits = Limits::none();
    limits
        .cancel_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let r = searcher.solve(
        &mut TicTacToe::new(),
        &mut Request::new(&limits).find(Find::Score),
    );
    assert_eq!(r.stopped, Some(Stop::Cancelled));
    // iterative deepening keeps the last completed iteration
    let mut id = AlphaBeta::<TicTacToe>::new(Config::default()).unwrap();
    let limits = Limits::depth(9).with_nodes(300);
    let r = id.search(&mut TicTacToe::new(), &mut Request::new(&limits));
    assert!(r.completed && r.depth < 9, "depth {}", r.depth);
    assert_eq!(r.value, negamax(&mut TicTacToe::new(), r.depth).value);
}

#[test]
fn quiescence_equals_its_reference() {
    let positions = reachable();
    let config = Config::default()
        .table(
            TableConfig::new()
                .usage(TtUse::Off)
                .probe_policy(ProbePolicy::ExactDepth),
        )
        .quiescence(true);
    let mut searcher = AlphaBeta::<TicTacToe>::new(config).unwrap();
    for p in positions.iter().step_by(3) {
        for depth in 1..=(9 - p.marks()).min(4) {
            let expected = negamax_quiescence(&mut p.clone(), depth).value;
            let r = searcher.search(&mut p.clone(), &mut Request::new(&Limits::depth(depth)));
            assert_eq!(r.value, expected, "{p} depth {depth}");
        }
    }
}

#[test]
fn bad_table_size_is_an_error() {
    assert!(AlphaBeta::<TicTacToe>::new(Config::default().memory(0)).is_err());
    assert!(AlphaBeta::<TicTacToe>::new(Config::default().memory(usize::MAX)).is_err());
}
