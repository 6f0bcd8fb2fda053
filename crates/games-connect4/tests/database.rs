//! Connect Four databases over `BoardIndex` by retrograde analysis, checked
//! against the generic alpha-beta solver and between the two methods.
//!
//! 4 × 4 (every position) runs here; the 5 × 4 database and its sampled
//! comparison with alpha-beta are heavier and run from `cargo xtask verify`
//! and `gametree verify` (see the CLI), with the same calls.

use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver};
use gametree_game::IndexSpace;
use gametree_games_connect4::{Board, BoardIndex, Size};
use gametree_retrograde::{Generator, Method, NoExits, Table, Value, verify};

fn size(w: usize, h: usize) -> Size {
    Size::new(w, h).unwrap()
}

/// The published value of the empty `w` × `h` board for the first player
/// (John Tromp; the corpus of `gametree-data`).
fn published_value(w: usize, h: usize) -> gametree_game::Outcome {
    let c4 = gametree_data::connect4().unwrap();
    c4.board(w, h).unwrap().value
}

/// The alpha-beta solver in solve mode (shortest win, longest loss).
fn solver() -> AlphaBeta<Board> {
    AlphaBeta::<Board>::new(Config::default()).unwrap()
}

fn solve(searcher: &mut AlphaBeta<Board>, b: &mut Board) -> Value {
    let none = Limits::none();
    let solved = searcher.solve(b, &mut Request::new(&none).find(Find::Score));
    let score = solved.score.unwrap_or_else(|| panic!("{b}: not solved"));
    Value::from_score(score).unwrap_or_else(|| panic!("{b}: {score}"))
}

/// Both methods agree index by index, un-moves invert moves over the whole
/// space, every value follows from its successors'.
fn database(space: &BoardIndex) -> Table {
    let (table, report) = verify::database(space, &NoExits).unwrap();
    assert_eq!(report.positions, space.positions());
    assert_eq!(report.indices, space.size());
    assert_eq!(report.counts.positions(), space.positions());
    table
}

#[test]
fn four_by_four_equals_alpha_beta_everywhere() {
    let plain = BoardIndex::plain(size(4, 4)).unwrap();
    let mirror = BoardIndex::symmetric(size(4, 4)).unwrap();
    let table = database(&plain);
    let mirror_table = database(&mirror);
    // The published value (Tromp): 4 × 4 is a draw.
    let empty = Board::new(size(4, 4));
    assert_eq!(
        table
            .get(plain.index_of(&empty).unwrap())
            .map(Value::outcome),
        Some(published_value(4, 4))
    );
    // Every position: the table, the mirror-reduced table (at the mirror
    // image too) and alpha-beta's exact solve agree.
    let mut searcher = solver();
    let mut decisive = 0;
    let checked = verify::agrees_with_search(&plain, &table, 0..plain.size(), |b| {
        let v = solve(&mut searcher, b);
        let m = mirror.index_of(b).unwrap();
        assert_eq!(mirror_table.get(m), Some(v), "{b}");
        assert_eq!(mirror.index_of(&b.mirrored()), Some(m));
        decisive += u64::from(v != Value::Draw);
        v
    })
    .unwrap();
    assert_eq!(checked, plain.positions());
    assert!(decisive > 0 && decisive < checked);
}

#[test]
fn four_by_four_matches_the_reachable_enumeration() {
    // An independent numbering (retrograde's `Reachable`, breadth-first by
    // `Board::key`) finds the same positions and the same values.
    let plain = BoardIndex::plain(size(4, 4)).unwrap();
    let table = Generator::new(&plain).build(Method::Backward).unwrap();
    let reach = gametree_retrograde::Reachable::new(Board::new(size(4, 4)), Board::key).unwrap();
    assert_eq!(reach.positions(), plain.positions());
    let other = Generator::new(&reach).build(Method::ForwardSweeps).unwrap();
    for i in 0..reach.size() {
        let b = reach.position(i).unwrap();
        assert_eq!(table.get(plain.index_of(&b).unwrap()), other.get(i), "{b}");
    }
    assert_eq!(table.counts().positions(), other.counts().positions());
}

#[test]
fn small_boards_by_both_methods() {
    // Fours only across (4 × 3, 5 × 3), only up (3 × 4), none (2 × 6).
    for (w, h, plain) in [(4, 3, true), (3, 4, true), (2, 6, true), (5, 3, false)] {
        let mut spaces = vec![BoardIndex::symmetric(size(w, h)).unwrap()];
        if plain {
            spaces.push(BoardIndex::plain(size(w, h)).unwrap());
        }
        for space in spaces {
            let table = database(&space);
            let mut searcher = solver();
            let n = verify::agrees_with_search(&space, &table, 0..space.size(), |b| {
                solve(&mut searcher, b)
            })
            .unwrap();
            assert_eq!(n, space.positions(), "{w}x{h}");
        }
    }
}

#[test]
fn five_by_four_is_a_draw() {
    // The mirror-reduced 5 × 4 database by the backward method (the full
    // comparisons run in `cargo xtask verify`).
    let space = BoardIndex::symmetric(size(5, 4)).unwrap();
    let table = Generator::new(&space).build(Method::Backward).unwrap();
    let empty = Board::new(size(5, 4));
    assert_eq!(
        table
            .get(space.index_of(&empty).unwrap())
            .map(Value::outcome),
        Some(published_value(5, 4))
    );
    assert_eq!(table.counts().positions(), space.positions());
    // A few positions against alpha-beta, spread over the space.
    let mut searcher = solver();
    let step = space.size() / 97;
    let mut checked = 0;
    let mut i = 1;
    while i < space.size() && checked < 40 {
        // The next valid index at or after i.
        if let Some(mut b) = (i..space.size()).find_map(|j| space.position(j)) {
            let j = space.index_of(&b).unwrap();
            assert_eq!(table.get(j), Some(solve(&mut searcher, &mut b)), "{b}");
            checked += 1;
        }
        i += step;
    }
    assert!(checked >= 20);
}
