//! Solves Connect Four on a small board by retrograde analysis over every
//! reachable position (mirror images merged).
//!
//! ```text
//! cargo run --release -p gametree-retrograde --example connect4 -- 5x4 [backward|forward]
//! ```

use std::time::Instant;

use gametree_games_connect4::{Board, Size};
use gametree_retrograde::{Generator, Method, Reachable};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size: Size = args.first().map_or("4x4", String::as_str).parse()?;
    let method = match args.get(1).map(String::as_str) {
        Some("forward") => Method::ForwardSweeps,
        _ => Method::Backward,
    };
    let start = Instant::now();
    let space = Reachable::new(Board::new(size), Board::symmetric_key)?;
    println!(
        "{size:?}: {} positions up to mirror symmetry, {} moves between them, enumerated in {:.2} s",
        space.positions(),
        space.edges(),
        start.elapsed().as_secs_f64()
    );
    let generator = Generator::new(&space);
    println!("memory for the values: {}", generator.memory(method));
    let start = Instant::now();
    let table = generator.build(method)?;
    println!("{method}: {:.2} s", start.elapsed().as_secs_f64());
    println!("empty board: {:?}", table.get(0));
    println!("{}", table.counts());
    Ok(())
}
