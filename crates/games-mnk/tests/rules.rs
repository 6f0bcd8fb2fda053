//! m,n,k rules against a naive 2-D reference, tic-tac-toe, known solved
//! values and the `gametree_game::check` oracles.

use std::collections::HashSet;

use gametree_alphabeta::alpha_beta_solve;
use gametree_game::{Find, Game, Limits, Outcome, Player, Request, Score, Solver};
use gametree_games_mnk::{Mnk, Move, Moves, ParseErrorKind};
use gametree_games_tictactoe::TicTacToe;
use rand_core::Rng;
use rand_pcg::Pcg64;

// ---------------------------------------------------------------------------
// A naive reference: a 2-D grid and a full scan for lines.

#[derive(Clone)]
struct Grid {
    m: usize,
    n: usize,
    k: usize,
    cells: Vec<Vec<Option<Player>>>, // [row][column]
}

impl Grid {
    fn of(g: &Mnk) -> Grid {
        let (m, n) = (usize::from(g.m()), usize::from(g.n()));
        let cells = (0..n)
            .map(|r| {
                (0..m)
                    .map(|c| g.stone(Move::new(c as u8, r as u8).unwrap()))
                    .collect()
            })
            .collect();
        Grid {
            m,
            n,
            k: usize::from(g.k()),
            cells,
        }
    }

    fn has_line(&self, p: Player) -> bool {
        for r in 0..self.n as i32 {
            for c in 0..self.m as i32 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let all = (0..self.k as i32).all(|i| {
                        let (cc, rr) = (c + dc * i, r + dr * i);
                        cc >= 0
                            && rr >= 0
                            && (cc as usize) < self.m
                            && (rr as usize) < self.n
                            && self.cells[rr as usize][cc as usize] == Some(p)
                    });
                    if all {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn with(&self, c: usize, r: usize, p: Player) -> Grid {
        let mut g = self.clone();
        g.cells[r][c] = Some(p);
        g
    }
}

fn random_size(rng: &mut Pcg64) -> Mnk {
    let m = 1 + (rng.next_u64() % 19) as u8;
    let n = 1 + (rng.next_u64() % 19) as u8;
    let k = 1 + (rng.next_u64() % 6) as u8;
    Mnk::new(m, n, k).unwrap()
}

/// Random games on random sizes: the win test around the last move equals a
/// full scan; tactical scores equal the naive "would complete a line";
/// the text format round-trips; the oracles hold.
#[test]
fn random_playouts_against_naive_grid() {
    let mut rng = Pcg64::new(0x6d6e6b, 1);
    let mut moves = Moves::default();
    for _ in 0..150 {
        let start = random_size(&mut rng);
        let seed = rng.next_u64();
        let mut choices = Pcg64::new(u128::from(seed), 3);
        let mut it = std::iter::from_fn(|| Some(choices.next_u64()));
        gametree_game::check::playout(&start, &mut it, 400).unwrap();

        let mut g = start.clone();
        loop {
            let grid = Grid::of(&g);
            let mover = g.side_to_move();
            let last = mover.opponent();
            // Outcome against the full scan.
            let expected = if grid.has_line(last) {
                Some(Outcome::Loss)
            } else if g.stones_played() == u32::from(g.m()) * u32::from(g.n()) {
                Some(Outcome::Draw)
            } else {
                None
            };
            assert_eq!(g.outcome(), expected, "{g}");
            assert!(!grid.has_line(mover), "{g}");
            assert_eq!(g.to_string().parse::<Mnk>().unwrap(), g);
            g.generate(&mut moves);
            if g.outcome().is_some() {
                assert!(moves.is_empty());
                break;
            }
            // Tactical scores against the naive grid.
            for &mv in moves.as_slice() {
                let (c, r) = (usize::from(mv.column()), usize::from(mv.row()));
                let win = grid.with(c, r, mover).has_line(mover);
                let block = grid.with(c, r, last).has_line(last);
                let expected = if win {
                    Some(2)
                } else if block {
                    Some(1)
                } else {
                    None
                };
                assert_eq!(g.move_hint(mv).tactical(), expected, "{g} {mv}");
            }
            let mut tactical = Moves::default();
            g.generate_tactical(&mut tactical);
            let scores: Vec<i32> = tactical
                .as_slice()
                .iter()
                .map(|&m| g.move_hint(m).tactical().unwrap())
                .collect();
            assert!(scores.windows(2).all(|w| w[0] >= w[1]), "wins first");
            assert_eq!(
                tactical.len(),
                moves
                    .iter()
                    .filter(|&&m| g.move_hint(m).tactical().is_some())
                    .count()
            );
            gametree_game::check::forcing(&g).unwrap();
            let v = g.evaluate();
            assert!(!v.is_decisive());
            let (pn, dn) = g.proof_hints();
            assert!(pn >= 1 && dn >= 1);
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            g.make(mv);
        }
    }
}

#[test]
fn move_numbers_and_text() {
    let mut seen = HashSet::new();
    for r in 0..19 {
        for c in 0..19 {
            let mv = Move::new(c, r).unwrap();
            assert!(Mnk::move_number(mv) < Mnk::MOVE_NUMBERS);
            assert!(seen.insert(Mnk::move_number(mv)));
            assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
        }
    }
    assert_eq!(Move::new(19, 0), None);
    assert_eq!("h8".parse::<Move>().unwrap(), Move::new(7, 7).unwrap());
    for bad in ["", "h", "8", "h0", "h08", "t1", "a20", "a-1", "é1", "h8x"] {
        assert!(bad.parse::<Move>().is_err(), "{bad}");
    }
}

#[test]
fn parse_errors_are_typed() {
    let cases: [(&str, ParseErrorKind); 12] = [
        ("", ParseErrorKind::BadSize(String::new())),
        ("3,3", ParseErrorKind::BadSize("3,3".into())),
        ("3,x,3", ParseErrorKind::BadSize("3,x,3".into())),
        (
            "20,3,3",
            ParseErrorKind::SizeOutOfRange { m: 20, n: 3, k: 3 },
        ),
        ("3,3,0", ParseErrorKind::SizeOutOfRange { m: 3, n: 3, k: 0 }),
        ("3,3,3 b2 d1", ParseErrorKind::OffBoard("d1".into())),
        ("3,3,3 b2 b2", ParseErrorKind::Occupied("b2".into())),
        (
            "3,3,3 a1 b1 a2 b2 a3 c3",
            ParseErrorKind::AfterEnd("c3".into()),
        ),
        (
            "3,3,3 .../...",
            ParseErrorKind::RowCount {
                expected: 3,
                found: 2,
            },
        ),
        (
            "3,3,3 .../..../...",
            ParseErrorKind::RowLength {
                row: 2,
                expected: 3,
                found: 4,
            },
        ),
        ("3,3,3 ..y/.../...", ParseErrorKind::BadCharacter('y')),
        (
            "3,3,3 xx./.../...",
            ParseErrorKind::ImpossibleCounts { x: 2, o: 0 },
        ),
    ];
    for (text, kind) in cases {
        let err = text.parse::<Mnk>().unwrap_err();
        assert_eq!(err.kind(), &kind, "{text}");
        assert!(!err.to_string().is_empty());
    }
    // o has a line but x moved last: play went on after the win.
    let err = "3,3,3 ooo/xx./xx.".parse::<Mnk>().unwrap_err();
    assert_eq!(err.kind(), &ParseErrorKind::PlayAfterWin);
    assert_eq!(
        "3,3,3 b1 a1 a3 c1 c3".parse::<Mnk>().unwrap().outcome(),
        None
    );
    // A board, then moves; a won board.
    let g: Mnk = "3,3,3 xxx/oo./... ".parse().unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Loss));
    assert_eq!(
        "3,3,3 x../.o./... c3".parse::<Mnk>().unwrap().to_string(),
        "3,3,3 x.x/.o./..."
    );
}

// ---------------------------------------------------------------------------
// Equivalence with games-tictactoe.

/// Tic-tac-toe square `s` (reading order from the top-left) as an m,n,k move.
fn to_mnk(s: gametree_games_tictactoe::Square) -> Move {
    let s = s.get();
    Move::new(s % 3, 2 - s / 3).unwrap()
}

struct Walk {
    positions: HashSet<u64>,
    ttt_positions: HashSet<TicTacToe>,
    perft: [u64; 10],
    solved: usize,
}

fn walk(g: &mut Mnk, t: &mut TicTacToe, depth: usize, w: &mut Walk) {
    assert_eq!(g.outcome(), t.outcome(), "{g} / {t}");
    assert_eq!(g.side_to_move(), t.side_to_move());
    w.perft[depth] += 1;
    let first_visit = w.ttt_positions.insert(*t);
    assert_eq!(w.positions.insert(g.hash()), first_visit, "{g}");
    if first_visit {
        // Solved values agree, from every reachable position.
        let a = alpha_beta_solve(&mut g.clone()).value;
        let b = alpha_beta_solve(&mut t.clone()).value;
        assert_eq!(a, b, "{g} / {t}");
        w.solved += 1;
    }
    let mut gm = Moves::default();
    g.generate(&mut gm);
    let mut tm = <TicTacToe as Game>::Moves::default();
    t.generate(&mut tm);
    let mut mapped: Vec<Move> = tm.as_slice().iter().map(|&s| to_mnk(s)).collect();
    let mut mine = gm.as_slice().to_vec();
    mapped.sort();
    mine.sort();
    assert_eq!(mine, mapped, "{g} / {t}");
    for &s in tm.as_slice() {
        let mv = to_mnk(s);
        g.make(mv);
        t.make(s);
        walk(g, t, depth + 1, w);
        t.unmake(s, ());
        g.unmake(mv, ());
    }
}

/// 3,3,3 equals tic-tac-toe position by position: same moves, outcomes and
/// solved values, the same 5,478 reachable positions and the same perft by
/// depth.
#[test]
fn tictactoe_equivalence() {
    let mut w = Walk {
        positions: HashSet::new(),
        ttt_positions: HashSet::new(),
        perft: [0; 10],
        solved: 0,
    };
    walk(&mut Mnk::tictactoe(), &mut TicTacToe::new(), 0, &mut w);
    // The published count (the corpus of `gametree-data`).
    let reachable = gametree_data::tictactoe().unwrap().reachable_positions as usize;
    assert_eq!(w.positions.len(), reachable);
    assert_eq!(w.ttt_positions.len(), reachable);
    assert_eq!(w.solved, reachable);
    for d in 0..10 {
        let n = gametree_game::perft(&mut Mnk::tictactoe(), d);
        assert_eq!(
            n,
            gametree_game::perft(&mut TicTacToe::new(), d),
            "depth {d}"
        );
        // perft counts leaves at depth d; the walk counts nodes at depth d,
        // which agree because a finished game generates no moves.
        assert_eq!(n, w.perft[d as usize], "depth {d}");
    }
    assert_eq!(w.perft.iter().sum::<u64>(), 549_946); // nodes of the full game tree
}

// ---------------------------------------------------------------------------
// Known results (3,3,3 a draw, 4,4,3 a first-player win: the Wikipedia
// article "m,n,k-game", after Uiterwijk and van den Herik, "The advantage of
// the initiative", Information Sciences 122, 2000; 4,4,4 a draw), read from
// the corpus of `gametree-data` (`crates/data/data/mnk.toml`).

/// The published value of the empty `m,n,k` board for the first player.
fn published(m: u8, n: u8, k: u8) -> Outcome {
    let games = gametree_data::mnk().unwrap();
    let g = games.iter().find(|g| (g.m, g.n, g.k) == (m, n, k));
    g.unwrap_or_else(|| panic!("no published value of {m},{n},{k}"))
        .value
}

/// `1`, `0` or `-1` for a win, a draw or a loss.
fn sign(o: Outcome) -> i8 {
    match o {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    }
}

/// 3,3,3 and 4,4,3 by plain alpha-beta.
#[test]
fn known_results_333_and_443() {
    let v = alpha_beta_solve(&mut Mnk::tictactoe()).value;
    assert_eq!(v.outcome(), Some(published(3, 3, 3)));
    let r = alpha_beta_solve(&mut Mnk::new(4, 4, 3).unwrap());
    assert_eq!(
        r.value.outcome(),
        Some(published(4, 4, 3)),
        "4,4,3: got {}",
        r.value
    );
    // Also 3,4,3 ... and the transposed board gives the same value.
    let a = alpha_beta_solve(&mut Mnk::new(4, 3, 3).unwrap()).value;
    let b = alpha_beta_solve(&mut Mnk::new(3, 4, 3).unwrap()).value;
    assert_eq!(a, b);
}

/// A game-theoretic solver for the larger boards: alpha-beta on
/// win/draw/loss (-1, 0, 1) with a transposition table of bounds and the
/// threat rules of `Tactical`: an immediate win ends the search; a side that
/// cannot win at once and faces a completion square must block there.
/// Plain `gametree_alphabeta::alpha_beta_solve` takes about 40 s of CPU on 4,4,4, too
/// slow for `cargo test`; this solver is checked against it on the smaller
/// boards below.
fn solve_wdl(
    g: &mut Mnk,
    mut alpha: i8,
    beta: i8,
    tt: &mut std::collections::HashMap<u64, (i8, i8)>,
) -> i8 {
    if let Some(o) = g.outcome() {
        return match o {
            Outcome::Win => 1,
            Outcome::Draw => 0,
            Outcome::Loss => -1,
        };
    }
    // (lower, upper) bounds from earlier visits.
    let (lo, hi) = tt.get(&g.hash()).copied().unwrap_or((-1, 1));
    if lo == hi || lo >= beta {
        return lo;
    }
    if hi <= alpha {
        return hi;
    }
    let mut tactical = Moves::default();
    g.generate_tactical(&mut tactical);
    let mut moves = Moves::default();
    match tactical.as_slice().first() {
        Some(&m) if g.move_hint(m).tactical() == Some(2) => return 1,
        Some(&m) => moves.push(m), // forced block: nothing else can avoid the loss
        None => g.generate(&mut moves),
    }
    let alpha0 = alpha;
    let mut best = -1;
    for &m in moves.as_slice() {
        g.make(m);
        let v = -solve_wdl(g, -beta, -alpha, tt);
        g.unmake(m, ());
        if v > best {
            best = v;
        }
        if best > alpha {
            alpha = best;
        }
        if alpha >= beta {
            break;
        }
    }
    let entry = if best <= alpha0 {
        (lo, best.min(hi))
    } else if best >= beta {
        (best.max(lo), hi)
    } else {
        (best, best)
    };
    tt.insert(g.hash(), entry);
    best
}

fn solve(m: u8, n: u8, k: u8) -> i8 {
    solve_wdl(
        &mut Mnk::new(m, n, k).unwrap(),
        -1,
        1,
        &mut Default::default(),
    )
}

/// The threat-pruned solver agrees with plain alpha-beta wherever the
/// latter is quick.
#[test]
fn threat_solver_agrees_with_alphabeta() {
    for (m, n, k) in [
        (3, 3, 3),
        (4, 3, 3),
        (3, 4, 3),
        (4, 4, 3),
        (5, 3, 3),
        (4, 3, 4),
        (5, 2, 2),
        (3, 3, 2),
    ] {
        let plain = alpha_beta_solve(&mut Mnk::new(m, n, k).unwrap()).value;
        let expected = match plain.outcome() {
            Some(Outcome::Win) => 1,
            Some(Outcome::Draw) => 0,
            Some(Outcome::Loss) => -1,
            None => panic!("solve returned a heuristic value {plain}"),
        };
        assert_eq!(solve(m, n, k), expected, "{m},{n},{k}");
    }
}

/// 4,4,4 with the workspace's full searcher (transposition table, tactical
/// ordering), weak and strong solving, and the threat solver above.
#[test]
fn known_result_444_draw() {
    let searcher = || {
        gametree_alphabeta::AlphaBeta::<Mnk>::new(gametree_alphabeta::Config::default()).unwrap()
    };
    let expected = published(4, 4, 4);
    let mut g = Mnk::new(4, 4, 4).unwrap();
    let none = Limits::none();
    let weak = searcher().solve(&mut g, &mut Request::new(&none).find(Find::Outcome));
    assert_eq!(weak.outcome, Some(expected));
    let strong = searcher().solve(&mut g, &mut Request::new(&none).find(Find::Score));
    assert_eq!(strong.score.and_then(Score::outcome), Some(expected));
    assert_eq!(solve(4, 4, 4), sign(expected));
    assert_eq!(solve(4, 4, 3), sign(published(4, 4, 3)));
    assert_eq!(solve(3, 3, 3), sign(published(3, 3, 3)));
}

/// The rules are part of the hash: every m,n,k game has its own empty-board
/// hash, and one searcher (one transposition table) solving 4,4,3 (a win)
/// then 4,4,4 (a draw) gets both right (it answered "win" for 4,4,4 when
/// the size was not hashed).
#[test]
fn rules_are_hashed() {
    let mut seen = HashSet::new();
    for m in 1..=19 {
        for n in 1..=19 {
            for k in 1..=19 {
                let g = Mnk::new(m, n, k).unwrap();
                assert_eq!(g.hash(), g.recompute_hash());
                assert!(seen.insert(g.hash()), "{m},{n},{k}");
            }
        }
    }
    let mut s =
        gametree_alphabeta::AlphaBeta::<Mnk>::new(gametree_alphabeta::Config::default()).unwrap();
    for (m, n, k) in [(4, 4, 3), (4, 4, 4)] {
        let expected = published(m, n, k);
        let none = Limits::none();
        let r = s.solve(
            &mut Mnk::new(m, n, k).unwrap(),
            &mut Request::new(&none).find(Find::Outcome),
        );
        assert_eq!(r.outcome, Some(expected), "{m},{n},{k}");
    }
}

/// Threats in the evaluation and the proof hints, on a Go-Moku board.
#[test]
fn threats_in_evaluation_and_hints() {
    // x to move has four in a row with an open end: about to win.
    let g: Mnk = "15,15,5 h8 a1 i8 a3 j8 a5 k8 a7".parse().unwrap();
    assert_eq!(g.side_to_move(), Player::First);
    assert!(g.evaluate().get() > 10_000);
    assert_eq!(g.proof_hints().0, 1);
    let wins: Vec<String> = g
        .winning_moves(Player::First)
        .map(|m| m.to_string())
        .collect();
    assert_eq!(wins, ["g8", "l8"]);
    // After a quiet x move, o faces two completion squares: lost.
    let mut g2 = g.clone();
    g2.make("o15".parse().unwrap());
    assert!(g2.evaluate().get() < -10_000);
    assert!(g2.proof_hints().0 > 1 && g2.proof_hints().1 == 1);
    // A quiet opening is near balance; the centre beats the corner.
    let centre: Mnk = "15,15,5 h8".parse().unwrap();
    let corner: Mnk = "15,15,5 a1".parse().unwrap();
    assert!(
        centre.evaluate() < corner.evaluate(),
        "o to move: worse facing the centre"
    );
    assert!(centre.evaluate().get().abs() < 1000);
}

/// `threat_moves` lists exactly the squares after which the mover, were it
/// to move again, would complete a line, on random positions of several
/// sizes (boards below and above 128 squares of the 19-wide layout) where
/// the mover has no immediate win (a move that wins at once may be listed
/// or not).
#[test]
fn threat_moves_are_the_squares_that_make_a_winning_square() {
    let mut rng = Pcg64::new(0x007e_5a11, 0x5eed);
    let mut compared = 0;
    for &(m, n, k) in &[
        (5, 5, 4),
        (7, 6, 4),
        (9, 9, 5),
        (6, 6, 3),
        (4, 4, 2),
        (3, 3, 1),
        // The largest board held in 128 bits, and one square more; boards
        // so wide that a line could run into the next row of the layout.
        (14, 7, 4),
        (15, 7, 5),
        (19, 4, 5),
        (18, 8, 4),
    ] {
        for _ in 0..40 {
            let mut g = Mnk::new(m, n, k).unwrap();
            let mut moves = Moves::default();
            loop {
                g.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let side = g.side_to_move();
                if g.winning_moves(side).next().is_none() {
                    let mut threats = Moves::default();
                    g.threat_moves(&mut threats);
                    for &s in moves.iter() {
                        let mut child = g.clone();
                        child.make(s);
                        if child.is_won() {
                            continue;
                        }
                        let threat = child.winning_moves(side).next().is_some();
                        assert_eq!(threats.contains(&s), threat, "{g} {s}");
                        compared += 1;
                    }
                }
                let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
                g.make(mv);
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

/// `winning_moves` (shifted copies of the stones) equals `makes_line` tried
/// on every empty square, for both players, on random positions of random
/// sizes up to 19 × 19 and every `k` up to 19 (rows must not wrap); half
/// of them at most 7 rows high, where boards of up to 128 bits take a
/// path of their own.
#[test]
fn winning_moves_equal_makes_line_on_every_square() {
    let mut rng = Pcg64::new(0x0077_1133, 9);
    let mut moves = Moves::default();
    let mut compared = 0;
    for i in 0..600 {
        let m = 1 + (rng.next_u64() % 19) as u8;
        let rows = if i % 2 == 0 { 7 } else { 19 };
        let n = 1 + (rng.next_u64() % rows) as u8;
        let k = 1 + (rng.next_u64() % u64::from(m.max(n))) as u8;
        let mut g = Mnk::new(m, n, k).unwrap();
        for _ in 0..(rng.next_u64() % 200) {
            g.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            g.make(mv);
        }
        g.generate(&mut moves);
        let mut empty = Vec::new();
        for r in 0..n {
            for c in 0..m {
                let mv = Move::new(c, r).unwrap();
                if g.stone(mv).is_none() {
                    empty.push(mv);
                }
            }
        }
        for p in [Player::First, Player::Second] {
            let fast: Vec<Move> = g.winning_moves(p).collect();
            let slow: Vec<Move> = empty
                .iter()
                .copied()
                .filter(|&mv| g.makes_line(mv, p))
                .collect();
            assert_eq!(fast, slow, "{g} {p}");
            compared += 1;
        }
    }
    assert_eq!(compared, 1200);
}
