//! Every solver of the workspace on the shared test data: each case of
//! `tests/data/*.toml` must get its stated value from every solver.
//! Failures are collected and reported together at the end.

use std::path::PathBuf;

use gametree_game::Score;
use gametree_games_tictactoe::TicTacToe;
use serde::Deserialize;

#[derive(Deserialize)]
struct File {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    position: String,
    value: String,
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// `draw`, `win in N` or `loss in N`.
fn parse_value(text: &str) -> Score {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["draw"] => Score::DRAW,
        ["win", "in", n] => Score::win_in(n.parse().expect("plies")),
        ["loss", "in", n] => Score::loss_in(n.parse().expect("plies")),
        _ => panic!("bad value {text:?} in test data"),
    }
}

type Solver = (&'static str, fn(&mut TicTacToe) -> Score);

#[test]
fn tictactoe_cases() {
    let text = std::fs::read_to_string(data("tictactoe.toml")).unwrap();
    let file: File = toml::from_str(&text).unwrap();
    assert!(file.case.len() >= 5);
    let solvers: [Solver; 2] = [
        ("negamax", |g| gametree_alphabeta::negamax_solve(g).value),
        ("alpha-beta", |g| {
            gametree_alphabeta::alpha_beta_solve(g).value
        }),
    ];
    let mut failures = Vec::new();
    for case in &file.case {
        let position: TicTacToe = case.position.parse().unwrap_or_else(|e| {
            panic!(
                "case {:?}: bad position {:?}: {e}",
                case.name, case.position
            )
        });
        let expected = parse_value(&case.value);
        for (name, solve) in solvers {
            let got = solve(&mut position.clone());
            if got != expected {
                failures.push(format!(
                    "{name} on {:?} ({}): expected {expected}, got {got}",
                    case.name, case.position
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
