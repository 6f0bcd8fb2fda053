//! df-pn with and without threat-space search on small m,n,k-games: the
//! value, expansions and time of each (one thread, 64 MiB table, at most
//! 60 s each). Prints the README's table.
//!
//! ```text
//! cargo run --release -p gametree-pns-conspiracy --example dfpn_threats
//! ```

use std::time::{Duration, Instant};

use gametree_game::Limits;
use gametree_games_mnk::Mnk;
use gametree_pns_conspiracy::{DfPn, DfPnConfig};

const GAMES: [(u8, u8, u8); 8] = [
    (4, 4, 3),
    (5, 4, 4),
    (5, 5, 4),
    (6, 4, 4),
    (6, 5, 4),
    (6, 6, 4),
    (6, 6, 5),
    (7, 4, 4),
];

fn main() {
    println!("| game | value | expansions, threats on | time | expansions, threats off | time |");
    println!("|---|---|---:|---:|---:|---:|");
    for (m, n, k) in GAMES {
        let mut row = format!("| {m},{n},{k} |");
        let mut value = None;
        let mut cells = String::new();
        for threats in [true, false] {
            let mut g = Mnk::new(m, n, k).expect("a size");
            let mut dfpn =
                DfPn::new(DfPnConfig::new().table_bytes(64 << 20).threats(threats)).expect("table");
            let limits = Limits::none().with_time(Duration::from_secs(60));
            let start = Instant::now();
            let s = dfpn.solve(&mut g, &limits);
            let time = start.elapsed().as_secs_f64();
            match s.outcome {
                Some(o) => {
                    value.get_or_insert(o.to_string());
                    cells += &format!(" {} | {time:.2} s |", s.nodes);
                }
                None => cells += &format!(" > {} | > 60 s |", s.nodes),
            }
        }
        row += &format!(" {} |{cells}", value.unwrap_or_else(|| "unknown".into()));
        println!("{row}");
    }
}
