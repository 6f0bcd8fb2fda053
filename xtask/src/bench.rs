//! `cargo xtask bench TASK`: measured figures, printed as tables. Timings
//! are wall-clock on this machine and noisy; every table carries a baseline
//! measured in the same run, and the ratios are what to read.

use gametree_alphabeta::TableConfig;
use gametree_game::Use;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use gametree_alphabeta::{AlphaBeta, Config, TtUse, alpha_beta, negamax};
use gametree_game::{Find, Game, Limits, Request, Solver};
use gametree_games_tictactoe::TicTacToe;
use gametree_ordering::Policy;
use gametree_ttable::ProbePolicy;

/// Options of `cargo xtask bench`.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    /// What to measure: `defaults` (the default configuration against the
    /// best of a ladder, per game), `ordering`, `alphabeta`, `connect4`,
    /// `retrograde`, `syzygy` (ours against the Syzygy generator,
    /// `--rtbgen PATH`), `tb-compress` (compressed chess tables) or
    /// `tb-sizes` (a directory's compressed tables against the published
    /// ones, `--tables DIR`).
    task: String,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Fewer positions (a smoke run).
    #[arg(long)]
    quick: bool,
    /// Connect Four: at most this many positions per set.
    #[arg(long)]
    limit: Option<usize>,
    /// Connect Four: only the sets whose file name contains this text (with
    /// `--pons` or `--steininger`: one of these comma-separated texts, each
    /// optionally with its own limit, `L1_R3:100`).
    #[arg(long)]
    sets: Option<String>,
    /// Connect Four: root algorithm (`pvs`, `mtdf`, `ab`, `bisect`).
    #[arg(long, default_value = "bisect")]
    algo: String,
    /// Connect Four: win/draw/loss only (weak solving).
    #[arg(long)]
    weak: bool,
    /// Connect Four: killers per ply (0, 1, 2); the threat-count order
    /// alone does best, so the default is 0.
    #[arg(long, default_value_t = 0)]
    killers: u8,
    /// Connect Four: add the history heuristic (gravity) as a tie-break.
    #[arg(long)]
    history: bool,
    /// Connect Four: add counter-moves.
    #[arg(long)]
    counter: bool,
    /// Connect Four: also solve the empty 7x6 board (strong, or weak with
    /// `--weak`), stopping after `--seconds`; with `--steininger`, time both
    /// programs on it too (no time limit).
    #[arg(long)]
    empty: bool,
    /// Connect Four: time the solver's default configuration against each
    /// idea switched off or on (table prefetch off, enhanced transposition
    /// cutoffs on), in alternating rounds, on the first `--limit` (default
    /// 30) positions of the `--sets` set (default Test_L1_R2).
    #[arg(long)]
    ablate: bool,
    /// Connect Four: the time limit of `--empty`, in seconds.
    #[arg(long, default_value_t = 900)]
    seconds: u64,
    /// Directory of the published data sets (default: $GAMETREE_DATA, else
    /// ../shared/data).
    #[arg(long)]
    data: Option<std::path::PathBuf>,
    /// `syzygy`: the Syzygy generator's `rtbgen` binary to time against.
    #[arg(long)]
    rtbgen: Option<std::path::PathBuf>,
    /// `syzygy`, `connect4 --pons`, `connect4 --steininger`: alternating
    /// rounds of both programs.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// `connect4 --pons`, `--steininger`: also this many positions of 8 to
    /// 12 plies from seeded random play (`--seed`), scored by both programs,
    /// the peer's scores the reference.
    #[arg(long, default_value_t = 0)]
    generated: usize,
    /// `connect4`: time the `gametree` solver against Pascal Pons's
    /// `c4solver` binary at PATH (whole processes, alternating rounds).
    #[arg(long)]
    pons: Option<std::path::PathBuf>,
    /// `connect4`: time the `gametree` solver against Christophe
    /// Steininger's solver through our driver at PATH
    /// (`xtask/peers/build_steininger.sh` builds it; whole processes,
    /// alternating rounds, one thread, tables of `--tt`).
    #[arg(long)]
    steininger: Option<std::path::PathBuf>,
    /// `connect4 --steininger`: both programs' table size, `64M` or `1G`
    /// (the driver's build must match: `steininger-64m`, `steininger-1g`).
    #[arg(long, default_value = "64M")]
    tt: String,
    /// `connect4 --pons`: how many positions of each set (its first) to
    /// compare move by move (`--all-moves` against `c4solver -a`).
    #[arg(long, default_value_t = 50)]
    all_moves: usize,
    /// `tb-compress`: the chess endings, comma-separated (default
    /// KQvK,KRvK,KQvKR). `syzygy`: time these 5-man pawnless endings
    /// (comma-separated, or `five` for all 60) instead of the 3-4-man set.
    #[arg(long)]
    endings: Option<String>,
    /// `tb-compress`: directory of the raw tables (`<ending>.rtb`, loaded
    /// when present, else built and written) and the compressed ones.
    /// `tb-sizes`: directory of the `ENDING.gtbz` files of `gametree tb
    /// compress`.
    #[arg(long)]
    tables: Option<std::path::PathBuf>,
    /// Also write the figures into BENCHMARKS.md at the project root, as
    /// this task's section (replacing the one an earlier run wrote).
    #[arg(long)]
    markdown: bool,
}

pub(crate) fn run(opts: &Options) -> Result<()> {
    if opts.markdown {
        let section = if opts.pons.is_some() {
            format!("{} vs Pons", opts.task)
        } else if opts.steininger.is_some() {
            format!("{} vs Steininger, {} table", opts.task, opts.tt)
        } else if opts.task == "syzygy" && opts.endings.is_some() {
            "syzygy 5-man".to_owned()
        } else if opts.ablate {
            format!("{} ideas", opts.task)
        } else {
            opts.task.clone()
        };
        return crate::benchmarks_md::run_and_record(&section);
    }
    match opts.task.as_str() {
        "ordering" => ordering(opts),
        "alphabeta" => alphabeta(opts),
        "connect4" => connect4(opts),
        "defaults" => crate::bench_defaults::run(opts.data.clone(), opts.quick),
        "retrograde" => crate::bench_retrograde::run(opts.quick),
        "syzygy" => crate::bench_syzygy::run(
            opts.rtbgen.as_deref(),
            opts.rounds,
            opts.quick,
            opts.endings.as_deref(),
        ),
        "tb-compress" => {
            crate::bench_compressed::run(opts.endings.as_deref(), opts.tables.as_deref(), opts.seed)
        }
        "tb-sizes" => crate::bench_sizes::run(opts.tables.as_deref()),
        other => bail!(
            "unknown bench task {other:?} (expected: defaults, ordering, alphabeta, connect4, retrograde, syzygy, tb-compress, tb-sizes)"
        ),
    }
}

/// The ordering ladder of the `ordering` crate's issue: each step adds one
/// heuristic to the previous one.
fn ladder() -> Vec<(&'static str, Config)> {
    let base = Config::plain().fail_soft(true);
    let tt = base
        .iterative_deepening(true)
        .table(TableConfig::off().usage(TtUse::Ordering).memory(16 << 20));
    let killers = tt.killers(2);
    let history = killers.history(Some(Policy::Gravity));
    let counters = history.counter_moves(true);
    let all = counters
        .tactical_ordering(Use::On)
        .table(
            tt.get_table()
                .usage(TtUse::Cutoffs)
                .probe_policy(ProbePolicy::ExactDepth),
        )
        .algorithm(gametree_alphabeta::Algorithm::Pvs);
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
/// against plain alpha-beta (itself verified equal to negamax) as it goes:
/// a bench never reports a wrong search.
fn nodes_for<G>(config: Config, positions: &[G], depth: u32) -> Result<(u64, f64)>
where
    G: Game + Send + std::fmt::Display,
    G::Move: Send + Sync,
{
    let mut searcher = AlphaBeta::<G>::new(config)?;
    let mut secs = 0.0;
    let mut nodes = 0;
    for p in positions {
        searcher.clear();
        let t0 = Instant::now();
        let r = searcher.search(&mut p.clone(), &mut Request::new(&Limits::depth(depth)));
        secs += t0.elapsed().as_secs_f64();
        nodes += r.stats.nodes;
        let expected = alpha_beta(&mut p.clone(), depth).value;
        if r.value != expected {
            bail!("{p}: searcher {} != alpha-beta {expected}", r.value);
        }
    }
    Ok((nodes, secs))
}

fn ordering_table<G>(name: &str, positions: &[G], depth: u32) -> Result<()>
where
    G: Game + Send + std::fmt::Display,
    G::Move: Send + Sync,
{
    println!("\n{name}: {} positions, depth {depth}", positions.len());
    println!("| ordering | nodes | vs none | seconds |");
    println!("|---|---:|---:|---:|");
    let mut baseline = None;
    for (label, config) in ladder() {
        let (nodes, secs) = nodes_for(config, positions, depth)?;
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

fn ordering(opts: &Options) -> Result<()> {
    use gametree_verify::{random_positions, rng};
    println!("Nodes searched by alpha-beta with each move-ordering step");
    println!("(each value checked against plain alpha-beta; table cleared per position)");
    let n = if opts.quick { 5 } else { 30 };
    ordering_table("tic-tac-toe", &tictactoe_positions(), 7)?;
    let c4 = random_positions(
        &gametree_games_connect4::Board::standard(),
        &mut rng(opts.seed),
        n,
        12,
    );
    ordering_table("Connect Four 7x6", &c4, 9)?;
    let ataxx = random_positions(
        &gametree_games_ataxx::Position::startpos(),
        &mut rng(opts.seed),
        n,
        20,
    );
    ordering_table("Ataxx", &ataxx, 4)?;
    let chess = random_positions(
        &gametree_games_chess::Position::startpos(),
        &mut rng(opts.seed),
        n,
        20,
    );
    ordering_table("chess", &chess, 5)?;
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
        .map(|p| negamax(&mut p.clone(), depth).stats.nodes)
        .sum();
    let neg_secs = t0.elapsed().as_secs_f64();
    println!("| negamax | {neg} | 100% | {neg_secs:.2} |");
    let t0 = Instant::now();
    let ab: u64 = positions
        .iter()
        .map(|p| alpha_beta(&mut p.clone(), depth).stats.nodes)
        .sum();
    println!(
        "| alpha-beta (plain) | {ab} | {:.1}% | {:.2} |",
        100.0 * ab as f64 / neg as f64,
        t0.elapsed().as_secs_f64()
    );
    let variants =
        gametree_alphabeta::variants::covering_set(16 << 20, if opts.quick { 1 } else { 2 });
    for v in variants {
        let (nodes, secs) = nodes_for(v.config, &positions, depth)?;
        println!(
            "| {} | {nodes} | {:.1}% | {secs:.2} |",
            v.name,
            100.0 * nodes as f64 / neg as f64
        );
    }
    let _ = opts.seed;
    Ok(())
}

/// The Connect Four solver: the generic [`AlphaBeta`] with the game's
/// knowledge (forcing, order hints, the game's length: its empty cells),
/// configured for solving.
pub(crate) fn connect4_solver(config: Config) -> Result<AlphaBeta<gametree_games_connect4::Board>> {
    Ok(AlphaBeta::<gametree_games_connect4::Board>::new(config)?)
}

/// The Connect Four solver's configuration: the root bisection `algo`,
/// no iterative deepening, the threat-count order alone (the tactical
/// stage finds nothing among non-losing moves, killers and history only
/// disturb the threat order), a table of `tt_bytes`, and no line completion
/// (Pons's solver reports the score only, so the node counts compare; what
/// the default's completion adds is measured by `bench defaults`).
pub(crate) fn connect4_config(algo: gametree_alphabeta::Algorithm, tt_bytes: usize) -> Config {
    Config::default()
        .complete_line(false)
        .algorithm(algo)
        .iterative_deepening(false)
        .killers(0)
        .history(None)
        .counter_moves(false)
        .tactical_ordering(Use::Off)
        .memory(tt_bytes)
}

/// A table size for a set: 128 bytes per node of Pons's mean (16
/// entries), a power of two from 64 KiB to 16 MiB, or 64 MiB for the sets
/// of a million nodes and more. The table is cleared per position, and
/// clearing a large table costs more than an easy solve; a table larger
/// than needed also misses the cache more (Test_L1_R1: 512 KiB searches as
/// many nodes as 1 MiB, +0.06 %). The deep sets need the room: on the first
/// 50 lines of Test_L1_R2 a 16 MiB table searches 1.30x the nodes of 64 MiB.
fn connect4_table_bytes(mean_nodes: f64) -> usize {
    let cap = if mean_nodes >= 1e6 {
        64 << 20
    } else {
        16 << 20
    };
    ((mean_nodes * 128.0) as usize)
        .next_power_of_two()
        .clamp(64 << 10, cap)
}

/// The CPU time this thread has used, in nanoseconds (Linux's
/// `/proc/thread-self/schedstat`), if the system tells.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn connect4(opts: &Options) -> Result<()> {
    use gametree_verify::data::pons::TestSet;
    let dir = crate::verify::data_dir(opts.data.as_ref()).join("connect4");
    if !dir.is_dir() {
        bail!(
            "{}: no Connect Four data: {}",
            dir.display(),
            crate::verify::CONNECT4_DATA
        );
    }
    if let Some(pons) = &opts.pons {
        let generated = (opts.generated > 0).then_some((opts.generated, opts.seed));
        return crate::bench_pons::run(
            pons,
            &dir,
            opts.sets.as_deref(),
            opts.limit,
            opts.rounds,
            generated,
            opts.all_moves,
        );
    }
    if let Some(steininger) = &opts.steininger {
        let work = crate::bench_steininger::Workload {
            dir: &dir,
            sets: opts.sets.as_deref(),
            limit: opts.limit,
            generated: (opts.generated > 0).then_some((opts.generated, opts.seed)),
            empty: opts.empty,
            rounds: opts.rounds,
        };
        return crate::bench_steininger::run(steininger, &opts.tt, &work);
    }
    if opts.ablate {
        return connect4_ablate(opts, &dir);
    }
    let algo = match opts.algo.as_str() {
        "pvs" => gametree_alphabeta::Algorithm::Pvs,
        "mtdf" => gametree_alphabeta::Algorithm::Mtdf,
        "ab" => gametree_alphabeta::Algorithm::AlphaBeta,
        "bisect" => gametree_alphabeta::Algorithm::Bisection,
        other => bail!("unknown --algo {other:?} (pvs, mtdf, ab, bisect)"),
    };
    println!(
        "Connect Four, {} solving, algorithm {}, table cleared per position, single thread",
        if opts.weak {
            "weak (win/draw/loss)"
        } else {
            "strong (exact Pons score)"
        },
        opts.algo
    );
    println!(
        "| set | positions | table | mean nodes | Pons mean nodes | ratio | mean CPU time | mean wall time | Pons mean time | wrong |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for set in TestSet::ALL {
        if opts
            .sets
            .as_ref()
            .is_some_and(|s| !set.file_name().contains(s.as_str()))
        {
            continue;
        }
        let mut positions = set.load_with(&dir, gametree_verify::pons_board)?;
        if let Some(n) = opts.limit {
            positions.truncate(n);
        }
        // Pons's published figures for the set.
        let published = set.published()?;
        // Small tables for the easy sets: clearing is part of the protocol.
        let tt_bytes = connect4_table_bytes(published.mean_nodes);
        let config = connect4_config(algo, tt_bytes)
            .killers(opts.killers)
            .history(opts.history.then_some(Policy::Gravity))
            .counter_moves(opts.counter);
        let mut solver = connect4_solver(config)?;
        let (mut nodes, mut wrong) = (0u64, 0usize);
        let cpu0 = thread_cpu_ns();
        let t0 = Instant::now();
        for p in &positions {
            solver.clear();
            let mut b = p.board;
            let none = Limits::none();
            let ok = if opts.weak {
                let r = solver.solve(&mut b, &mut Request::new(&none).find(Find::Outcome));
                nodes += r.stats.nodes;
                r.outcome.map(|o| match o {
                    gametree_game::Outcome::Win => 1,
                    gametree_game::Outcome::Draw => 0,
                    gametree_game::Outcome::Loss => -1,
                }) == Some(p.score.signum())
            } else {
                let r = solver.solve(&mut b, &mut Request::new(&none).find(Find::Score));
                nodes += r.stats.nodes;
                r.score.and_then(|v| p.board.pons_score(v)) == Some(p.score)
            };
            if !ok {
                wrong += 1;
            }
        }
        let secs = t0.elapsed().as_secs_f64();
        let cpu = match (cpu0, thread_cpu_ns()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a) as f64 / 1e9),
            _ => None,
        };
        let n = positions.len().max(1) as f64;
        let mean_nodes = nodes as f64 / n;
        println!(
            "| {} {} | {} | {} KiB | {:.1} | {} | {:.2} | {} | {:.1} µs | {:.1} µs | {wrong} |",
            set.file_name(),
            set.description(),
            positions.len(),
            tt_bytes >> 10,
            mean_nodes,
            published.mean_nodes,
            mean_nodes / published.mean_nodes,
            cpu.map_or("n/a".to_string(), |c| format!("{:.1} µs", c * 1e6 / n)),
            secs * 1e6 / n,
            published.mean_time_us,
        );
        if wrong > 0 {
            bail!("{wrong} wrong scores on {}", set.file_name());
        }
    }
    if opts.empty {
        connect4_empty(opts, algo)?;
    }
    Ok(())
}

/// `bench connect4 --ablate`: the default solver (as `gametree solve`
/// builds it: `Config::default()`, 64 MiB, the table kept from one
/// position to the next, no line completion) against each idea toggled,
/// CPU time per configuration in alternating rounds, medians.
fn connect4_ablate(opts: &Options, dir: &std::path::Path) -> Result<()> {
    use gametree_verify::data::pons::TestSet;
    let want = opts.sets.as_deref().unwrap_or("L1_R2");
    let set = TestSet::ALL
        .into_iter()
        .find(|s| s.file_name().contains(want))
        .with_context(|| format!("--sets {want:?}: no such Pons set"))?;
    let mut positions = set.load_with(dir, gametree_verify::pons_board)?;
    positions.truncate(opts.limit.unwrap_or(30));
    let base = Config::default().complete_line(false).memory(64 << 20);
    let variants: [(&str, Config); 3] = [
        ("default (table prefetch on, ETC off)", base),
        ("table prefetch off", base.prefetch(false)),
        ("enhanced transposition cutoffs on", base.etc(true)),
    ];
    let rounds = opts.rounds.max(1);
    let mut times = vec![Vec::new(); variants.len()];
    let mut nodes = vec![0u64; variants.len()];
    for round in 0..rounds {
        for k in 0..variants.len() {
            // Alternate the order from round to round.
            let i = if round % 2 == 0 {
                k
            } else {
                variants.len() - 1 - k
            };
            let mut solver = connect4_solver(variants[i].1)?;
            let (mut n, mut wrong) = (0u64, 0usize);
            let cpu0 = thread_cpu_ns().context("no per-thread CPU time on this system")?;
            for p in &positions {
                let mut b = p.board;
                let none = Limits::none();
                let r = solver.solve(&mut b, &mut Request::new(&none).find(Find::Score));
                n += r.stats.nodes;
                if r.score.and_then(|v| p.board.pons_score(v)) != Some(p.score) {
                    wrong += 1;
                }
            }
            let cpu = thread_cpu_ns().unwrap_or(cpu0).saturating_sub(cpu0) as f64 / 1e9;
            if wrong > 0 {
                bail!("{}: {wrong} wrong scores", variants[i].0);
            }
            times[i].push(cpu);
            nodes[i] = n;
        }
    }
    let median = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "Connect Four ideas: {} ({} positions), the solver `gametree solve` builds (64 MiB table kept across positions), CPU time, {rounds} alternating rounds, medians; every score checked",
        set.file_name(),
        positions.len()
    );
    println!("| configuration | nodes | CPU s | time / default |");
    println!("|---|---:|---:|---:|");
    let t0 = median(&times[0]);
    for (i, (name, _)) in variants.iter().enumerate() {
        let t = median(&times[i]);
        println!("| {name} | {} | {t:.2} | {:.2} |", nodes[i], t / t0);
    }
    Ok(())
}

/// Solves the empty 7x6 board (no opening book), 256 MiB table.
fn connect4_empty(opts: &Options, algo: gametree_alphabeta::Algorithm) -> Result<()> {
    let mut solver = connect4_solver(connect4_config(algo, 256 << 20))?;
    let mut board = gametree_games_connect4::Board::standard();
    let limits = Limits::none().with_time(std::time::Duration::from_secs(opts.seconds));
    let cpu0 = thread_cpu_ns();
    let t0 = Instant::now();
    let find = if opts.weak {
        Find::Outcome
    } else {
        Find::Score
    };
    let r = solver.solve(&mut board, &mut Request::new(&limits).find(find));
    let wall = t0.elapsed().as_secs_f64();
    let cpu = match (cpu0, thread_cpu_ns()) {
        (Some(a), Some(b)) => format!("{:.1} s CPU", b.saturating_sub(a) as f64 / 1e9),
        _ => "CPU n/a".to_string(),
    };
    match r.stopped {
        Some(why) => println!(
            "empty 7x6 board ({}): not solved, stopped by {why:?} after {} nodes, {wall:.1} s wall, {cpu}",
            if opts.weak { "weak" } else { "strong" },
            r.stats.nodes
        ),
        None => println!(
            "empty 7x6 board ({}): outcome {:?}, Pons score {}, best column {}, {} nodes, {wall:.1} s wall, {cpu}",
            if opts.weak { "weak" } else { "strong" },
            r.outcome,
            r.score
                .and_then(|v| board.pons_score(v))
                .map_or("n/a".to_string(), |v| format!("{v:+}")),
            r.best.map_or("-".to_string(), |c| c.to_string()),
            r.stats.nodes
        ),
    }
    Ok(())
}
