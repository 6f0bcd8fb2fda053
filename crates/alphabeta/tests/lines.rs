//! The principal line of a solved position reaches the end of the game and
//! keeps the value at every ply: checked against the reference negamax on
//! every tic-tac-toe position, on 4×4 Connect Four positions (plain
//! alpha-beta) and on chess mates.

use gametree_alphabeta::{
    AlphaBeta, Config, Find, Limits, Request, Solver, alpha_beta_solve, negamax_solve,
};
use gametree_game::{Game, MoveBuffer, Outcome, Score};
use gametree_games_tictactoe::TicTacToe;

/// Replays `line` from `p`: each move keeps the value `value` (checked by
/// `exact`, the value of a position for its side to move), and the line
/// ends the game with the value's outcome after exactly its distance.
fn check_line<G: Game + std::fmt::Debug>(
    p: &G,
    value: Score,
    line: &[G::Move],
    exact: &mut dyn FnMut(&G) -> Score,
) {
    let mut q = p.clone();
    let root = p.side_to_move();
    for (i, &m) in line.iter().enumerate() {
        let mut moves = G::Moves::default();
        q.generate(&mut moves);
        assert!(moves.as_slice().contains(&m), "{p:?}: move {i} is illegal");
        q.make(m);
        if q.outcome().is_none() {
            let v = exact(&q);
            // The child's value, seen from the root's side, plies counted
            // from the root.
            let seen = if q.side_to_move() == root { v } else { -v };
            let shifted = match seen.plies_to_end() {
                Some(n) if seen.is_win() => Score::win_in(n + i as u32 + 1),
                Some(n) => Score::loss_in(n + i as u32 + 1),
                None => seen,
            };
            assert_eq!(
                shifted, value,
                "{p:?}: move {i} of {line:?} changes the value"
            );
        }
    }
    let end = q
        .outcome()
        .unwrap_or_else(|| panic!("{p:?}: {line:?} stops before the end"));
    let from_root = match end {
        Outcome::Draw => Outcome::Draw,
        o if q.side_to_move() == root => o,
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
    };
    assert_eq!(Some(from_root), value.outcome(), "{p:?}: {line:?}");
    if let Some(n) = value.plies_to_end() {
        assert_eq!(line.len(), n as usize, "{p:?}: {line:?}");
    }
}

#[test]
fn every_tictactoe_line_reaches_the_end() {
    let mut searcher = AlphaBeta::<TicTacToe>::new(Config::default()).unwrap();
    let mut exact = |g: &TicTacToe| negamax_solve(&mut g.clone()).value;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![TicTacToe::new()];
    let mut checked = 0;
    let none = Limits::none();
    while let Some(p) = stack.pop() {
        if !seen.insert(p) || p.outcome().is_some() {
            continue;
        }
        let r = searcher.solve(&mut p.clone(), &mut Request::new(&none).find(Find::Score));
        let value = r.score.expect("solved without limits");
        assert_eq!(value, exact(&p), "{p:?}");
        assert_eq!(r.best, r.line.first().copied());
        check_line(&p, value, &r.line, &mut exact);
        checked += 1;
        let mut moves = <TicTacToe as Game>::Moves::default();
        p.generate(&mut moves);
        for &m in moves.as_slice() {
            let mut c = p;
            c.make(m);
            stack.push(c);
        }
    }
    assert_eq!(checked, 4_520);
}

#[test]
fn connect4_lines_reach_the_end() {
    use gametree_games_connect4::{Board, Size};
    let size = Size::new(4, 4).unwrap();
    let mut searcher = AlphaBeta::<Board>::new(Config::default()).unwrap();
    // Plain alpha-beta is the reference.
    let mut exact = |g: &Board| alpha_beta_solve(&mut g.clone()).value;
    let none = Limits::none();
    for moves in ["2323", "23231", "1414", "2233", "123321", "4411"] {
        let p = Board::from_moves(size, moves).unwrap();
        let r = searcher.solve(&mut p.clone(), &mut Request::new(&none).find(Find::Score));
        let value = r.score.expect("solved without limits");
        check_line(&p, value, &r.line, &mut exact);
    }
}

#[test]
fn chess_mate_lines_have_the_mate_length() {
    use gametree_games_chess::Position;
    let mut searcher = AlphaBeta::<Position>::new(Config::default()).unwrap();
    for (fen, plies) in [
        ("8/8/8/8/8/2k5/8/1K1Q4 w - - 0 1", 7),
        ("7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1),
        // Black to move: Kf8 or Kh8, then mate in two more moves.
        ("6k1/8/6K1/8/8/8/8/R7 b - - 0 1", 4),
    ] {
        let p: Position = fen.parse().unwrap();
        let none = Limits::none();
        let r = searcher.solve(&mut p.clone(), &mut Request::new(&none).find(Find::Score));
        let value = r.score.expect("solved without limits");
        assert_eq!(value.plies_to_end(), Some(plies), "{fen}");
        if plies <= 4 {
            // Plain negamax to the mate's depth agrees.
            assert_eq!(
                gametree_alphabeta::negamax(&mut p.clone(), plies).value,
                value,
                "{fen}"
            );
        }
        assert_eq!(r.line.len(), plies as usize, "{fen}: {:?}", r.line);
        let mut q = p.clone();
        for &m in &r.line {
            q.make(m);
        }
        assert!(q.outcome().is_some(), "{fen}: the line ends in mate");
    }
}
