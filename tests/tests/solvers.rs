//! Every solver of the workspace on the solved positions of the corpus of
//! published numbers (`gametree_data`): each case must get its
//! stated value from every solver. Failures are collected and reported
//! together at the end.

use gametree_game::Score;
use gametree_games_tictactoe::TicTacToe;

type Solver = (&'static str, fn(&mut TicTacToe) -> Score);

#[test]
fn tictactoe_cases() {
    let cases = &gametree_data::tictactoe().unwrap().cases;
    assert!(cases.len() >= 5);
    let solvers: [Solver; 2] = [
        ("negamax", |g| gametree_alphabeta::negamax_solve(g).value),
        ("alpha-beta", |g| {
            gametree_alphabeta::alpha_beta_solve(g).value
        }),
    ];
    let mut failures = Vec::new();
    for case in cases {
        let position: TicTacToe = case.position.parse().unwrap_or_else(|e| {
            panic!(
                "case {:?}: bad position {:?}: {e}",
                case.name, case.position
            )
        });
        let expected = case.value;
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
