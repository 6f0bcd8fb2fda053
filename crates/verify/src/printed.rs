//! Family 2, "the printed answer holds together": what a solver prints for
//! a position (its value, a best move and a line) is checked against an
//! independent reference. The reference value after the best move, seen
//! from the root, must equal the printed value, and so must the reference
//! value of every position along the line (backed up through the plies
//! played): the best move achieves the value and the line played out
//! reaches it.
//!
//! Each row drives the solvers the way `gametree solve` does: alpha-beta's
//! `Solver::solve` (exact scores with distances), the proof-number searches
//! with their line completed by `gametree_game::solve_line` (outcomes),
//! Dots-and-Boxes through `gametree_games_dots::exact_solve` (the exact box
//! difference), chess endings through the tables' `best_move`.

use gametree_pns_conspiracy::ProofConfig;
use std::fmt::{Debug, Display};

use gametree_alphabeta::{AlphaBeta, Config, negamax_solve};
use gametree_game::{Find, Game, Limits, Outcome, Score, Solver, solve_with_line};
use gametree_games_connect4::{Board, Size as Connect4Size};
use gametree_games_dots::{Dots, Size as DotsSize, check as dots_reference, exact_solve};
use gametree_games_mnk::Mnk;
use gametree_games_tictactoe::TicTacToe;
use gametree_pns_conspiracy::{Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns};

use super::common::{random_positions, reachable, rng};
use super::{Check, Family, Tally};

/// What a solver printed for a position.
#[derive(Debug)]
pub(crate) struct Printed<M, V> {
    /// The value, from the side to move's view.
    pub(crate) value: V,
    /// A best move (`None`: none given).
    pub(crate) best: Option<M>,
    /// The line from the best move on.
    pub(crate) line: Vec<M>,
}

/// Checks `printed` for `root` against `reference` (a position's value for
/// its side to move; `back_up` turns a child's value into its parent's,
/// `true` when the turn was kept) and records one comparison: the printed
/// value, against the value found, or the first thing that does not hold.
pub(crate) fn check_printed<G, V>(
    t: &mut Tally,
    label: &str,
    root: &G,
    printed: &Printed<G::Move, V>,
    reference: &mut impl FnMut(&G) -> V,
    back_up: impl Fn(V, bool) -> V,
) where
    G: Game + Display,
    V: PartialEq + Display + Copy,
{
    let got = match first_fault(root, printed, reference, back_up) {
        None => printed.value.to_string(),
        Some(fault) => fault,
    };
    t.compare(
        format_args!("{root} ({label})"),
        None,
        printed.value.to_string(),
        got,
    );
}

/// The first thing in `printed` that the reference contradicts.
fn first_fault<G, V>(
    root: &G,
    printed: &Printed<G::Move, V>,
    reference: &mut impl FnMut(&G) -> V,
    back_up: impl Fn(V, bool) -> V,
) -> Option<String>
where
    G: Game,
    V: PartialEq + Display + Copy,
{
    let value = reference(root);
    if value != printed.value {
        return Some(format!("the position's value is {value}"));
    }
    if root.outcome().is_some() {
        return (printed.best.is_some() || !printed.line.is_empty())
            .then(|| "a move printed after the end of the game".into());
    }
    let Some(best) = printed.best else {
        return Some("no best move".into());
    };
    if printed.line.first().is_some_and(|&m| m != best) {
        return Some(format!("the line starts with another move than {best}"));
    }
    let line = if printed.line.is_empty() {
        vec![best]
    } else {
        printed.line.clone()
    };
    let mut pos = root.clone();
    let mut kept = Vec::with_capacity(line.len());
    for (i, &m) in line.iter().enumerate() {
        let mover = pos.side_to_move();
        if pos.try_make(m).is_err() {
            return Some(format!("move {} of the line ({m}) is illegal", i + 1));
        }
        kept.push(pos.side_to_move() == mover);
        let mut v = reference(&pos);
        for &k in kept.iter().rev() {
            v = back_up(v, k);
        }
        if v != printed.value {
            let what = if i == 0 {
                format!("after the best move {m}")
            } else {
                format!("after move {} of the line ({m})", i + 1)
            };
            return Some(format!("{what}: {v}"));
        }
    }
    None
}

/// The answer `gametree solve` prints with a win/draw/loss solver: its
/// outcome and best move, the line completed move by move when the solver
/// gave one move only; `None` when a limit stopped it.
fn outcome_answer<G: Game>(
    solver: &mut dyn Solver<G>,
    g: &G,
    limits: &Limits,
) -> Option<Printed<G::Move, Outcome>> {
    let s = solve_with_line(
        solver,
        &mut g.clone(),
        &mut gametree_game::Request::new(limits),
        100,
    );
    Some(Printed {
        value: s.outcome?,
        best: s.best,
        line: s.line,
    })
}

/// The answer `gametree solve` prints with alpha-beta: the exact score with
/// distance, the best move and the line of one `Solver::solve`.
fn score_answer<G>(
    solver: &mut AlphaBeta<G>,
    g: &G,
    limits: &Limits,
) -> Option<Printed<G::Move, Score>>
where
    G: Game + Send,
    G::Move: Send + Sync,
{
    let s = Solver::solve(
        solver,
        &mut g.clone(),
        &mut gametree_game::Request::new(limits).find(Find::Score),
    );
    Some(Printed {
        value: s.score?,
        best: s.best,
        line: s.line,
    })
}

fn flip_unless_kept(o: Outcome, kept: bool) -> Outcome {
    if kept { o } else { o.flip() }
}

/// The proof-number solvers and, with `cns`, conspiracy-number search (far
/// slower: small games only), by name, as `gametree solve` builds them
/// (smaller tables).
fn outcome_solvers<G>(cns: bool) -> Vec<(&'static str, Box<dyn Solver<G>>)>
where
    G: Game + 'static,
    Pns: Solver<G>,
    DfPn: Solver<G>,
    Conspiracy: Solver<G>,
{
    let mut solvers: Vec<(&'static str, Box<dyn Solver<G>>)> = vec![
        ("pns", Box::new(Pns::default())),
        ("pn2", Box::new(Pns::pn2())),
        (
            "df-pn",
            Box::new(
                DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(4 << 20)))
                    .expect("4 MiB table"),
            ),
        ),
    ];
    if cns {
        solvers.push((
            "cns",
            Box::new(Conspiracy::new(ConspiracyConfig::new()).expect("outcomes")),
        ));
    }
    solvers
}

/// Alpha-beta's exact scores and every outcome solver's answer on each of
/// `positions`, against plain negamax to the end of the game.
fn generic_rows<G>(positions: &[G], limits: &Limits, cns: bool) -> Tally
where
    G: Game + Display + Send + 'static,
    G::Move: Send + Sync,
    Pns: Solver<G>,
    DfPn: Solver<G>,
    Conspiracy: Solver<G>,
{
    let mut t = Tally::default();
    let mut reference = |g: &G| negamax_solve(&mut g.clone()).value;
    let mut ab = AlphaBeta::<G>::new(Config::default().memory(16 << 20)).expect("16 MiB");
    for p in positions {
        match score_answer(&mut ab, p, limits) {
            Some(a) => check_printed(&mut t, "alpha-beta", p, &a, &mut reference, Score::back_up),
            None => {
                t.compare(p, None, "an exact score".into(), "stopped".to_string());
            }
        }
    }
    let mut outcome = |g: &G| reference(g).outcome().expect("solved to the end");
    for (name, mut s) in outcome_solvers::<G>(cns) {
        for p in positions {
            match outcome_answer(s.as_mut(), p, limits) {
                Some(a) => check_printed(&mut t, name, p, &a, &mut outcome, flip_unless_kept),
                None => {
                    t.compare(p, None, format!("an outcome ({name})"), "stopped".into());
                }
            }
        }
    }
    t
}

/// Positions of `start` after `min..=max` random plies, not over.
fn positions_after<G: Game>(
    start: &G,
    count: usize,
    plies: std::ops::RangeInclusive<u32>,
    seed: u64,
) -> Vec<G> {
    let mut r = rng(seed);
    let want = |g: &G| {
        let left = g.remaining_plies().unwrap_or(0);
        let total = start.remaining_plies().unwrap_or(0);
        plies.contains(&(total - left))
    };
    random_positions(start, &mut r, count * 8, *plies.end())
        .into_iter()
        .filter(want)
        .take(count)
        .collect()
}

/// The Dots-and-Boxes answer of each solver through `exact_solve` on
/// random positions of `size`, against the brute force.
fn dots_rows(
    t: &mut Tally,
    size: DotsSize,
    count: usize,
    drawn: std::ops::RangeInclusive<u32>,
    seed: u64,
) {
    let future = dots_reference::future_values(size).expect("a small board");
    let mut reference = |g: &Dots| dots_reference::exact_score(g, &future);
    let back_up = |v: i32, kept: bool| if kept { v } else { -v };
    let limits = Limits::none().with_nodes(50_000_000);
    let positions = positions_after(&Dots::new(size), count, drawn, seed);
    let mut solvers: Vec<(&'static str, Box<dyn Solver<Dots>>)> = vec![(
        "alpha-beta",
        Box::new(AlphaBeta::<Dots>::new(Config::default().memory(16 << 20)).expect("16 MiB")),
    )];
    solvers.extend(outcome_solvers::<Dots>(false));
    for (name, mut s) in solvers {
        for p in &positions {
            let solved = exact_solve(s.as_mut(), p, &limits);
            let Some(value) = solved.score else {
                t.compare(
                    p,
                    None,
                    format!("an exact score ({name})"),
                    "stopped".into(),
                );
                continue;
            };
            let printed = Printed {
                value,
                best: solved.best,
                line: solved.line,
            };
            check_printed(t, name, p, &printed, &mut reference, back_up);
        }
    }
}

/// The chess tables' answer (the position's value, `best_move`, the line
/// of best moves to the end, 20 plies for a draw) on random positions of
/// each ending, against the tables' own values.
fn chess_rows(t: &mut Tally, endings: &[&str], samples: usize, seed: u64) {
    use gametree_chess_tables::{BuildOptions, Signature, Tablebase};
    let mut r = rng(seed);
    for &material in endings {
        let Some(mut sampler) = super::chess::Sampler::new(material, t) else {
            continue;
        };
        let mut tables = Tablebase::new();
        let built = material
            .parse::<Signature>()
            .map_err(|e| e.to_string())
            .and_then(|s| {
                tables
                    .build(&[s], &BuildOptions::default())
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = built {
            t.compare(material, None, "the tables".to_string(), e);
            continue;
        }
        let mut reference = |g: &gametree_games_chess::Position| {
            tables
                .probe(g)
                .ok()
                .flatten()
                .expect("every successor is in the tables")
        };
        let mut done = 0;
        while done < samples {
            let (_, p) = sampler.next(&mut r);
            if p.outcome().is_some() || tables.probe(&p).ok().flatten().is_none() {
                continue;
            }
            done += 1;
            let Some((best, value)) = tables.best_move(&p).ok().flatten() else {
                t.compare(&p, None, "a best move".to_string(), "none".into());
                continue;
            };
            let mut line = Vec::new();
            let mut pos = p.clone();
            while let Some((m, _)) = tables.best_move(&pos).ok().flatten() {
                line.push(m);
                pos.make(m);
                let cap = if value == gametree_retrograde::Value::Draw {
                    20
                } else {
                    300
                };
                if line.len() >= cap {
                    break;
                }
            }
            let printed = Printed {
                value,
                best: Some(best),
                line,
            };
            check_printed(t, material, &p, &printed, &mut reference, |v, _| v.parent());
        }
    }
}

pub(crate) fn checks() -> Vec<Check> {
    vec![
        Check::new(
            "chess",
            Family::Solvers,
            "printed best move and line achieve the table value: best_move played out = probe (KQvK KRvK; full: KBNvK KQvKR)",
            |ctx| {
                let mut t = Tally::default();
                chess_rows(&mut t, &["KQvK", "KRvK"], ctx.pick(30, 200), ctx.seed);
                if !ctx.quick {
                    chess_rows(&mut t, &["KBNvK", "KQvKR"], 50, ctx.seed + 1);
                }
                t
            },
        ),
        Check::new(
            "dots",
            Family::Solvers,
            "printed best move and line achieve the exact score: alpha-beta, PNS, PN2, df-pn = brute force (2x2, 3x2 after 6+ lines, quick: 8+; full: 3x3 after 10+)",
            |ctx| {
                let mut t = Tally::default();
                let size = |w, h| DotsSize::new(w, h).expect("a valid size");
                dots_rows(&mut t, size(2, 2), ctx.pick(30, 200), 0..=11, ctx.seed);
                dots_rows(
                    &mut t,
                    size(3, 2),
                    ctx.pick(10, 100),
                    ctx.pick(8, 6)..=16,
                    ctx.seed + 1,
                );
                if !ctx.quick {
                    dots_rows(&mut t, size(3, 3), 40, 10..=23, ctx.seed + 2);
                }
                t
            },
        ),
        Check::new(
            "connect4",
            Family::Solvers,
            "printed best move and line achieve the value: alpha-beta score, PNS, PN2, df-pn outcome = negamax (4x4, 5x4)",
            |ctx| {
                let limits = Limits::none().with_nodes(20_000_000);
                let b4 = Board::new(Connect4Size::new(4, 4).expect("size"));
                let b5 = Board::new(Connect4Size::new(5, 4).expect("size"));
                let mut ps = positions_after(&b4, ctx.pick(15, 60), 6..=14, ctx.seed);
                ps.extend(positions_after(
                    &b5,
                    ctx.pick(10, 40),
                    11..=18,
                    ctx.seed + 1,
                ));
                generic_rows(&ps, &limits, false)
            },
        ),
        Check::new(
            "tictactoe",
            Family::Solvers,
            "printed best move and line achieve the value: alpha-beta score, PNS, PN2, df-pn, CNS outcome = negamax (every position)",
            |ctx| {
                let (all, _) = reachable(&TicTacToe::new());
                let all: Vec<TicTacToe> =
                    all.into_iter().filter(|g| g.outcome().is_none()).collect();
                let step = ctx.pick(7, 1);
                let some: Vec<TicTacToe> = all.into_iter().step_by(step).collect();
                generic_rows(&some, &Limits::none(), true)
            },
        ),
        Check::new(
            "mnk",
            Family::Solvers,
            "printed best move and line achieve the value: alpha-beta score, PNS, PN2, df-pn outcome = negamax (4,4,3 4,4,4)",
            |ctx| {
                let limits = Limits::none().with_nodes(20_000_000);
                let a = Mnk::new(4, 4, 3).expect("a valid game");
                let b = Mnk::new(4, 4, 4).expect("a valid game");
                let mut ps = positions_after(&a, ctx.pick(15, 60), 6..=12, ctx.seed);
                ps.extend(positions_after(&b, ctx.pick(15, 60), 6..=12, ctx.seed + 1));
                generic_rows(&ps, &limits, false)
            },
        ),
    ]
}
