//! The searcher answers a `gametree_game::Request`: its events (one
//! `Event::Iteration` per finished iteration of the deepening, node counts,
//! `Event::Done` from `Solver::solve`), what it asks to find (the exact
//! score or the outcome alone) and its oracle.

use gametree_alphabeta::{AlphaBeta, Config, negamax, negamax_solve};
use gametree_game::{Event, Find, Game, Limits, Outcome, Request, Score, Solver};
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
        let report = s.search(&mut board, &mut Request::new(&limits).events(&mut sink));
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
            last.2, report.line,
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
    s.search(&mut board, &mut Request::new(&limits).events(&mut sink));
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
    // The same value and nodes as a solve without a sink, by a fresh
    // searcher.
    let mut fresh = AlphaBeta::<Board>::new(Config::default().progress_interval(1024)).unwrap();
    let plain = fresh.solve(&mut board, &mut Request::new(&limits).find(Find::Score));
    assert!(plain.score.is_some());
    assert_eq!(solution.score, plain.score);
    assert_eq!(solution.stats.nodes, plain.stats.nodes);
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
    let exact = Request::new(&limits).find(Find::Score);
    let with = s.solve(&mut board, &mut exact.oracle(&db));
    assert_eq!(with.score, Some(negamax_solve(&mut board).value));
    assert!(with.stats.oracle_hits > 0, "the request's oracle was asked");
    s.clear();
    let without = s.solve(&mut board, &mut Request::new(&limits).find(Find::Score));
    assert_eq!(without.score, with.score);
    assert_eq!(
        without.stats.oracle_hits, 0,
        "no oracle without the request's"
    );
    // The outcome alone consults it too.
    s.clear();
    let weak = s.solve(&mut board, &mut Request::new(&limits).oracle(&db));
    assert_eq!(weak.outcome, Some(Outcome::Draw));
    assert!(weak.stats.oracle_hits > 0, "the request's oracle was asked");
}

#[test]
fn find_outcome_is_the_weak_solve() {
    let mut board = Board::from_moves(Size::new(5, 4).unwrap(), "").unwrap();
    let limits = Limits::none();
    let config = Config::default().progress_interval(1024);
    let mut s = AlphaBeta::<Board>::new(config).unwrap();
    let exact = s.solve(&mut board, &mut Request::new(&limits).find(Find::Score));
    let mut s = AlphaBeta::<Board>::new(config).unwrap();
    let mut seen = Seen::new();
    let mut sink = |e: &Event<'_, _>| seen.record(e);
    let weak = s.solve(
        &mut board,
        &mut Request::new(&limits).find(Find::Outcome).events(&mut sink),
    );
    // The outcome of the exact score, without the score; the move that
    // decided, alone in the line.
    assert_eq!(weak.outcome, exact.score.and_then(Score::outcome));
    assert!(weak.outcome.is_some());
    assert_eq!(weak.score, None);
    let best = weak.best.expect("a move decided");
    assert_eq!(weak.line, [best]);
    assert!(
        weak.stats.nodes < exact.stats.nodes,
        "cheaper than the score"
    );
    // Progress, then `Done`; no iteration (two null windows).
    assert_eq!(seen.nodes.len() as u64, weak.stats.nodes / 1024);
    assert_eq!(seen.done, 1);
    assert!(seen.iterations.is_empty());
    // The sink changes no node count.
    let mut s = AlphaBeta::<Board>::new(config).unwrap();
    let quiet = s.solve(&mut board, &mut Request::new(&limits).find(Find::Outcome));
    assert_eq!(quiet.stats.nodes, weak.stats.nodes);
    assert_eq!((quiet.outcome, quiet.best), (weak.outcome, weak.best));
}

#[test]
fn find_outcome_of_a_game_that_repeats_deepens() {
    // Mate in 4 (7 plies): proved by iterative deepening, with an iteration
    // per depth sent to the sink, and the same nodes without a sink.
    let fen = "8/8/8/8/8/2k5/8/1K1Q4 w - - 0 1";
    let mut p: gametree_games_chess::Position = fen.parse().unwrap();
    let limits = Limits::none();
    let mut s = AlphaBeta::new(Config::default()).unwrap();
    let mut seen = Seen::new();
    let mut sink = |e: &Event<'_, _>| seen.record(e);
    let weak = s.solve(
        &mut p,
        &mut Request::new(&limits).find(Find::Outcome).events(&mut sink),
    );
    assert_eq!(weak.outcome, Some(Outcome::Win));
    assert_eq!(weak.score, None);
    let depths: Vec<u32> = seen.iterations.iter().map(|i| i.0).collect();
    assert_eq!(depths, (1..=7).collect::<Vec<_>>());
    assert_eq!(seen.done, 1);
    let mut s = AlphaBeta::new(Config::default()).unwrap();
    let quiet = s.solve(&mut p, &mut Request::new(&limits).find(Find::Outcome));
    assert_eq!(quiet.stats.nodes, weak.stats.nodes);
    assert_eq!(quiet.line, weak.line);
}
