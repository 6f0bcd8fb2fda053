//! Solving with a table under pressure: a wrong exact score once came out
//! of alpha-beta's exact solve when the table compared only 16 bits of the key
//! (a probe of a position not stored matched another position's entry
//! about once in 8,192 probes of a full bucket, and its bound was trusted).
//! The searcher now verifies the whole key by default; these positions
//! gave wrong values before.

use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver, alpha_beta_solve};
use gametree_game::{Game, Score};

/// `s`'s exact score of `board`, solved without limits.
fn exact(s: &mut AlphaBeta<Board>, board: &Board) -> Option<Score> {
    let none = Limits::none();
    s.solve(
        &mut board.clone(),
        &mut Request::new(&none).find(Find::Score),
    )
    .score
}
use gametree_games_connect4::{Board, Size};

/// Line 298 of Pons's `Test_L2_R2`: score 2 (a win on ply 39 or 40).
/// With 16 check bits the default 16 MiB table answered 1.
#[test]
fn pons_l2_r2_line_298_exact_with_the_default_table() {
    let board: Board = "142642644756145".parse().expect("position");
    for bytes in [1 << 20, 16 << 20] {
        let mut s = AlphaBeta::<Board>::new(Config::default().memory(bytes)).expect("table");
        let score = exact(&mut s, &board).expect("solved");
        assert_eq!(board.pons_score(score), Some(2), "table of {bytes} bytes");
    }
}

/// The smallest case found: 4×4 Connect Four after `232`, a draw, solved
/// with a two-bucket table (128 bytes). With 16 check bits it came out as
/// "win in 13" after about 10,000 nodes.
#[test]
fn four_by_four_232_is_a_draw_with_a_tiny_table() {
    let board = Board::from_moves(Size::new(4, 4).expect("size"), "232").expect("position");
    let mut s = AlphaBeta::<Board>::new(Config::default().memory(128)).expect("table");
    assert_eq!(exact(&mut s, &board), Some(Score::DRAW));
    assert_eq!(alpha_beta_solve(&mut board.clone()).value, Score::DRAW);
}

/// Every position of 4×4 Connect Four up to 4 plies, solved one after the
/// other by one searcher with a 256-byte table kept between them, equals
/// plain alpha-beta, distance included.
#[test]
fn four_by_four_positions_in_a_row_with_a_tiny_table() {
    let mut s = AlphaBeta::<Board>::new(Config::default().memory(256)).expect("table");
    let mut frontier = vec![Board::new(Size::new(4, 4).expect("size"))];
    let mut moves = <Board as Game>::Moves::default();
    let mut solved = 0;
    for _ in 0..=4 {
        let mut next = Vec::new();
        for b in &frontier {
            if b.outcome().is_some() {
                continue;
            }
            let expected = alpha_beta_solve(&mut b.clone()).value;
            assert_eq!(exact(&mut s, b), Some(expected), "{b}");
            solved += 1;
            b.generate(&mut moves);
            for &m in moves.as_slice() {
                let mut c = *b;
                c.make(m);
                next.push(c);
            }
        }
        frontier = next;
    }
    assert!(solved > 300);
}
