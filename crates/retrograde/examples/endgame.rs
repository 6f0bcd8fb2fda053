//! Builds a chess pawnless ending and prints its statistics.
//!
//! ```text
//! cargo run --release -p gametree-retrograde --example endgame -- KQvK [backward|forward] [threads]
//! ```
//!
//! Prints the memory needed (before the build), one line per level, the
//! build time, the win/draw/loss counts for each side to move (classes under
//! symmetry, as the index stores them) and the longest mate with its
//! position. Captures into smaller endings must lead to insufficient
//! material (3-man endings, KBBvK, KBNvK, KNNvK); bigger endings need a
//! resolver over the sub-tables.

use std::time::Instant;

use game::IndexSpace;
use games_chess::Endgame;
use retrograde::{Event, Generator, Label, Method};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let material = args.first().map_or("KQvK", String::as_str);
    let method = match args.get(1).map(String::as_str) {
        Some("forward") => Method::ForwardSweeps,
        _ => Method::Backward,
    };
    let threads: usize = args.get(2).map_or(Ok(0), |t| t.parse())?;
    let space = Endgame::new(material)?;
    let report = |e: &Event| match e {
        Event::Start {
            memory,
            size,
            threads,
            ..
        } => {
            println!("{size} indices, {threads} threads, memory {memory}");
        }
        Event::Level {
            level,
            decided,
            total_decided,
            valid,
        } => {
            if level % 10 == 0 || *decided == 0 {
                println!("  level {level:3}: {decided} decided, {total_decided}/{valid}");
            }
        }
        _ => {}
    };
    let mut generator = Generator::new(&space)
        .label(Label::new("chess", material, "games-chess-endgame-v1"))
        .progress(&report);
    if threads > 0 {
        generator = generator.threads(threads);
    }
    let start = Instant::now();
    let table = generator.build(method)?;
    let elapsed = start.elapsed();
    println!("{material} by {method}: {:.3} s", elapsed.as_secs_f64());
    let half = table.len() / 2;
    for (name, side) in [("white", 0), ("black", 1)] {
        let c = table.counts_where(|i| (i >= half) == (side == 1));
        println!(
            "  {name} to move: {} wins / {} draws / {} losses",
            c.wins, c.draws, c.losses
        );
        if let Some((plies, at)) = c.longest_win {
            let p = space.position(at).ok_or("invalid index")?;
            println!(
                "    longest win {plies} plies (mate in {}): {p}",
                plies.div_ceil(2)
            );
        }
    }
    Ok(())
}
