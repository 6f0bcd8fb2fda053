//! Each solver of the crate beside the alpha-beta solver, on the same solved
//! positions: the empty tic-tac-toe board (draw), the 12 tic-tac-toe
//! positions with two marks up to symmetry, empty 4,4,3 (first player wins)
//! and empty Connect Four 4×4 (draw). Prints the expansions of each solver
//! once (`nodes`), then criterion times a full win/draw/loss solve.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};
use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::{Game, Limits, Outcome, Request, Solver as _};
use gametree_games_connect4::{Board, Size};
use gametree_games_mnk::Mnk;
use gametree_games_tictactoe::TicTacToe;
use gametree_pns_conspiracy::{Conspiracy, ConspiracyConfig, DfPn, DfPnConfig, Pns};

type Solver<G> = (&'static str, fn(&mut G) -> (Option<Outcome>, u64));

fn solvers<G>(with_cns: bool) -> Vec<Solver<G>>
where
    G: Game + Send,
    G::Move: Send + Sync,
{
    let mut v: Vec<Solver<G>> = vec![
        ("pns", |g| {
            let s = Pns::default().solve(g, &mut Request::new(&Limits::none()));
            (s.outcome, s.stats.nodes)
        }),
        ("pn2", |g| {
            let s = Pns::pn2().solve(g, &mut Request::new(&Limits::none()));
            (s.outcome, s.stats.nodes)
        }),
        ("dfpn", |g| {
            let s = DfPn::new(DfPnConfig::new().epsilon(0.0))
                .unwrap()
                .solve(g, &mut Request::new(&Limits::none()));
            (s.outcome, s.stats.nodes)
        }),
        ("dfpn_1+eps", |g| {
            let s = DfPn::new(DfPnConfig::new())
                .unwrap()
                .solve(g, &mut Request::new(&Limits::none()));
            (s.outcome, s.stats.nodes)
        }),
        ("alphabeta_solve", |g| {
            let mut a = AlphaBeta::<G>::new(Config::default()).expect("table");
            let none = Limits::none();
            let mut exact = gametree_game::Request::new(&none).find(gametree_game::Find::Score);
            let r = gametree_game::Solver::solve(&mut a, g, &mut exact);
            (r.outcome, r.stats.nodes)
        }),
    ];
    if with_cns {
        v.push(("cns_inf", |g| {
            let r = Conspiracy::new(ConspiracyConfig::new())
                .unwrap()
                .search(g, &mut Request::new(&Limits::none()))
                .expect("win/draw/loss values");
            (r.outcome(), r.stats.nodes)
        }));
    }
    v
}

fn run<G>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str, positions: &[G], with_cns: bool)
where
    G: Game + Send,
    G::Move: Send + Sync,
{
    for (solver, solve) in solvers::<G>(with_cns) {
        let mut nodes = 0;
        let mut outcomes = Vec::new();
        for p in positions {
            let (o, n) = solve(&mut p.clone());
            nodes += n;
            outcomes.push(o);
        }
        eprintln!("nodes {name:<22} {solver:<16} {nodes:>10}   {outcomes:?}");
        group.bench_function(format!("{name}/{solver}"), |b| {
            b.iter(|| {
                for p in positions {
                    black_box(solve(&mut p.clone()));
                }
            });
        });
    }
}

fn two_marks() -> Vec<TicTacToe> {
    let mut seen = Vec::new();
    let mut g = TicTacToe::new();
    let mut moves = <TicTacToe as Game>::Moves::default();
    g.generate(&mut moves);
    for &a in moves.as_slice() {
        g.make(a);
        let mut replies = <TicTacToe as Game>::Moves::default();
        g.generate(&mut replies);
        for &b in replies.as_slice() {
            g.make(b);
            let c = g.canonical();
            if !seen.contains(&c) {
                seen.push(c);
            }
            g.unmake(b, ());
        }
        g.unmake(a, ());
    }
    seen
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    run(&mut group, "tictactoe_empty", &[TicTacToe::new()], true);
    run(&mut group, "tictactoe_two_marks", &two_marks(), true);
    run(
        &mut group,
        "mnk_443_empty",
        &[Mnk::new(4, 4, 3).expect("size")],
        true,
    );
    run(
        &mut group,
        "connect4_4x4_empty",
        &[Board::new(Size::new(4, 4).expect("size"))],
        false,
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
