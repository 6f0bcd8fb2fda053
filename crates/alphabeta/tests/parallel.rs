//! Several threads against one: solving Connect Four positions on small
//! boards with two and three threads (Lazy SMP, the first thread to
//! finish giving the result) gives the single-threaded value; the best
//! move reaches that value and the line is legal.

use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver};
use gametree_game::{Game, Score};
use gametree_games_connect4::{Board, Column, Size};

/// Positions of `stones` stones reached by a fixed pseudo-random playout
/// (xorshift), skipping games already over.
fn positions(size: Size, stones: usize, count: usize, mut seed: u64) -> Vec<Board> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::new(size);
        for _ in 0..stones {
            if b.outcome().is_some() {
                break;
            }
            let mut moves = <Board as Game>::Moves::default();
            b.generate(&mut moves);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = moves.as_slice()[(seed % moves.len() as u64) as usize];
            b.make(m);
        }
        if b.outcome().is_none() {
            out.push(b);
        }
    }
    out
}

/// The value of `b` solved on one thread.
fn single(b: &Board) -> Score {
    let mut s = AlphaBeta::<Board>::new(Config::default().memory(1 << 20)).unwrap();
    let none = Limits::none();
    s.solve(&mut b.clone(), &mut Request::new(&none).find(Find::Score))
        .score
        .expect("solved without limits")
}

fn check(size: Size, stones: usize, count: usize, threads: usize) {
    check_with(size, stones, count, threads, 1 << 20);
}

/// `check` with a shared table of `tt_bytes` (16 MiB and more: the solved
/// layout).
fn check_with(size: Size, stones: usize, count: usize, threads: usize, tt_bytes: usize) {
    let mut searcher =
        AlphaBeta::<Board>::new(Config::default().memory(tt_bytes).threads(threads)).unwrap();
    for (i, p) in positions(size, stones, count, 0x9e37_79b9_7f4a_7c15 + stones as u64)
        .iter()
        .enumerate()
    {
        let expected = single(p);
        let mut g = *p;
        let none = Limits::none();
        let r = searcher.solve(&mut g, &mut Request::new(&none).find(Find::Score));
        assert_eq!(g, *p, "position {i} not restored");
        assert!(r.score.is_some() && r.stopped.is_none(), "position {i}");
        let value = r.score.expect("solved");
        assert_eq!(
            value, expected,
            "position {i} ({stones} stones, {threads} threads)"
        );
        // The best move reaches the value: its child, solved on one thread,
        // backs up to it.
        let best: Column = r.best.expect("a best move");
        let mut child = *p;
        let mut moves = <Board as Game>::Moves::default();
        child.generate(&mut moves);
        assert!(
            moves.as_slice().contains(&best),
            "position {i}: illegal best"
        );
        child.make(best);
        let backed = if child.outcome().is_some() {
            value
        } else {
            single(&child).back_up(false)
        };
        assert_eq!(backed, value, "position {i}: best {best:?}");
        // The line is legal and starts with the best move.
        assert_eq!(r.line.first(), Some(&best), "position {i}");
        let mut line = *p;
        for &m in &r.line {
            assert!(
                line.outcome().is_none(),
                "position {i}: line goes on after the end"
            );
            line.generate(&mut moves);
            assert!(moves.as_slice().contains(&m), "position {i}: illegal line");
            line.make(m);
        }
    }
}

#[test]
fn two_threads_solve_like_one_on_6x5() {
    let size = Size::new(6, 5).unwrap();
    check(size, 4, 3, 2);
    check(size, 10, 12, 2);
}

/// The shared table in the solved layout (16 MiB), one atomic word per
/// entry, and the threads putting off each other's moves.
#[test]
fn two_threads_solve_like_one_in_the_solved_layout() {
    let size = Size::new(6, 5).unwrap();
    check_with(size, 6, 6, 2, 16 << 20);
}

#[test]
fn three_threads_solve_like_one_on_5x5() {
    let size = Size::new(5, 5).unwrap();
    check(size, 2, 4, 3);
    check(size, 8, 12, 3);
}
