//! `cargo xtask bench TASK`: measured figures, printed as tables. Timings
//! are wall-clock on this machine and noisy; every table carries a baseline
//! measured in the same run, and the ratios are what to read.

use std::time::Instant;

use alphabeta::{AlphaBeta, Config, TtUse, alpha_beta, negamax};
use anyhow::{Result, bail};
use game::{Evaluate, Limits, MoveIndex, PackMove, Tactical};
use games_tictactoe::TicTacToe;
use ordering::Policy;
use ttable::ProbePolicy;

/// Options of `cargo xtask bench`.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    /// What to measure: `ordering` or `alphabeta`.
    task: String,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Fewer positions (a smoke run).
    #[arg(long)]
    quick: bool,
}

pub(crate) fn run(opts: &Options) -> Result<()> {
    match opts.task.as_str() {
        "ordering" => ordering(opts),
        "alphabeta" => alphabeta(opts),
        other => bail!("unknown bench task {other:?} (expected: ordering, alphabeta)"),
    }
}

/// The ordering ladder of the `ordering` crate's issue: each step adds one
/// heuristic to the previous one.
fn ladder() -> Vec<(&'static str, Config)> {
    let base = Config::plain().fail_soft(true);
    let tt = base
        .iterative_deepening(true)
        .tt(TtUse::Ordering, ProbePolicy::Normal)
        .tt_bytes(16 << 20);
    let killers = tt.killers(2);
    let history = killers.history(Some(Policy::Gravity));
    let counters = history.counter_moves(true);
    let all = counters
        .tactical_ordering(true)
        .tt(TtUse::Cutoffs, ProbePolicy::ExactDepth)
        .algorithm(alphabeta::Algorithm::Pvs);
    vec![
        ("no ordering (plain alpha-beta)", base),
        ("TT move only (iterative deepening)", tt),
        ("+ killers (2)", killers),
        ("+ history (gravity)", history),
        ("+ counter-moves", counters),
        ("everything (+ tactical, TT cutoffs, PVS)", all),
    ]
}

/// Total nodes of `config` over `positions` at `depth`; checks each value
/// against negamax as it goes (a bench never reports a wrong search).
fn nodes_for<G>(config: Config, positions: &[G], depth: u32, tactics: bool) -> Result<(u64, f64)>
where
    G: Evaluate + Tactical + Send + std::fmt::Display,
    G::Move: PackMove + MoveIndex + Send + Sync,
{
    let mut searcher = AlphaBeta::<G>::new(config)?;
    if tactics {
        searcher = searcher.with_tactics();
    }
    let t0 = Instant::now();
    let mut nodes = 0;
    for p in positions {
        searcher.clear();
        let r = searcher.search(&mut p.clone(), &Limits::depth(depth));
        nodes += r.nodes;
        let expected = negamax(&mut p.clone(), depth).value;
        if r.value != expected {
            bail!("{p}: searcher {} != negamax {expected}", r.value);
        }
    }
    Ok((nodes, t0.elapsed().as_secs_f64()))
}

fn ordering_table<G>(name: &str, positions: &[G], depth: u32) -> Result<()>
where
    G: Evaluate + Tactical + Send + std::fmt::Display,
    G::Move: PackMove + MoveIndex + Send + Sync,
{
    println!("\n{name}: {} positions, depth {depth}", positions.len());
    println!("| ordering | nodes | vs none | seconds |");
    println!("|---|---:|---:|---:|");
    let mut baseline = None;
    for (label, config) in ladder() {
        let (nodes, secs) = nodes_for(config, positions, depth, true)?;
        let base = *baseline.get_or_insert(nodes);
        println!(
            "| {label} | {nodes} | {:+.1}% | {secs:.2} |",
            100.0 * (nodes as f64 - base as f64) / base as f64
        );
    }
    Ok(())
}

fn tictactoe_positions() -> Vec<TicTacToe> {
    // Every position with two marks: 72 of them.
    let mut out = Vec::new();
    for a in 0..9u16 {
        for b in 0..9u16 {
            if a != b
                && let Ok(p) = TicTacToe::from_masks(1 << a, 1 << b)
            {
                out.push(p);
            }
        }
    }
    out
}

fn ordering(_opts: &Options) -> Result<()> {
    println!("Nodes searched by alpha-beta with each move-ordering step");
    println!("(each value checked against negamax; table cleared per position)");
    ordering_table("tic-tac-toe", &tictactoe_positions(), 7)?;
    Ok(())
}

fn alphabeta(opts: &Options) -> Result<()> {
    println!("Nodes and time per variant, baselines (negamax, plain alpha-beta) in the same run");
    let positions = tictactoe_positions();
    let depth = 7;
    println!(
        "\ntic-tac-toe: {} positions, depth {depth}",
        positions.len()
    );
    println!("| variant | nodes | vs negamax | seconds |");
    println!("|---|---:|---:|---:|");
    let t0 = Instant::now();
    let neg: u64 = positions
        .iter()
        .map(|p| negamax(&mut p.clone(), depth).nodes)
        .sum();
    let neg_secs = t0.elapsed().as_secs_f64();
    println!("| negamax | {neg} | 100% | {neg_secs:.2} |");
    let t0 = Instant::now();
    let ab: u64 = positions
        .iter()
        .map(|p| alpha_beta(&mut p.clone(), depth).nodes)
        .sum();
    println!(
        "| alpha-beta (plain) | {ab} | {:.1}% | {:.2} |",
        100.0 * ab as f64 / neg as f64,
        t0.elapsed().as_secs_f64()
    );
    let variants = alphabeta::variants::covering_set(16 << 20, if opts.quick { 1 } else { 2 });
    for v in variants {
        let (nodes, secs) = nodes_for(v.config, &positions, depth, true)?;
        println!(
            "| {} | {nodes} | {:.1}% | {secs:.2} |",
            v.name,
            100.0 * nodes as f64 / neg as f64
        );
    }
    let _ = opts.seed;
    Ok(())
}
