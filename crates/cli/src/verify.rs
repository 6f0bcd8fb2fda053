//! `gametree verify`: a compact run of the project's correctness checks
//! through the libraries (`cargo xtask verify` in a checkout is the full
//! run).

use std::collections::HashSet;
use std::fmt::Debug;
use std::time::Instant;

use gametree_alphabeta::{AlphaBeta, Config, negamax, negamax_solve, variants};
use gametree_game::{Game, Limits, Outcome};
use gametree_games_tictactoe::TicTacToe;

use crate::error::{CliError, Result};
use crate::games::{AtaxxSpec, ChessSpec, CliGame, Connect4Spec, MnkSpec, Spec, TicTacToeSpec};
use crate::output::Record;

/// Cases run and the first mismatch.
type CheckResult = (u64, Option<String>);

/// A named check.
type Check = (&'static str, fn() -> CheckResult);

/// One row of the table: a check, how many cases it ran, and the first
/// mismatch.
struct Row {
    name: &'static str,
    cases: u64,
    failure: Option<String>,
    ms: u128,
}

/// Runs every check and prints a table (or JSON lines); `full` adds the
/// heavier rows.
pub(crate) fn run(json: bool, full: bool) -> Result<()> {
    let heavy: &[Check] = if full {
        &[(
            "retrograde connect4:5x4 (both methods, un-moves; 200 = alpha-beta solve)",
            connect4_5x4_database,
        )]
    } else {
        &[]
    };
    let checks: [Check; 8] = [
        (
            "alpha-beta variants = negamax (tictactoe, fixed depth)",
            variants_equal_negamax,
        ),
        (
            "solvers agree (tictactoe: alpha-beta, weak, PNS, PN2, df-pn, CNS, retrograde)",
            solvers_agree,
        ),
        ("perft tictactoe (published counts)", perft_tictactoe),
        ("perft chess (published CPW counts)", perft_chess),
        ("perft ataxx (published libataxx counts)", perft_ataxx),
        (
            "perft connect4 (generic = bitboard; OEIS A212693)",
            perft_connect4,
        ),
        (
            "make/unmake and hash oracles on random playouts (every game)",
            oracles,
        ),
        (
            "retrograde connect4:4x4 (both methods, un-moves; all = alpha-beta solve)",
            connect4_4x4_database,
        ),
    ];
    let mut failed = 0;
    if !json {
        println!("{:<80} {:>8} {:>8} {:>8}", "check", "cases", "result", "ms");
    }
    for &(name, check) in checks.iter().chain(heavy) {
        let start = Instant::now();
        let (cases, failure) = check();
        let row = Row {
            name,
            cases,
            failure,
            ms: start.elapsed().as_millis(),
        };
        if row.failure.is_some() {
            failed += 1;
        }
        if json {
            let mut r = Record::new();
            r.str("check", row.name)
                .int("cases", row.cases)
                .str("result", if row.failure.is_some() { "fail" } else { "ok" })
                .push(
                    "detail",
                    row.failure
                        .clone()
                        .map_or(crate::output::Value::Null, crate::output::Value::Str),
                )
                .int("time_ms", row.ms);
            println!("{}", r.json());
        } else {
            let result = if row.failure.is_some() { "FAIL" } else { "ok" };
            println!(
                "{:<80} {:>8} {:>8} {:>8}",
                row.name, row.cases, result, row.ms
            );
            if let Some(f) = &row.failure {
                println!("    {f}");
            }
        }
    }
    if failed > 0 {
        return Err(CliError::mismatch(format!("{failed} check(s) failed")));
    }
    if !json {
        println!("all checks passed (the full run is `cargo xtask verify` in a checkout)");
    }
    Ok(())
}

/// Every distinct tic-tac-toe position up to `plies` marks.
fn tictactoe_positions(plies: u32) -> Vec<TicTacToe> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut frontier = vec![TicTacToe::new()];
    for ply in 0..=plies {
        let mut next = Vec::new();
        for g in frontier {
            if !seen.insert(g.hash()) {
                continue;
            }
            if ply < plies && g.outcome().is_none() {
                let mut moves = <TicTacToe as Game>::Moves::default();
                g.generate(&mut moves);
                for &m in moves.as_slice() {
                    let mut c = g;
                    c.make(m);
                    next.push(c);
                }
            }
            out.push(g);
        }
        frontier = next;
    }
    out
}

fn variants_equal_negamax() -> CheckResult {
    let positions = tictactoe_positions(3);
    let mut cases = 0;
    for v in variants::covering_set(1 << 16, 1) {
        let mut searcher = match AlphaBeta::<TicTacToe>::new(v.config) {
            Ok(s) => s,
            Err(e) => return (cases, Some(format!("{}: {e}", v.name))),
        };
        for g in &positions {
            for depth in [1, 2, 4, 9] {
                let mut a = *g;
                let mut b = *g;
                let want = negamax(&mut a, depth).value;
                let got = searcher.search(&mut b, &Limits::depth(depth)).value;
                cases += 1;
                if got != want || b != *g {
                    return (
                        cases,
                        Some(format!(
                            "{} at {g} depth {depth}: {got}, negamax {want}",
                            v.name
                        )),
                    );
                }
            }
        }
    }
    (cases, None)
}

fn solvers_agree() -> CheckResult {
    let positions = tictactoe_positions(2);
    let mut cases = 0;
    let mut ab = match AlphaBeta::<TicTacToe>::new(Config::default()) {
        Ok(s) => s,
        Err(e) => return (0, Some(e.to_string())),
    };
    for g in &positions {
        let mut p = *g;
        let reference = negamax_solve(&mut p);
        let expected = reference.value.outcome().unwrap_or(Outcome::Draw);
        cases += 1;
        let solved = ab.solve(&mut p, &Limits::none());
        if solved.value != reference.value {
            return (
                cases,
                Some(format!(
                    "alpha-beta solve at {g}: {}, negamax {}",
                    solved.value, reference.value
                )),
            );
        }
        let weak = ab.solve_weak(&mut p, &Limits::none());
        if weak.outcome != Some(expected) {
            return (
                cases,
                Some(format!(
                    "weak solve at {g}: {:?}, negamax {expected}",
                    weak.outcome
                )),
            );
        }
        if g.outcome().is_none()
            && let Err(e) =
                gametree_pns_conspiracy::agree::solvers_agree(&mut p, expected, &Limits::none())
        {
            return (cases, Some(format!("at {g}: {e}")));
        }
        match crate::tb::probe_tictactoe(g, 1) {
            Ok(probe) if probe.value.map(|v| v.to_score()) == Some(reference.value) => {}
            Ok(probe) => {
                return (
                    cases,
                    Some(format!(
                        "retrograde at {g}: {:?}, negamax {}",
                        probe.value, reference.value
                    )),
                );
            }
            Err(e) => return (cases, Some(format!("retrograde: {e}"))),
        }
    }
    (cases, None)
}

/// Compares perft from `spec`'s start position with published counts.
fn perft_rows<S: Spec>(spec: &S, fen: &str, counts: &[u64]) -> CheckResult {
    let mut g = match spec.position(fen) {
        Ok(g) => g,
        Err(e) => return (0, Some(e.to_string())),
    };
    for (i, &want) in counts.iter().enumerate() {
        let depth = i as u32 + 1;
        let generic = gametree_game::perft(&mut g, depth);
        let fast = g.fast_perft(depth);
        if generic != want || fast != want {
            return (
                depth.into(),
                Some(format!(
                    "{fen:?} depth {depth}: generic {generic}, fast {fast}, published {want}"
                )),
            );
        }
    }
    (counts.len() as u64, None)
}

fn perft_tictactoe() -> CheckResult {
    // Leaves at each depth: 255,168 games in all; 127,872 reach ply 9.
    perft_rows(
        &TicTacToeSpec,
        "",
        &[9, 72, 504, 3024, 15120, 54720, 148_176, 200_448, 127_872],
    )
}

fn perft_chess() -> CheckResult {
    // Chess Programming Wiki, "Perft Results": initial position and Kiwipete.
    let (a, fa) = perft_rows(&ChessSpec, "startpos", &[20, 400, 8902, 197_281]);
    let (b, fb) = perft_rows(
        &ChessSpec,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2039, 97_862],
    );
    (a + b, fa.or(fb))
}

fn perft_ataxx() -> CheckResult {
    match gametree_games_ataxx::verify_published(2_000_000) {
        Ok(n) => (n as u64, None),
        Err(e) => (0, Some(e.to_string())),
    }
}

fn perft_connect4() -> CheckResult {
    let mut cases = 0;
    for size in ["7x6", "4x4", "5x4"] {
        let size = size.parse().expect("valid size");
        match gametree_games_connect4::verify_perft(size, 7) {
            Ok(rows) => cases += rows.len() as u64,
            Err(e) => return (cases, Some(e.to_string())),
        }
    }
    match gametree_games_connect4::verify_position_counts(8) {
        Ok(rows) => (cases + rows.len() as u64, None),
        Err(e) => (cases, Some(e.to_string())),
    }
}

/// The Connect Four database of one board over the mirror-reduced
/// `BoardIndex`: both retrograde methods agree index by index, the
/// un-move generator is the exact inverse of move generation, every value
/// follows from its successors' (`gametree_retrograde::verify::database`); the
/// empty board is a draw (4×4 and 5×4: Tromp); and the values of `sample`
/// positions (every one when `None`) equal the alpha-beta solver's exact
/// solve. Cases: positions checked against the solver.
fn connect4_database(w: usize, h: usize, sample: Option<u64>) -> CheckResult {
    use gametree_game::IndexSpace;
    use gametree_retrograde::{NoExits, Value};
    let Ok(size) = gametree_games_connect4::Size::new(w, h) else {
        return (0, Some(format!("{w}x{h}: not a board size")));
    };
    let space = match gametree_games_connect4::BoardIndex::symmetric(size) {
        Ok(s) => s,
        Err(e) => return (0, Some(e.to_string())),
    };
    let table = match gametree_retrograde::verify::database(&space, &NoExits) {
        Ok((table, report)) if report.counts.positions() == space.positions() => table,
        Ok((_, report)) => {
            return (
                0,
                Some(format!(
                    "{} positions valued, {} in the space",
                    report.counts.positions(),
                    space.positions()
                )),
            );
        }
        Err(e) => return (0, Some(e.to_string())),
    };
    let empty = gametree_games_connect4::Board::new(size);
    let at_empty = space.index_of(&empty).and_then(|i| table.get(i));
    if at_empty != Some(Value::Draw) {
        return (
            0,
            Some(format!("{size} empty board: {at_empty:?}, a draw expected")),
        );
    }
    let mut ab = match AlphaBeta::<gametree_games_connect4::Board>::new(Config::default()) {
        Ok(s) => s,
        Err(e) => return (0, Some(e.to_string())),
    };
    // Every valid index, or `sample` of them drawn uniformly (seeded).
    let valid: Vec<u64> = (0..space.size()).filter(|&i| space.is_valid(i)).collect();
    let picked: Vec<u64> = match sample {
        None => valid,
        Some(n) => choices(0x5eed)
            .take(n as usize)
            .map(|r| valid[(r % valid.len() as u64) as usize])
            .collect(),
    };
    let mut cases = 0;
    for i in picked {
        let Some(mut b) = space.position(i) else {
            return (cases, Some(format!("index {i}: no position")));
        };
        let solved = ab.solve(&mut b, &Limits::none());
        let expected = Value::from_score(solved.value);
        cases += 1;
        if !solved.completed || table.get(i) != expected {
            return (
                cases,
                Some(format!(
                    "{size} {b}: database {:?}, alpha-beta {}",
                    table.get(i),
                    solved.value
                )),
            );
        }
    }
    (cases, None)
}

fn connect4_4x4_database() -> CheckResult {
    connect4_database(4, 4, None)
}

/// The 5×4 row (`--full`): a minute or two on this machine.
fn connect4_5x4_database() -> CheckResult {
    connect4_database(5, 4, Some(200))
}

/// A deterministic stream of choices (xorshift64*).
fn choices(seed: u64) -> impl Iterator<Item = u64> {
    let mut x = seed | 1;
    std::iter::repeat_with(move || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    })
}

fn playouts<S: Spec>(spec: &S, games: u64, plies: usize) -> CheckResult
where
    S::G: Eq + Debug,
{
    let start = spec.start();
    for seed in 0..games {
        if let Err(e) = gametree_game::check::playout(&start, &mut choices(seed + 1), plies) {
            return (seed + 1, Some(format!("seed {}: {e}", seed + 1)));
        }
    }
    (games, None)
}

fn oracles() -> CheckResult {
    let mut cases = 0;
    let runs: [fn() -> CheckResult; 5] = [
        || playouts(&TicTacToeSpec, 50, 9),
        || {
            playouts(
                &Connect4Spec(gametree_games_connect4::Size::STANDARD),
                50,
                42,
            )
        },
        || playouts(&MnkSpec(7, 7, 4), 20, 49),
        || playouts(&AtaxxSpec, 10, 100),
        || playouts(&ChessSpec, 10, 150),
    ];
    for run in runs {
        let (n, f) = run();
        cases += n;
        if f.is_some() {
            return (cases, f);
        }
    }
    (cases, None)
}
