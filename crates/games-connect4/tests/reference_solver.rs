//! A self-contained reference solver (plain negamax with alpha-beta over the
//! `Game` trait, no table) checks Pons's exact scores, the small board
//! sizes, and a second solver that uses the bitboard knowledge functions.

mod common;

use std::time::Instant;

use gametree_data::pons::TestSet;
use gametree_game::{Game, Outcome};
use gametree_games_connect4::{Board, Column, Moves, Size};

/// Exact Pons score of `b` for the side to move, within `(alpha, beta)`
/// (fail-hard), using only the `Game` trait: generate, make, unmake,
/// outcome. Immediate wins are found by playing each move and asking
/// `outcome`.
fn reference(b: &mut Board, mut alpha: i32, mut beta: i32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let cells = b.size().cells() as i32;
    let plies = b.plies() as i32;
    if b.outcome() == Some(Outcome::Draw) {
        return 0;
    }
    let mut moves = Moves::new();
    b.generate(&mut moves);
    for &m in &moves {
        b.make(m);
        let won = b.outcome() == Some(Outcome::Loss);
        b.unmake(m, ());
        if won {
            // The winning stone is ply `plies + 1`.
            return (cells + 1 - plies) / 2;
        }
    }
    // No immediate win: the best possible is a win two plies later.
    let max = (cells - 1 - plies) / 2;
    if beta > max {
        beta = max;
        if alpha >= beta {
            return beta;
        }
    }
    for &m in &moves {
        b.make(m);
        let score = -reference(b, -beta, -alpha, nodes);
        b.unmake(m, ());
        if score >= beta {
            return score;
        }
        if score > alpha {
            alpha = score;
        }
    }
    alpha
}

/// The same search built on the knowledge functions: immediate win from
/// `can_win_now`, only `non_losing_moves`, ordered by `threats_after`
/// (then centre first), and the lower bound a forced loss implies.
fn with_knowledge(b: &mut Board, mut alpha: i32, mut beta: i32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let cells = b.size().cells() as i32;
    let plies = b.plies() as i32;
    if b.can_win_now() {
        return (cells + 1 - plies) / 2;
    }
    let safe = b.non_losing_moves();
    if safe == 0 {
        // The opponent wins on its next move (ply plies + 2).
        return -(cells - plies) / 2;
    }
    if plies >= cells - 2 {
        // Two cells left at most and neither side wins: a draw.
        return 0;
    }
    // The opponent cannot win on its next move: no worse than a loss later.
    let min = -(cells - 2 - plies) / 2;
    if alpha < min {
        alpha = min;
        if alpha >= beta {
            return alpha;
        }
    }
    let max = (cells - 1 - plies) / 2;
    if beta > max {
        beta = max;
        if alpha >= beta {
            return beta;
        }
    }
    let mut order = Moves::new();
    b.columns_of(safe, &mut order);
    // Insertion sort by threat count, most first; stable, so the
    // centre-first order remains among equal counts.
    let mut scored = [(0u32, Column::new(0).unwrap()); 32];
    let n = order.len();
    for (i, &c) in order.iter().enumerate() {
        let t = b.threats_after(b.landing_cell(c));
        let mut j = i;
        while j > 0 && scored[j - 1].0 < t {
            scored[j] = scored[j - 1];
            j -= 1;
        }
        scored[j] = (t, c);
    }
    for &(_, c) in &scored[..n] {
        b.play(c);
        let score = -with_knowledge(b, -beta, -alpha, nodes);
        b.undo();
        if score >= beta {
            return score;
        }
        if score > alpha {
            alpha = score;
        }
    }
    alpha
}

fn solve_reference(b: &Board) -> (i32, u64) {
    let mut b = *b;
    let mut nodes = 0;
    let cells = b.size().cells() as i32;
    let s = reference(&mut b, -cells, cells, &mut nodes);
    (s, nodes)
}

fn solve_knowledge(b: &Board) -> (i32, u64) {
    let mut b = *b;
    let mut nodes = 0;
    let cells = b.size().cells() as i32;
    let s = with_knowledge(&mut b, -cells, cells, &mut nodes);
    (s, nodes)
}

#[test]
#[cfg_attr(
    not(pons_data),
    ignore = "needs Pascal Pons's Connect Four test sets (blog.gamesolver.org, test protocol): set GAMETREE_DATA=DIR with DIR/connect4/Test_L3_R1 ..."
)]
fn end_easy_every_line() {
    let dir = common::data_dir();
    let set = TestSet::L3_R1
        .load_with(&dir, common::pons_board)
        .expect("Test_L3_R1 loads");
    assert_eq!(set.len(), 1000);
    let start = Instant::now();
    let (mut ref_nodes, mut kn_nodes) = (0, 0);
    for t in &set {
        let (s, n) = solve_reference(&t.board);
        assert_eq!(s, t.score, "reference solver, line {}: {}", t.line, t.moves);
        ref_nodes += n;
        let (s, n) = solve_knowledge(&t.board);
        assert_eq!(s, t.score, "knowledge solver, line {}: {}", t.line, t.moves);
        kn_nodes += n;
        // The mirror image has the same score.
        let (s, _) = solve_knowledge(&t.board.mirrored());
        assert_eq!(s, t.score, "mirrored, line {}", t.line);
    }
    println!(
        "{}: 1000/1000 exact; mean nodes: reference {:.1}, knowledge {:.1}; {:?}",
        TestSet::L3_R1,
        ref_nodes as f64 / 1000.0,
        kn_nodes as f64 / 1000.0,
        start.elapsed()
    );
}

#[test]
#[cfg_attr(
    not(pons_data),
    ignore = "needs Pascal Pons's Connect Four test sets (blog.gamesolver.org, test protocol): set GAMETREE_DATA=DIR with DIR/connect4/Test_L3_R1 ..."
)]
fn middle_easy_knowledge_solver() {
    let dir = common::data_dir();
    let set = TestSet::L2_R1
        .load_with(&dir, common::pons_board)
        .expect("Test_L2_R1 loads");
    assert_eq!(set.len(), 1000);
    // The first lines with the plain reference too.
    const REFERENCE_LINES: usize = 50;
    let start = Instant::now();
    let mut kn_nodes = 0;
    for t in &set {
        let (s, n) = solve_knowledge(&t.board);
        assert_eq!(s, t.score, "knowledge solver, line {}: {}", t.line, t.moves);
        kn_nodes += n;
    }
    for t in &set[..REFERENCE_LINES] {
        let (s, _) = solve_reference(&t.board);
        assert_eq!(s, t.score, "reference solver, line {}: {}", t.line, t.moves);
    }
    println!(
        "{}: 1000/1000 exact (knowledge solver; first {REFERENCE_LINES} also reference); mean nodes {:.1}; {:?}",
        TestSet::L2_R1,
        kn_nodes as f64 / 1000.0,
        start.elapsed()
    );
}

#[test]
fn small_boards_are_draws() {
    // The published values (John Tromp; the corpus, `gametree-data`).
    let outcome = |pons: i32| match pons.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    };
    for (w, h) in [(4, 4), (5, 4), (4, 5)] {
        let published = common::published_value(w, h);
        let b = Board::new(Size::new(w, h).unwrap());
        let (s, n) = solve_reference(&b);
        assert_eq!(outcome(s), published, "{w}x{h}");
        let (k, m) = solve_knowledge(&b);
        assert_eq!(k, s, "{w}x{h}");
        println!("{w}x{h}: {published}; nodes reference {n}, knowledge {m}");
    }
    // 5×5 with the knowledge solver and a null window around 0 (a result
    // strictly inside (-1, 1) is exact, and only a draw is): about 7 M
    // nodes.
    assert_eq!(common::published_value(5, 5), Outcome::Draw);
    let mut b = Board::new(Size::new(5, 5).unwrap());
    let mut nodes = 0;
    assert_eq!(with_knowledge(&mut b, -1, 1, &mut nodes), 0, "5x5");
    println!("5x5: draw; nodes knowledge (null window) {nodes}");
}
