//! Every solver on every reachable tic-tac-toe position (5,478), against a
//! plain negamax written here (itself checked against
//! `gametree_alphabeta::negamax_solve`); and depth-limited conspiracy-number search
//! against depth-limited negamax.

use std::collections::HashMap;

use gametree_game::{Game, Limits, Outcome, Request, Score, Solver};
use gametree_games_tictactoe::TicTacToe;
use gametree_pns_conspiracy::{Answer, DfPn, DfPnConfig, Pns, Question, agree, verify};

/// Every position reachable from the empty board, terminal ones included.
fn reachable() -> Vec<TicTacToe> {
    fn walk(g: &mut TicTacToe, seen: &mut HashMap<TicTacToe, ()>, out: &mut Vec<TicTacToe>) {
        if seen.insert(*g, ()).is_some() {
            return;
        }
        out.push(*g);
        if g.outcome().is_some() {
            return;
        }
        let mut moves = <TicTacToe as Game>::Moves::default();
        g.generate(&mut moves);
        for &m in moves.as_slice() {
            g.make(m);
            walk(g, seen, out);
            g.unmake(m, ());
        }
    }
    let mut out = Vec::new();
    walk(&mut TicTacToe::new(), &mut HashMap::new(), &mut out);
    out
}

/// The reference: exhaustive negamax with a memo on the position (the
/// value of a tic-tac-toe position does not depend on the path).
fn negamax(g: &mut TicTacToe, memo: &mut HashMap<TicTacToe, Outcome>) -> Outcome {
    if let Some(o) = g.outcome() {
        return o;
    }
    if let Some(&o) = memo.get(g) {
        return o;
    }
    let mut moves = <TicTacToe as Game>::Moves::default();
    g.generate(&mut moves);
    let mut best = Outcome::Loss;
    for &m in moves.as_slice() {
        g.make(m);
        best = best.max(negamax(g, memo).flip());
        g.unmake(m, ());
    }
    memo.insert(*g, best);
    best
}

/// Depth-limited negamax with the leaf scores conspiracy-number search uses.
fn negamax_depth(g: &mut TicTacToe, depth: u32, ply: u32) -> Score {
    if let Some(o) = g.outcome() {
        return Score::terminal(o, ply);
    }
    if ply >= depth {
        return g.evaluate();
    }
    let mut moves = <TicTacToe as Game>::Moves::default();
    g.generate(&mut moves);
    let mut best = -Score::INFINITY;
    for &m in moves.as_slice() {
        g.make(m);
        best = best.max(-negamax_depth(g, depth, ply + 1));
        g.unmake(m, ());
    }
    best
}

#[test]
fn every_reachable_position_every_solver_agrees() {
    let positions = reachable();
    // The published count (the corpus of `gametree-data`).
    let published = gametree_data::tictactoe().unwrap();
    assert_eq!(positions.len() as u64, published.reachable_positions);
    let mut memo = HashMap::new();
    let mut counts = [0usize; 3];
    for p in &positions {
        let mut g = *p;
        let expected = negamax(&mut g, &mut memo);
        // The workspace's reference solver agrees with the one here.
        assert_eq!(
            gametree_alphabeta::negamax_solve(&mut g).outcome,
            Some(expected),
            "{g}"
        );
        counts[expected as usize] += 1;
        agree::solvers_agree(&mut g, expected, &Limits::none())
            .unwrap_or_else(|e| panic!("{g}: {e}"));
        assert_eq!(g, *p, "the position is restored");
    }
    // The empty board is a draw.
    assert_eq!(memo[&TicTacToe::new()], Outcome::Draw);
    assert!(counts.iter().all(|&c| c > 0));
}

#[test]
fn depth_limited_cns_is_negamax_everywhere() {
    let positions = reachable();
    for p in &positions {
        let depths: &[u32] = if p.marks() >= 3 {
            &[0, 1, 2, 3, 4]
        } else {
            &[0, 1, 2]
        };
        for &depth in depths {
            let mut g = *p;
            let expected = negamax_depth(&mut g, depth, 0);
            assert_eq!(
                gametree_alphabeta::negamax(&mut g, depth).value,
                expected,
                "{g} depth {depth}"
            );
            agree::cns_matches_negamax(&mut g, depth, -8..=8, expected, &Limits::none())
                .unwrap_or_else(|e| panic!("{g}: {e}"));
        }
    }
}

#[test]
fn empty_board_is_a_draw_for_every_solver() {
    let mut g = TicTacToe::new();
    for s in [
        Pns::default().solve(&mut g, &mut Request::new(&Limits::none())),
        Pns::pn2().solve(&mut g, &mut Request::new(&Limits::none())),
        DfPn::new(DfPnConfig::new())
            .unwrap()
            .solve(&mut g, &mut Request::new(&Limits::none())),
        DfPn::new(DfPnConfig::new().epsilon(0.0))
            .unwrap()
            .solve(&mut g, &mut Request::new(&Limits::none())),
    ] {
        assert_eq!(s.outcome, Some(Outcome::Draw));
        assert!(s.best.is_some()); // the move that proved the draw
        assert!(s.stats.nodes > 0);
    }
    let (r, proof) = DfPn::new(DfPnConfig::new()).unwrap().prove(
        &mut g,
        Question::AtLeastDraw,
        &mut Request::new(&Limits::none()),
    );
    assert_eq!(r.answer, Answer::Proven);
    let stats = verify(&mut g, &proof.unwrap()).unwrap();
    assert!(stats.leaves > 0);
}
