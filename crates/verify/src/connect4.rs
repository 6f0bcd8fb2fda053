//! Connect Four rows: perft (generic = bitboard), position counts (OEIS
//! A212693), Pons's benchmark sets solved exactly, small boards drawn,
//! every alpha-beta variant equals negamax, the oracles.

use gametree_alphabeta::{AlphaBeta, Config, alpha_beta_solve};
use gametree_game::{Find, Limits, Outcome, Solver, perft};
use gametree_games_connect4::{Board, Size};

use super::common::{
    forcing_playouts, oracle_playouts, random_positions, rng, score_text, searcher_rows, solve_for,
    solvers_agree,
};
use super::data::pons::TestSet;
use super::{Check, Ctx, Family, Skip, Tally};

/// The Connect Four solver users get: the default searcher (the game's
/// knowledge switches on what fits it) with a table of `tt_bytes`, on
/// `threads` threads.
fn solver(tt_bytes: usize, threads: usize) -> AlphaBeta<Board> {
    AlphaBeta::new(Config::default().memory(tt_bytes).threads(threads)).expect("table")
}

/// The Connect Four board of a line of Pons's test sets, for
/// [`TestSet::load_with`]: the moves replayed on 7 × 6 (an illegal game is
/// refused) and the score checked against what the position can have.
///
/// ```
/// let board = gametree_verify::pons_board("4455", 18)?;
/// assert_eq!(board.plies(), 4);
/// assert!(gametree_verify::pons_board("4455", 19).is_err()); // no win that fast
/// assert!(gametree_verify::pons_board("4444444", 0).is_err()); // a full column
/// # Ok::<(), String>(())
/// ```
///
/// # Errors
///
/// What is wrong, in words.
pub fn pons_board(moves: &str, score: i32) -> Result<Board, String> {
    let board = Board::from_moves(Size::STANDARD, moves).map_err(|e| e.to_string())?;
    if board.score_from_pons(score).is_none() {
        return Err(format!("score {score} is impossible for this position"));
    }
    Ok(board)
}

/// Pons's set `set`: its first `quick`, `full` or `deep` lines by the mode
/// (0: not in that mode), solved on `threads` threads.
fn pons_row(
    ctx: &Ctx,
    set: TestSet,
    (quick, full, deep): (usize, usize, usize),
    weak: bool,
    threads: usize,
) -> Tally {
    let n = ctx.pick3(quick, full, deep);
    if n == 0 {
        return Tally::skip("long row: --deep only");
    }
    let dir = ctx.data.join("connect4");
    let positions = match set.load_with(&dir, pons_board) {
        Ok(p) => p,
        Err(e) => return Skip::data(format_args!("cannot load {}: {e}", set.file_name())).into(),
    };
    let n = n.min(positions.len());
    let mean_nodes = match set.published() {
        Ok(p) => p.mean_nodes,
        Err(e) => {
            let mut t = Tally::default();
            t.compare(
                set.file_name(),
                None,
                "Pons's figures".to_string(),
                e.to_string(),
            );
            return t;
        }
    };
    let mut s = solver(
        if mean_nodes < 1000.0 {
            1 << 20
        } else {
            64 << 20
        },
        threads,
    );
    let mut t = Tally::default();
    for p in &positions[..n] {
        s.clear();
        let mut b = p.board;
        if weak {
            let r = solve_for(&mut s, &mut b, &Limits::none(), Find::Outcome);
            let got = r.outcome.map_or(99, |o| match o {
                Outcome::Win => 1,
                Outcome::Draw => 0,
                Outcome::Loss => -1,
            });
            t.compare(&p.moves, None, p.score.signum(), got);
        } else {
            let r = solve_for(&mut s, &mut b, &Limits::none(), Find::Score);
            let got = r
                .score
                .and_then(|v| p.board.pons_score(v))
                .map_or("none".into(), |v| v.to_string());
            t.compare(&p.moves, None, p.score.to_string(), got);
        }
    }
    t
}

pub(crate) fn checks() -> Vec<Check> {
    let mut rows = vec![
        Check::new(
            "connect4",
            Family::Published,
            "perft 7x6 depth 1..8 (generic = bitboard; 7^d)",
            |ctx| {
                let mut t = Tally::default();
                // Two independent counters: the generic perft over the Game
                // trait and the bitboard one; below ply 7 no game can end: 7^d.
                for d in 1..=ctx.pick(8, 10) {
                    let bitboard = gametree_games_connect4::perft_bitboard(&Board::standard(), d);
                    let generic = perft(&mut Board::standard(), d);
                    t.compare("7x6 generic vs bitboard", Some(d), generic, bitboard);
                    if d <= 6 {
                        t.compare("7x6 vs 7^d", Some(d), 7u64.pow(d), bitboard);
                    }
                }
                t
            },
        ),
        Check::new(
            "connect4",
            Family::Published,
            "positions per ply = OEIS A212693",
            |ctx| {
                let mut t = Tally::default();
                let published = match super::data::connect4() {
                    Ok(c) => &c.positions_per_ply,
                    Err(e) => return Tally::corpus_error(&e),
                };
                let counts =
                    gametree_games_connect4::count_positions(Size::STANDARD, ctx.pick(8, 11));
                for (ply, c) in counts.iter().enumerate() {
                    let expected = published
                        .get(ply)
                        .map_or_else(|| "no published count".to_string(), u64::to_string);
                    t.compare("7x6", Some(ply as u32), expected, c.to_string());
                }
                t
            },
        ),
        Check::new(
            "connect4",
            Family::Published,
            "Test_L3_R1 exact Pons scores",
            |ctx| pons_row(ctx, TestSet::L3_R1, (1000, 1000, 1000), false, 1),
        ),
        Check::new(
            "connect4",
            Family::Published,
            "Test_L2_R1 exact Pons scores",
            |ctx| pons_row(ctx, TestSet::L2_R1, (300, 1000, 1000), false, 1),
        ),
        Check::new(
            "connect4",
            Family::Published,
            "Test_L2_R2 exact Pons scores",
            |ctx| pons_row(ctx, TestSet::L2_R2, (10, 1000, 1000), false, 1),
        ),
        Check::new(
            "connect4",
            Family::Published,
            "Test_L1_R1 exact Pons scores",
            |ctx| pons_row(ctx, TestSet::L1_R1, (10, 1000, 1000), false, 1),
        ),
        Check::new(
            "connect4",
            Family::Published,
            "Test_L2_R2 exact Pons scores, 2 threads",
            |ctx| pons_row(ctx, TestSet::L2_R2, (10, 200, 1000), false, 2),
        ),
        Check::new(
            "connect4",
            Family::Published,
            "Test_L1_R2 win/draw/loss (full: first 200; deep: all)",
            |ctx| pons_row(ctx, TestSet::L1_R2, (2, 200, 1000), true, 1),
        ),
        Check::new(
            "connect4",
            Family::Published,
            "Test_L1_R3 win/draw/loss (deep: first 100)",
            |ctx| pons_row(ctx, TestSet::L1_R3, (0, 0, 100), true, 1),
        ),
        Check::new(
            "connect4",
            Family::Published,
            "4x4 5x4 4x5 (5x5 full) are draws",
            |ctx| {
                let mut t = Tally::default();
                let boards = match super::data::connect4() {
                    Ok(c) => &c.boards,
                    Err(e) => return Tally::corpus_error(&e),
                };
                // 5x5 (25 cells) in the full run only.
                for v in boards
                    .iter()
                    .filter(|v| !ctx.quick || v.width * v.height < 25)
                {
                    let (w, h) = (v.width, v.height);
                    let Ok(size) = Size::new(w, h) else {
                        t.compare(
                            format!("{w}x{h}"),
                            None,
                            "a size".to_string(),
                            "none".into(),
                        );
                        continue;
                    };
                    let b = Board::new(size);
                    let mut s = solver(64 << 20, 1);
                    let r = solve_for(&mut s, &mut b.clone(), &Limits::none(), Find::Outcome);
                    let got = r.outcome.map_or("unknown".into(), |o| o.to_string());
                    t.compare(format!("{w}x{h}"), None, v.value.to_string(), got);
                }
                t
            },
        ),
        Check::new(
            "connect4",
            Family::Solvers,
            "4x4 random positions: solver = plain alpha-beta",
            |ctx| {
                let start = Board::new(Size::new(4, 4).expect("size"));
                let ps = random_positions(&start, &mut rng(ctx.seed), ctx.pick(30, 300), 10);
                let mut s = solver(16 << 20, 1);
                solvers_agree(
                    &ps,
                    |g| alpha_beta_solve(g).value.to_string(),
                    |g| score_text(solve_for(&mut s, g, &Limits::none(), Find::Score).score),
                )
            },
        ),
        Check::new(
            "connect4",
            Family::Oracles,
            "make/unmake, hash, legality; 7x6 and 8x7",
            |ctx| {
                let mut t = oracle_playouts(&Board::standard(), ctx.seed, ctx.pick(100, 1000), 42);
                let wide = Board::new(Size::new(8, 7).expect("size"));
                let r = oracle_playouts(&wide, ctx.seed + 1, ctx.pick(20, 200), 63);
                t.positions += r.positions;
                t.agreements += r.agreements;
                t.mismatches.extend(r.mismatches);
                t
            },
        ),
        Check::new(
            "connect4",
            Family::Oracles,
            "Forcing = 2-ply brute force on playouts",
            |ctx| forcing_playouts(&Board::standard(), ctx.seed, ctx.pick(100, 1000), 42),
        ),
    ];
    rows.extend(searcher_rows(
        "connect4",
        |ctx| {
            random_positions(
                &Board::standard(),
                &mut rng(ctx.game_seed),
                ctx.pick(150, 1000),
                20,
            )
        },
        // full: depth 8 on the first 300 positions, 7 on the others
        |ctx, i| 1..=ctx.pick(6, if i < 300 { 8 } else { 7 }),
        |s| s,
    ));
    rows.extend(win_bound_rows());
    rows
}

/// `count` random positions of `start` with between `min` and `max` plies
/// played.
fn positions_between(start: &Board, seed: u64, count: usize, min: usize, max: u32) -> Vec<Board> {
    random_positions(start, &mut rng(seed), count * 8, max)
        .into_iter()
        .filter(|b| b.plies() >= min)
        .take(count)
        .collect()
}

/// The win bounds (`Game::cannot_win`: no room for a four, the opponent's
/// claimeven; `Game::cannot_draw`: lost to the opponent's claimeven):
/// sound against exhaustive search, and no solver's value changes with
/// them.
fn win_bound_rows() -> Vec<Check> {
    vec![
        Check::new(
            "connect4",
            Family::Oracles,
            "Win bounds (no room, claimeven, lost to claimeven) = exhaustive search (4x4, 5x4, 6x4, 7x6, 9 cells left or fewer)",
            |ctx| {
                let mut t = Tally::default();
                for (i, (w, h)) in [(4, 4), (5, 4), (6, 4), (7, 6)].into_iter().enumerate() {
                    let start = Board::new(Size::new(w, h).expect("size"));
                    let cells = w * h;
                    let count = ctx.pick(40, 400);
                    let seed = ctx.seed + i as u64;
                    for b in positions_between(&start, seed, count, cells - 9, cells as u32) {
                        let got = gametree_game::check::win_bounds(&b)
                            .map_or_else(|e| e.to_string(), |()| "sound".into());
                        t.compare(b, None, "sound".to_string(), got);
                    }
                }
                t
            },
        ),
        Check::new(
            "connect4",
            Family::Solvers,
            "win bounds on = off: AlphaBeta solve and weak, df-pn (7x6 after 18-26 plies)",
            win_bounds_keep_values,
        ),
    ]
}

/// Row: alpha-beta (exact and weak) and df-pn with the win bounds give the
/// values found without them.
fn win_bounds_keep_values(ctx: &Ctx) -> Tally {
    use gametree_game::{Request, Solver, Use};
    use gametree_pns_conspiracy::{DfPn, DfPnConfig, ProofConfig};
    let fmt = |o: Option<Outcome>| o.map_or_else(|| "unknown".to_string(), |o| o.to_string());
    let ps = positions_between(&Board::standard(), ctx.seed, ctx.pick(20, 200), 18, 26);
    let config = Config::default().memory(16 << 20);
    let mut off = AlphaBeta::<Board>::new(config.win_bounds(Use::Off)).expect("table");
    let mut on = AlphaBeta::<Board>::new(config.win_bounds(Use::On)).expect("table");
    let proof = ProofConfig::new().memory(16 << 20);
    let mut dfpn = DfPn::new(DfPnConfig::new().proof(proof.win_bounds(Use::On))).expect("table");
    let mut t = Tally::default();
    for b in &ps {
        let exact = solve_for(&mut off, &mut b.clone(), &Limits::none(), Find::Score);
        let got = solve_for(&mut on, &mut b.clone(), &Limits::none(), Find::Score);
        t.compare(
            b,
            None,
            format!("{} {}", score_text(exact.score), fmt(exact.outcome)),
            format!("{} {}", score_text(got.score), fmt(got.outcome)),
        );
        let weak = solve_for(&mut on, &mut b.clone(), &Limits::none(), Find::Outcome);
        t.compare(b, None, fmt(exact.outcome), fmt(weak.outcome));
        let proved = dfpn.solve(&mut b.clone(), &mut Request::new(&Limits::none()));
        t.compare(b, None, fmt(exact.outcome), fmt(proved.outcome));
    }
    t
}
