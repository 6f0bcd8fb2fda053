//! Alpha-beta, PN² and df-pn with and without threat-space search on small
//! m,n,k-games: the value (win/draw/loss), nodes (alpha-beta) or expansions
//! (PN², df-pn) and time of each, one thread, a 64 MiB table or a 4 GiB
//! tree bound, at most 30 s each. Prints the README's table.
//!
//! ```text
//! cargo run --release -p gametree-pns-conspiracy --example threats
//! ```

mod support;
use gametree_game::Use;
use gametree_pns_conspiracy::ProofConfig;
use support::group;

use std::time::{Duration, Instant};

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::{Limits, Outcome, Request, Solver};
use gametree_games_mnk::Mnk;
use gametree_pns_conspiracy::{DfPn, DfPnConfig, Pns, PnsConfig, SecondLevel};

const GAMES: [(u8, u8, u8); 10] = [
    (4, 4, 3),
    (5, 4, 4),
    (5, 5, 4),
    (6, 4, 4),
    (6, 5, 4),
    (6, 6, 4),
    (6, 6, 5),
    (7, 4, 4),
    (7, 6, 4),
    (7, 7, 4),
];

const CAP: Duration = Duration::from_secs(30);

/// One weak solve: the outcome (if solved in time), nodes and seconds.
fn run(solver: &str, threats: bool, g: &mut Mnk) -> (Option<Outcome>, u64, f64) {
    let limits = Limits::none().with_time(CAP);
    let start = Instant::now();
    let (outcome, nodes) = match solver {
        "alpha-beta" => {
            let config = Config::default()
                .memory(64 << 20)
                .threats(Use::from(threats));
            let mut s = AlphaBeta::<Mnk>::new(config).expect("table");
            let mut weak = gametree_game::Request::new(&limits).find(gametree_game::Find::Outcome);
            let r = gametree_game::Solver::solve(&mut s, g, &mut weak);
            (r.outcome, r.stats.nodes)
        }
        "PN²" => {
            let config = PnsConfig::new()
                .second_level(Some(SecondLevel::default()))
                .proof(
                    ProofConfig::new()
                        .memory(4 << 30)
                        .threats(Use::from(threats)),
                );
            let r = Pns::new(config)
                .expect("config")
                .solve(g, &mut Request::new(&limits));
            (r.outcome, r.stats.nodes)
        }
        _ => {
            let config = DfPnConfig::new().proof(
                ProofConfig::new()
                    .memory(64 << 20)
                    .threats(Use::from(threats)),
            );
            let r = DfPn::new(config)
                .expect("table")
                .solve(g, &mut Request::new(&limits));
            (r.outcome, r.stats.nodes)
        }
    };
    (outcome, nodes, start.elapsed().as_secs_f64())
}

fn main() {
    println!("| game | value | solver | nodes, threats on | time | nodes, threats off | time |");
    println!("|---|---|---|---:|---:|---:|---:|");
    for (m, n, k) in GAMES {
        for solver in ["alpha-beta", "PN²", "df-pn"] {
            let mut value = None;
            let mut cells = String::new();
            for threats in [true, false] {
                let mut g = Mnk::new(m, n, k).expect("a size");
                let (outcome, nodes, time) = run(solver, threats, &mut g);
                match outcome {
                    Some(o) => {
                        if let Some(v) = value {
                            assert_eq!(v, o, "{m},{n},{k} {solver}: values differ");
                        }
                        value = Some(o);
                        cells += &format!(" {} | {time:.2} s |", group(nodes));
                    }
                    None => cells += &format!(" > {} | > {} s |", group(nodes), CAP.as_secs()),
                }
            }
            let value = value.map_or_else(|| "unknown".to_string(), |o| o.to_string());
            println!("| {m},{n},{k} | {value} | {solver} |{cells}");
        }
    }
}
