//! The bitboard rules and knowledge against a naive 2-D implementation, and
//! position counts against the published OEIS A212693.

mod common;

use std::collections::{HashMap, HashSet};

use common::{Naive, Rng};
use gametree_game::{Game, Outcome, Player, Score, check, perft};
use gametree_games_connect4::{Board, Column, Moves, SYMMETRIC_TABLE_PLIES, Size, perft_bitboard};

/// Sizes exercised: the standard board, the small solved ones, and the
/// extremes of the 64-bit layout.
const SIZES: [(usize, usize); 13] = [
    (7, 6),
    (4, 4),
    (5, 4),
    (4, 5),
    (5, 5),
    (6, 7),
    (8, 7),
    (9, 5),
    (16, 3),
    (32, 1),
    (1, 63),
    (3, 3),
    (2, 20),
];

fn cell(size: Size, c: usize, r: usize) -> u64 {
    size.cell(c, r)
}

/// Compares everything the board knows about a position with the naive
/// grid.
fn compare(b: &Board, n: &mut Naive) {
    let size = b.size();
    let (w, h) = (size.width(), size.height());
    assert_eq!(b.plies(), n.plies);
    // Stones.
    for c in 0..w {
        for r in 0..h {
            let expect = match n.grid[c][r] {
                0 => None,
                1 => Some(Player::First),
                _ => Some(Player::Second),
            };
            assert_eq!(b.stone_at(c, r), expect, "{b:?} cell {c},{r}");
        }
    }
    // Outcome.
    let me = n.to_move();
    let opp = 3 - me;
    assert!(!n.has_four(me), "side to move can never have four");
    let expect = if n.has_four(opp) {
        Some(Outcome::Loss)
    } else if n.full() {
        Some(Outcome::Draw)
    } else {
        None
    };
    assert_eq!(b.outcome(), expect, "{b:?}");
    assert_eq!(b.is_over(), expect.is_some());
    // Moves (as sets; the board orders them centre first).
    let mut moves = Moves::new();
    b.generate(&mut moves);
    let mut got: Vec<usize> = moves.iter().map(|m| m.index()).collect();
    got.sort_unstable();
    assert_eq!(got, n.moves(), "{b:?}");
    for c in 0..w {
        let col = Column::new(c).unwrap();
        assert_eq!(b.can_play(col), n.heights[c] < h);
        assert_eq!(b.is_legal(col), n.moves().contains(&c));
    }
    // Possible cells.
    let mut possible = 0;
    for c in 0..w {
        if n.heights[c] < h {
            possible |= cell(size, c, n.heights[c]);
        }
    }
    assert_eq!(b.possible(), possible);
    if b.is_over() {
        // With four already connected, "completes four" is meaningless.
        return;
    }
    // Threats: every empty cell, playable or not.
    let (mut mine, mut theirs) = (0, 0);
    for c in 0..w {
        for r in n.heights[c]..h {
            if n.completes_four(me, c, r) {
                mine |= cell(size, c, r);
            }
            if n.completes_four(opp, c, r) {
                theirs |= cell(size, c, r);
            }
        }
    }
    assert_eq!(b.own_threats(), mine, "{b:?}");
    assert_eq!(b.opponent_threats(), theirs, "{b:?}");
    assert_eq!(b.winning_moves(), mine & possible);
    assert_eq!(b.forced_blocks(), theirs & possible);
    for c in 0..w {
        let col = Column::new(c).unwrap();
        let wins = n.heights[c] < h && n.completes_four(me, c, n.heights[c]);
        assert_eq!(b.is_winning_move(col), wins);
    }
    // Tactical: the fast generator returns the same set as the default
    // filter over generate(), wins before blocks.
    let mut tactical = Moves::new();
    b.generate_tactical(&mut tactical);
    let mut filtered: Vec<Column> = moves
        .iter()
        .copied()
        .filter(|&m| b.move_hint(m).tactical().is_some())
        .collect();
    let mut fast = tactical.to_vec();
    let first_block = fast
        .iter()
        .position(|&m| b.move_hint(m).tactical() == Some(1));
    if let Some(i) = first_block {
        assert!(
            fast[i..]
                .iter()
                .all(|&m| b.move_hint(m).tactical() == Some(1))
        );
    }
    fast.sort_unstable();
    filtered.sort_unstable();
    assert_eq!(fast, filtered, "{b:?}");
    assert!(b.evaluate().get().abs() <= Score::MAX_HEURISTIC);
    // Non-losing moves by brute force: after the move, the opponent has no
    // immediate win (only meaningful when we cannot win at once).
    if !b.can_win_now() {
        let mut safe = 0;
        for c in n.moves() {
            let r = n.heights[c];
            n.play(c);
            let opp_wins = n
                .moves()
                .into_iter()
                .any(|c2| n.completes_four(opp, c2, n.heights[c2]));
            n.undo(c);
            if !opp_wins {
                safe |= cell(size, c, r);
            }
        }
        assert_eq!(b.non_losing_moves(), safe, "{b:?}");
    }
    // Threat count after each move that does not win, by brute force.
    for c in n.moves() {
        let r = n.heights[c];
        if n.completes_four(me, c, r) {
            continue;
        }
        n.play(c);
        let mut count = 0;
        for c2 in 0..w {
            for r2 in n.heights[c2]..h {
                if n.completes_four(me, c2, r2) {
                    count += 1;
                }
            }
        }
        n.undo(c);
        assert_eq!(b.threats_after(cell(size, c, r)), count, "{b:?} col {c}");
    }
}

/// The mirror image of the naive grid.
fn mirror(n: &Naive) -> Naive {
    let mut m = n.clone();
    m.grid.reverse();
    m.heights.reverse();
    m
}

#[test]
fn random_playouts_agree_with_naive() {
    let mut rng = Rng(0xc0ffee);
    let mut by_table_key: HashMap<u64, (Size, u64)> = HashMap::new();
    for &(w, h) in &SIZES {
        let size = Size::new(w, h).unwrap();
        // Unique key: one grid per key and one key per grid.
        let mut by_key: HashMap<u64, Naive> = HashMap::new();
        let games = if w * h > 100 { 20 } else { 60 };
        for _ in 0..games {
            let mut b = Board::new(size);
            let mut n = Naive::new(w, h);
            loop {
                compare(&b, &mut n);
                check::position(&b, b.plies()).unwrap();
                check::forcing(&b).unwrap();
                if let Some(prev) = by_key.insert(b.key(), n.clone()) {
                    assert_eq!(prev, n, "two positions share key {:#x}", b.key());
                }
                // Mirror symmetry.
                let m = b.mirrored();
                assert_eq!(m.key(), b.mirror_key(), "{b:?}");
                assert_eq!(m.mirror_key(), b.key());
                assert_eq!(b.symmetric_key(), m.symmetric_key());
                assert_eq!(b.symmetric_key(), b.key().min(b.mirror_key()));
                // The table key: shared with the mirror image up to
                // SYMMETRIC_TABLE_PLIES stones, the hash deeper, and shared
                // with no other position (of any size: the size salt).
                // The table move: a bijection on the columns, its own
                // inverse, and the two images name the same stored move
                // for mirrored columns (the identity where the key is the
                // position's own; a position that is its own mirror image
                // keeps its columns).
                for c in 0..w {
                    let col = Column::new(c).unwrap();
                    let mirrored = Column::new(w - 1 - c).unwrap();
                    let t = b.table_move(col);
                    assert!(t.index() < w, "{b:?} {col}");
                    assert_eq!(b.table_move(t), col, "{b:?} {col}");
                    if b.key() == b.mirror_key() {
                        assert_eq!(t, col, "{b:?} {col}");
                    } else if b.plies() <= usize::from(SYMMETRIC_TABLE_PLIES) {
                        assert_eq!(t, m.table_move(mirrored), "{b:?} {col}");
                    } else {
                        assert_eq!(t, col, "{b:?} {col}");
                    }
                }
                let identity = if b.plies() <= usize::from(SYMMETRIC_TABLE_PLIES) {
                    assert_eq!(b.table_key(), m.table_key(), "{b:?}");
                    b.symmetric_key()
                } else {
                    assert_eq!(b.table_key(), b.hash(), "{b:?}");
                    b.key()
                };
                if let Some(prev) = by_table_key.insert(b.table_key(), (size, identity)) {
                    assert_eq!(prev, (size, identity), "table key {:#x}", b.table_key());
                }
                let mn = mirror(&n);
                for c in 0..w {
                    for r in 0..h {
                        let expect = match mn.grid[c][r] {
                            0 => None,
                            1 => Some(Player::First),
                            _ => Some(Player::Second),
                        };
                        assert_eq!(m.stone_at(c, r), expect);
                    }
                }
                // Notation round trip.
                let text = b.to_string();
                assert_eq!(Board::from_moves(size, &text).unwrap(), b);
                assert_eq!(b.history().count(), b.plies());
                let moves = n.moves();
                if moves.is_empty() {
                    break;
                }
                let c = moves[rng.below(moves.len())];
                b.play(Column::new(c).unwrap());
                n.play(c);
            }
            // Unwind with undo and compare on the way back.
            while let Some(c) = b.undo() {
                n.undo(c.index());
                assert_eq!(b.hash(), b.recompute_hash());
                assert_eq!(b.stone_at(c.index(), n.heights[c.index()]), None);
            }
            assert_eq!(b, Board::new(size));
            assert_eq!(b.hash(), Board::new(size).hash());
        }
        let distinct: HashSet<Naive> = by_key.values().cloned().collect();
        assert_eq!(distinct.len(), by_key.len());
    }
}

#[test]
fn perft_three_ways() {
    // depth limits keep the naive reference fast
    for &(w, h, depth) in &[
        (7, 6, 7),
        (4, 4, 9),
        (5, 4, 8),
        (4, 5, 8),
        (5, 5, 7),
        (8, 7, 6),
        (16, 3, 4),
        (32, 1, 4),
        (1, 63, 63),
        (3, 3, 9),
    ] {
        let size = Size::new(w, h).unwrap();
        let mut b = Board::new(size);
        let mut n = Naive::new(w, h);
        for d in 0..=depth {
            let naive = n.perft(d);
            assert_eq!(perft(&mut b, d), naive, "{size} depth {d}");
            assert_eq!(perft_bitboard(&b, d), naive, "{size} depth {d}");
        }
    }
    // Deeper on 7×6: generic against bitboard only.
    let mut b = Board::standard();
    assert_eq!(perft(&mut b, 8), perft_bitboard(&b, 8));
    // From a position with wins in reach.
    let mut b: Board = "4455".parse().unwrap();
    let mut n = Naive::new(7, 6);
    for c in [3, 3, 4, 4] {
        n.play(c);
    }
    for d in 0..=6 {
        assert_eq!(perft(&mut b, d), n.perft(d));
        assert_eq!(perft_bitboard(&b, d), n.perft(d));
    }
}

#[test]
fn small_boards_finish() {
    // The 3×3 board can never have four in a row: every game fills it.
    let mut b = Board::new(Size::new(3, 3).unwrap());
    assert_eq!(perft(&mut b, 9), perft_bitboard(&b, 9));
    assert_eq!(perft(&mut b, 10), 0);
}

/// OEIS A212693 (the corpus of `gametree-data`): the number of legal
/// 7 × 6 positions after n plies (positions where the game ended count,
/// but are not extended), up to ply 9 here.
fn a212693() -> &'static [u64] {
    &common::legal_positions_7x6()[..10]
}

/// The distinct positions one ply after `layer` (by unique key), and their
/// number.
fn next_layer(layer: &[Board], keep: bool) -> (Vec<Board>, u64) {
    let mut seen = HashSet::new();
    let mut next = Vec::new();
    let mut moves = Moves::new();
    for b in layer {
        b.generate(&mut moves);
        for &m in moves.as_slice() {
            let mut c = *b;
            c.make(m);
            if seen.insert(c.key()) && keep {
                next.push(c);
            }
        }
    }
    (next, seen.len() as u64)
}

#[test]
fn distinct_positions_match_oeis() {
    let mut layer: Vec<Board> = vec![Board::standard()];
    let mut naive_layer: HashSet<Naive> = HashSet::from([Naive::new(7, 6)]);
    let published = a212693();
    for (ply, &expect) in published.iter().enumerate().skip(1) {
        let last = ply + 1 == published.len();
        let (next, count) = next_layer(&layer, !last);
        assert_eq!(count, expect, "ply {ply}");
        layer = next;
        if ply <= 6 {
            let mut nl = HashSet::new();
            for n in &naive_layer {
                for c in n.moves() {
                    let mut m = n.clone();
                    m.play(c);
                    nl.insert(m);
                }
            }
            naive_layer = nl;
            assert_eq!(naive_layer.len() as u64, expect, "naive ply {ply}");
        }
    }
}

#[test]
fn position_counts_agree_with_naive() {
    for &(w, h, plies) in &[(4, 4, 12), (5, 4, 9), (3, 3, 9), (7, 6, 5), (32, 1, 3)] {
        let counts = gametree_games_connect4::count_positions(Size::new(w, h).unwrap(), plies);
        let mut layer: HashSet<Naive> = HashSet::from([Naive::new(w, h)]);
        for &count in &counts[1..] {
            let mut next = HashSet::new();
            for n in &layer {
                for c in n.moves() {
                    let mut m = n.clone();
                    m.play(c);
                    next.insert(m);
                }
            }
            layer = next;
            assert_eq!(count, layer.len() as u64, "{w}x{h}");
        }
    }
}

#[test]
fn check_oracles_on_playouts() {
    let mut rng = Rng(7);
    for &(w, h) in &SIZES {
        let b = Board::new(Size::new(w, h).unwrap());
        for _ in 0..20 {
            let mut choices = std::iter::from_fn(|| Some(rng.next()));
            check::playout(&b, &mut choices, 64).unwrap();
        }
        for c in 0..40 {
            let cand = Column::new(c % 32).unwrap();
            check::try_make_agrees(&b, cand).unwrap();
        }
    }
    // try_make on a finished game refuses everything.
    let mut won: Board = "1212121".parse().unwrap();
    for c in 0..7 {
        assert!(won.try_make(Column::new(c).unwrap()).is_err());
    }
}

#[test]
fn hashes_distinguish_positions() {
    // No two of the 260 k distinct positions up to ply 8 share a hash
    // (`Game::hash`, the mixed unique key) or a Zobrist hash; transpositions
    // share both.
    let mut layer = vec![Board::standard()];
    let mut hashes = HashMap::new();
    let mut zobrist = HashMap::new();
    let mut moves = Moves::new();
    for _ in 0..8 {
        let mut next = Vec::new();
        for b in &layer {
            b.generate(&mut moves);
            for &m in moves.as_slice() {
                let mut c = *b;
                c.make(m);
                if let Some(k) = zobrist.insert(c.zobrist(), c.key()) {
                    assert_eq!(k, c.key(), "Zobrist collision");
                }
                if let Some(k) = hashes.insert(c.hash(), c.key()) {
                    assert_eq!(k, c.key(), "hash collision");
                } else {
                    next.push(c);
                }
            }
        }
        layer = next;
    }
    assert_eq!(hashes.len() as u64, a212693()[1..=8].iter().sum::<u64>());
    assert_eq!(zobrist.len(), hashes.len());
}

#[test]
fn hashes_distinguish_board_sizes() {
    // Every position of up to 2 plies on every board size: no two share a
    // hash unless they are the same position of the same size (keys alone
    // coincide across sizes: every empty 1 × h board has key 1).
    let mut seen: HashMap<u64, (Size, u64)> = HashMap::new();
    let mut moves = Moves::new();
    let mut sizes = 0;
    for w in 1..=64 {
        for h in 1..=63 {
            let Ok(size) = Size::new(w, h) else { continue };
            sizes += 1;
            let mut layer = vec![Board::new(size)];
            for _ in 0..=2 {
                let mut next = Vec::new();
                for b in &layer {
                    assert_eq!(b.hash(), b.recompute_hash());
                    if let Some(prev) = seen.insert(b.hash(), (size, b.key())) {
                        assert_eq!(prev, (size, b.key()), "hash shared across {size:?}");
                        continue;
                    }
                    if b.outcome().is_none() {
                        b.generate(&mut moves);
                        for &m in moves.as_slice() {
                            let mut c = *b;
                            c.make(m);
                            next.push(c);
                        }
                    }
                }
                layer = next;
            }
        }
    }
    assert!(sizes > 200, "{sizes} sizes");
}
