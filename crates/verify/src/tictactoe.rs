//! Tic-tac-toe rows: alpha-beta equals negamax from every reachable
//! position at every depth, solvers agree, the published counts, oracles.

use gametree_alphabeta::{AlphaBeta, Config, alpha_beta, alpha_beta_solve, negamax_solve};
use gametree_game::{Find, Game, Limits, Player, perft};
use gametree_games_tictactoe::TicTacToe;

use super::common::{
    equals_negamax, oracle_playouts, reachable, score_text, searcher_rows, solve_for, solvers_agree,
};
use super::data::TicTacToeFigures;
use super::{Check, Family, Tally};

/// The alpha-beta solver with all of tic-tac-toe's knowledge.
fn solver() -> AlphaBeta<TicTacToe> {
    AlphaBeta::<TicTacToe>::new(Config::default().memory(1 << 20)).expect("1 MiB table")
}

/// The corpus's tic-tac-toe figures, or a row that says why not.
fn published() -> Result<&'static TicTacToeFigures, Tally> {
    crate::data::tictactoe().map_err(|e| {
        let mut t = Tally::default();
        t.compare("tictactoe.toml", None, "figures".to_string(), e.to_string());
        t
    })
}

pub(crate) fn checks() -> Vec<Check> {
    let mut rows = vec![
        Check::new(
            "tictactoe",
            Family::Equivalence,
            "alpha-beta (plain, fail-hard)",
            |_| {
                let (all, _) = reachable(&TicTacToe::new());
                let positions: Vec<_> = all.into_iter().filter(|p| p.outcome().is_none()).collect();
                let depths: Vec<u32> = (1..=9).collect();
                equals_negamax(&positions, &depths, alpha_beta)
            },
        ),
        Check::new(
            "tictactoe",
            Family::Solvers,
            "alpha-beta solve = negamax solve",
            |_| {
                let (all, _) = reachable(&TicTacToe::new());
                solvers_agree(
                    &all,
                    |g| negamax_solve(g).value,
                    |g| alpha_beta_solve(g).value,
                )
            },
        ),
        Check::new(
            "tictactoe",
            Family::Published,
            "positions 5,478 / per ply / terminal 958",
            |_| {
                let published = match published() {
                    Ok(p) => p,
                    Err(t) => return t,
                };
                let (all, by_ply) = reachable(&TicTacToe::new());
                let mut t = Tally::default();
                t.compare(
                    "reachable",
                    None,
                    published.reachable_positions,
                    all.len() as u64,
                );
                t.compare(
                    "per ply",
                    None,
                    format!("{:?}", published.reachable_by_marks),
                    format!("{by_ply:?}"),
                );
                let terminal = all.iter().filter(|p| p.outcome().is_some()).count();
                t.compare(
                    "terminal",
                    None,
                    published.terminal_positions,
                    terminal as u64,
                );
                t
            },
        ),
        Check::new(
            "tictactoe",
            Family::Published,
            "765 / 138 (91+44+3) up to symmetry",
            |_| {
                let published = match published() {
                    Ok(p) => p,
                    Err(t) => return t,
                };
                let (all, _) = reachable(&TicTacToe::new());
                let mut classes = std::collections::HashSet::new();
                let mut terminal = std::collections::HashMap::new();
                for p in &all {
                    let c = p.canonical();
                    classes.insert(c.hash());
                    if let Some(o) = p.outcome() {
                        let winner = match o {
                            gametree_game::Outcome::Draw => "draw",
                            _ if p.side_to_move() == Player::First => "O",
                            _ => "X",
                        };
                        terminal.insert(c.hash(), winner);
                    }
                }
                let count = |w: &str| terminal.values().filter(|&&v| v == w).count();
                let mut t = Tally::default();
                let split = published.terminal_up_to_symmetry;
                t.compare(
                    "classes",
                    None,
                    published.positions_up_to_symmetry,
                    classes.len() as u64,
                );
                t.compare(
                    "terminal classes",
                    None,
                    split.total(),
                    terminal.len() as u64,
                );
                t.compare(
                    "X / O / draw",
                    None,
                    format!("{}/{}/{}", split.x_wins, split.o_wins, split.draws),
                    format!("{}/{}/{}", count("X"), count("O"), count("draw")),
                );
                t
            },
        ),
        Check::new(
            "tictactoe",
            Family::Published,
            "255,168 games, empty board draw",
            |_| {
                let published = match published() {
                    Ok(p) => p,
                    Err(t) => return t,
                };
                fn games(g: &mut TicTacToe) -> u64 {
                    if g.outcome().is_some() {
                        return 1;
                    }
                    let mut moves = <TicTacToe as Game>::Moves::default();
                    g.generate(&mut moves);
                    moves
                        .iter()
                        .map(|&m| {
                            g.make(m);
                            let n = games(g);
                            g.unmake(m, ());
                            n
                        })
                        .sum()
                }
                let mut t = Tally::default();
                t.compare(
                    "games",
                    None,
                    published.games.total(),
                    games(&mut TicTacToe::new()),
                );
                t.compare(
                    "perft 9",
                    None,
                    published.full_board_games,
                    perft(&mut TicTacToe::new(), 9),
                );
                t.compare(
                    "empty board",
                    None,
                    published.empty_board.to_string(),
                    alpha_beta_solve(&mut TicTacToe::new())
                        .value
                        .outcome()
                        .map_or("unknown".to_string(), |o| o.to_string()),
                );
                t
            },
        ),
        Check::new(
            "tictactoe",
            Family::Oracles,
            "make/unmake, hash, legality on playouts",
            |ctx| oracle_playouts(&TicTacToe::new(), ctx.seed, ctx.pick(2_000, 20_000), 9),
        ),
    ];
    rows.extend(searcher_rows(
        "tictactoe",
        |ctx| {
            let (all, _) = reachable(&TicTacToe::new());
            let live = all.into_iter().filter(|p| p.outcome().is_none());
            // quick: every third position; full: all 4,520
            live.step_by(if ctx.quick { 3 } else { 1 }).collect()
        },
        |_, _| 1..=9,
        |s| s,
    ));
    rows.push(Check::new(
        "tictactoe",
        Family::Oracles,
        "Forcing = 2-ply brute force, every position",
        |_| {
            let (all, _) = reachable(&TicTacToe::new());
            let mut t = Tally::default();
            for p in &all {
                let got = gametree_game::check::forcing(p)
                    .map_or_else(|e| e.to_string(), |()| "consistent".into());
                t.compare(p, None, "consistent".to_string(), got);
            }
            t
        },
    ));
    rows.push(Check::new(
        "tictactoe",
        Family::Solvers,
        "AlphaBeta solve (normal TT) = negamax solve",
        |_| {
            let (all, _) = reachable(&TicTacToe::new());
            let mut s = solver();
            solvers_agree(
                &all,
                |g| negamax_solve(g).value.to_string(),
                |g| score_text(solve_for(&mut s, g, &Limits::none(), Find::Score).score),
            )
        },
    ));
    rows.push(Check::new(
        "tictactoe",
        Family::Solvers,
        "AlphaBeta weak solve = negamax outcome",
        |_| {
            let (all, _) = reachable(&TicTacToe::new());
            let mut s = solver();
            solvers_agree(
                &all,
                |g| format!("{:?}", negamax_solve(g).value.outcome()),
                |g| {
                    let weak = solve_for(&mut s, g, &Limits::none(), Find::Outcome);
                    format!("{:?}", weak.outcome)
                },
            )
        },
    ));
    rows
}
