//! Ataxx rules against published perft numbers, a brute-force move
//! generator, and the `gametree_game::check` oracles.

use gametree_data::{PerftPosition, ataxx_perft};
use gametree_game::{Game, Outcome, Player};
use gametree_games_ataxx::{Cell, FenError, Move, Moves, Position, Square, divide, perft};
use rand_core::Rng;
use rand_pcg::Pcg64;

/// libataxx's published perft table (the corpus of `gametree-data`).
fn published() -> &'static [PerftPosition] {
    ataxx_perft().unwrap()
}

/// Every published row up to 5 million leaves, with the fast perft.
#[test]
fn published_perft_fast() {
    let mut checked = 0;
    for row in published() {
        let pos: Position = row.fen.parse().unwrap();
        for &(depth, expected) in row.counts.iter().take_while(|r| r.1 <= 5_000_000) {
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", row.fen);
            checked += 1;
        }
    }
    // 6 + 6 + 6 + 5 rows of depth 0..=5 (start position: 0..=5).
    assert_eq!(checked, 6 + 6 + 6 + 5);
}

/// The generic `gametree_game::perft` (generate/make/unmake with hashing) agrees
/// with the published numbers and with the fast perft.
#[test]
fn published_perft_generic() {
    for row in published() {
        let mut pos: Position = row.fen.parse().unwrap();
        for &(depth, expected) in row.counts.iter().take_while(|r| r.1 <= 300_000) {
            assert_eq!(
                gametree_game::perft(&mut pos, depth),
                expected,
                "{} depth {depth}",
                row.fen
            );
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", row.fen);
        }
    }
}

/// The fast perft equals the generic one from positions in the middle of
/// random games (random blocked squares, captures, passes, clocks).
#[test]
fn fast_perft_equals_generic_midgame() {
    let mut rng = Pcg64::new(0xfa57, 3);
    let mut moves = Moves::default();
    let mut checked = 0;
    for _ in 0..40 {
        let mut pos = random_start(&mut rng);
        let plies = rng.next_u64() % 60;
        for _ in 0..plies {
            pos.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        for depth in 0..=3 {
            assert_eq!(
                perft(&pos, depth),
                gametree_game::perft(&mut pos, depth),
                "{pos} depth {depth}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 40);
    // A clock near the limit: the tree stops at 100 half-moves.
    let mut pos: Position = "x5o/7/7/7/7/7/o5x x 98 1".parse().unwrap();
    for depth in 0..=4 {
        assert_eq!(
            perft(&pos, depth),
            gametree_game::perft(&mut pos, depth),
            "depth {depth}"
        );
    }
}

/// Divide sums to perft and agrees with the generic divide.
#[test]
fn divide_agrees() {
    let mut pos = Position::startpos();
    let rows = divide(&pos, 4);
    assert_eq!(rows.len(), 16);
    let start = published().iter().find(|r| r.id == "startpos").unwrap();
    assert_eq!(
        rows.iter().map(|r| r.1).sum::<u64>(),
        start.nodes(4).unwrap()
    );
    assert_eq!(rows, gametree_game::perft_divide(&mut pos, 4));
}

/// A naive move generator from the rules' words, square by square.
fn brute_moves(pos: &Position) -> Vec<Move> {
    if pos.outcome().is_some() {
        return Vec::new();
    }
    let me = match pos.side_to_move() {
        Player::First => Cell::X,
        Player::Second => Cell::O,
    };
    let squares: Vec<Square> = (0..49).map(|i| Square::new(i).unwrap()).collect();
    let mut out = Vec::new();
    for &to in &squares {
        if pos.cell(to) != Cell::Empty {
            continue;
        }
        if squares
            .iter()
            .any(|&f| pos.cell(f) == me && f.distance(to) == 1)
        {
            out.push(Move::single(to));
        }
        for &from in &squares {
            if pos.cell(from) == me && from.distance(to) == 2 {
                out.push(Move::jump(from, to).unwrap());
            }
        }
    }
    if out.is_empty() {
        out.push(Move::PASS);
    }
    out
}

/// A naive make: returns the position after `m` as a FEN-level rebuild.
fn brute_after(pos: &Position, m: Move) -> Position {
    let me = pos.side_to_move();
    let mut cells: Vec<Cell> = (0..49).map(|i| pos.cell(Square::new(i).unwrap())).collect();
    let (mine, theirs) = match me {
        Player::First => (Cell::X, Cell::O),
        Player::Second => (Cell::O, Cell::X),
    };
    let mut half = pos.halfmoves() + 1;
    if let Some(to) = m.to() {
        if let Some(from) = m.from() {
            cells[from.index()] = Cell::Empty;
        } else {
            half = 0;
        }
        cells[to.index()] = mine;
        for i in 0..49u8 {
            let s = Square::new(i).unwrap();
            if s.distance(to) == 1 && cells[i as usize] == theirs {
                cells[i as usize] = mine;
            }
        }
    }
    let mut fen = String::new();
    for rank in (0..7).rev() {
        for file in 0..7 {
            fen.push(match cells[rank * 7 + file] {
                Cell::Empty => '1',
                Cell::X => 'x',
                Cell::O => 'o',
                Cell::Blocked => '-',
            });
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let full = pos.fullmoves() + u32::from(me == Player::Second);
    let side = if me == Player::First { 'o' } else { 'x' };
    format!("{fen} {side} {half} {full}").parse().unwrap()
}

fn random_start(rng: &mut Pcg64) -> Position {
    // Random blockers (symmetric or not, libataxx allows any) on the start layout.
    let mut fen_cells = ['.'; 49];
    for s in [0usize, 6, 42, 48] {
        fen_cells[s] = if s == 6 || s == 42 { 'x' } else { 'o' };
    }
    let blockers = rng.next_u64() % 8;
    for _ in 0..blockers {
        let s = (rng.next_u64() % 49) as usize;
        if fen_cells[s] == '.' {
            fen_cells[s] = '-';
        }
    }
    let mut fen = String::new();
    for rank in (0..7).rev() {
        for file in 0..7 {
            let c = fen_cells[rank * 7 + file];
            fen.push(if c == '.' { '1' } else { c });
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(" x 0 1");
    fen.parse().unwrap()
}

/// Random playouts: generated moves equal the brute-force list, make equals
/// the brute-force make, FEN round-trips, and the `gametree_game::check` oracles hold.
#[test]
fn random_playouts_against_brute_force() {
    let mut rng = Pcg64::new(0xa7a, 0x5eed);
    let mut moves = Moves::default();
    for game_no in 0..60 {
        let start = random_start(&mut rng);
        let mut choices = std::iter::from_fn(|| Some(rng.next_u64()))
            .take(400)
            .collect::<Vec<_>>()
            .into_iter();
        gametree_game::check::playout(&start, &mut choices.clone(), 400).unwrap();
        let mut pos = start.clone();
        for _ply in 0..400 {
            pos.generate(&mut moves);
            let mut mine = moves.as_slice().to_vec();
            let mut brute = brute_moves(&pos);
            mine.sort_by_key(|m| m.number());
            brute.sort_by_key(|m| m.number());
            assert_eq!(mine, brute, "game {game_no} {pos}");
            assert_eq!(pos.count_moves(), brute.len() as u64);
            assert_eq!(pos.to_fen().parse::<Position>().unwrap(), pos);
            if moves.is_empty() {
                assert!(pos.outcome().is_some());
                break;
            }
            assert!(pos.outcome().is_none());
            let m = moves.as_slice()[(choices.next().unwrap() % moves.len() as u64) as usize];
            let expected = brute_after(&pos, m);
            assert_eq!(pos.flips(m) > 0, pos.move_hint(m).is_tactical());
            let mut tactical = Moves::default();
            pos.generate_tactical(&mut tactical);
            let mut filtered = moves.clone();
            filtered.retain(|m| pos.move_hint(*m).is_tactical());
            assert_eq!(tactical, filtered, "{pos}");
            pos.make(m);
            assert_eq!(pos, expected, "after {m}");
            assert_eq!(pos.hash(), expected.hash());
        }
    }
}

/// Playouts from many seeds through the shared oracles, including try_make
/// with arbitrary (often illegal) candidate moves.
#[test]
fn check_oracles() {
    let mut rng = Pcg64::new(7, 11);
    for _ in 0..40 {
        let start = random_start(&mut rng);
        let mut pos = start.clone();
        let mut moves = Moves::default();
        for _ in 0..200 {
            gametree_game::check::position(&pos, 0).unwrap();
            for _ in 0..8 {
                let code = (rng.next_u64() % 900) as usize;
                if let Some(m) = Move::from_number(code) {
                    gametree_game::check::try_make_agrees(&pos, m).unwrap();
                }
            }
            pos.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            pos.make(m);
        }
    }
}

#[test]
fn move_numbers_are_bijective() {
    let mut seen = vec![false; Move::NUMBERS];
    let mut all = vec![Move::PASS];
    for a in 0..49 {
        let a = Square::new(a).unwrap();
        all.push(Move::single(a));
        for b in 0..49 {
            if let Some(m) = Move::jump(a, Square::new(b).unwrap()) {
                all.push(m);
            }
        }
    }
    for &m in &all {
        let i = m.number();
        assert!(i < Move::NUMBERS);
        assert!(!seen[i], "{m} collides");
        seen[i] = true;
        assert_eq!(Move::from_number(i), Some(m));
        assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
    }
    // 49 singles + 1 pass + 480 jumps (ordered pairs at distance 2).
    assert_eq!(all.len(), 49 + 1 + 480);
    let valid = (0..=usize::from(u16::MAX))
        .filter(|&c| Move::from_number(c).is_some())
        .count();
    assert_eq!(valid, all.len());
}

#[test]
fn fen_errors_are_typed() {
    let cases: [(&str, FenError); 8] = [
        ("", FenError::Empty),
        ("x5o/7/7/7/7/o5x x 0 1", FenError::RankCount { found: 6 }),
        (
            "x5o/7/7/7/7/7/o6x x 0 1",
            FenError::RankLength {
                rank: 1,
                squares: 8,
            },
        ),
        (
            "x5o/7/7/7/7/7/o4x x 0 1",
            FenError::RankLength {
                rank: 1,
                squares: 6,
            },
        ),
        (
            "x5o/7/7/7/7/7/o5y x 0 1",
            FenError::BadCharacter { found: 'y' },
        ),
        (
            "x5o/7/7/7/7/7/o5x z 0 1",
            FenError::BadSide { found: "z".into() },
        ),
        (
            "x5o/7/7/7/7/7/o5x x -1 1",
            FenError::BadHalfmoves { found: "-1".into() },
        ),
        (
            "x5o/7/7/7/7/7/o5x x 0 0",
            FenError::BadFullmoves { found: "0".into() },
        ),
    ];
    for (fen, err) in cases {
        assert_eq!(fen.parse::<Position>(), Err(err.clone()), "{fen}");
        assert!(!err.to_string().is_empty());
    }
    assert_eq!(
        "x5o/7/7/7/7/7/o5x x".parse::<Position>(),
        Ok(Position::startpos())
    );
    assert!(matches!(
        "x5o/7/7/7/7/7/o5x x 0 1 extra".parse::<Position>(),
        Err(FenError::TrailingText { .. })
    ));
    assert!(matches!(
        "x5o/7/7/7/7/7/o5x".parse::<Position>(),
        Err(FenError::BadSide { .. })
    ));
    for bad in ["", "a", "h1", "a8", "a1b2", "a1a1", "a1d1", "a1c3x", "é1"] {
        assert!(bad.parse::<Move>().is_err(), "{bad}");
    }
}

#[test]
fn game_over_conditions() {
    // No o stones: x wins.
    let p: Position = "x6/7/7/7/7/7/7 x 0 1".parse().unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win));
    // Clock at 100: a draw whatever the material.
    let p: Position = "xx4o/7/7/7/7/7/o5x o 100 1".parse().unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    let p: Position = "xx4o/7/7/7/7/7/o5x o 99 1".parse().unwrap();
    assert_eq!(p.outcome(), None);
    // Board full: counted.
    let p: Position = "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo o 0 1"
        .parse()
        .unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Loss));
    // No empty square within distance 2 of a stone (the rest is walled off).
    let p: Position = "x1-4/o1-4/---4/7/7/7/7 x 0 1".parse().unwrap();
    assert_eq!(p.outcome(), None, "a7.. b7 is reachable");
    let p: Position = "xo---2/----3/----3/7/7/7/7 x 0 1".parse().unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    // x must pass; o then moves.
    let mut p: Position = "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1".parse().unwrap();
    let mut moves = Moves::default();
    p.generate(&mut moves);
    assert_eq!(moves.as_slice(), &[Move::PASS]);
    assert!(p.is_legal(Move::PASS));
    p.make(Move::PASS);
    assert_eq!(p.halfmoves(), 1);
    assert!(!p.is_legal(Move::PASS));
}

#[test]
fn tactical_orders_captures() {
    let p: Position = "7/7/7/3o3/2o1o2/3x3/7 x 0 1".parse().unwrap();
    let single: Move = "d3".parse().unwrap();
    assert_eq!(p.move_hint(single), gametree_game::MoveHint::Tactical(4)); // 3 flips + the new stone
    let mut caps = Moves::default();
    p.generate_tactical(&mut caps);
    assert!(caps.as_slice().iter().all(|&m| p.flips(m) > 0));
    assert!(caps.as_slice().contains(&single));
}

/// The hashing decisions of the crate docs: blocked squares enter the hash,
/// the clock and the full-move number do not, the side to move does.
#[test]
fn hash_covers_stones_blockers_and_side_only() {
    let start = Position::startpos();
    let blocked: Position = "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1".parse().unwrap();
    assert_ne!(start.hash(), blocked.hash());
    let clocked: Position = "x5o/7/7/7/7/7/o5x x 37 12".parse().unwrap();
    assert_eq!(start.hash(), clocked.hash());
    assert_ne!(clocked, start);
    let o_to_move: Position = "x5o/7/7/7/7/7/o5x o 0 1".parse().unwrap();
    assert_ne!(start.hash(), o_to_move.hash());
    // Transpositions: two move orders reaching the same stones share a key.
    let mut a = Position::startpos();
    let mut b = Position::startpos();
    for m in ["b7", "f7", "a6", "g6"] {
        a.make(m.parse().unwrap());
    }
    for m in ["a6", "g6", "b7", "f7"] {
        b.make(m.parse().unwrap());
    }
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
}
