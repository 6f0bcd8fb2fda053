//! Solves lines of one of Pons's test files with the workspace's generic
//! solver configured as `cargo xtask bench connect4` configures it, and
//! prints mean nodes and mean CPU time per position (for profiling):
//! `cargo run --release -p gametree-games-connect4 --example solve FILE [FIRST] [COUNT] [TABLE_KIB] [ETC]`
//! (`ETC` 1 turns on enhanced transposition cutoffs).

use gametree_game::Use;
use std::time::Instant;

use gametree_alphabeta::{AlphaBeta, Config, Find, Limits, Request, Solver};
use gametree_data::pons::load_test_file;
use gametree_games_connect4::{Board, Size};

/// The CPU time of this thread in nanoseconds, if Linux tells.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .ok_or("usage: solve FILE [FIRST] [COUNT] [TABLE_KIB]")?;
    let first: usize = args.next().map_or(Ok(0), |a| a.parse())?;
    let count: usize = args.next().map_or(Ok(usize::MAX), |a| a.parse())?;
    let kib: usize = args.next().map_or(Ok(1024), |a| a.parse())?;
    let etc = args.next().is_some_and(|a| a == "1");
    let positions = load_test_file(file.as_ref(), |moves, _| {
        Board::from_moves(Size::STANDARD, moves)
    })?;
    let positions: Vec<_> = positions.into_iter().skip(first).take(count).collect();
    let config = Config::default()
        .algorithm(gametree_alphabeta::Algorithm::Bisection)
        .iterative_deepening(false)
        .killers(0)
        .history(None)
        .counter_moves(false)
        .tactical_ordering(Use::Off)
        .memory(kib << 10)
        .etc(etc);
    let mut solver = AlphaBeta::<Board>::new(config)?;
    let (mut nodes, mut wrong) = (0u64, 0usize);
    let cpu0 = thread_cpu_ns();
    let t0 = Instant::now();
    for p in &positions {
        solver.clear();
        let mut b = p.board;
        let none = Limits::none();
        let r = solver.solve(&mut b, &mut Request::new(&none).find(Find::Score));
        nodes += r.stats.nodes;
        if r.score.and_then(|v| p.board.pons_score(v)) != Some(p.score) {
            wrong += 1;
        }
    }
    let wall = t0.elapsed().as_secs_f64();
    let cpu = match (cpu0, thread_cpu_ns()) {
        (Some(a), Some(b)) => b.saturating_sub(a) as f64 / 1e9,
        _ => f64::NAN,
    };
    let n = positions.len().max(1) as f64;
    println!(
        "{} positions: mean nodes {:.1}, mean CPU {:.1} µs, mean wall {:.1} µs, {:.3} µs CPU/node, {wrong} wrong",
        positions.len(),
        nodes as f64 / n,
        cpu * 1e6 / n,
        wall * 1e6 / n,
        cpu * 1e6 / nodes as f64
    );
    if wrong > 0 {
        return Err(format!("{wrong} wrong scores").into());
    }
    Ok(())
}
