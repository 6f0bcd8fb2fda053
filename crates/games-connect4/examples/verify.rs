//! Runs the heavy checks `cargo xtask verify` runs for Connect Four and
//! prints their timings:
//! `cargo run --release -p gametree-games-connect4 --example verify [PERFT_DEPTH] [POSITIONS_PLY]`.

use std::time::Instant;

use gametree_games_connect4::{Size, count_positions, verify_perft};

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
    let published = &gametree_data::connect4()?.positions_per_ply;
    if plies as usize >= published.len() {
        return Err(format!(
            "OEIS A212693 is tabulated up to ply {}",
            published.len() - 1
        )
        .into());
    }
    let t = Instant::now();
    let counts = count_positions(Size::STANDARD, plies);
    if counts[..] != published[..counts.len()] {
        return Err(format!(
            "7x6 distinct positions after 0..={plies} plies: counted {counts:?}, OEIS A212693 says {:?}",
            &published[..counts.len()]
        )
        .into());
    }
    println!(
        "7x6 distinct positions after 0..={plies} plies match OEIS A212693: {counts:?} ({:.2?})",
        t.elapsed()
    );
    Ok(())
}
