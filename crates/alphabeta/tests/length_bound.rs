//! Solving with a game-length bound ([`gametree_game::Game::remaining_plies`]):
//! the draw bounds at every node and the ladder bisection at the root
//! must give exactly `negamax_solve`'s value, with a best move achieving
//! it, with and without the game's forcing knowledge, on every reachable
//! tic-tac-toe position and on random Connect Four positions of small
//! boards.

use gametree_game::Use;
use std::collections::HashSet;

use gametree_alphabeta::{
    Algorithm, AlphaBeta, Config, Find, Limits, Request, Solver, negamax_solve,
};
use gametree_game::{Game, Score};
use gametree_games_connect4::{Board, Size};
use gametree_games_tictactoe::TicTacToe;

fn reachable_tictactoe() -> Vec<TicTacToe> {
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

/// Random Connect Four positions of `size` with `plies` stones, not over.
fn connect4_positions(size: Size, plies: usize, count: usize, seed: u64) -> Vec<Board> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::new(size);
        for _ in 0..plies {
            let mut moves = <Board as Game>::Moves::default();
            b.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            b.make(m);
        }
        if b.plies() == plies && b.outcome().is_none() {
            out.push(b);
        }
    }
    out
}

/// The configurations under test: bisection (the ladder root), PVS (the
/// node bounds only) and MTD(f), each with and without forcing, all with
/// the length bound.
fn configs() -> Vec<Config> {
    let base = Config::default()
        .iterative_deepening(false)
        .killers(0)
        .history(None)
        .counter_moves(false)
        .memory(1 << 16);
    let mut out = Vec::new();
    for algorithm in [Algorithm::Bisection, Algorithm::Pvs, Algorithm::Mtdf] {
        for forcing in [true, false] {
            out.push(
                base.algorithm(algorithm)
                    .forcing(Use::from(forcing))
                    .length_bound(Use::On),
            );
        }
    }
    out
}

/// Solves every position with every configuration and compares the value
/// with `negamax_solve`, and the best move's value with the root's.
fn check_all<G>(positions: &[G])
where
    G: Game + std::fmt::Display + Send,
    G::Move: Send + Sync,
{
    let none = Limits::none();
    for config in configs() {
        let mut searcher = AlphaBeta::<G>::new(config).unwrap();
        for p in positions {
            let expected = negamax_solve(&mut p.clone()).value;
            searcher.clear();
            let r = searcher.solve(&mut p.clone(), &mut Request::new(&none).find(Find::Score));
            assert_eq!(r.score, Some(expected), "{p} {config:?}");
            if p.outcome().is_some() {
                continue;
            }
            let m = r.best.expect("a best move at a live root");
            let mut c = p.clone();
            let undo = c.make(m);
            let value = negamax_solve(&mut c).value;
            let child = gametree_game::from_child(p.side_to_move(), c.side_to_move(), value);
            c.unmake(m, undo);
            assert_eq!(child.to_root_relative(1), expected, "best move of {p}");
            let weak = searcher.solve(&mut p.clone(), &mut Request::new(&none).find(Find::Outcome));
            assert_eq!(weak.outcome, expected.outcome(), "weak {p}");
        }
    }
}

#[test]
fn tictactoe_every_position() {
    let positions = reachable_tictactoe();
    // The published count (the corpus of `gametree-data`).
    let published = gametree_data::tictactoe().unwrap();
    assert_eq!(positions.len() as u64, published.reachable_positions);
    check_all(&positions);
}

#[test]
fn connect4_small_boards() {
    for (w, h, plies) in [(4, 4, 8), (4, 4, 10), (5, 4, 12), (4, 5, 12), (3, 3, 2)] {
        let size = Size::new(w, h).unwrap();
        let positions = connect4_positions(size, plies, 12, 0x9E37_79B9 + plies as u64);
        check_all(&positions);
    }
}

#[test]
fn ladder_extremes() {
    // The quickest win the side to move can still force (win on its second
    // move from here) and the quickest loss (every move loses at once): the
    // top and bottom ranks of the ladder, the latter never confirmed by a
    // test that fails high.
    let winning: Board = "4455".parse().unwrap();
    let mut lost = winning;
    lost.play_str("3").unwrap();
    let mut searcher =
        AlphaBeta::<Board>::new(Config::default().algorithm(Algorithm::Bisection)).unwrap();
    let none = Limits::none();
    let r = searcher.solve(
        &mut winning.clone(),
        &mut Request::new(&none).find(Find::Score),
    );
    assert_eq!(r.score, Some(Score::win_in(3)));
    assert!(matches!(r.best.map(Board::move_number), Some(2 | 5)));
    let r = searcher.solve(
        &mut lost.clone(),
        &mut Request::new(&none).find(Find::Score),
    );
    assert_eq!(r.score, Some(Score::loss_in(2)));
    assert!(r.best.is_some());
}
