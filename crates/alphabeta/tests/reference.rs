//! Plain alpha-beta equals plain negamax on tic-tac-toe, from every
//! reachable position and at every depth, and its best move and principal
//! variation achieve the value.

use std::collections::HashSet;

use gametree_alphabeta::{Report, alpha_beta, alpha_beta_solve, negamax, negamax_solve};
use gametree_game::{Game, Score};
use gametree_games_tictactoe::TicTacToe;

fn reachable() -> Vec<TicTacToe> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![TicTacToe::new()];
    while let Some(b) = stack.pop() {
        if !seen.insert((b.x_mask(), b.o_mask())) {
            continue;
        }
        out.push(b);
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

/// Replays the PV and checks the best move's value with an independent negamax.
fn check_line<G: Game>(game: &G, report: &Report<G::Move>, depth: Option<u32>) {
    let Some(best) = report.best else {
        assert!(game.outcome().is_some() || depth == Some(0));
        return;
    };
    assert_eq!(report.line.first(), Some(&best));
    let mut g = game.clone();
    for &m in &report.line {
        assert!(g.try_make(m).is_ok(), "illegal PV move {m}");
    }
    let mut child = game.clone();
    child.make(best);
    let child_value = match depth {
        Some(d) => negamax(&mut child, d - 1).value,
        None => negamax_solve(&mut child).value,
    };
    let seen = gametree_game::from_child(game.side_to_move(), child.side_to_move(), child_value);
    assert_eq!(seen.to_root_relative(1), report.value);
}

#[test]
fn alpha_beta_equals_negamax_at_every_depth() {
    let positions = reachable();
    // The published count (the corpus of `gametree-data`).
    let published = gametree_data::tictactoe().unwrap();
    assert_eq!(positions.len() as u64, published.reachable_positions);
    for b in &positions {
        for depth in 0..=9 - b.marks() {
            let plain = negamax(&mut b.clone(), depth);
            let mut g = *b;
            let pruned = alpha_beta(&mut g, depth);
            assert_eq!(g, *b, "search must restore the position");
            assert_eq!(pruned.value, plain.value, "{b} depth {depth}");
            assert!(pruned.stats.nodes <= plain.stats.nodes);
            check_line(b, &pruned, Some(depth));
            check_line(b, &plain, Some(depth));
        }
    }
}

#[test]
fn solved_values() {
    let mut total = (0u64, 0u64);
    for b in reachable() {
        let plain = negamax_solve(&mut b.clone());
        let pruned = alpha_beta_solve(&mut b.clone());
        assert_eq!(plain.value, pruned.value, "{b}");
        assert!(
            plain.value.outcome().is_some(),
            "solved value {}",
            plain.value
        );
        check_line(&b, &pruned, None);
        total.0 += plain.stats.nodes;
        total.1 += pruned.stats.nodes;
    }
    assert!(total.1 < total.0);
    let empty = negamax_solve(&mut TicTacToe::new());
    assert_eq!(empty.value, Score::DRAW);
    assert_eq!(empty.stats.nodes, 549_946);
}
