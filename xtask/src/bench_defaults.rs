//! `cargo xtask bench defaults`: what a user gets from
//! `gametree_alphabeta::Config::default()` (which `gametree solve` and `gametree
//! analyse` use) against the best of a ladder of configurations measured in
//! the same run, per game, in nodes. Every value is checked against an
//! independent reference as it is measured.

use gametree_game::Use;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use gametree_alphabeta::{Algorithm, AlphaBeta, Config};
use gametree_game::{Find, Game, Limits, Request, Score, Solver};
use gametree_games_connect4::{Board, Size};
use gametree_verify::data::pons::TestSet;

/// The configurations the default is compared with: the tuned Connect
/// Four solver, the lean order under each root algorithm, and the default
/// with each heuristic group forced on.
fn ladder() -> Vec<(&'static str, Config)> {
    let lean = Config::default()
        .killers(0)
        .history(None)
        .counter_moves(false)
        .tactical_ordering(Use::Off)
        .algorithm(Algorithm::Pvs);
    vec![
        ("default", Config::default()),
        (
            "PVS, default ordering",
            Config::default().algorithm(Algorithm::Pvs),
        ),
        (
            "bisection, lean order (the Connect Four bench)",
            lean.algorithm(Algorithm::Bisection)
                .iterative_deepening(false),
        ),
        ("PVS, lean order", lean),
        ("MTD(f), lean order", lean.algorithm(Algorithm::Mtdf)),
        (
            "PVS, killers + history + counter-moves",
            Config::default()
                .killers(2)
                .history(Some(gametree_ordering::Policy::Gravity))
                .counter_moves(true),
        ),
        ("PVS, killers only", Config::default().killers(2)),
        (
            "bisection, default ordering",
            Config::default().algorithm(Algorithm::Bisection),
        ),
    ]
}

/// One benchmark: positions, how to search each, and the reference value.
struct Bench<G: Game> {
    name: String,
    positions: Vec<G>,
    /// Solve (`None`) or search to a depth.
    depth: Option<u32>,
    /// The expected value of each position (checked on every run).
    expected: Vec<Score>,
    tt_bytes: usize,
}

/// Total nodes of `config` on `bench`; fails on a wrong value.
fn nodes<G>(bench: &Bench<G>, config: Config) -> Result<(u64, f64)>
where
    G: Game + Send + std::fmt::Display,
    G::Move: Send + Sync,
{
    let mut s = AlphaBeta::<G>::new(config.memory(bench.tt_bytes))?;
    let t0 = Instant::now();
    let mut total = 0;
    for (p, &expected) in bench.positions.iter().zip(&bench.expected) {
        s.clear();
        let (value, nodes) = match bench.depth {
            None => {
                let none = Limits::none();
                let r = s.solve(&mut p.clone(), &mut Request::new(&none).find(Find::Score));
                (r.score, r.stats.nodes)
            }
            Some(d) => {
                let r = s.search(&mut p.clone(), &mut Request::new(&Limits::depth(d)));
                (Some(r.value), r.stats.nodes)
            }
        };
        if value != Some(expected) {
            bail!("{}: {p}: got {value:?}, expected {expected}", bench.name);
        }
        total += nodes;
    }
    Ok((total, t0.elapsed().as_secs_f64()))
}

/// Prints one row per benchmark: the default against the best rung.
fn row<G>(bench: &Bench<G>) -> Result<f64>
where
    G: Game + Send + std::fmt::Display,
    G::Move: Send + Sync,
{
    let mut results = Vec::new();
    for (label, config) in ladder() {
        let r = nodes(bench, config)?;
        eprintln!("  {}: {label}: {} nodes, {:.2} s", bench.name, r.0, r.1);
        results.push((label, r));
    }
    let (default_nodes, default_secs) = results[0].1;
    let (best_label, (best_nodes, best_secs)) = results
        .iter()
        .min_by_key(|(_, (n, _))| *n)
        .copied()
        .expect("a ladder");
    let ratio = default_nodes as f64 / best_nodes.max(1) as f64;
    println!(
        "| {} | {} | {default_nodes} | {default_secs:.2} | {best_label} | {best_nodes} | {best_secs:.2} | {ratio:.2} |",
        bench.name,
        bench.positions.len(),
    );
    Ok(ratio)
}

/// Pons's set `set` (its first `n` lines), solved.
fn pons(dir: &std::path::Path, set: TestSet, n: usize) -> Result<Bench<Board>> {
    let lines = set.load_with(dir, gametree_verify::pons_board)?;
    let lines: Vec<_> = lines.into_iter().take(n).collect();
    let mut expected = Vec::new();
    for l in &lines {
        // Pons's score back to gametree's: a win in the fewest plies that
        // give that score for the side to move.
        let v = (0..=42u32)
            .map(Score::win_in)
            .chain((0..=42u32).map(Score::loss_in))
            .chain([Score::DRAW])
            .find(|&s| l.board.pons_score(s) == Some(l.score) && score_fits(&l.board, s));
        match v {
            Some(v) => expected.push(v),
            None => bail!("{}: no score {} for {}", set.file_name(), l.score, l.moves),
        }
    }
    Ok(Bench {
        name: format!("connect4 {} (first {})", set.file_name(), lines.len()),
        positions: lines.into_iter().map(|l| l.board).collect(),
        depth: None,
        expected,
        tt_bytes: 16 << 20,
    })
}

/// Whether a decisive score can happen from `b`: a win on the side to
/// move's own plies, a loss on the opponent's.
fn score_fits(b: &Board, s: Score) -> bool {
    match s.plies_to_end() {
        Some(n) if s.is_win() => n % 2 == 1 && n as usize <= b.empty_cells(),
        Some(n) => n % 2 == 0 && n as usize <= b.empty_cells(),
        None => true,
    }
}

pub(crate) fn run(data: Option<std::path::PathBuf>, quick: bool) -> Result<()> {
    println!("Default configuration against the best of a ladder, nodes, same run");
    println!("(every value checked; the table cleared per position; single thread)");
    println!();
    println!(
        "| benchmark | positions | default nodes | s | best of the ladder | nodes | s | default / best |"
    );
    println!("|---|---:|---:|---:|---|---:|---:|---:|");
    let mut worst: f64 = 0.0;
    let dir = crate::verify::data_dir(data.as_ref()).join("connect4");
    if dir.is_dir() {
        let n = if quick { 20 } else { 1000 };
        for (set, count) in [
            (TestSet::L3_R1, n),
            (TestSet::L2_R1, n),
            (TestSet::L2_R2, n),
            (TestSet::L1_R1, n),
            (TestSet::L1_R2, if quick { 2 } else { 100 }),
        ] {
            worst = worst.max(row(&pons(&dir, set, count)?)?);
        }
    } else {
        println!(
            "| connect4 Pons's sets | - | skipped: no data in {} | | | | | |",
            dir.display()
        );
    }
    // The small boards from the empty position (the value is checked
    // against a separate alpha-beta solve with a 256 MiB table).
    let sizes: &[(usize, usize)] = if quick {
        &[(5, 4), (6, 4)]
    } else {
        &[(6, 4), (6, 5), (7, 4), (7, 5), (8, 4)]
    };
    for &(w, h) in sizes {
        let b = Board::new(Size::new(w, h)?);
        let mut reference = AlphaBeta::<Board>::new(Config::default().memory(256 << 20))?;
        let none = Limits::none();
        let expected = reference
            .solve(&mut b.clone(), &mut Request::new(&none).find(Find::Score))
            .score
            .context("the reference solve stopped")?;
        worst = worst.max(row(&Bench {
            name: format!("connect4 {w}x{h} empty board"),
            positions: vec![b],
            depth: None,
            expected: vec![expected],
            tt_bytes: 64 << 20,
        })?);
    }
    // m,n,k: random positions, solved (plain alpha-beta is the reference,
    // so the larger board starts from at least 8 stones).
    for (spec, plies, min_stones, count) in [
        ("4,4,4", 4, 0, 30),
        ("5,4,4", 10, 8, if quick { 5 } else { 30 }),
    ] {
        let start: gametree_games_mnk::Mnk = spec.parse()?;
        let mut r = gametree_verify::rng(7);
        let positions: Vec<gametree_games_mnk::Mnk> =
            gametree_verify::random_positions(&start, &mut r, count * 20, plies)
                .into_iter()
                .filter(|p| p.stones_played() >= min_stones)
                .take(count)
                .collect();
        let expected = positions
            .iter()
            .map(|p| gametree_alphabeta::alpha_beta_solve(&mut p.clone()).value)
            .collect();
        worst = worst.max(row(&Bench {
            name: format!("mnk {spec}, {min_stones} to {plies} stones"),
            positions,
            depth: None,
            expected,
            tt_bytes: 16 << 20,
        })?);
    }
    // Chess mates: KQvK and KRvK positions decided within 9 plies, solved
    // (the database's distance is the reference).
    let mut positions = Vec::new();
    let mut expected = Vec::new();
    let mut r = gametree_verify::rng(11);
    for material in ["KQvK", "KRvK"] {
        let space = gametree_chess_tables::Endgame::new(material)?;
        let table = gametree_retrograde::Generator::new(&space).backward()?;
        let mut found = 0;
        while found < if quick { 5 } else { 40 } {
            let i = rand_core::Rng::next_u64(&mut r) % gametree_game::IndexSpace::size(&space);
            let (Some(p), Some(v)) = (gametree_game::IndexSpace::position(&space, i), table.get(i))
            else {
                continue;
            };
            let s = v.to_score();
            if p.outcome().is_none() && s.plies_to_end().is_some_and(|n| (5..=9).contains(&n)) {
                positions.push(p);
                expected.push(s);
                found += 1;
            }
        }
    }
    worst = worst.max(row(&Bench {
        name: "chess KQvK/KRvK mates in 5-9 plies".into(),
        positions,
        depth: None,
        expected,
        tt_bytes: 16 << 20,
    })?);
    // Ataxx: depth-limited search of random positions (negamax is the
    // reference at depth 3).
    let start = gametree_games_ataxx::Position::startpos();
    let mut r = gametree_verify::rng(13);
    let positions =
        gametree_verify::random_positions(&start, &mut r, if quick { 5 } else { 30 }, 30);
    let expected = positions
        .iter()
        .map(|p| gametree_alphabeta::negamax(&mut p.clone(), 3).value)
        .collect();
    worst = worst.max(row(&Bench {
        name: "ataxx depth 3".into(),
        positions,
        depth: Some(3),
        expected,
        tt_bytes: 16 << 20,
    })?);
    // Dots-and-Boxes: random 3x3 positions with 10 to 12 lines left,
    // solved (plain alpha-beta is the reference).
    let size = gametree_games_dots::Size::new(3, 3)?;
    let mut r = gametree_verify::rng(17);
    let positions: Vec<gametree_games_dots::Dots> =
        gametree_verify::random_positions(&gametree_games_dots::Dots::new(size), &mut r, 400, 14)
            .into_iter()
            .filter(|p| (10..=12).contains(&p.lines_left()))
            .take(if quick { 5 } else { 30 })
            .collect();
    let expected = positions
        .iter()
        .map(|p| gametree_alphabeta::alpha_beta_solve(&mut p.clone()).value)
        .collect();
    worst = worst.max(row(&Bench {
        name: "dots 3x3, 10-12 lines left".into(),
        positions,
        depth: None,
        expected,
        tt_bytes: 16 << 20,
    })?);
    println!();
    println!("largest default / best: {worst:.2}");
    Ok(())
}
