//! The searcher answers a `gametree_game::Request`: its events (one
//! `Event::Iteration` per finished iteration of the deepening, node counts,
//! `Event::Done` from `Solver::solve`) and its oracle.

use gametree_alphabeta::{AlphaBeta, Config, negamax, negamax_solve};
use gametree_game::{Event, Find, Game, Limits, Request, Score, Solver};
use gametree_games_connect4::{Board, Size};
use gametree_games_tictactoe::TicTacToe;

/// What a sink saw of one search.
#[derive(Debug)]
struct Seen<M> {
    /// Depth, value, line and nodes of each iteration.
    iterations: Vec<(u32, Score, Vec<M>, u64)>,
    /// Node counts of the progress events.
    nodes: Vec<u64>,
    /// `Event::Done` events.
    done: usize,
}

impl<M: Copy> Seen<M> {
    fn new() -> Self {
        Seen {
            iterations: Vec::new(),
            nodes: Vec::new(),
            done: 0,
        }
    }

    fn record(&mut self, e: &Event<'_, M>) {
        match *e {
            Event::Iteration {
                depth,
                value,
                line,
                nodes,
                ..
            } => self.iterations.push((depth, value, line.to_vec(), nodes)),
            Event::Nodes(p) => self.nodes.push(p.nodes),
            Event::Done { .. } => self.done += 1,
            _ => {}
        }
    }
}

#[test]
fn each_iteration_is_sent_with_negamax_value_at_its_depth() {
    let mut board: TicTacToe = "X...O....".parse().unwrap();
    for threads in [1, 2] {
        let mut s = AlphaBeta::<TicTacToe>::new(Config::default().threads(threads)).unwrap();
        let mut seen = Seen::new();
        let mut sink = |e: &Event<'_, _>| seen.record(e);
        let limits = Limits::depth(5);
        let report = s.search_with(&mut board, &mut Request::new(&limits).events(&mut sink));
        let depths: Vec<u32> = seen.iterations.iter().map(|i| i.0).collect();
        assert_eq!(depths, [1, 2, 3, 4, 5], "{threads} threads");
        for (depth, value, line, _) in &seen.iterations {
            // On one thread every iteration is exact at its depth; with
            // helpers, which start iterations a ply deeper and share the
            // table (Lazy SMP), an earlier iteration may use their deeper
            // values, and only the last one (no helper goes past the
            // limit) is the value at its depth.
            if threads == 1 || *depth == 5 {
                assert_eq!(
                    *value,
                    negamax(&mut { board }, *depth).value,
                    "{threads} threads, depth {depth}"
                );
            }
            assert!(!line.is_empty(), "depth {depth}: a line");
        }
        let last = seen.iterations.last().unwrap();
        assert_eq!(last.1, report.value);
        assert_eq!(
            last.2, report.pv,
            "the last iteration's line is the report's"
        );
        assert!(
            seen.iterations.windows(2).all(|w| w[0].3 <= w[1].3),
            "node counts so far never decrease"
        );
        assert_eq!(seen.done, 0, "a search sends no Done");
    }
}

/// The first position, depth first from the empty board, that its side to
/// move wins in exactly `plies` plies.
fn won_in(plies: u32) -> TicTacToe {
    let mut stack = vec![TicTacToe::new()];
    while let Some(p) = stack.pop() {
        if p.outcome().is_some() {
            continue;
        }
        if negamax_solve(&mut { p }).value == Score::win_in(plies) {
            return p;
        }
        let mut moves = <TicTacToe as Game>::Moves::default();
        p.generate(&mut moves);
        for &m in moves.as_slice() {
            let mut c = p;
            c.make(m);
            stack.push(c);
        }
    }
    panic!("no tic-tac-toe position is won in {plies} plies");
}

#[test]
fn a_proven_iteration_carries_the_whole_line() {
    let mut board = won_in(5);
    let mut s = AlphaBeta::<TicTacToe>::new(Config::default()).unwrap();
    let mut seen = Seen::new();
    let mut sink = |e: &Event<'_, _>| seen.record(e);
    let limits = Limits::depth(7);
    s.search_with(&mut board, &mut Request::new(&limits).events(&mut sink));
    let proven: Vec<_> = seen
        .iterations
        .iter()
        .filter(|i| i.1 == Score::win_in(5))
        .collect();
    assert_eq!(proven.len(), 3, "depths 5, 6 and 7 prove it: {seen:?}");
    for (depth, _, line, _) in proven {
        let mut g = board;
        for &m in line {
            assert!(
                g.outcome().is_none(),
                "depth {depth}: {line:?} goes past the end"
            );
            g.make(m);
        }
        assert!(
            g.outcome().is_some(),
            "depth {depth}: {line:?} ends the game"
        );
        assert_eq!(line.len(), 5, "depth {depth}: {line:?}");
    }
}

#[test]
fn solver_solve_sends_progress_then_done() {
    let mut board = Board::from_moves(Size::new(5, 4).unwrap(), "").unwrap();
    let mut s = AlphaBeta::<Board>::new(Config::default().progress_interval(1024)).unwrap();
    let mut seen = Seen::new();
    let mut sink = |e: &Event<'_, _>| seen.record(e);
    let limits = Limits::none();
    let solution = Solver::solve(
        &mut s,
        &mut board,
        &mut Request::new(&limits).find(Find::Score).events(&mut sink),
    );
    // The same value as a solve without a sink, by a fresh searcher.
    let mut fresh = AlphaBeta::<Board>::new(Config::default()).unwrap();
    let plain = fresh.solve_with(&mut board, &mut Request::new(&limits));
    assert!(plain.completed);
    assert_eq!(solution.score, Some(plain.value));
    assert_eq!(seen.done, 1);
    assert_eq!(seen.nodes.len() as u64, solution.stats.nodes / 1024);
    assert!(
        seen.iterations.is_empty(),
        "one pass to the end: no iteration"
    );
}

#[test]
fn the_request_oracle_is_consulted() {
    // An oracle that knows every position with six marks or more.
    let db = |p: &TicTacToe| (p.marks() >= 6).then(|| negamax_solve(&mut { *p }).value);
    let mut board: TicTacToe = "X...O....".parse().unwrap();
    let mut s = AlphaBeta::<TicTacToe>::new(Config::default()).unwrap();
    let limits = Limits::none();
    let with = s.solve_with(&mut board, &mut Request::new(&limits).oracle(&db));
    assert_eq!(with.value, negamax_solve(&mut board).value);
    assert!(with.stats.oracle_hits > 0, "the request's oracle was asked");
    s.clear();
    let without = s.solve_with(&mut board, &mut Request::new(&limits));
    assert_eq!(without.value, with.value);
    assert_eq!(
        without.stats.oracle_hits, 0,
        "no oracle without the request's"
    );
}
