//! Proves the values of small m,n,k-games and prints the README's table:
//! the value (alpha-beta's weak solve, the strongest solver here for these
//! games), the proof tree written with it as oracle and checked by the
//! independent verifier, and the published value with its source from the
//! corpus (`gametree_data::mnk`).
//!
//! ```text
//! cargo run --release -p gametree-pns-conspiracy --example mnk_proofs
//! ```

mod support;
use support::group;

use std::time::Instant;

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::{Limits, Outcome, Player};
use gametree_games_mnk::Mnk;
use gametree_pns_conspiracy::{Claim, Trust, build_strategy, verify_with};

/// The boards, smallest first: the 4-in-a-row boards around the smallest
/// first-player win, 5 in a row on 5 × 5 and 6 × 6, and 4 in a row on
/// 7 × 4 and 7 × 6.
const GAMES: [(u8, u8, u8); 12] = [
    (3, 3, 3),
    (4, 4, 3),
    (4, 4, 4),
    (5, 4, 4),
    (5, 5, 4),
    (5, 5, 5),
    (6, 4, 4),
    (6, 5, 4),
    (6, 6, 4),
    (6, 6, 5),
    (7, 4, 4),
    (7, 6, 4),
];

fn main() {
    let corpus = gametree_data::mnk().expect("the corpus parses");
    println!(
        "| game | value | solver nodes | solve time | proof positions | of which win-bound leaves | proof time | published value (source) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---|");
    for (m, n, k) in GAMES {
        let mut g = Mnk::new(m, n, k).expect("a size");
        let mut ab = AlphaBeta::<Mnk>::new(Config::default().memory(64 << 20)).expect("table");
        let start = Instant::now();
        let none = Limits::none();
        let weak = || gametree_game::Request::new(&none).find(gametree_game::Find::Outcome);
        let report = gametree_game::Solver::solve(&mut ab, &mut g, &mut weak());
        let solve_time = start.elapsed();
        let value = report.outcome.expect("solved without limits");
        let claims: Vec<Claim> = match value {
            Outcome::Win => vec![Claim {
                prover: Player::First,
                at_least: Outcome::Win,
            }],
            Outcome::Loss => vec![Claim {
                prover: Player::Second,
                at_least: Outcome::Win,
            }],
            Outcome::Draw => [Player::First, Player::Second]
                .map(|prover| Claim {
                    prover,
                    at_least: Outcome::Draw,
                })
                .to_vec(),
        };
        let start = Instant::now();
        let (mut positions, mut bound) = (0, 0);
        for claim in claims {
            let mut oracle =
                |p: &mut Mnk| gametree_game::Solver::solve(&mut ab, p, &mut weak()).outcome;
            let s = build_strategy(&mut g, claim, Trust::WinBounds, usize::MAX, &mut oracle)
                .unwrap_or_else(|e| panic!("{m},{n},{k} {claim}: {e}"));
            let stats = verify_with(&mut g, &s, Trust::WinBounds)
                .unwrap_or_else(|e| panic!("{m},{n},{k} {claim}: {e}"));
            positions += s.len();
            bound += stats.bound_leaves;
        }
        let proof_time = start.elapsed();
        let published = corpus
            .iter()
            .find(|v| (v.m, v.n, v.k) == (m, n, k))
            .map_or_else(
                || "not in the corpus".to_string(),
                |v| {
                    let agree = if v.value == value {
                        ""
                    } else {
                        " **DISAGREES**"
                    };
                    format!("{}{agree} ({})", v.value, v.source)
                },
            );
        println!(
            "| {m},{n},{k} | {} | {} | {:.2} s | {} | {} | {:.2} s | {published} |",
            value_name(value),
            group(report.stats.nodes),
            solve_time.as_secs_f64(),
            group(positions as u64),
            group(bound),
            proof_time.as_secs_f64(),
        );
    }
}

fn value_name(v: Outcome) -> &'static str {
    match v {
        Outcome::Win => "first player wins",
        Outcome::Draw => "draw",
        Outcome::Loss => "second player wins",
    }
}
