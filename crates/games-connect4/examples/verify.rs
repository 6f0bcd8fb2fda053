//! Runs the heavy checks `cargo xtask verify` runs for Connect Four and
//! prints their timings:
//! `cargo run --release -p gametree-games-connect4 --example verify [PERFT_DEPTH] [POSITIONS_PLY]`.

use std::time::Instant;

use gametree_games_connect4::{Size, verify_perft, verify_position_counts};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().map_or(Ok(10), |a| a.parse())?;
    let plies: u32 = args.next().map_or(Ok(11), |a| a.parse())?;
    let t = Instant::now();
    for row in verify_perft(Size::STANDARD, depth)? {
        println!(
            "7x6 perft({}) = {} (generic = bitboard)",
            row.depth, row.nodes
        );
    }
    println!("perft 1..={depth}: {:.2?}", t.elapsed());
    let t = Instant::now();
    let counts = verify_position_counts(plies)?;
    println!(
        "7x6 distinct positions after 0..={plies} plies match OEIS A212693: {counts:?} ({:.2?})",
        t.elapsed()
    );
    Ok(())
}
